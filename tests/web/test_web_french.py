"""French for Nice: the FR button beside IT and EN, kept by the phone; a French
phone opens in French; numbers, money and times as French writes them; Mitigatti's cards by
the seed's words; the page's words in French complete (the catalogue check is
tests/web/test_web_assets.py's and ``python -m service.locale --check``)."""

from __future__ import annotations

from typing import Any

from page_driver import Table, page_module
from playwright.sync_api import expect

FOUR = ["Anna", "Bruno", "Carla", "Dario"]


def test_the_fr_button_switches_the_page_and_the_phone_keeps_it(phones: Any) -> None:
    phone = phones("en-GB")
    page = phone.page
    page.goto(phone.base + "/")
    expect(page.locator("#new-game")).to_have_text("New game")
    buttons = page.locator(".lang button")
    assert [buttons.nth(i).inner_text() for i in range(buttons.count())] == ["IT", "FR", "EN"]
    page.click("[data-lang='fr']")
    expect(page.locator("#new-game")).to_have_text("Nouvelle partie")
    expect(page.locator("[data-lang='fr']")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("[data-lang='en']")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert page.evaluate("localStorage.getItem('segnapunti.lang')") == "fr"
    page.reload()
    expect(page.locator("#new-game")).to_have_text("Nouvelle partie")
    expect(page.locator("[data-lang='fr']")).to_have_attribute("aria-pressed", "true")
    page.click("[data-lang='it']")
    expect(page.locator("#new-game")).to_have_text("Nuova partita")


def test_a_french_phone_opens_in_french_with_french_money_and_the_seeds_words(
        phones: Any) -> None:
    phone = phones("fr-FR")
    page = phone.page
    table = Table(page, phone.base)
    page.goto(phone.base + "/")
    expect(page.locator("#new-game")).to_have_text("Nouvelle partie")
    table.start_game("mitigatti-4", "mitigatti", FOUR, options={"marca_value": "0.50"})
    table.to_sheet()
    money = page.locator(".balance[data-seat='0'] .balance-money")
    expect(money).to_have_text("0,00\u202f€")  # as Intl writes fr-FR: a narrow no-break space
    table.new_hand()
    expect(page.locator("#main")).to_contain_text("Accusassions")
    expect(page.locator("#main")).to_contain_text("Bagatte ultimu")
    expect(page.locator("#main")).to_contain_text("Solete")
    mitigatti = {"family": "mitigatti", "suit_style": "round"}
    names = page_module(page, "cards.js", """({ Cards }, detail) => ["KH", "1S", "T1", "T20",
        "T4", "FOOL"].map((code) => Cards.name(code, detail))""", mitigatti)
    assert names == ["roi de coupes", "as d'épées", "atout 1 (Bagatte)", "atout 20 (l'Ange)",
                     "atout 4 (Papote)", "Fuole"]
    gatti = {"family": "gatti", "suit_style": "french"}
    assert page_module(page, "cards.js", "({ Cards }, detail) => Cards.name('QD', detail)",
                       gatti) == "dame de carreau"


def test_counts_take_the_french_plural_forms(phones: Any) -> None:
    """French's ``one`` is 0 and 1: "0 pli", "1 pli", "2 plis"."""
    phone = phones("fr-FR")
    page = phone.page
    page.goto(phone.base + "/")
    page.locator("#new-game").wait_for()
    said = page_module(page, "i18n.js", """({ t }) => [0, 1, 2].map(
        (n) => t("hand.tricksShort", { n })).concat([1, 3].map((n) => t("sheet.corrected", { n })))""")
    assert said == ["0 pli", "1 pli", "2 plis", "corrigée une fois", "corrigée 3 fois"]


def test_a_mitigatti_game_started_on_a_french_phone_prints_french_sheets(phones: Any) -> None:
    """The game of Nice started on a French phone takes French as its sheets'
    language (the new-game form says so, and may be told otherwise); every phone then asks for
    its sheet in French, an Italian one too. The same phone starting Gatti, whose home speaks
    Italian, leaves each reader their own."""
    phone = phones("fr-FR")
    page = phone.page
    table = Table(page, phone.base)
    page.goto(phone.base + "/")
    page.click("#new-game")
    table.choose("#family-mitigatti")
    expect(page.locator("#opt-language")).to_have_value("fr")
    table.choose("#family-gatti")
    expect(page.locator("#opt-language")).to_have_value("")
    links = table.start_game("mitigatti-4", "mitigatti", FOUR)
    table.to_sheet()
    assert table.stored_game()["options"]["language"] == "fr"

    reader = phones("it-IT").page
    reader.goto(links["read"])
    reader.wait_for_selector("table.sheet")
    with reader.expect_request(lambda request: "/sheet.pdf" in request.url) as asked:
        reader.click("#pdf")
    assert asked.value.url.endswith("/sheet.pdf?lang=fr")
