"""The phone page, driven in headless Chromium at 360 × 740 as a table uses it.

The expected totals are worked out from the rules (rulebook §2, §5), not read back from the
service: the page must show what the table would write on paper."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest
from page_driver import Table, king_shown_twice
from playwright.sync_api import expect


def api(base: str, method: str, path: str, body: Any = None, token: str | None = None,
        headers: dict[str, str] | None = None) -> tuple[int, Any]:
    request = urllib.request.Request(
        base + "/api/v1" + path, method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json", **(headers or {}),
                 **({"Authorization": f"Bearer {token}"} if token else {})})
    try:
        with urllib.request.urlopen(request) as response:
            text = response.read()
            return response.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def token_of(link: str) -> tuple[str, str]:
    match = re.search(r"/#/games/([a-z0-9]+)\?token=([A-Za-z0-9_-]+)$", link)
    assert match, link
    return match.group(1), match.group(2)


def test_a_whole_gatti_3_game_entered_through_the_page(phones: Any) -> None:
    """Three hands as a table says them, in Italian: melds by name and by the cards shown,
    one pile counted per side and the third taken as the rest of the pack, Bagatto ultimo.
    Hand 1: Anna 10 trumps + 9 tricks and 14 in counting cards = 33; Bruno family ♦ + 10
    tricks and 21 = 41; Carla three Kings + the rest (7 tricks, 17) = 29. Hand 2: Anna 20
    frilli + 6 and 11 = 37; Bruno 12 and 29 = 41; Carla gatti 10 + Bagatto 20 + the rest (8,
    12) = 50. Hand 3: Anna 8 and 11 = 19; Bruno 10 then 11 trumps (R1: 11) + 9 and 26 = 46;
    Carla the rest (9, 15) = 24. Totals 89, 128, 103: Bruno wins."""
    phone = phones("it-IT")
    page = phone.page
    table = Table(page, phone.base)
    links = table.start_game("gatti-3", "gatti", ["Anna", "Bruno", "Carla"], dealer=0)

    # The share screen: both links, the token only in the fragment, each as a QR code.
    assert set(links) == {"edit", "read"}
    game_id, edit = token_of(links["edit"])
    assert token_of(links["read"])[0] == game_id and token_of(links["read"])[1] != edit
    expect(page.locator("[data-link='edit'] svg.qr, [data-link='read'] svg.qr")).to_have_count(2)
    expect(page.locator("[data-link='players'] svg.qr")).to_have_count(3)  # one per player
    table.to_sheet()
    # The address bar keeps no token.
    assert "token" not in page.url
    expect(page.locator(".status")).to_contain_text("Mano 1 di 3")
    expect(page.locator(".status")).to_contain_text("Anna")

    # Hand 1, dealer Anna.
    table.new_hand()
    expect(page.locator(".dealer-line")).to_contain_text("Anna")
    table.declare(1, "family", suit="D")
    table.declare(2, "three_of_a_kind", rank="K")
    table.declare(0, "trumps", count=10)
    table.pile(0, 9, ["T1", "KH", "QH", "CH", "JH"])
    table.pile(1, 10, ["T21", "FOOL", "KC", "QC", "QD", "CC", "JC"])
    checks = page.locator(".check-list")
    expect(checks).to_contain_text("Prese: 26 su 26")
    expect(checks).to_contain_text("23 + 31 + 24 = 78")
    expect(page.locator(".check-list li.bad")).to_have_count(0)
    expect(page.locator("#preview")).to_contain_text("33")
    table.save_and_wait()
    assert table.totals() == {"0": "33", "1": "41", "2": "29"}
    first_row = page.locator("tr.hand[data-hand='1']")
    expect(first_row.locator("td[data-col='1']")).to_contain_text("10 ♦")
    expect(first_row.locator("td[data-col='2']")).to_contain_text("5 R")  # three Kings: the re
    expect(first_row.locator("td[data-col='0']")).to_contain_text("10 T")

    # Hand 2, dealer Bruno: Carla shows the Fool, T1 and T21 and the page suggests gatti.
    table.new_hand()
    expect(page.locator(".dealer-line")).to_contain_text("Bruno")
    table.declare_cards(2, ["FOOL", "T1", "T21"], "Gatti")
    table.declare(0, "frilli", count=20)
    table.pile(0, 6, ["KH", "KD", "QS"])
    table.pile(1, 12, ["QH", "QD", "QC", "CH", "CD", "CC", "CS", "JH", "JD", "JC", "JS", "KC",
                       "KS"])
    table.bagatto(2, won=True)
    expect(page.locator(".check-list")).to_contain_text("17 + 41 + 20 = 78")
    table.save_and_wait()
    assert table.totals() == {"0": "70", "1": "82", "2": "79"}
    expect(page.locator("tr.hand[data-hand='2'] td[data-col='2']")).to_contain_text("20 B")

    # The explanation of a hand, on tap.
    page.click("tr.hand[data-hand='2'] .hand-button")
    details = page.locator("#details-2")
    # Each line as the service says it, in the page's language, the players named.
    expect(details).to_contain_text("Carla ha vinto l'ultima presa col Bagatto: 20")
    expect(details).to_contain_text("Carla: buona dichiarata, gatti: 10")
    # Each line's rule is a link to its section, named by it (§2.6: scoring a hand).
    expect(details.locator("a.rule", has_text="Il conto di una mano").first).to_have_attribute(
        "href", re.compile(r"#/rules/gatti-3/%C2%A72\.6$"))
    page.click("tr.hand[data-hand='2'] .hand-button")

    # Hand 3, dealer Carla: Bruno declares 10 trumps, then 11 (R1: 1 more).
    table.new_hand()
    expect(page.locator(".dealer-line")).to_contain_text("Carla")
    table.declare(1, "trumps", count=10)
    table.declare(1, "trumps", count=11)
    table.pile(0, 8, ["KH", "QH", "T21"])
    table.pile(1, 9, ["KD", "KC", "KS", "QD", "QC", "FOOL", "T1"])
    table.save_and_wait()

    assert table.totals() == {"0": "89", "1": "128", "2": "103"}
    expect(page.locator(".winner")).to_contain_text("Vince Bruno")
    expect(page.locator(".status")).to_contain_text("Partita finita")
    expect(page.locator("#new-hand")).to_have_count(0)
    expect(page.locator("td.winner-cell[data-total='1']")).to_have_count(1)

    # What the service stored is what the table said.
    status, game = api(phone.base, "GET", f"/games/{game_id}", token=edit)
    assert status == 200
    assert game["totals"] == {"0": 89, "1": 128, "2": 103} and game["winners"] == ["1"]
    assert game["hands"][1]["record"]["declarations"][0] == {
        "seat": 2, "kind": "gatti", "cards": ["FOOL", "T1", "T21"]}


def test_a_mitigatti_4_hand_settles_in_marca(phones: Any) -> None:
    """Anna deals and calls KH, held by Carla; Bruno declares mitigatti and wins the last
    trick with the Bagatte. Anna and Carla take 9 tricks and 14 (23 of 72) and lose the
    partida: 1 each to Bruno and Dario (the table counted 23, typed as points). Mitigatti: 1 from each to Bruno; Bagatte ultimu: 2 from
    each to Bruno. Marca: Anna −4, Bruno +10, Carla −4, Dario −2; balances 6, 20, 6, 8."""
    phone = phones()
    page = phone.page
    table = Table(page, phone.base)
    table.start_game("mitigatti-4", "mitigatti", ["Anna", "Bruno", "Carla", "Dario"],
                     options={"marca_value": "0.50"})
    table.to_sheet()
    expect(page.locator(".balance")).to_have_count(4)
    table.new_hand()
    table.choose("#contract-type-call")
    table.choose("#contract-card-KH")
    table.seat_chip("contract-partner", 2)
    expect(page.locator("label[for='points-0']")).to_contain_text("Anna & Carla")
    table.declare(1, "mitigatti")
    table.points(0, 23)
    table.bagatto(1, won=True)
    expect(page.locator(".check-list")).to_contain_text("23 + 49 = 72")
    expect(page.locator("#preview")).to_contain_text("+10")
    table.save_and_wait()

    row = page.locator("tr.hand[data-hand='1']")
    for column, marca in {"0": "−4", "1": "+10", "2": "−4", "3": "−2"}.items():
        expect(row.locator(f"td[data-col='{column}'] .marca")).to_have_text(marca)
    assert table.totals() == {"0": "6", "1": "20", "2": "6", "3": "8"}
    balances = page.locator(".balance .balance-value")
    assert [balances.nth(i).inner_text() for i in range(4)] == ["6", "20", "6", "8"]
    expect(page.locator(".balance[data-seat='1']")).to_contain_text("5.00")
    transfers = page.locator(".transfers li")
    expect(transfers).to_have_count(3)
    # Who pays whom as the service says it, the money as English writes it.
    expect(transfers.first).to_have_text("Anna pays Bruno 4 marca (€2.00)")
    page.click("tr.hand[data-hand='1'] .hand-button")
    # The contract, each payment and the transfers it makes, as the service says them.
    expect(page.locator("#details-1 .contract")).to_have_text("Anna called KH: partner Carla")
    bagatte = page.locator("#details-1 .payments li", has_text="with the Bagatte")
    expect(bagatte).to_contain_text("Bruno won the last trick with the Bagatte: 2 marca from "
                                     "each other player")
    expect(bagatte).to_contain_text("(Anna → Bruno 2, Carla → Bruno 2, Dario → Bruno 2)")
    expect(page.locator("#details-1")).to_contain_text("Partida: the declarer's side (Anna and "
                                                       "Carla) took 23 of 72 points")

    # A thrown-in deal: recorded, settles nothing, the deal stays with Bruno.
    table.new_hand()
    expect(page.locator(".dealer-line")).to_contain_text("Bruno")
    page.click("#thrown-in")
    table.save_and_wait()
    expect(page.locator(".status")).to_contain_text("Bruno")
    assert table.totals() == {"0": "6", "1": "20", "2": "6", "3": "8"}


def test_a_broken_rule_is_shown_at_its_field(phones: Any) -> None:
    """Bruno declares the family of ♥ and Carla four Kings: KH would be shown by two players
    (R2). The service's error names declarations[1]: the page shows it on Carla's line."""
    phone = phones()
    page = phone.page
    table = king_shown_twice(phone)
    table.save()
    error = page.locator("[data-field='declarations[1]'] .field-error")
    expect(error).to_contain_text("KH")
    expect(error.locator("a.rule")).to_have_text("Shown cards")  # R2, by its title
    expect(page.locator("[data-field='declarations[1]']")).to_have_attribute("aria-invalid", "true")
    # Removing Carla's declaration clears the error and the hand goes in.
    page.click("#decl-remove-1")
    expect(page.locator(".field-error")).to_have_count(0)
    table.save_and_wait()
    assert table.totals()["1"] != "0"


def test_a_counting_card_in_a_pile_without_tricks_is_caught_before_sending(phones: Any) -> None:
    phone = phones()
    page = phone.page
    table = Table(page, phone.base)
    table.start_game("gatti-4", "gatti", ["Anna", "Bruno", "Carla", "Dario"])
    table.to_sheet()
    table.new_hand()
    table.pile(0, 0, ["KS"])
    bad = page.locator(".check-list li.bad")
    expect(bad).to_contain_text("no tricks but one card")
    table.fill_number("#tricks", 11)
    expect(bad).to_have_count(0)
    expect(page.locator(".check-list")).to_contain_text("= 72")


def test_the_read_only_link_follows_the_game_and_a_lost_race_reloads(phones: Any) -> None:
    scorer = phones()
    table = Table(scorer.page, scorer.base)
    links = table.start_game("gatti-4", "gatti", ["Anna", "Bruno", "Carla", "Dario"])
    table.to_sheet()

    # A second phone opens the read-only link: no edit controls, and it follows live.
    reader = phones()
    reader.page.goto(links["read"])
    reader.page.wait_for_selector("table.sheet")
    assert "token" not in reader.page.url
    expect(reader.page.locator(".badge.read")).to_be_visible()
    expect(reader.page.locator("#new-hand")).to_have_count(0)

    table.new_hand()
    table.pile(0, 11, ["KH", "QH", "T1"])
    table.save_and_wait()
    expect(reader.page.locator("tr.hand[data-hand='1']")).to_have_count(1)
    expect(reader.page.locator("tfoot td[data-total='0']")).to_have_text(
        scorer.page.locator("tfoot td[data-total='0']").inner_text())

    # A third phone with the edit link starts hand 2 while the scorer records it first.
    other = phones()
    other.page.goto(links["edit"])
    other.page.wait_for_selector("#new-hand")
    rival = Table(other.page, other.base)
    rival.new_hand()
    table.new_hand()
    table.pile(0, 10, ["KD"])
    table.save_and_wait()
    expect(other.page.locator("#banner")).to_contain_text("Another phone has just recorded hand 2")
    rival.pile(0, 12, ["KS"])
    rival.save()
    expect(other.page.locator("#banner")).to_contain_text("Hand 2 was already recorded on another phone")
    other.page.wait_for_selector("table.sheet")
    expect(other.page.locator("tr.hand")).to_have_count(2)

    # A correction that lost a race (412): the hand changed on another phone in between.
    other.page.click("tr.hand[data-hand='2'] .hand-button")
    other.page.click("#correct-2")
    other.page.wait_for_selector("#save")
    table.page.click("tr.hand[data-hand='2'] .hand-button")
    table.page.click("#correct-2")
    table.page.wait_for_selector("#save")
    table.fill_number("#tricks", 9)
    table.save_and_wait()
    rival.fill_number("#tricks", 8)
    rival.save()
    expect(other.page.locator("#banner")).to_contain_text("Hand 2 was changed on another phone")
    other.page.wait_for_selector("table.sheet")

    # Deleting the last hand, with its ETag.
    table.page.click("tr.hand[data-hand='2'] .hand-button")
    table.page.click("#delete-2")
    table.page.click("#delete-yes")
    expect(table.page.locator("tr.hand")).to_have_count(1)
    expect(reader.page.locator("tr.hand")).to_have_count(1)


@pytest.mark.parametrize("variant,family,names", [
    ("ottocento", "ottocento", ["Anna", "Bruno", "Carla", "Dario"]),
    ("gatti-4-call", "gatti", ["Anna", "Bruno", "Carla", "Dario"]),
    ("gatti-classic-4", "gatti-classic", ["Anna", "Bruno", "Carla", "Dario"]),
])
def test_ottocento_and_the_call(phones: Any, variant: str, family: str,
                                names: list[str]) -> None:
    phone = phones()
    page = phone.page
    table = Table(page, phone.base)
    table.start_game(variant, family, names)
    table.to_sheet()
    table.new_hand()
    if variant == "ottocento":
        expect(page.locator(".progress .bar")).to_have_count(0)  # progress is on the sheet
        table.declare_cards(1, ["KH", "KD", "KS"], "cricca")
        table.pile(0, 8, ["ANGEL", "WORLD", "SUN", "MOON", "KH", "KD", "QH", "T16", "T15",
                          "T14", "T13", "MORO1", "MORO2", "1H", "1D", "JH", "JD", "CH", "CD",
                          "QD", "KC"])
        table.seat_chip("last-trick", 0)
        expect(page.locator(".check-list")).to_contain_text("53 + 40 = 93")
        table.save_and_wait()
        expect(page.locator(".progress .bar")).to_have_count(2)
        assert table.totals() == {"0": "220", "1": "177"}
    elif variant == "gatti-classic-4":
        # §3, a point per three cards: 9 tricks and the discard are 34 cards, 11 points, and
        # 15 in counting cards; the other pair's 44 cards 15, and 37.
        table.pile(0, 9, ["KH", "KD", "QH", "T1"])
        expect(page.locator(".check-list")).to_contain_text("26 + 52 = 78")
        table.save_and_wait()
        assert table.totals() == {"0": "26", "1": "52"}
    else:
        table.choose("#call-card-KH")
        table.seat_chip("call-partner", 2)
        table.pile(0, 9, ["KH", "KD", "QH", "T1"])
        table.bagatto(0, won=True)
        table.save_and_wait()
        # Each player is credited the side they played on (R6): 9 + 15 + 20 for the caller's,
        # 11 tricks + 37 for the others.
        assert table.totals() == {"0": "44", "1": "48", "2": "44", "3": "48"}
        # The call, as the service says it.
        page.click("tr.hand[data-hand='1'] .hand-button")
        expect(page.locator("#details-1 .contract")).to_have_text(
            "Anna called KH: partner Carla")


def test_the_page_works_with_the_keyboard(phones: Any) -> None:
    """Tab to a control, Enter or Space to use it: starting a game, choosing the dealer with
    the arrow keys, tapping a counting card and stepping the tricks."""
    phone = phones()
    page = phone.page
    page.goto(phone.base + "/")
    page.locator("#new-game").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#start")
    for i, name in enumerate(["Anna", "Bruno", "Carla"]):
        page.locator(f"#player-{i}").focus()
        page.keyboard.type(name)
    page.locator("#dealer-0").focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#dealer-1")).to_be_checked()
    page.locator("#start").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#to-sheet")
    page.locator("#to-sheet").focus()
    page.keyboard.press("Enter")
    page.locator("#new-hand").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#save")
    expect(page.locator(".dealer-line")).to_contain_text("Bruno")
    page.locator("#pile-mode-cards").focus()
    page.keyboard.press("Space")
    expect(page.locator("#pile-mode-cards")).to_be_checked()
    page.locator("#card-KH").focus()
    page.keyboard.press("Space")
    expect(page.locator("#card-KH")).to_have_attribute("aria-pressed", "true")
    # The focus stays on the card after the form redraws.
    assert page.evaluate("document.activeElement.id") == "card-KH"
    page.locator("#tricks-plus").focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    expect(page.locator("#tricks")).to_have_value("2")



def test_a_new_game_the_service_refuses_says_why_at_the_field_and_keeps_it_on_redraw(
        phones: Any) -> None:
    """Bad input: one player named twice (however typed) is refused; the new-game
    form shows the service's problem at that player's field, starts nothing, and still shows
    it when the form is drawn again (another table form chosen)."""
    phone = phones()
    page = phone.page
    page.goto(phone.base + "/")
    page.click("#new-game")
    expect(page.locator("#variant-summary")).to_have_attribute("data-variant", "gatti-3")
    for i, name in enumerate(["Anna", "ANNA", "Bruno"]):
        page.fill(f"#player-{i}", name)
    page.click("#start")
    error = page.locator("[data-field='players[1]'] .field-error")
    expect(error).to_be_visible()
    said = error.inner_text()
    expect(page.locator("#to-sheet")).to_have_count(0)
    Table(page, phone.base).choose("#variant-gatti-4")
    expect(page.locator("#variant-summary")).to_have_attribute("data-variant", "gatti-4")
    expect(page.locator("[data-field='players[1]'] .field-error")).to_have_text(said)
