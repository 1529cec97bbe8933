"""A hand in thirty seconds ("Points as the table counts them"): the typical hand of
each family entered by the points the table counted, within the taps a score pad takes —
12 for Gatti, 20 for Ottocento, 12 for Ottocento with a cricca said by its type, 10 for
Mitigatti, from the sheet's "new hand" to "save" —, and the hand in dispute corrected card by
card.

Taps are counted by the page itself: every trusted pointer press and every character typed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from page_driver import Table
from playwright.sync_api import expect

THREE = ["Anna", "Bruno", "Carla"]
FOUR = ["Anna", "Bruno", "Carla", "Dario"]
COUNT_TAPS = """
window.__taps = 0;
addEventListener("pointerdown", (e) => { if (e.isTrusted) window.__taps += 1; }, true);
addEventListener("keydown", (e) => { if (e.isTrusted && e.key.length === 1) window.__taps += 1; }, true);
"""


def counted_table(phones: Any, variant: str, family: str, names: list[str],
                  options: dict[str, Any] | None = None) -> Table:
    phone = phones()
    phone.page.add_init_script(COUNT_TAPS)
    table = Table(phone.page, phone.base)
    table.start_game(variant, family, names, options=options)
    table.to_sheet()
    return table


def taps_for(table: Table, enter: Any) -> int:
    """The taps of one hand: "new hand", what ``enter`` does, "save"."""
    page = table.page
    page.evaluate("window.__taps = 0")
    table.new_hand()
    expect(page.locator("#pile-mode-points")).to_be_checked()
    enter()
    table.save_and_wait()
    taps = int(page.evaluate("window.__taps"))
    print(f"taps: {taps}")
    return taps


def declare_kind(table: Table, seat: int, kind: str, rank: str) -> None:
    """A Gatti meld said by what it is, as a person does it: add, who, what, which rank."""
    table.page.click("#decl-add")
    table.seat_chip("decl-seat", seat)
    table.choose(f"#decl-kind-{kind}")
    table.choose(f"#decl-rank-{rank}")
    table.page.click("#decl-confirm")


def test_a_gatti_hand_by_points_within_12_taps(phones: Any) -> None:
    """Carla shows four Kings; the table counts Anna 39, Bruno 20, Carla the rest (19)."""
    table = counted_table(phones, "gatti-3", "gatti", THREE)
    page = table.page

    def enter() -> None:
        declare_kind(table, 2, "four_of_a_kind", "K")
        table.points(0, 39)
        # Two digits and no third can fit: the next side's field has the focus.
        assert page.evaluate("document.activeElement.id") == "points-1"
        page.keyboard.type("20")
        expect(page.locator("#points-rest-2")).to_contain_text("19")
        expect(page.locator(".check-list")).to_contain_text("39 + 20 + 19 = 78")

    taps = taps_for(table, enter)
    assert taps <= 12, taps
    assert table.totals() == {"0": "39", "1": "20", "2": "29"}
    row = page.locator("tr.hand[data-hand='1']")
    expect(row.locator("td[data-col='0'] .mark")).to_have_text(" #")
    page.click("#legend summary")
    expect(page.locator("#legend")).to_contain_text("points as counted at the table")
    page.click("tr.hand[data-hand='1'] .hand-button")
    # The lines as the service says them, the players by their names.
    expect(page.locator("#details-1")).to_contain_text(
        "Anna: 39 deck points, as counted at the table")
    expect(page.locator("#details-1")).to_contain_text(
        "Carla: 19 deck points, the rest of the hand's total")


def test_an_ottocento_hand_by_points_within_20_taps(phones: Any) -> None:
    """Anna declares her four Kings (34) by their cards; her pair counts 50 card points and
    captured three Queens (14); Bruno takes the last trick: his pair 37 + 6."""
    table = counted_table(phones, "ottocento", "ottocento", FOUR)
    page = table.page

    def enter() -> None:
        table.declare_cards(0, ["KH", "KD", "KC", "KS"], "Kings")
        table.points(0, 50)
        table.combination(0, "cricca", "Q", "3")
        table.seat_chip("last-trick", 1)
        expect(page.locator(".check-list")).to_contain_text("50 + 43 = 93")

    taps = taps_for(table, enter)
    assert taps <= 20, taps
    assert table.totals() == {"0": "98", "1": "43"}


def test_an_ottocento_hand_with_a_cricca_declared_within_12_taps(phones: Any) -> None:
    """A cricca said by its type, as the table says it ("Bruno: four Kings"), not
    card by card: add, who, cricca, Kings, four. Anna's pair counts 50 card points, Bruno takes
    the last trick: 34 for the declaration and 43 for his pair, in 11 taps."""
    table = counted_table(phones, "ottocento", "ottocento", FOUR)
    page = table.page

    def enter() -> None:
        page.click("#decl-add")
        table.seat_chip("decl-seat", 1)
        table.choose("#decl-kind-cricca")
        table.choose("#decl-type-K")
        page.locator("label:has(#decl-size-4)").click()  # said whole: it is added at once
        expect(page.locator(".decl-list")).to_contain_text("Bruno")
        table.points(0, 50)
        table.seat_chip("last-trick", 1)
        expect(page.locator(".check-list")).to_contain_text("50 + 43 = 93")

    taps = taps_for(table, enter)
    assert taps <= 12, taps
    assert table.totals() == {"0": "50", "1": "77"}
    stored = table.stored_game()["hands"][0]["record"]["declarations"]
    assert stored == [{"seat": 1, "kind": "cricca", "type": "K", "count": 4}]


@pytest.mark.parametrize("variant,names", [("mitigatti-3", THREE), ("mitigatti-4", FOUR)])
def test_a_mitigatti_hand_by_points_within_10_taps(phones: Any, variant: str,
                                                   names: list[str]) -> None:
    table = counted_table(phones, variant, "mitigatti", names)
    page = table.page

    def enter() -> None:
        if variant == "mitigatti-4":  # Anna calls KH, held by Carla; their side counts 40
            table.choose("#contract-card-KH")
            table.seat_chip("contract-partner", 2)
            table.points(0, 40)
        else:  # Anna 48, Bruno 20, Carla the rest
            table.points(0, 48)
            page.keyboard.type("20")
        expect(page.locator(".check-list li.bad")).to_have_count(0)

    taps = taps_for(table, enter)
    assert taps <= 10, taps
    row = page.locator("tr.hand[data-hand='1']")
    expected = {"0": "+1", "1": "−1", "2": "+1", "3": "−1"} if variant == "mitigatti-4" \
        else {"0": "+3", "1": "−1", "2": "−2"}
    for column, marca in expected.items():
        expect(row.locator(f"td[data-col='{column}'] .marca")).to_have_text(marca)


def test_points_that_cannot_be_are_caught_before_saving(phones: Any) -> None:
    phone = phones()
    page = phone.page
    table = Table.seated(page, phone.base, "gatti-3", "gatti", THREE, new_hand=True)
    table.points(0, 50)
    page.keyboard.type("40")
    expect(page.locator(".check-list li.bad").first).to_contain_text("more than the hand's 78")
    # What the service says of a pile is shown at that side's field: Bruno won the last
    # trick with T1 (4 points), so his pile cannot be worth 2.
    page.fill("#points-0", "70")
    page.fill("#points-1", "2")
    page.click("#bagatto-on")
    table.seat_chip("bagatto-seat", 1)
    expect(page.locator(".check-list li.bad")).to_have_count(0)
    table.save()
    error = page.locator("[data-field='pile:1.points'] .field-error")
    expect(error).to_contain_text("T1")
    expect(page.locator("#points-1")).to_have_value("2")


def test_the_hand_in_dispute_is_corrected_card_by_card(phones: Any) -> None:
    """Entered by points; Bruno disputes it, and the table counts his pile card by card."""
    phone = phones()
    page = phone.page
    table = Table.seated(page, phone.base, "gatti-3", "gatti", THREE, new_hand=True)
    table.points(0, 39)
    page.keyboard.type("20")
    table.save_and_wait()
    assert table.totals() == {"0": "39", "1": "20", "2": "19"}

    page.click("tr.hand[data-hand='1'] .hand-button")
    page.click("#correct-1")
    page.wait_for_selector("#save")
    expect(page.locator("#pile-mode-points")).to_be_checked()
    expect(page.locator("#points-0")).to_have_value("39")
    table.pile(1, 9, ["KH", "KD", "QH", "T21"])
    table.pile(0, 9, ["T1", "FOOL", "KS", "KC"])
    expect(page.locator(".check-list li.bad")).to_have_count(0)
    table.save_and_wait()
    row = page.locator("tr.hand[data-hand='1']")
    expect(row.locator(".mark", has_text="#")).to_have_count(0)
    totals = table.totals()
    assert sum(int(v) for v in totals.values()) == 78 and totals["1"] != "20"
    page.click("tr.hand[data-hand='1'] .hand-button")
    expect(page.locator("#details-1")).to_contain_text(re.compile("9 tricks"))


def test_an_italian_page_shows_the_services_refusal_in_italian(phones: Any) -> None:
    """Anna shows the family of ♦ and Bruno four Kings: the K♦ cannot be in both hands. The
    refusal names the card and the players in Italian, with no English word in it."""
    phone = phones("it-IT")
    page = phone.page
    table = Table.seated(page, phone.base, "gatti-3", "gatti", THREE, new_hand=True)
    table.declare(0, "family", suit="D")
    table.declare(1, "four_of_a_kind", rank="K")
    table.points(0, 39)
    page.keyboard.type("20")
    table.save()
    errors = page.locator(".field-error")
    expect(errors.first).to_be_visible()
    said = " ".join(errors.all_inner_texts())
    assert "re di quadri" in said and "Anna" in said, said
    english = re.compile(r"\b(the|is|was|seat|shown|declared|pile|trick|cards?|points)\b")
    assert not english.search(said), said
