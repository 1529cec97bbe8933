"""The rulebook in the app: the home page opens each game's rules; a line's rule on
the sheet is a small link, named by its section's title, that opens that section — not a bare
code; in the table's language."""

from __future__ import annotations

from typing import Any

from page_driver import Table
from playwright.sync_api import expect

THREE = ["Anna", "Bruno", "Carla"]


def test_the_home_page_opens_each_games_rules(phones: Any) -> None:
    phone = phones("it-IT")
    page = phone.page
    page.goto(phone.base + "/")
    expect(page.locator("h2", has_text="Le regole")).to_be_visible()
    page.click("#rules-ottocento")
    expect(page.locator("h1")).to_contain_text("Le regole")
    section = page.locator("[id='rule-§4.3']")
    expect(section).to_contain_text("Cricche e sequenze")
    expect(section).to_contain_text("jolly")
    page.go_back()
    expect(page.locator("#new-game")).to_be_visible()


def test_a_lines_rule_opens_its_section(phones: Any) -> None:
    phone = phones("it-IT")
    page = phone.page
    table = Table.seated(page, phone.base, "gatti-3", "gatti", THREE, new_hand=True)
    table.points(0, 39)
    page.keyboard.type("20")
    table.save_and_wait()
    page.click("tr.hand[data-hand='1'] .hand-button")
    link = page.locator("#details-1 a.rule").first
    expect(link).to_have_text("Il conto di una mano")  # the section's title, not "§2.6"
    expect(page.locator("#details-1")).not_to_contain_text("§2.6")
    link.click()
    target = page.locator("[id='rule-§2.6']")
    expect(target).to_have_class("card rule-section target")
    expect(target).to_be_focused()
    expect(target).to_contain_text("come li ha contati il tavolo")
