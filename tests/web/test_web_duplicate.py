"""A duplicate table on the phone page (docs/events.md#duplicate): the scorekeeper of a
``gatti-3`` duplicate table sees the next board, not the next hand, and who deals it (the
board's dealer, not the rotation's); the hand form is titled with the board and shows its
exposed cards; the hand list shows the board each hand played; in English and in Italian.
The organiser makes a duplicate evening from the new-event form (its deals and boards a round).
The organiser downloads the deal slips and sees the boards each table still owes; the wall
shows the boards finished across the room with their tops."""

from __future__ import annotations

import json
import re
from typing import Any

from page_driver import call, new_event_form
from playwright.sync_api import expect
from test_web_accessibility import violations

from service.application.language import card_name
from service.domain import deal_board, find_variant

SIX = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]
TWELVE = [*SIX, "Gino", "Ilaria", "Luca", "Marta", "Nino", "Olga"]
SEED = 77
GATTI_3 = find_variant("gatti-3")


def _table(base: str) -> dict[str, Any]:
    """The second table of round 1 of a six-player duplicate evening: it plays 2, 3, 1."""
    created = call(base, "POST", "/events", body={
        "name": "Duplicato", "variant": "gatti-3", "format": "individual",
        "deals": "duplicate", "seed": SEED, "entrants": [{"name": n} for n in SIX]})
    started = call(base, "POST", f"/events/{created['id']}/rounds", created["tokens"]["edit"],
                   {})
    table: dict[str, Any] = started["tables"][1]
    assert table["boards"] == [2, 3, 1]
    return table


def test_a_duplicate_table_enters_its_boards(phones: Any) -> None:
    phone = phones()
    page, base = phone.page, phone.base
    table = _table(base)
    board = deal_board(GATTI_3, SEED, 2)
    dealer = table["seats"][board.dealer]
    assert board.dealer == 1  # the rotation would have seat 0 deal a game's first hand
    page.goto(f"{base}/#/games/{table['game']}?token={table['tokens']['edit']}")
    expect(page.locator(".sheet-head .status")).to_contain_text("Board 2 (1 of 3)")
    expect(page.locator(".sheet-head .status")).to_contain_text(f"dealer: {dealer}")
    expect(page.locator("#new-hand")).to_have_text("Enter board 2")
    page.click("#new-hand")
    expect(page.locator(".form-head h1")).to_have_text("Board 2")
    expect(page.locator(".form-head .dealer-line")).to_contain_text(dealer)
    exposed = ", ".join(card_name(c, "en", GATTI_3.family) for c in board.exposed)
    expect(page.locator("#board-exposed")).to_have_text(f"Exposed cards: {exposed}")

    held = [*board.hands[board.dealer], *board.extra]
    discard = [c.code for c in held if c.is_plain and c.rank not in "KQCJ"][:3]
    call(base, "POST", f"/games/{table['game']}/hands", table["tokens"]["edit"], {
        "dealer": board.dealer, "discard": discard,
        "piles": [{"side": s, "points": p} for s, p in enumerate((40, 20, 18))]})
    page.goto(f"{base}/#/games/{table['game']}?token={table['tokens']['read']}")
    expect(page.locator("tr.hand[data-hand='1'] .hand-number")).to_have_text("2")
    expect(page.locator("tr.hand[data-hand='1'] .visually-hidden").first).to_contain_text(
        f"board 2 dealt by {dealer}")
    following = deal_board(GATTI_3, SEED, 3)
    expect(page.locator(".sheet-head .status")).to_contain_text("Board 3 (2 of 3)")
    expect(page.locator(".sheet-head .status")).to_contain_text(
        f"dealer: {table['seats'][following.dealer]}")


