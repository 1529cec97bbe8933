"""Each player vouches for the hand (in the browser): two players open their own
links on their own phones; one confirms the hand just recorded, the other disputes it and
says why; the scorekeeper sees the dispute next to the hand, corrects it, and the new version
waits for the players again; the printed sheet says the same."""

from __future__ import annotations

import io
import json
import re
import urllib.request
from typing import Any

from page_driver import Table, call
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect
from pypdf import PdfReader

THREE = ["Anna", "Bruno", "Carla"]


def _get(base: str, path: str, token: str) -> Any:
    request = urllib.request.Request(f"{base}/api/v1{path}",
                                     headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request) as response:
        return response.read()


def _pdf_text(base: str, game_id: str, token: str) -> str:
    data = _get(base, f"/games/{game_id}/sheet.pdf?lang=en", token)
    return " ".join(" ".join(p.extract_text() or "" for p in
                             PdfReader(io.BytesIO(data)).pages).split())


def test_players_confirm_and_dispute_from_their_own_links(phones: Any) -> None:
    scorekeeper = phones()
    page = scorekeeper.page
    table, game_id, edit, links = Table.with_a_hand_by_points(page, scorekeeper.base, THREE)
    # Before any verdict, a table that does not use player links sees no marks.
    expect(page.locator(".verdict-mark")).to_have_count(0)

    # Bruno, on his phone, checks hand 1 and confirms it.
    bruno = phones()
    bruno.page.goto(links[1])
    card = bruno.page.locator("#verdict")
    expect(card.locator("h2")).to_have_text("Check hand 1")
    expect(bruno.page.locator("#player-badge")).to_have_text("Bruno's link")
    expect(card).to_contain_text("Anna")  # the hand shown whole, each side's lines
    expect(bruno.page.locator("#new-hand")).to_have_count(0)
    bruno.page.click("#confirm-1")
    expect(card).to_contain_text("You have had your say on every hand")

    # Carla disputes it, and says why.
    carla = phones()
    carla.page.goto(links[2])
    carla.page.click("#dispute-1")
    send = carla.page.locator("#send-dispute-1")
    send.click()  # no reason yet: the service says a dispute needs one
    expect(carla.page.locator("#verdict .field-error")).to_contain_text("reason")
    carla.page.fill("#reason-1", "Bruno took 21 tricks, not 20")
    send.click()
    expect(carla.page.locator("#verdict")).to_contain_text("You have had your say")

    # The scorekeeper sees both arrive: the dispute at the top, the hand marked.
    disputes = page.locator("#disputes")
    expect(disputes).to_contain_text("Carla disputes hand 1:")
    expect(disputes).to_contain_text("Bruno took 21 tricks, not 20")
    expect(page.locator("tr.hand[data-hand='1'] .verdict-mark")).to_have_text(
        re.compile("!"))
    page.click("tr.hand[data-hand='1'] .hand-button")
    details = page.locator("#details-1")
    expect(details).to_contain_text("Confirmed by Bruno")
    expect(details).to_contain_text("Disputed by Carla")
    expect(details).to_contain_text("Waiting for Anna")
    printed = _pdf_text(scorekeeper.base, game_id, edit)
    assert "! disputed by Carla: “Bruno took 21 tricks, not 20”" in printed, printed

    # Corrected: the new version waits for everyone again, and the dispute is gone.
    page.click("#fix-1")
    page.wait_for_selector("#save")
    page.fill("#points-1", "")
    table.points(1, 21)
    page.fill("#points-0", "")
    table.points(0, 38)
    table.save_and_wait()
    expect(page.locator("#disputes")).to_have_count(0)
    expect(carla.page.locator("#verdict h2")).to_have_text("Check hand 1", timeout=10_000)
    expect(carla.page.locator("#verdict")).to_contain_text("21")
    carla.page.click("#confirm-1")
    expect(carla.page.locator("#verdict")).to_contain_text("You have had your say")
    expect(page.locator("tr.hand[data-hand='1'] .verdict-mark")).to_contain_text("1/3")
    printed = _pdf_text(scorekeeper.base, game_id, edit)
    assert "○ not confirmed yet by Anna, Bruno" in printed, printed
    assert "disputed by Carla" not in printed

    from test_web_accessibility import violations
    assert violations(carla.page) == []
    assert violations(page) == []


