"""An evening's end on the phones: a club's event whose last round ends with its tables'
last hands, entered on the tables' phones and nothing more — closed, counted for the club
and its season at once, the organiser's screen saying so without contradicting itself — and
a club's Mitigatti evening ended by its scorekeeper on the sheet (asked first, its final
settlement shown, taken back while no hand follows, said with no network and sent when it is
back), then counted for the club."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from page_driver import Table, call
from playwright.sync_api import expect
from test_web_accessibility import violations

SIX = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]


def club(base: str) -> dict[str, Any]:
    found: dict[str, Any] = call(base, "POST", "/clubs", body={"name": "Circolo del Tarocco"})
    call(base, "POST", f"/clubs/{found['id']}/seasons", found["tokens"]["edit"],
         {"name": "Autunno", "from": "2026-01-01", "to": "2099-12-31"})
    return found


def club_results(base: str, found: dict[str, Any]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = call(base, "GET", f"/clubs/{found['id']}.json",
                                      found["tokens"]["read"])["results"]
    return rows


def season_standings(base: str, found: dict[str, Any]) -> dict[str, Any]:
    read = found["tokens"]["read"]
    season = call(base, "GET", f"/clubs/{found['id']}/seasons", read)["seasons"][0]["id"]
    standings: dict[str, Any] = call(
        base, "GET", f"/clubs/{found['id']}/seasons/{season}/standings", read)
    return standings


def hand_by_points(table: Table, first: int, second: int) -> None:
    table.new_hand()
    table.points(0, first)
    table.page.keyboard.type(str(second))
    table.save_and_wait()


def test_an_events_last_round_counts_for_the_club_with_only_the_tables_hands(
        phones: Any) -> None:
    organiser = phones()
    page, base = organiser.page, organiser.base
    found = club(base)
    event = call(base, "POST", "/events", body={
        "name": "Giovedì", "variant": "gatti-3", "format": "individual", "rounds": 1,
        "seed": 7, "club": found["id"], "entrants": [{"name": n} for n in SIX]},
        headers={"Club-Authorization": f"Bearer {found['tokens']['edit']}"})
    page.goto(f"{base}/#/events/{event['id']}?token={event['tokens']['edit']}")
    page.click("#start-round")
    expect(page.locator(".table-card")).to_have_count(2)
    # Before any hand nobody is first: the roster stands in the standings' place.
    expect(page.locator("#top-waiting")).to_have_text(
        "The standings appear with the round's first hand.")
    expect(page.locator("#top-table td.place")).to_have_text(["–"] * 5)
    links = call(base, "GET", f"/events/{event['id']}/rounds/1",
                 event["tokens"]["edit"])["tables"]

    # Each table's scorekeeper enters its hands on the table's own phone.
    tables = []
    for link in links:
        phone = phones()
        phone.page.goto(link["links"]["edit"])
        phone.page.wait_for_selector("#new-hand")
        tables.append(Table(phone.page, base))
    for first, second in ((40, 20), (30, 28), (26, 26)):
        hand_by_points(tables[0], first, second)
    expect(page.locator("#table-1 .table-state")).to_have_text("finished")
    expect(page.locator("#event-status")).to_have_text("Round 1 of 1 being played")
    expect(page.locator("#round .round-state")).to_have_text("open")
    expect(page.locator("#close-round")).to_be_visible()
    assert club_results(base, found) == []
    for first, second in ((35, 25), (44, 10)):
        hand_by_points(tables[1], first, second)
    expect(page.locator("#provisional")).to_contain_text("Provisional")
    hand_by_points(tables[1], 20, 20)

    # The last hand ended the round: the organiser's screen says so, all of it.
    expect(page.locator("#event-status")).to_have_text("Over")
    expect(page.locator("#event-over")).to_have_text("The event is over: 1 round played.")
    expect(page.locator("#round .round-state")).to_have_text("closed")
    expect(page.locator("#round-closed")).to_have_text(
        re.compile(r"^Ended by itself when its last table finished \(.*\d\)\.$"))
    expect(page.locator("#close-round")).to_have_count(0)
    expect(page.locator("#provisional")).to_have_text("After round 1")
    expect(page.locator("#top-waiting")).to_have_count(0)
    expect(page.locator("#top-table td.place").first).to_have_text("1")
    assert violations(page) == []
    expect(tables[1].page.locator("#new-hand")).to_have_count(0)
    # Counted for the club and its season, with nothing more done.
    rows = club_results(base, found)
    assert {(r["event"], r["round"]) for r in rows} == {(event["id"], 1)}
    assert {r["game"] for r in rows} == {link["game"] for link in links} and len(rows) == 6
    season = season_standings(base, found)
    assert [e["event"] for e in season["evenings"]] == [event["id"]]
    assert {r["entrant"] for r in season["rows"]} == set(SIX)
    state = call(base, "GET", f"/events/{event['id']}", event["tokens"]["read"])
    assert state["rounds"][0]["closed_at"] is not None


def test_a_clubs_mitigatti_evening_is_ended_on_the_phone_and_counts(phones: Any) -> None:
    phone = phones()
    page, base = phone.page, phone.base
    found = club(base)
    game = call(base, "POST", "/games", body={
        "variant": "mitigatti-3", "players": ["Anna", "Bruno", "Carla"], "club": found["id"]},
        headers={"Club-Authorization": f"Bearer {found['tokens']['edit']}"})
    page.goto(f"{base}/#/games/{game['id']}?token={game['tokens']['edit']}")
    page.wait_for_selector("#new-hand")
    table = Table(page, base)
    expect(page.locator("#end-evening")).to_have_count(0)  # no hand yet: nothing to end
    hand_by_points(table, 40, 20)
    hand_by_points(table, 10, 50)

    # Asked first; "cancel" leaves the evening going.
    page.click("#end-evening")
    expect(page.locator("#end-text")).to_contain_text("final settlement")
    expect(page.locator("#end-yes")).to_be_focused()
    assert violations(page) == []
    page.click("#end-no")
    expect(page.locator("#end-evening")).to_be_focused()
    expect(page.locator("#new-hand")).to_be_visible()

    # Said with no network: it waits on the phone, and goes when the network is back.
    phone.context.set_offline(True)
    try:
        page.click("#end-evening")
        page.click("#end-yes")
        expect(page.locator(".sheet-head .status")).to_have_text(
            "Evening over: it goes to the service as soon as the network is back")
        expect(page.locator("#outbox")).to_contain_text("The evening's end, waiting to be sent")
        expect(page.locator("#new-hand")).to_have_count(0)
        # Taken back before it left the phone: it is dropped there; then said again.
        page.click("#reopen-evening")
        expect(page.locator("#outbox")).to_have_count(0)
        expect(page.locator("#new-hand")).to_be_visible()
        page.click("#end-evening")
        page.click("#end-yes")
        expect(page.locator("#outbox .outbox-item")).to_have_count(1)
        expect(page.locator("#reopen-evening")).to_be_visible()
        assert call(base, "GET", f"/games/{game['id']}", game["tokens"]["read"])["status"] == \
            "in_progress"
    finally:
        phone.context.set_offline(False)
    expect(page.locator("#outbox")).to_have_count(0)
    expect(page.locator(".sheet-head .status")).to_have_text("Evening over")
    expect(page.locator("#transfers-title")).to_have_text("The final settlement: who pays whom")
    expect(page.locator(".winner")).to_be_visible()
    assert violations(page) == []
    stored = call(base, "GET", f"/games/{game['id']}", game["tokens"]["read"])
    assert (stored["status"], stored["ended_by"]) == ("finished", "evening_over")
    names = [c["label"] for c in stored["columns"] if c["key"] in stored["winners"]]
    expect(page.locator(".winner")).to_contain_text(names[0])
    for transfer in stored["transfers"]:
        expect(page.locator(".transfers")).to_contain_text(transfer["text"])
    rows = club_results(base, found)
    assert {r["game"] for r in rows} == {game["id"]} and len(rows) == 3
    assert {r["entrant"] for r in season_standings(base, found)["rows"]} == {
        "Anna", "Bruno", "Carla"}

    # Taken back while no hand follows: the evening goes on, and counts nowhere meanwhile.
    page.click("#reopen-evening")
    expect(page.locator("#new-hand")).to_be_visible()
    expect(page.locator("#end-evening")).to_be_visible()
    expect(page.locator("#transfers-title")).to_have_text("To settle up")
    expect(page.locator(".winner")).to_have_count(0)
    assert club_results(base, found) == []
    hand_by_points(table, 30, 30)
    page.click("#end-evening")
    page.click("#end-yes")
    expect(page.locator(".sheet-head .status")).to_have_text("Evening over")
    assert len(club_results(base, found)) == 3


def test_the_organisers_screen_of_a_duplicate_round_closed_before_its_boards(
        phones: Any) -> None:
    organiser = phones()
    page, base = organiser.page, organiser.base
    event = call(base, "POST", "/events", body={
        "name": "Duplicato", "variant": "gatti-3", "format": "individual", "seed": 3,
        "deals": "duplicate", "entrants": [{"name": n} for n in SIX]})
    call(base, "POST", f"/events/{event['id']}/rounds", event["tokens"]["edit"], {})
    page.goto(f"{base}/#/events/{event['id']}?token={event['tokens']['edit']}")
    # Nobody is first at 0 % before a board is played everywhere.
    expect(page.locator("#top-waiting")).to_have_text(
        "The standings appear once a board has been played at every table due to play it.")
    expect(page.locator("#top-table td.place")).to_have_text(["–"] * 5)
    expect(page.locator("#top-table td.pct")).to_have_text(["–"] * 5)
    page.click("#close-round")
    page.click("#close-yes")
    expect(page.locator("#round .round-state")).to_have_text("closed")
    expect(page.locator("#round-closed")).to_have_text(
        re.compile(r"^Closed by the organiser \(.*\d\)\.$"))
    for n in (1, 2):
        expect(page.locator(f"#table-{n} .table-state")).to_have_text("closed")
        expect(page.locator(f"#owed-{n}")).to_have_text("Round closed with 0 of 3 boards played")


COUNTING = ["T1", "T21", "FOOL", *(f"{rank}{suit}" for rank in "KQCJ" for suit in "HDCS")]


def left_open(url: str) -> dict[str, Any]:
    """A one-round event of three whose table has finished, stored as earlier versions of the
    service left it: the round open (it ended only when the organiser closed it). Written
    in this process, by an app whose tables' last hands do not end their round."""
    from service.http.app import create_app

    app = create_app({"DATABASE_URL": url, "TESTING": True, "RATE_LIMIT_PER_MINUTE": 0,
                      "AUTH_FAILURES_PER_MINUTE": 0})
    app.extensions["segnapunti.games"].rounds = None
    client = app.test_client()
    try:
        event: dict[str, Any] = client.post("/api/v1/events", json={
            "name": "Martedì", "variant": "gatti-3", "format": "individual", "rounds": 1,
            "entrants": [{"name": n} for n in ("Gino", "Lia", "Ugo")]}).json
        edit = {"Authorization": f"Bearer {event['tokens']['edit']}"}
        table = client.post(f"/api/v1/events/{event['id']}/rounds", json={},
                            headers=edit).json["tables"][0]
        game = f"/api/v1/games/{table['game']}"
        scorer = {"Authorization": f"Bearer {table['tokens']['edit']}"}
        for _ in range(3):
            dealer = client.get(game, headers=scorer).json["next_dealer"]
            added = client.post(f"{game}/hands", headers=scorer, json={
                "dealer": dealer, "discard": ["2H", "3H", "4S"],
                "piles": [{"side": 0, "tricks": 10, "counting": COUNTING},
                          {"side": 1, "tricks": 8, "counting": []},
                          {"side": 2, "tricks": 8, "counting": []}]})
            assert added.status_code == 201, added.json
        assert client.get(f"/api/v1/events/{event['id']}", headers=edit).json[
            "rounds"][0]["state"] == "open"
    finally:
        app.extensions["segnapunti.games"].repository.engine.dispose()
    return event


