"""A link per player: the scorekeeper's share screen shows each player's own link,
and a phone that opens one reads the game, as that player, without the means to change it."""

from __future__ import annotations

from typing import Any

from page_driver import Table
from playwright.sync_api import expect


def test_each_player_gets_a_link_that_opens_the_game_read_only(phones: Any) -> None:
    scorekeeper = phones()
    table = Table(scorekeeper.page, scorekeeper.base)
    table.start_game("gatti-3", "gatti", ["Anna", "Bruno", "Carla"])
    players = scorekeeper.page.locator("[data-link='players'] details")
    expect(players).to_have_count(3)
    expect(players.nth(1).locator("summary")).to_have_text("Bruno")
    players.nth(1).locator("summary").click()
    link = scorekeeper.page.input_value("#link-player-1")
    assert "#/games/" in link and "token=" in link

    bruno = phones()
    bruno.page.goto(link)
    bruno.page.wait_for_selector("table.sheet")
    expect(bruno.page.locator(".badge.read")).to_be_visible()
    expect(bruno.page.locator("#new-hand")).to_have_count(0)
    from test_web_accessibility import violations
    scorekeeper.page.locator("#to-sheet").scroll_into_view_if_needed()
    assert violations(scorekeeper.page) == []