def test_a_duplicate_table_speaks_italian(phones: Any) -> None:
    phone = phones(locale="it-IT")
    page, base = phone.page, phone.base
    table = _table(base)
    page.goto(f"{base}/#/games/{table['game']}?token={table['tokens']['edit']}")
    expect(page.locator(".sheet-head .status")).to_contain_text("Smazzata 2 (1 di 3)")
    expect(page.locator("#new-hand")).to_have_text("Segna la smazzata 2")
    page.click("#new-hand")
    expect(page.locator(".form-head h1")).to_have_text("Smazzata 2")
    expect(page.locator("#board-exposed")).to_contain_text("Carte scoperte:")


def test_the_board_on_the_wall_ranks_a_duplicate_evening_by_percentage(phones: Any) -> None:
    phone = phones()
    page, base = phone.page, phone.base
    created = call(base, "POST", "/events", body={
        "name": "Duplicato", "variant": "gatti-3", "format": "individual",
        "deals": "duplicate", "seed": SEED, "entrants": [{"name": n} for n in SIX]})
    started = call(base, "POST", f"/events/{created['id']}/rounds", created["tokens"]["edit"],
                   {})
    # Table 1 plays boards 1 and 2, table 2 board 2: board 2 is complete, and alone counts.
    one, two = started["tables"]
    _enter(base, one, (40, 20, 18))
    _enter(base, one, (20, 40, 18))
    _enter(base, two, (18, 20, 40))
    page.goto(f"{base}/#/events/{created['id']}/board?token={created['tokens']['read']}")
    table = page.locator("#board-table")
    expect(table.locator("thead")).to_contain_text("Average percentage")
    rows = call(base, "GET", f"/events/{created['id']}/standings",
                created["tokens"]["read"])["rows"]
    first = table.locator("tbody tr.standing").first
    expect(first).to_contain_text(rows[0]["entrant"])
    assert rows[0]["percentage"] > 0
    expect(first.locator("td.pct")).to_have_text(f"{rows[0]['percentage']:g}%")
    # In French: a decimal comma, a no-break space before the sign.
    french = phones(locale="fr-FR").page
    french.goto(f"{base}/#/events/{created['id']}/board?token={created['tokens']['read']}")
    written = f"{rows[0]['percentage']:g}".replace(".", ",")
    expect(french.locator("#board-table tbody tr.standing td.pct").first).to_have_text(
        re.compile(rf"^{written}[\u00a0\u202f]%$"))


def _enter(base: str, table: dict[str, Any], points: tuple[int, int, int]) -> None:
    """The table's next board, entered by its scorekeeper (the deck's points by seat)."""
    game = call(base, "GET", f"/games/{table['game']}", table["tokens"]["edit"])
    board = deal_board(GATTI_3, SEED, table["boards"][game["hands_played"]])
    held = [*board.hands[board.dealer], *board.extra]
    discard = [c.code for c in held if c.is_plain and c.rank not in "KQCJ"][:3]
    call(base, "POST", f"/games/{table['game']}/hands", table["tokens"]["edit"], {
        "dealer": board.dealer, "discard": discard,
        "piles": [{"side": s, "points": p} for s, p in enumerate(points)]})