def test_a_round_an_earlier_version_left_open_is_said_ended_by_the_update(
        phones: Any, server_work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from service.__main__ import migrate

    url = f"sqlite:///{server_work / 'segnapunti.sqlite3'}"
    event = left_open(url)
    monkeypatch.setenv("DATABASE_URL", url)
    assert migrate() == 0  # what an upgrade runs before serving
    organiser = phones()
    page = organiser.page
    page.goto(f"{organiser.base}/#/events/{event['id']}?token={event['tokens']['edit']}")
    expect(page.locator("#round .round-state")).to_have_text("closed")
    expect(page.locator("#round-closed")).to_have_attribute("data-closed", "upgrade")
    expect(page.locator("#round-closed")).to_have_text(re.compile(
        r"^Ended by itself when its last table finished \(.*\d\); an earlier version of the "
        r"service had left it open, and its update closed it \(.*\d\)\.$"))
    expect(page.locator("#event-over")).to_have_text("The event is over: 1 round played.")
    # The same in the organiser's Italian.
    italian = phones(locale="it-IT").page
    italian.goto(f"{organiser.base}/#/events/{event['id']}?token={event['tokens']['edit']}")
    expect(italian.locator("#round-closed")).to_have_text(re.compile(
        r"^Chiuso da solo alla fine dell'ultimo tavolo \(.*\d\); una versione precedente del "
        r"servizio l'aveva lasciato aperto e l'aggiornamento l'ha chiuso \(.*\d\)\.$"))
