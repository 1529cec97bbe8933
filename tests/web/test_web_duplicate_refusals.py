"""The organiser's screen of a duplicate evening says which table was refused how often on
which board (a duplicate board keeps its secret until every table due to play it has played
it): a table refused as often as the limit allows is stopped on that board, and the
organiser releases it from the screen."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from page_driver import Table, call
from playwright.sync_api import expect
from test_web_accessibility import violations

from service.application.refusals import REFUSALS_PER_BOARD
from service.domain import deal_board, find_variant

SIX = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]
SEED = 77
GATTI_3 = find_variant("gatti-3")


def _refused(base: str, table: dict[str, Any], number: int) -> int:
    """A record of board ``number`` discarding a card the dealer was not dealt: its status."""
    board = deal_board(GATTI_3, SEED, number)
    stranger = next(c.code for c in board.hands[(board.dealer + 1) % 3] if c.is_plain)
    request = urllib.request.Request(
        f"{base}/api/v1/games/{table['game']}/hands", method="POST",
        data=json.dumps({"dealer": board.dealer, "discard": [stranger, "2H", "3H"],
                         "piles": [{"side": 0, "points": 78}]}).encode(),
        headers={"Content-Type": "application/json",
                 "Authorization": f"Bearer {table['tokens']['edit']}"})
    try:
        with urllib.request.urlopen(request) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_the_organiser_sees_each_tables_refusals_and_releases_a_stopped_board(
        phones: Any) -> None:
    phone = phones()
    page, base = phone.page, phone.base
    created = call(base, "POST", "/events", body={
        "name": "Duplicato", "variant": "gatti-3", "format": "individual",
        "deals": "duplicate", "seed": SEED, "entrants": [{"name": n} for n in SIX]})
    tables = call(base, "POST", f"/events/{created['id']}/rounds", created["tokens"]["edit"],
                  {})["tables"]
    page.goto(f"{base}/#/events/{created['id']}?token={created['tokens']['edit']}")
    expect(page.locator("#owed-1")).to_be_visible()
    expect(page.locator("#refusals")).to_have_count(0)
    assert [_refused(base, tables[1], 2) for _ in range(2)] == [422, 422]
    line = page.locator("#refusal-1-2-2")
    expect(line).to_contain_text("Round 1, table 2, board 2: refused 2 times")
    assert [_refused(base, tables[0], 1) for _ in range(REFUSALS_PER_BOARD)] == \
        [422] * REFUSALS_PER_BOARD
    assert _refused(base, tables[0], 1) == 429
    stopped = page.locator("#refusal-1-1-1")
    expect(stopped).to_contain_text(
        f"Round 1, table 1, board 1: refused {REFUSALS_PER_BOARD} times")
    expect(stopped).to_contain_text("stopped until released")
    expect(page.locator("#refusals-title")).to_have_text("Refused records")
    assert violations(page) == []
    page.click("#release-1-1-1")
    expect(page.locator(".toast")).to_contain_text("Table 1 can record board 1 again.")
    expect(stopped).to_contain_text("(0 since you released it)")
    expect(stopped).not_to_contain_text("stopped")
    expect(page.locator("#release-1-1-1")).to_have_count(0)
    assert _refused(base, tables[0], 1) == 422


def test_the_organisers_refusals_speak_italian(phones: Any) -> None:
    phone = phones(locale="it-IT")
    page, base = phone.page, phone.base
    created = call(base, "POST", "/events", body={
        "name": "Duplicato", "variant": "gatti-3", "format": "individual",
        "deals": "duplicate", "seed": SEED, "entrants": [{"name": n} for n in SIX]})
    tables = call(base, "POST", f"/events/{created['id']}/rounds", created["tokens"]["edit"],
                  {})["tables"]
    assert _refused(base, tables[0], 1) == 422
    page.goto(f"{base}/#/events/{created['id']}?token={created['tokens']['edit']}")
    expect(page.locator("#refusals-title")).to_have_text("Registrazioni rifiutate")
    expect(page.locator("#refusal-1-1-1")).to_contain_text(
        "Turno 1, tavolo 1, smazzata 1: rifiutata una volta")


def test_a_stopped_table_hears_at_once_that_the_organiser_must_release_the_board(
        phones: Any) -> None:
    """The scorekeeper of a table stopped on a board saves its record: the page says so
    straight away (a 429 that names no time to wait is not sent again)."""
    phone = phones()
    page, base = phone.page, phone.base
    created = call(base, "POST", "/events", body={
        "name": "Duplicato", "variant": "gatti-3", "format": "individual",
        "deals": "duplicate", "seed": SEED, "entrants": [{"name": n} for n in SIX]})
    table = call(base, "POST", f"/events/{created['id']}/rounds", created["tokens"]["edit"],
                 {})["tables"][0]
    assert {_refused(base, table, 1) for _ in range(REFUSALS_PER_BOARD)} == {422}
    driver = Table(page, base)
    page.goto(f"{base}/#/games/{table['game']}?token={table['tokens']['edit']}")
    driver.new_hand()
    driver.points(0, 40)
    page.keyboard.type("20")
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.method) if "/hands" in r.url else None)
    driver.save()
    expect(page.get_by_role("alert").filter(has_text="board 1")).to_contain_text(
        "once the organiser releases it", timeout=1500)
    assert requests == ["POST"]