def _six(base: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A six-player duplicate evening of ``gatti-3``, its first round started: two tables,
    playing 1, 2, 3 and 2, 3, 1."""
    created = call(base, "POST", "/events", body={
        "name": "Duplicato", "variant": "gatti-3", "format": "individual",
        "deals": "duplicate", "seed": SEED, "entrants": [{"name": n} for n in SIX]})
    started = call(base, "POST", f"/events/{created['id']}/rounds", created["tokens"]["edit"],
                   {})
    return created, started["tables"]


def test_the_organiser_prints_the_slips_and_sees_the_boards_each_table_owes(
        phones: Any) -> None:
    """The organiser's screen of a duplicate evening downloads the deal slips, and says under
    each table of the round the boards it still owes, which shrink as the table enters its
    boards; axe finds nothing serious."""
    phone = phones()
    page, base = phone.page, phone.base
    created, tables = _six(base)
    page.goto(f"{base}/#/events/{created['id']}?token={created['tokens']['edit']}")
    expect(page.locator("#owed-1")).to_have_text("Boards still to play: 1, 2, 3")
    expect(page.locator("#owed-2")).to_have_text("Boards still to play: 2, 3, 1")
    with page.expect_download() as download:
        page.click("#slips-pdf")
    assert download.value.suggested_filename == f"segnapunti-boards-{created['id']}.pdf"
    assert download.value.path().read_bytes().startswith(b"%PDF")

    _enter(base, tables[1], (40, 20, 18))  # table 2 enters board 2
    expect(page.locator("#owed-2")).to_have_text("Boards still to play: 3, 1")
    expect(page.locator("#owed-1")).to_have_text("Boards still to play: 1, 2, 3")
    _enter(base, tables[1], (30, 30, 18))
    _enter(base, tables[1], (18, 30, 30))
    expect(page.locator("#owed-2")).to_have_text("Every board played")
    assert violations(page) == []


def test_the_wall_shows_the_boards_finished_with_their_tops(phones: Any) -> None:
    """docs/events.md#standings: the wall board shows the boards finished across the room (the
    latest first) and each seat's top result on them: who, the points, the percentage; a
    board still due at a table is not shown. Axe finds nothing serious."""
    phone = phones(viewport={"width": 1280, "height": 720})
    page, base = phone.page, phone.base
    created, tables = _six(base)
    page.goto(f"{base}/#/events/{created['id']}/board?token={created['tokens']['read']}")
    expect(page.locator("#boards-finished")).to_contain_text(
        "No board has been played at every table yet.")
    _enter(base, tables[0], (40, 20, 18))  # table 1: board 1
    for points in ((30, 30, 18), (18, 30, 30), (20, 40, 18)):  # table 2: boards 2, 3 and 1
        _enter(base, tables[1], points)
    done = page.locator("#boards-finished li.board-done")
    expect(done).to_have_count(1)  # boards 2 and 3 are still due at table 1
    expect(done.first).to_have_attribute("data-board", "1")
    expect(page.locator("#boards-count")).to_have_text("1 board")
    tops = done.first.locator("li.board-top")
    # Board 1: table 1 made 40, 20, 18 and table 2 made 20, 40, 18 (seat by seat).
    names = [t["seats"] for t in tables]
    expect(tops.nth(0)).to_have_text(f"{names[0][0]} 40 · 100%")
    expect(tops.nth(1)).to_have_text(f"{names[1][1]} 40 · 100%")
    expect(tops.nth(2)).to_have_text(f"{names[0][2]}, {names[1][2]} 18 · 50%")
    for points in ((30, 20, 28), (20, 20, 38)):  # table 1: boards 2 and 3
        _enter(base, tables[0], points)
    expect(done).to_have_count(3)
    expect(page.locator("#boards-count")).to_have_text("3 boards")
    assert [done.nth(i).get_attribute("data-board") for i in range(3)] == ["3", "2", "1"]
    assert violations(page) == []


def test_the_organiser_makes_a_duplicate_evening_from_the_form(phones: Any) -> None:
    """docs/events.md#duplicate: an event chooses it with ``"deals": "duplicate"`` and
    ``boards_per_round`` (1 to what a game holds). The new-event form offers both: twelve
    players of ``gatti-3``, two boards a round (a game of ``gatti-3`` holds three: the stepper
    goes no further, and the service's refusal of four lands on the boards' field); round 1
    shows the boards each table owes and the deal slips. Axe finds nothing serious."""
    phone = phones()
    page, base = phone.page, phone.base
    new_event_form(page, base, "gatti-3", "Duplicato del giovedì")
    expect(page.locator("#deals-free")).to_be_checked()
    expect(page.locator("#event-boards")).to_have_count(0)
    page.locator("label:has(#deals-duplicate)").click()
    expect(page.locator("#deals-duplicate")).to_be_checked()
    expect(page.locator("#event-boards")).to_have_value("3")  # a game's hands
    expect(page.locator("#event-boards-plus")).to_be_disabled()  # and the most
    expect(page.locator("#boards-hint")).to_have_text(
        "Every table plays them all in each round; at most 3 for this game.")
    page.fill("#event-roster", "\n".join(TWELVE))
    expect(page.locator("#roster-count")).to_have_text("12 players")
    assert violations(page) == []

    # A refusal of the service lands on its field: the request sent with one board too many.
    def too_many(route: Any) -> None:
        body = json.loads(route.request.post_data)
        assert (body["deals"], body["boards_per_round"]) == ("duplicate", 3)
        route.continue_(post_data=json.dumps({**body, "boards_per_round": 4}))
    page.route("**/api/v1/events", too_many)
    page.click("#start-event")
    expect(page.locator("[data-field='boards_per_round'] .field-error")).to_contain_text(
        "from 1 to 3")
    expect(page.locator("#event-boards")).to_have_attribute("aria-invalid", "true")
    page.unroute("**/api/v1/events")

    page.click("#event-boards-minus")
    expect(page.locator("#event-boards")).to_have_value("2")
    with page.expect_request(lambda r: r.url.endswith("/api/v1/events")
                             and r.method == "POST") as sent:
        page.click("#start-event")
    body = json.loads(sent.value.post_data)
    assert (body["deals"], body["boards_per_round"]) == ("duplicate", 2)
    expect(page.locator("#event-status")).to_have_text("Not started yet")
    event_id = page.evaluate("location.hash").split("/")[2]
    edit = page.evaluate(
        f"JSON.parse(localStorage.getItem('segnapunti.events.v1'))['{event_id}'].tokens.edit")
    event = call(base, "GET", f"/events/{event_id}", edit)
    assert (event["deals"], event["boards_per_round"]) == ("duplicate", 2)
    assert event["variant"] == "gatti-3"

    page.click("#start-round")
    expect(page.locator(".table-card")).to_have_count(4)
    tables = call(base, "GET", f"/events/{event_id}", edit)["rounds"][0]["tables"]
    for table in tables:
        assert len(table["boards"]) == 2
        expect(page.locator(f"#owed-{table['table']}")).to_have_text(
            "Boards still to play: " + ", ".join(str(b) for b in table["boards"]))
    expect(page.locator("#slips-pdf")).to_be_visible()
    assert violations(page) == []


def test_the_wall_shows_progress_and_the_organiser_the_boards_still_secret(
        phones: Any) -> None:
    """A board keeps its secret until every table due to play it has played it: the wall
    says how many tables have finished and how many boards are complete, and its table
    totals count the complete boards only; the organiser's screen shows every result live
    and lists the boards still secret. Axe finds nothing serious on either."""
    wall = phones(viewport={"width": 1280, "height": 720})
    organiser = phones()
    base = wall.base
    created, tables = _six(base)
    wall.page.goto(f"{base}/#/events/{created['id']}/board?token={created['tokens']['read']}")
    organiser.page.goto(f"{base}/#/events/{created['id']}?token={created['tokens']['edit']}")
    progress = wall.page.locator("#board-progress")
    secret = organiser.page.locator("#secret-list")
    expect(progress).to_have_text("Tables finished: 0 of 2 · Boards complete: 0 of 3")
    expect(secret).to_have_text("Boards 1, 2, 3 have not been played at every table yet.")

    _enter(base, tables[0], (40, 20, 18))  # table 1: board 1, which table 2 plays last
    expect(organiser.page.locator('#table-1 [data-total="0"]')).to_have_text("40")
    expect(wall.page.locator("#board-table-1 .hands-played")).to_have_text("1 hand")
    expect(wall.page.locator('#board-table-1 [data-total="0"]')).to_have_text("0")
    expect(progress).to_have_text("Tables finished: 0 of 2 · Boards complete: 0 of 3")
    expect(secret).to_have_text("Boards 1, 2, 3 have not been played at every table yet.")

    for points in ((30, 30, 18), (18, 30, 30), (20, 40, 18)):  # table 2: boards 2, 3 and 1
        _enter(base, tables[1], points)
    expect(progress).to_have_text("Tables finished: 1 of 2 · Boards complete: 1 of 3")
    expect(secret).to_have_text("Boards 2, 3 have not been played at every table yet.")
    # Board 1 counts now: table 1's 40, and table 2's 20 of board 1 only (not 2 and 3).
    expect(wall.page.locator('#board-table-1 [data-total="0"]')).to_have_text("40")
    expect(wall.page.locator('#board-table-2 [data-total="0"]')).to_have_text("20")
    expect(organiser.page.locator('#table-2 [data-total="0"]')).to_have_text("68")
    assert violations(organiser.page) == []

    _enter(base, tables[0], (30, 20, 28))
    expect(secret).to_have_text("Board 3 has not been played at every table yet.")
    _enter(base, tables[0], (20, 20, 38))
    expect(progress).to_have_text("Tables finished: 2 of 2 · Boards complete: 3 of 3")
    expect(secret).to_have_text("No board is secret: the room sees every result.")
    expect(wall.page.locator('#board-table-2 [data-total="0"]')).to_have_text("68")
    assert violations(wall.page) == []


def test_the_wall_fits_a_long_evening_s_boards_on_its_screen(phones: Any) -> None:
    """A wall of 1280 × 720 shows a long evening without scrolling: the boards finished in
    columns, the latest first, the oldest left off when the screen is full (the count says
    how many there are)."""
    wall = phones(viewport={"width": 1280, "height": 720})
    base = wall.base
    created, tables = _six(base)
    for round_ in range(5):
        if round_:
            tables = call(base, "POST", f"/events/{created['id']}/rounds",
                          created["tokens"]["edit"], {})["tables"]
        for table in tables:
            for points in ((40, 20, 18), (30, 30, 18), (18, 30, 30)):
                _enter(base, table, points)
    page = wall.page
    page.goto(f"{base}/#/events/{created['id']}/board?token={created['tokens']['read']}")
    expect(page.locator("#boards-count")).to_have_text("15 boards")
    latest = page.locator("#boards-finished li.board-done").first
    expect(latest).to_have_attribute("data-board", "15")
    expect(latest).to_be_in_viewport()
    assert page.evaluate("document.documentElement.scrollHeight") <= 720


def test_a_phone_opens_a_finished_board_s_traveller_and_nothing_of_the_others(
        phones: Any) -> None:
    """On a phone the board's read link lists the boards finished, each with its traveller to
    open: every table's result on it, as ``GET /events/{id}/boards/{b}`` gives it. A board
    still due at a table shows nothing, traveller included."""
    phone = phones(locale="it-IT")
    page, base = phone.page, phone.base
    created, tables = _six(base)
    _enter(base, tables[0], (40, 20, 18))  # table 1: board 1
    for points in ((30, 30, 18), (18, 30, 30), (20, 40, 18)):  # table 2: boards 2, 3 and 1
        _enter(base, tables[1], points)
    page.goto(f"{base}/#/events/{created['id']}/board?token={created['tokens']['read']}")
    expect(page.locator("#boards-finished li.board-done")).to_have_count(1)
    expect(page.locator("details.traveller")).to_have_count(1)
    page.locator("#traveller-1 summary").click()
    rows = page.locator("#traveller-1 li.traveller-row")
    expect(rows).to_have_count(2)
    traveller = call(base, "GET", f"/events/{created['id']}/boards/1",
                     created["tokens"]["read"])
    for k, result in enumerate(traveller["results"]):
        expect(rows.nth(k).locator(".traveller-where")).to_have_text(
            f"Turno {result['round']}, tavolo {result['table']}")
        for c in range(3):
            percent = f"{result['percentage'][str(c)]:g}".replace(".", ",")
            expect(rows.nth(k).locator(f"li.board-top[data-column='{c}']")).to_have_text(
                f"{result['seats'][c]} {result['columns'][str(c)]} · "
                f"{result['matchpoints'][str(c)]}/{traveller['top']} · {percent}%")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
