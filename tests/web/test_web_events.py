"""Club nights and tournaments in the browser: an organiser creates a twelve-player
``gatti-4`` evening on the phone page, starts a round, sees its tables with their QR codes,
swaps two players before the first hand (and is told no once a hand is in), watches a table's
totals move as its scorekeeper records hands, closes the round early and starts the next; the
public board on a wall's screen (1280 × 720) shows the standings and the round's live totals,
updates by itself, fits sixteen rows with no scrolling and speaks Italian; axe finds nothing
on the new-event form, the organiser's view or the board (light and dark)."""

from __future__ import annotations

import re
from typing import Any

from page_driver import call, new_event_form, record
from playwright.sync_api import expect
from test_web_accessibility import violations

TWELVE = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gino", "Ilaria", "Luca",
          "Marta", "Nino", "Olga"]
SIXTEEN = [*TWELVE, "Paolo", "Rita", "Sara", "Tommaso"]
WALL = {"width": 1280, "height": 720}
#: English words a heading of the board must not show in Italian.
ENGLISH = re.compile(r"\b(standings|table|tables|round|rounds|place|player|pair|match|points|"
                     r"difference|provisional|playing|finished|closed|hands?|after|updated|"
                     r"being|played|the|of)\b", re.IGNORECASE)


def evening(base: str, names: list[str], **more: Any) -> dict[str, Any]:
    """An individual ``gatti-4`` event started through the API, its first round seated."""
    created = call(base, "POST", "/events", body={
        "name": "Giovedì al circolo", "variant": "gatti-4", "format": "individual",
        "entrants": [{"name": n} for n in names], **more})
    started = call(base, "POST", f"/events/{created['id']}/rounds", created["tokens"]["edit"], {})
    return {**created, "round": started}


