"""The page with no network: once opened, it opens again offline from
its service worker's cache, and a game the phone has seen opens from its last copy, said to
be one, with that copy's time; when the network is back the sheet is live again."""

from __future__ import annotations

from typing import Any

from page_driver import Table
from playwright.sync_api import expect

THREE = ["Anna", "Bruno", "Carla"]


def test_the_page_and_a_seen_game_open_with_no_network(phones: Any) -> None:
    phone = phones(service_workers="allow")
    page = phone.page
    table = Table.seated(page, phone.base, "gatti-3", "gatti", ["Anna", "Bruno", "Carla"],
                         new_hand=True)
    table.pile(0, 10, ["T1", "T21", "FOOL"])
    table.save_and_wait()
    assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    # The worker has the page's files (and controls the page from its next load); the phone
    # has the game's copy.
    page.reload()
    page.wait_for_selector("table.sheet")
    sheet_url = page.url

    phone.context.set_offline(True)
    try:
        page.goto(phone.base + "/")  # the page itself, from the worker's cache
        page.wait_for_selector("#new-game")
        page.goto(sheet_url)
        page.wait_for_selector("table.sheet")
        expect(page.locator("#banner")).to_contain_text("No network")
        expect(page.locator("tr.hand")).to_have_count(1)
    finally:
        phone.context.set_offline(False)
    # Back online: the next poll brings the live game, and the notice goes.
    expect(page.locator("#banner")).to_be_hidden(timeout=10_000)
    phone.problems.clear()  # the browser logs each request refused while offline


def _server_hands(base: str, page: Any) -> list[dict[str, Any]]:
    return Table(page, base).stored_game()["hands"]


def _one_hand_played(phones: Any) -> tuple[Any, Table, dict[str, str]]:
    """A phone with a gatti-3 game of one hand (Anna 30, Bruno 28), reloaded so that the
    service worker controls the page; the phone, its table and the game's share links."""
    phone = phones(service_workers="allow")
    table = Table(phone.page, phone.base)
    links = table.start_game("gatti-3", "gatti", THREE)
    table.to_sheet()
    table.new_hand()
    table.points(0, 30)
    phone.page.keyboard.type("28")
    table.save_and_wait()
    phone.page.reload()
    phone.page.wait_for_selector("table.sheet")
    return phone, table, links


def test_hands_saved_with_no_network_are_sent_in_order_once(phones: Any) -> None:
    """A gatti-3 game: hand 1 online; the network drops before hands 2 and 3 are saved; the
    page is reloaded while offline; the network comes back: every hand is recorded exactly
    once, in order, with the right dealers and scores."""
    phone, table, _ = _one_hand_played(phones)
    page = phone.page

    phone.context.set_offline(True)
    try:
        for first, second in ((40, 20), (26, 26)):
            table.new_hand()
            table.points(0, first)
            page.keyboard.type(str(second))
            table.save()
            page.wait_for_selector("table.sheet")
        outbox = page.locator("#outbox")
        expect(outbox).to_contain_text("2 hands waiting to be sent")
        expect(outbox).to_contain_text("Hand 2, dealer Bruno")
        expect(outbox).to_contain_text("Hand 3, dealer Carla")
        expect(outbox).to_contain_text("Anna 40 · Bruno 20 · Carla 18")
        expect(page.locator("#waiting")).to_have_text("2 waiting")
        # The game's three hands are counted: none past its end is offered.
        expect(page.locator("#new-hand")).to_have_count(0)
        expect(page.locator(".sheet-head .status")).to_have_text("All 3 hands entered")
        # What waits is said plainly, to every reader (axe: no serious or critical finding).
        from test_web_accessibility import violations
        assert violations(page) == []
        # A reload with no network: the page, the game's copy and the waiting hands are there.
        page.reload()
        page.wait_for_selector("table.sheet")
        expect(page.locator("#outbox .outbox-item")).to_have_count(2)
    finally:
        phone.context.set_offline(False)
    expect(page.locator("#outbox")).to_have_count(0, timeout=15_000)
    expect(page.locator("tr.hand")).to_have_count(3)
    hands = _server_hands(phone.base, page)
    assert [h["dealer"] for h in hands] == [0, 1, 2]
    assert [[p["points"] for p in h["record"]["piles"]] for h in hands] == [
        [30, 28], [40, 20], [26, 26]]
    assert table.totals() == {"0": "96", "1": "74", "2": "64"}


def test_a_hand_another_phone_recorded_meanwhile_is_a_conflict_to_resolve(phones: Any) -> None:
    """Hand 2 is saved on a phone with no network while another phone records hand 2. When
    the network returns the waiting hand is refused (its dealer no longer deals), kept with
    what the service said, and re-entered as hand 3: neither entry is lost."""
    phone, table, links = _one_hand_played(phones)
    page = phone.page

    phone.context.set_offline(True)
    try:
        table.new_hand()
        table.points(0, 40)
        page.keyboard.type("20")
        table.save()
        page.wait_for_selector("#outbox")
        other = phones()
        rival = Table(other.page, other.base)
        other.page.goto(links["edit"])
        other.page.wait_for_selector("table.sheet")
        rival.new_hand()
        rival.points(0, 10)
        other.page.keyboard.type("10")
        rival.save_and_wait()
    finally:
        phone.context.set_offline(False)
    refused = page.locator("#outbox .outbox-item.refused")
    expect(refused).to_be_visible(timeout=15_000)
    expect(refused).to_contain_text("Carla deals this hand")
    page.click("[id^='outbox-reenter-']")
    page.wait_for_selector("#save")
    expect(page.locator(".dealer-line")).to_contain_text("Carla")
    expect(page.locator("#points-0")).to_have_value("40")
    table.save_and_wait()
    hands = _server_hands(phone.base, page)
    assert [[p["points"] for p in h["record"]["piles"]] for h in hands] == [
        [30, 28], [10, 10], [40, 20]]
    expect(page.locator("#outbox")).to_have_count(0)


def test_a_correction_made_offline_over_a_changed_hand_is_a_conflict_to_resolve(
        phones: Any) -> None:
    """Hand 1 is corrected on a phone with no network while another phone corrects it too.
    Back online, the stale correction (its If-Match) is refused and kept; opened again over
    the hand as it is now, it goes in."""
    phone, table, links = _one_hand_played(phones)
    page = phone.page

    page.click("tr.hand[data-hand='1'] .hand-button")
    page.click("#correct-1")
    page.wait_for_selector("#save")
    phone.context.set_offline(True)
    try:
        page.fill("#points-0", "35")
        table.save()
        page.wait_for_selector("#outbox")
        expect(page.locator("#outbox")).to_contain_text("Correction of hand 1")
        other = phones()
        rival = Table(other.page, other.base)
        other.page.goto(links["edit"])
        other.page.wait_for_selector("table.sheet")
        other.page.click("tr.hand[data-hand='1'] .hand-button")
        other.page.click("#correct-1")
        other.page.wait_for_selector("#save")
        other.page.fill("#points-1", "20")
        rival.save_and_wait()
    finally:
        phone.context.set_offline(False)
    refused = page.locator("#outbox .outbox-item.refused")
    expect(refused).to_be_visible(timeout=15_000)
    page.click("[id^='outbox-reenter-']")
    page.wait_for_selector("#save")
    expect(page.locator("#points-0")).to_have_value("35")
    table.save_and_wait()
    hands = _server_hands(phone.base, page)
    assert [p["points"] for p in hands[0]["record"]["piles"]] == [35, 28]
    assert hands[0]["version"] == 3