def test_a_verdict_that_did_not_arrive_is_kept_and_sent_once(phones: Any) -> None:
    """A player's verdict is queued like a hand: given with no network, it waits
    on the phone, which says so, and goes once the network is back; refused for a moment
    (409 concurrent_change), it is sent again at once. Each is recorded exactly once."""
    scorekeeper = phones()
    page = scorekeeper.page
    _table, game_id, edit, links = Table.with_a_hand_by_points(page, scorekeeper.base, THREE)

    def verdicts() -> list[tuple[int, str]]:
        versions = json.loads(_get(scorekeeper.base, f"/games/{game_id}/history", edit))
        return [(c["seat"], c["verdict"]) for c in versions["versions"][0]["confirmations"]]

    bruno = phones()
    bruno.page.goto(links[1])
    card = bruno.page.locator("#verdict")
    expect(card.locator("h2")).to_have_text("Check hand 1")
    bruno.context.set_offline(True)
    try:
        bruno.page.click("#confirm-1")
        expect(card).to_contain_text("You have had your say on every hand")
        outbox = bruno.page.locator("#outbox")
        expect(outbox).to_contain_text("One verdict waiting to be sent")
        expect(outbox).to_contain_text("Your confirmation of hand 1")
        assert verdicts() == []
    finally:
        bruno.context.set_offline(False)
    expect(outbox).to_have_count(0, timeout=15_000)
    bruno.problems.clear()  # the browser logs each request refused while offline
    assert verdicts() == [(1, "confirm")]

    carla = phones()
    refused: list[str] = []

    def once_a_conflict(route: Any) -> None:
        if route.request.method == "POST" and not refused:
            refused.append(route.request.headers.get("idempotency-key", ""))
            route.fulfill(status=409, content_type="application/problem+json", body=json.dumps({
                "type": "urn:segnapunti:problem:concurrent-change", "title": "Conflict",
                "status": 409, "code": "concurrent_change"}))
            return
        route.continue_()

    carla.page.route("**/hands/1/confirmations", once_a_conflict)
    carla.page.goto(links[2])
    carla.page.click("#dispute-1")
    carla.page.fill("#reason-1", "Bruno took 21 tricks, not 20")
    carla.page.click("#send-dispute-1")
    expect(carla.page.locator("#verdict")).to_contain_text("You have had your say")
    expect(page.locator("#disputes")).to_contain_text("Carla disputes hand 1:", timeout=15_000)
    carla.problems.clear()  # the refused request is logged by the browser
    assert refused and refused[0]
    assert verdicts() == [(1, "confirm"), (2, "dispute")]


def test_a_players_link_says_which_hands_wait_and_in_what_order(phones: Any) -> None:
    scorekeeper = phones()
    page = scorekeeper.page
    table, _game_id, _edit, links = Table.with_a_hand_by_points(page, scorekeeper.base, THREE)
    for _ in range(2):
        table.new_hand()
        table.points(0, 30)
        page.keyboard.type("20")
        table.save_and_wait()

    bruno = phones()
    bruno.page.goto(links[1])
    card = bruno.page.locator("#verdict")
    # The hand just played first, and the card says what follows it, newest first.
    expect(card.locator("h2")).to_have_text("Check hand 3")
    expect(card).to_contain_text("2 more hands wait for your check, newest first: 2 and 1.")
    bruno.page.click("#confirm-3")
    expect(card.locator("h2")).to_have_text("Check hand 2")
    expect(card).to_contain_text("After this one, hand 1 waits for your check.")
    bruno.page.click("#confirm-2")
    expect(card.locator("h2")).to_have_text("Check hand 1")
    expect(card).not_to_contain_text("After this one")


def test_a_players_tap_on_confirm_is_not_lost_to_another_players_verdict(phones: Any) -> None:
    # Bruno's finger is on "confirm" when Carla's verdict reaches his sheet: the news waits
    # for the finger to lift, and his tap confirms the hand.
    scorekeeper = phones()
    _table, game_id, _edit, links = Table.with_a_hand_by_points(
        scorekeeper.page, scorekeeper.base, THREE)
    bruno = phones(poll_ms=300).page
    bruno.goto(links[1])
    confirm = bruno.locator("#confirm-1")
    expect(confirm).to_be_visible()
    expect(bruno.locator("#live")).not_to_have_class(re.compile(r"\boffline\b"))
    box = None
    while box is None:  # measured while the opening screen drew again: once more
        try:
            confirm.scroll_into_view_if_needed()
            box = confirm.bounding_box()
        except PlaywrightError:
            box = None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    bruno.mouse.move(x, y)
    bruno.mouse.down()
    pressed = bruno.evaluate_handle("([x, y]) => document.elementFromPoint(x, y)", [x, y])
    assert pressed.evaluate("(element) => element.id") == "confirm-1"
    carla = links[2].split("token=")[1]
    call(scorekeeper.base, "POST", f"/games/{game_id}/hands/1/confirmations", carla,
         {"verdict": "confirm"})
    # Read by now, by the stream or a poll: drawn, it would have replaced the button.
    bruno.wait_for_timeout(1500)
    assert pressed.evaluate("(button) => button.isConnected")
    bruno.mouse.up()
    expect(bruno.locator("#verdict")).to_contain_text("You have had your say on every hand")
    verdicts = call(scorekeeper.base, "GET", f"/games/{game_id}", carla)["hands"][0]
    assert sorted(c["seat"] for c in verdicts["confirmations"]) == [1, 2]