def test_an_organiser_runs_an_evening_from_the_phone(phones: Any) -> None:
    phone = phones()
    page, base = phone.page, phone.base
    new_event_form(page, base, "gatti-4", "Thursday at the club")
    expect(page.locator("#format-individual")).to_be_checked()
    page.click("#event-rounds-minus")
    expect(page.locator("#event-rounds")).to_have_value("2")
    page.fill("#event-roster", "\n".join(TWELVE[:3]) + "\nanna\n")
    page.click("#start-event")
    # The service's refusals, at their field, the roster's by its line.
    errors = page.locator("[data-field='entrants'] .field-error")
    expect(errors).to_contain_text("Line 4:")
    expect(page.locator("#event-roster")).to_have_attribute("aria-invalid", "true")
    assert violations(page) == []
    page.fill("#event-roster", "\n".join(TWELVE))
    expect(page.locator("#roster-count")).to_have_text("12 players")
    page.click("#start-event")

    expect(page.locator("#event-status")).to_have_text("Not started yet")
    assert "token" not in page.url
    event_id = page.evaluate("location.hash").split("/")[2]
    edit = page.evaluate(
        f"JSON.parse(localStorage.getItem('segnapunti.events.v1'))['{event_id}'].tokens.edit")
    page.click("#start-round")
    cards = page.locator(".table-card")
    expect(cards).to_have_count(3)
    expect(page.locator("#event-status")).to_have_text("Round 1 of 2 being played")
    for n in (1, 2, 3):
        page.click(f"#links-{n} summary")
        expect(page.locator(f"#links-{n} svg.qr")).to_have_count(2)

    # A swap before the first hand: tap one name, then another at another table.
    first, second = page.inner_text("#unit-0-0"), page.inner_text("#unit-1-0")
    page.click("#unit-0-0")
    expect(page.locator("#unit-0-0")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#swap-status")).to_contain_text(first)
    page.click("#unit-1-0")
    expect(page.locator("#unit-0-0")).to_have_text(second)
    expect(page.locator("#unit-1-0")).to_have_text(first)
    seated = call(base, "GET", f"/events/{event_id}", edit)["rounds"][0]["tables"]
    assert (seated[0]["entrants"][0], seated[1]["entrants"][0]) == (second, first)
    expect(page.locator("#links-1")).to_have_attribute("open", "")  # the folds stay open

    # A hand recorded before the page has heard of it: the swap is refused, and said so.
    links = call(base, "GET", f"/events/{event_id}/rounds/1", edit)["tables"]
    page.route(f"**/api/v1/events/{event_id}", lambda route: route.fulfill(status=304)
               if route.request.method == "GET" else route.continue_())
    record(base, links[0], 40)
    page.click("#unit-0-1")
    page.click("#unit-2-1")
    expect(page.locator("#round-errors")).to_contain_text("table 1 has recorded a hand")
    page.unroute(f"**/api/v1/events/{event_id}")

    # The organiser sees the table's totals move as its scorekeeper records hands.
    expect(page.locator("#table-1 [data-total='0']")).to_have_text("40")
    expect(page.locator(".unit-button")).to_have_count(0)  # no more swaps
    record(base, links[0], 30)
    expect(page.locator("#table-1 [data-total='0']")).to_have_text("70")
    expect(page.locator("#table-1 [data-total='1']")).to_have_text("74")
    expect(page.locator("#table-1 .hands-played")).to_have_text("2 hands")
    expect(page.locator("#provisional")).to_contain_text("Provisional")
    expect(page.locator("#top-table tbody tr.standing").first).to_contain_text("2")

    # The printable standings, in the page's language.
    with page.expect_download() as download:
        page.click("#standings-pdf")
    assert download.value.suggested_filename == f"segnapunti-standings-{event_id}.pdf"
    assert download.value.path().read_bytes().startswith(b"%PDF")

    # "Open this table" opens the table's game on this phone, as its scorekeeper.
    page.click("#open-table-1")
    expect(page.locator("#new-hand")).to_be_visible()
    page.go_back()
    expect(page.locator("#round-title")).to_contain_text("Round 1")

    # Closed early: the unfinished tables count as they stand. A player disputes a hand of
    # table 1: closing says so, lists it, and asks again.
    players = call(base, "GET", f"/games/{links[0]['game']}/players",
                   links[0]["tokens"]["edit"])["tokens"]
    call(base, "POST", f"/games/{links[0]['game']}/hands/2/confirmations", players[1],
         {"verdict": "dispute", "reason": "we had 36"})
    page.click("#close-round")
    expect(page.locator("#close-text")).to_contain_text("count as they stand")
    page.click("#close-yes")
    expect(page.locator("#disputes-text")).to_have_text("A hand of round 1 is disputed:")
    expect(page.locator("#close-disputes .dispute")).to_have_text(
        re.compile(r"table 1, hand 2: disputed by .+ \(we had 36\)"))
    expect(page.locator("#close-anyway")).to_be_focused()
    assert violations(page) == []
    # Its own change read back as the event now is, never the newest state made before it.
    with page.expect_request(lambda request: request.url.endswith(
            f"/api/v1/events/{event_id}/standings")
            and "cache-control" not in request.headers):
        page.click("#close-anyway")
    expect(page.locator("#event-status")).to_have_text("Round 1 done")
    expect(page.locator("#table-1 .table-state")).to_have_text("closed")
    expect(page.locator("#provisional")).to_have_text("After round 1")
    page.click("#start-round")
    expect(page.locator("#round-title")).to_contain_text("Round 2")
    expect(cards).to_have_count(3)
    expect(page.locator("#event-status")).to_have_text("Round 2 of 2 being played")
    assert violations(page) == []


def test_the_board_on_the_wall_updates_by_itself(phones: Any) -> None:
    wall = phones(viewport=WALL)
    base = wall.base
    event = evening(base, SIXTEEN, rounds=3)
    # The board's reads of the event and its standings, and whether each takes the newest
    # state made (max-stale: a read its stream told it to make) or the event as it is (its
    # first read, a poll).
    reads: list[str | None] = []
    read = re.compile(rf"/api/v1/events/{event['id']}(/standings)?$")
    wall.page.on("request", lambda request: reads.append(
        request.headers.get("cache-control")) if read.search(request.url) else None)
    wall.page.goto(event["links"]["read"])
    page = wall.page
    expect(page.locator("#board-table tbody tr.standing")).to_have_count(16)
    expect(page.locator(".board-table")).to_have_count(4)
    assert reads[:2] == [None, None]
    expect(page.locator("#provisional")).to_contain_text("Provisional")
    # The wall's screen holds it all: standings on the left, tables on the right.
    assert page.evaluate("document.documentElement.scrollHeight <= innerHeight")
    standings = page.locator(".board-standings").bounding_box()
    tables = page.locator(".board-round").bounding_box()
    assert standings["x"] + standings["width"] <= tables["x"]
    assert "token" not in page.url
    expect(page.locator("button:not([data-lang]):not(.row-button)")).to_have_count(0)

    table = event["round"]["tables"][1]
    record(base, table, 50)
    card = page.locator("#board-table-2")
    expect(card.locator("[data-total='0']")).to_have_text("50")
    expect(card.locator("[data-total='1']")).to_have_text("22")
    expect(card.locator(".hands-played")).to_have_text("1 hand")
    # Told of the hand by its stream, it takes the newest state made; a poll would not.
    assert "max-stale" in reads[2:] and set(reads[2:]) <= {"max-stale", None}, reads
    leader = page.locator("#board-table tbody tr.standing").first
    expect(leader).to_contain_text("+28")
    # How a row was reached, for whoever asks (the wall shows only the rows).
    page.locator("#board-table .row-button").first.click()
    expect(page.locator("#board-table tr.why").first).to_contain_text("round 1, table 2")
    assert violations(page) == []

    # On a phone the same board is one column.
    phone = phones()
    phone.page.goto(event["links"]["read"])
    expect(phone.page.locator("#board-table tbody tr.standing")).to_have_count(16)
    left = phone.page.locator(".board-standings").bounding_box()
    below = phone.page.locator(".board-round").bounding_box()
    assert below["y"] >= left["y"] + left["height"]
    assert phone.page.evaluate("document.documentElement.scrollWidth <= innerWidth")


def test_the_board_speaks_italian(phones: Any) -> None:
    wall = phones("it-IT", "dark", viewport=WALL)
    event = evening(wall.base, TWELVE)
    record(wall.base, event["round"]["tables"][0], 40)
    page = wall.page
    page.goto(event["links"]["read"])
    expect(page.locator("#standings-title")).to_contain_text("Classifica")
    expect(page.locator("#round-title")).to_have_text("Turno 1: i tavoli")
    headings = page.locator("h2, h3, th[scope='col'], .badge, .board-meta, .hands-played")
    texts = [headings.nth(i).inner_text() for i in range(headings.count())]
    english = [text for text in texts if ENGLISH.search(text)]
    assert english == [], english
    expect(page.locator("#board-table tr.why").first).to_contain_text("turno 1")
    assert violations(page) == []


def test_the_organiser_corrects_a_disputed_hand_of_a_closed_round_from_the_tables_sheet(
        phones: Any) -> None:
    """A round closed despite a player's dispute still takes the organiser's
    correction. On the organiser's phone (which holds the event's edit token) the table's
    sheet offers to correct the hand, and the correction goes through the event; the table's
    own link no longer offers a new hand."""
    phone = phones()
    page, base = phone.page, phone.base
    night = evening(base, TWELVE[:4])
    table = night["round"]["tables"][0]
    game, table_edit = table["game"], table["tokens"]["edit"]
    record(base, table, 50)
    players = call(base, "GET", f"/games/{game}/players", table_edit)["tokens"]
    call(base, "POST", f"/games/{game}/hands/1/confirmations", players[1],
         {"verdict": "dispute", "reason": "it was 40 to 32"})
    edit = night["tokens"]["edit"]
    call(base, "POST", f"/events/{night['id']}/rounds/1/close", edit, {"despite_disputes": True})

    page.goto(f"{base}/#/events/{night['id']}?token={edit}")  # the organiser's own link
    expect(page.locator("#event-status")).to_be_visible()
    page.goto(f"{base}/#/games/{game}?token={table_edit}")  # the table's, from the round
    expect(page.locator("tr.hand[data-hand='1']")).to_be_visible()
    expect(page.locator("#new-hand")).to_have_count(0)
    page.click("tr.hand[data-hand='1'] .hand-button")
    expect(page.locator("#delete-1")).to_have_count(0)
    page.click("#correct-1")
    page.wait_for_selector("#save")
    page.fill("#points-0", "40")
    page.fill("#points-1", "32")
    page.click("#save")
    expect(page.locator("tr.hand[data-hand='1']")).to_be_visible()
    hand = call(base, "GET", f"/games/{game}/hands/1", table_edit)
    assert hand["version"] == 2
    assert [p["points"] for p in hand["record"]["piles"]][:1] == [40]
    actions = call(base, "GET", f"/events/{night['id']}/history", edit)["actions"]
    assert actions[-1]["action"] == "correct_hand"
