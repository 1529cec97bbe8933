"""The round's clock and the prize list of an event through the API, on SQLite and PostgreSQL:
each round says when it is up (in the event's reading and at its tables), the organiser sets
and changes the clock, a round with ``auto_close`` is found closed by whoever comes after its
moment, and the prizes are shared as the standings place the entrants, provisional until the
last round closes. The service's clock is the test's: no waiting."""

from __future__ import annotations

import datetime as dt
from io import BytesIO
from typing import Any

import pytest
from http_support import assert_problem, auth, error_fields
from pypdf import PdfReader
from test_http_events import TWELVE, Evening, points

API = "/api/v1"
START = dt.datetime(2027, 3, 4, 20, 30, tzinfo=dt.UTC)


class Clock:
    """The service's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> dt.datetime:
        return self.now

    def at(self, minutes: float) -> None:
        self.now = START + dt.timedelta(minutes=minutes)


@pytest.fixture()
def clock(client: Any, monkeypatch: pytest.MonkeyPatch) -> Clock:
    found = Clock()
    monkeypatch.setattr(client.application.extensions["segnapunti.games"], "clock", found)
    return found


def four(client: Any, **more: Any) -> Evening:
    return Evening(client, name="Giovedì", variant="gatti-4", format="individual",
                   entrants=[{"name": n} for n in TWELVE[:4]], **more)


def iso(minutes: float) -> str:
    return (START + dt.timedelta(minutes=minutes)).isoformat()


# -- the clock ------------------------------------------------------------------------------


def test_a_round_says_when_it_started_and_when_it_is_up(client: Any, clock: Clock) -> None:
    evening = four(client, round_minutes=45)
    table = evening.start()["tables"][0]
    played = evening.state()["rounds"][0]
    assert played["started_at"] == iso(0) and played["ends_at"] == iso(45)
    assert "closes_at" not in played
    assert evening.state()["round_minutes"] == 45
    game = client.get(f"{API}/games/{table['game']}", headers=auth(table["tokens"]["read"]))
    assert game.json["event"]["started_at"] == iso(0)
    assert game.json["event"]["ends_at"] == iso(45)


def test_an_event_without_a_clock_says_no_end(client: Any, clock: Clock) -> None:
    evening = four(client)
    table = evening.start()["tables"][0]
    assert "ends_at" not in evening.state()["rounds"][0]
    assert evening.state()["round_minutes"] is None
    game = client.get(f"{API}/games/{table['game']}", headers=auth(table["tokens"]["read"]))
    assert "ends_at" not in game.json["event"]


@pytest.mark.parametrize("minutes", [4, 241, "45", 30.5, True])
def test_a_round_of_too_few_or_too_many_minutes_is_refused_naming_the_field(
        client: Any, minutes: object) -> None:
    refused = client.post(f"{API}/events", json={
        "name": "Sera", "variant": "gatti-4", "format": "individual", "round_minutes": minutes,
        "grace_minutes": -1, "entrants": [{"name": n} for n in TWELVE[:4]]})
    body = assert_problem(refused, 422)
    assert error_fields(body) == {"round_minutes": "round_minutes_range",
                                  "grace_minutes": "grace_minutes_range"}
    events = client.application.extensions["segnapunti.events"].repository
    assert events.events_with_an_open_round() == []


def test_auto_close_needs_a_clock(client: Any) -> None:
    refused = client.post(f"{API}/events", json={
        "name": "Sera", "variant": "gatti-4", "format": "individual", "auto_close": True,
        "entrants": [{"name": n} for n in TWELVE[:4]]})
    assert error_fields(assert_problem(refused, 422)) == {
        "auto_close": "auto_close_without_clock"}


def test_the_organiser_changes_the_clock_and_the_round_being_played_follows(
        client: Any, clock: Clock) -> None:
    evening = four(client, round_minutes=45)
    table = evening.start()["tables"][0]
    game = f"{API}/games/{table['game']}"
    before = client.get(game, headers=auth(table["tokens"]["read"]))
    changed = client.put(f"{evening.url}/clock", json={"round_minutes": 60},
                         headers=auth(evening.edit))
    assert changed.status_code == 200, changed.json
    assert changed.json["rounds"][0]["ends_at"] == iso(60)
    assert evening.state()["rounds"][0]["ends_at"] == iso(60)
    # The table's sheet, polling with its ETag, is told the game changed, and reads the end.
    again = client.get(game, headers={**auth(table["tokens"]["read"]),
                                      "If-None-Match": before.headers["ETag"]})
    assert again.status_code == 200 and again.json["event"]["ends_at"] == iso(60)
    history = client.get(f"{evening.url}/history", headers=auth(evening.edit)).json
    assert history["actions"][-1]["action"] == "settings"


def test_the_clock_is_the_organisers_to_change_and_a_bad_one_changes_nothing(
        client: Any, clock: Clock) -> None:
    evening = four(client, round_minutes=45)
    assert_problem(client.put(f"{evening.url}/clock", json={"round_minutes": 60},
                              headers=auth(evening.read)), 403)
    refused = client.put(f"{evening.url}/clock", json={"round_minutes": 300,
                                                       "auto_close": "yes"},
                         headers=auth(evening.edit))
    assert error_fields(assert_problem(refused, 422)) == {
        "round_minutes": "round_minutes_range", "auto_close": "not_boolean"}
    assert evening.state()["round_minutes"] == 45
    assert evening.state()["version"] == 1


def test_a_round_closing_by_itself_is_found_closed_by_whoever_comes_after(
        client: Any, clock: Clock) -> None:
    evening = four(client, round_minutes=30, auto_close=True, grace_minutes=3)
    table = evening.start()["tables"][0]
    evening.record(table, points(40, 32))
    assert evening.state()["rounds"][0]["closes_at"] == iso(33)
    clock.at(32.9)
    assert evening.state()["rounds"][0]["state"] == "open"
    clock.at(50)  # nobody asked at 33 minutes
    played = evening.state()["rounds"][0]
    assert played["state"] == "closed" and played["closed_at"] == iso(33)
    assert played["tables"][0]["status"] == "closed"
    standings = evening.standings()
    assert standings["provisional"] is False
    assert {r["points"] for r in standings["rows"]} == {40, 32}  # as the table stood
    closed = client.get(f"{evening.url}/history", headers=auth(evening.edit)).json
    last = closed["actions"][-1]
    assert last["action"] == "close_round"
    assert last["data"]["automatic"] is True and last["data"]["clock"] is True
    refused = client.post(f"{API}/games/{table['game']}/hands",
                          json={"dealer": 1, **points(36, 36)},
                          headers=auth(table["tokens"]["edit"]))
    assert_problem(refused, 409, code="game_closed")


def test_a_tables_reading_reads_the_rounds_clock_once_for_each_version_of_the_event(
        client: Any, clock: Clock) -> None:
    """Every request of a table and every reading of the event checks the round's clock;
    the clock is read from the database once for each version of the event (a change of the
    clock moves it), and found closed by whoever comes after its moment all the same."""
    from sqlalchemy import event

    evening = four(client, round_minutes=30, auto_close=True, grace_minutes=3)
    table = evening.start()["tables"][0]
    game = f"{API}/games/{table['game']}"
    engine = client.application.extensions["segnapunti.games"].repository.engine
    clock_reads: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if "events.settings" in statement and "event_rounds.state" in statement:
            clock_reads.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        for _ in range(3):
            assert client.get(game, headers=auth(table["tokens"]["read"])).status_code == 200
            assert evening.state()["rounds"][0]["state"] == "open"
        assert len(clock_reads) <= 1
        changed = client.put(f"{evening.url}/clock", json={"round_minutes": 40},
                             headers=auth(evening.edit))
        assert changed.status_code == 200, changed.json
        clock_reads.clear()
        for _ in range(3):
            assert client.get(game, headers=auth(table["tokens"]["read"])).status_code == 200
        assert len(clock_reads) == 1
        clock.at(44)  # past 40 + 3 minutes: the table finds its round closed
        refused = client.post(f"{game}/hands", json={"dealer": 0, **points(40, 32)},
                              headers=auth(table["tokens"]["edit"]))
        assert_problem(refused, 409, code="game_closed")
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert evening.state()["rounds"][0]["closed_at"] == iso(43)


def test_a_round_past_its_moment_is_closed_before_the_organisers_next_change(
        client: Any, clock: Clock) -> None:
    evening = four(client, round_minutes=30, auto_close=True, rounds=2)
    evening.start()
    clock.at(40)
    # The organiser starts round 2 without closing round 1: the clock closed it already.
    second = client.post(f"{evening.url}/rounds", json={}, headers=auth(evening.edit))
    assert second.status_code == 201, second.json
    rounds = evening.state()["rounds"]
    assert rounds[0]["closed_at"] == iso(32) and rounds[1]["started_at"] == iso(40)
    assert rounds[1]["ends_at"] == iso(70)


# -- prizes ---------------------------------------------------------------------------------


def prizes(evening: Evening, token: str | None = None) -> dict[str, Any]:
    response = evening.client.get(f"{evening.url}/prizes",
                                  headers=auth(token or evening.read))
    assert response.status_code == 200, response.json
    return response.json


def test_tied_entrants_share_the_money_of_the_places_they_cover_to_the_cent(
        client: Any, clock: Clock) -> None:
    evening = four(client, rounds=1, prizes=[{"amount": "50"}, {"amount": 30},
                                             {"amount": "20.01", "label": "a salame"}])
    table = evening.start()["tables"][0]
    evening.record(table, points(40, 32))
    evening.close(1)
    found = prizes(evening)
    winners = table["seats"][0::2]
    assert found["final"] is True and found["currency"] == "EUR"
    awards = {a["entrant"]: a for a in found["awards"]}
    assert set(awards) == set(winners) | set(table["seats"][1::2])
    first, second = (awards[w] for w in winners)
    assert {first["amount"], second["amount"]} == {"40.00"}
    assert first["shared_with"] == [second["entrant"]] and first["place"] == 1
    losers = [awards[e] for e in table["seats"][1::2]]
    # 20.01 between two: one of them gets the odd cent, and says so.
    assert sorted(a["amount"] for a in losers) == ["10.00", "10.01"]
    assert sorted(a.get("odd_cents", 0) for a in losers) == [0, 1]
    assert all(a["labels"] == ["a salame"] and a["place"] == 3 for a in losers)
    assert found["unawarded_places"] == []


def test_prizes_are_provisional_until_the_last_round_closes(client: Any, clock: Clock) -> None:
    evening = four(client, rounds=2, prizes=[{"label": "a cup"}])
    assert prizes(evening)["final"] is False
    evening.start()
    evening.close(1)
    assert prizes(evening)["final"] is False
    evening.start()
    evening.close(2)
    assert prizes(evening, evening.edit)["final"] is True


def test_more_prizes_than_entrants_leave_the_extra_places_unawarded(
        client: Any, clock: Clock) -> None:
    evening = four(client, prizes=[{"amount": 10}] * 6, currency="CHF")
    found = prizes(evening)
    assert found["unawarded_places"] == [5, 6] and found["currency"] == "CHF"
    # Before any round all four share the first place, and the first four prizes.
    assert sorted(a["amount"] for a in found["awards"]) == ["10.00"] * 4


def test_bad_prizes_are_refused_naming_each_field_and_change_nothing(
        client: Any, clock: Clock) -> None:
    evening = four(client, prizes=[{"amount": 5}])
    refused = client.put(f"{evening.url}/prizes", json={
        "prizes": [{"amount": -5}, {}, {"amount": "1.234"}, {"label": " "}], "currency": "euro"},
        headers=auth(evening.edit))
    assert error_fields(assert_problem(refused, 422)) == {
        "prizes[0].amount": "negative_amount", "prizes[1]": "empty_prize",
        "prizes[2].amount": "amount_range", "prizes[3].label": "blank_label",
        "currency": "currency_code"}
    assert prizes(evening)["prizes"] == [{"amount": "5.00"}]
    assert_problem(client.put(f"{evening.url}/prizes", json={"prizes": []},
                              headers=auth(evening.read)), 403)
    created = client.post(f"{API}/events", json={
        "name": "Sera", "variant": "gatti-4", "format": "individual",
        "prizes": [{"amount": -1}], "entrants": [{"name": n} for n in TWELVE[:4]]})
    assert error_fields(assert_problem(created, 422)) == {"prizes[0].amount": "negative_amount"}


def test_the_organiser_sets_the_prizes_and_the_room_reads_them(
        client: Any, clock: Clock) -> None:
    evening = four(client)
    assert prizes(evening)["awards"] == []
    changed = client.put(f"{evening.url}/prizes", json={"prizes": [{"amount": 40}]},
                         headers=auth(evening.edit))
    assert changed.status_code == 200, changed.json
    assert prizes(evening)["prizes"] == [{"amount": "40.00"}]
    assert evening.state()["prizes"] == [{"amount": "40.00"}]


def test_the_standings_pdf_prints_the_prize_list(client: Any, clock: Clock) -> None:
    evening = four(client, rounds=1, prizes=[{"amount": "100"}, {"label": "una bottiglia"}])
    table = evening.start()["tables"][0]
    evening.record(table, points(40, 32))
    provisional = _pdf_text(client, evening, "it")
    assert "Premi (provvisori:" in provisional
    assert "50,00" in provisional and "una bottiglia" in provisional
    evening.close(1)
    final = _pdf_text(client, evening, "en")
    assert "Prizes" in final and "provisional" not in final
    assert "€50.00" in final


def _pdf_text(client: Any, evening: Evening, lang: str) -> str:
    pdf = client.get(f"{evening.url}/standings.pdf?lang={lang}", headers=auth(evening.read))
    assert pdf.status_code == 200
    return "\n".join(page.extract_text() for page in PdfReader(BytesIO(pdf.data)).pages)
