"""A sheet that reads itself: the figure under a hand says it is the running total
(or the marca balance), the dealer's initial is a badge that no mark looks like, and a legend
under the sheet says what each sign on it means, the marks this sheet shows among them."""

from __future__ import annotations

from typing import Any

from page_driver import Table, page_module
from playwright.sync_api import expect

THREE = ["Anna", "Bruno", "Carla"]
FOUR = ["Anna", "Bruno", "Carla", "Dario"]


def test_totals_dealer_and_marks_are_explained(phones: Any) -> None:
    phone = phones()
    page = phone.page
    table = Table.seated(page, phone.base, "gatti-3", "gatti", THREE)
    expect(page.locator("#legend")).to_have_count(0)  # nothing to explain yet
    table.new_hand()
    table.declare(1, "family", suit="H")
    table.pile(0, 10, ["T1", "T21", "FOOL"])
    table.pile(1, 8, ["KC"])
    table.save_and_wait()
    row = page.locator("tr.hand[data-hand='1']")
    expect(row.locator("td[data-col='1'] .running")).to_have_text("Σ 22")
    expect(row.locator(".hand-dealer")).to_have_attribute("title", "dealt by Anna")
    page.click("#legend summary")
    legend = page.locator("#legend")
    expect(legend).to_contain_text("who dealt")
    expect(legend).to_contain_text("total so far")
    expect(legend.locator("li", has_text="Family ♥")).to_have_count(1)


def test_mitigatti_says_balance(phones: Any) -> None:
    phone = phones("it-IT")
    page = phone.page
    table = Table.seated(page, phone.base, "mitigatti-4", "mitigatti", FOUR, new_hand=True)
    page.click("#thrown-in")
    table.save_and_wait()
    expect(page.locator("tr.hand[data-hand='1'] td[data-col='0'] .running")).to_have_text(
        "Σ 10")


def test_the_saved_toast_covers_nothing_of_the_sheet(phones: Any) -> None:
    phone = phones()
    page = phone.page
    table = Table.seated(page, phone.base, "gatti-4", "gatti",
                         ["Alberto", "Giovanna", "Massimiliano", "Dario"], new_hand=True)
    table.pile(0, 10, ["T1", "T21", "FOOL"])
    table.save_and_wait()
    toast = page.locator("#toast")
    expect(toast).to_be_visible()
    box, bar = toast.bounding_box(), page.locator(".topbar").bounding_box()
    assert box is not None and bar is not None
    assert box["y"] + box["height"] <= bar["y"] + bar["height"]  # within the top bar
    for selector in ("tfoot", "#new-hand", ".lang"):
        other = page.locator(selector).bounding_box()
        assert other is not None
        apart = (box["x"] + box["width"] <= other["x"] or other["x"] + other["width"] <= box["x"]
                 or box["y"] + box["height"] <= other["y"])
        assert apart, selector


def test_a_phone_on_its_side_keeps_most_of_the_screen_for_the_form(browser: Any,
                                                                    server: str) -> None:
    context = browser.new_context(viewport={"width": 740, "height": 360}, locale="en-GB")
    page = context.new_page()
    try:
        table = Table(page, server)
        table.start_game("gatti-3", "gatti", ["Anna", "Bruno", "Carla"])
        table.to_sheet()
        table.new_hand()
        page.locator("#points-0").scroll_into_view_if_needed()
        bottom_bar = page.locator(".actions.sticky").bounding_box()
        top_bar = page.locator(".topbar").bounding_box()
        assert bottom_bar is not None and top_bar is not None
        covered = bottom_bar["height"] + max(0.0, top_bar["y"] + top_bar["height"])
        assert 360 - covered >= 270, covered  # was 212 px free before
    finally:
        context.close()


def test_ottocento_says_how_far_each_pair_is_from_800(phones: Any) -> None:
    phone = phones("it-IT")
    page = phone.page
    Table.seated(page, phone.base, "ottocento", "ottocento", FOUR)
    to_go = page.locator(".progress .bar-to-go")
    expect(to_go).to_have_count(2)
    expect(to_go.first).to_contain_text("mancano 800 punti")


def test_money_shows_in_the_games_currency_as_the_language_writes_it(phones: Any) -> None:
    phone = phones("it-IT")
    page = phone.page
    table = Table(page, phone.base)
    page.goto(phone.base + "/")
    table.start_game("mitigatti-4", "mitigatti", ["Anna", "Bruno", "Carla", "Dario"],
                     options={"marca_value": "0.50"})
    table.to_sheet()
    expect(page.locator(".balance[data-seat='0'] .balance-money")).to_have_text("0,00 €")
    # Another game, in Swiss francs, chosen on the form.
    page.goto(phone.base + "/")
    page.click("#new-game")
    table.choose("#family-mitigatti")
    expect(page.locator("#opt-currency")).to_have_value("EUR")
    page.select_option("#opt-currency", "CHF")
    page.fill("#opt-marca", "1")
    for i, name in enumerate(["Anna", "Bruno", "Carla", "Dario"]):
        page.fill(f"#player-{i}", name)
    page.click("#start")
    page.wait_for_selector("#to-sheet")
    table.to_sheet()
    expect(page.locator(".balance[data-seat='0'] .balance-money")).to_contain_text("CHF")


def test_counts_take_their_plural_forms(phones: Any) -> None:
    phone = phones("it-IT")
    page = phone.page
    page.goto(phone.base + "/")
    page.locator("#new-game").wait_for()  # the page started: its scripts have run
    said = page_module(page, "i18n.js", """async ({ I18n }) => {
        const out = {};
        for (const lang of ["it", "en"]) {
            await I18n.setLang(lang);
            out[lang] = [1, 2, "−1"].map((n) => I18n.t("marca", { n })).concat(
                [1, 3].map((n) => I18n.t("sheet.corrected", { n })),
                [1, 4].map((n) => I18n.t("hand.tricksShort", { n })));
        }
        return out;
    }""")
    assert said["it"] == ["1 marca", "2 marche", "−1 marca", "corretta una volta",
                          "corretta 3 volte", "1 presa", "4 prese"]
    assert said["en"] == ["1 marca", "2 marca", "−1 marca", "corrected once",
                          "corrected 3 times", "1 trick", "4 tricks"]
