"""The page with no network (issue 15, first part): once opened, it opens again offline from
its service worker's cache, and a game the phone has seen opens from its last copy, said to
be one, with that copy's time; when the network is back the sheet is live again."""

from __future__ import annotations

from typing import Any

from page_driver import Table
from playwright.sync_api import expect


def test_the_page_and_a_seen_game_open_with_no_network(phones: Any) -> None:
    phone = phones()
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
