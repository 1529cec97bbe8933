"""The page shows who played with whom, who paid whom and who collected the pot as
the service says them — in the page's language, the players by name — and writes none of
these sentences itself."""

from __future__ import annotations

from typing import Any

from page_driver import Table, call
from playwright.sync_api import expect

THREE = ["Anna", "Bruno", "Carla"]
FOUR = ["Anna", "Bruno", "Carla", "Dario"]
#: Anna and Bruno tie on 30: Carla's 1 marca cannot be split and goes to the pot (R15); then
#: Carla is the sole top scorer and collects it.
TIE_THEN_TOP = [
    {"dealer": 0, "piles": [
        {"side": 0, "tricks": 10, "counting": ["T1", "T20", "FOOL", "KH", "KD"]},
        {"side": 1, "tricks": 10, "counting": ["KC", "KS", "QH", "QD", "QC", "QS"]}]},
    {"dealer": 1, "piles": [
        {"side": 2, "tricks": 12, "counting": ["T1", "T20", "FOOL", "KH", "KD", "KC", "KS"]},
        {"side": 0, "tricks": 8, "counting": ["QH", "QD", "QC", "QS"]}]},
]


def seated_with(phone: Any, variant: str, names: list[str],
                hands: list[dict[str, Any]]) -> tuple[Table, str, str]:
    """A game started on the page, ``hands`` recorded through the API, the sheet shown again;
    the table, the game's id and its edit token."""
    table = Table(phone.page, phone.base)
    table.start_game(variant, "mitigatti", names)
    table.to_sheet()
    page = phone.page
    game_id = page.evaluate("location.hash").split("/")[2]
    edit = page.evaluate(
        f"JSON.parse(localStorage.getItem('segnapunti.games.v1'))['{game_id}'].token")
    for hand in hands:
        call(phone.base, "POST", f"/games/{game_id}/hands", edit, hand)
    page.reload()
    expect(page.locator("tr.hand")).to_have_count(len(hands))
    return table, game_id, edit


def test_the_pot_and_who_paid_it_as_the_service_says_them(phones: Any) -> None:
    phone = phones()
    page = phone.page
    seated_with(phone, "mitigatti-3", THREE, TIE_THEN_TOP)
    page.click("tr.hand[data-hand='1'] .hand-button")
    expect(page.locator("#details-1 .payments li")).to_contain_text("(Carla → the pot 1)")
    expect(page.locator("#details-1 .pot-collected")).to_have_count(0)
    page.click("tr.hand[data-hand='2'] .hand-button")
    expect(page.locator("#details-2 .pot-collected")).to_contain_text(
        "Carla is the sole top scorer and collects the pot: 1 marca")


def test_an_italian_phone_shows_who_pays_whom_as_the_service_says_it(phones: Any) -> None:
    phone = phones("it-IT")
    page = phone.page
    _table, game_id, edit = seated_with(phone, "mitigatti-3", THREE, TIE_THEN_TOP)
    transfers = page.locator(".transfers li")
    expect(transfers).to_have_count(2)
    game = call(phone.base, "GET", f"/games/{game_id}", edit,
                headers={"Accept-Language": "it"})
    said = sorted(transfer["text"] for transfer in game["transfers"])
    assert said == ["Anna paga 1 marca a Carla", "Bruno paga 1 marca a Carla"]
    assert sorted(transfers.all_inner_texts()) == said


def test_a_french_phone_shows_the_contract_and_the_pot_in_the_services_french(
        phones: Any) -> None:
    phone = phones("fr-FR")
    page = phone.page
    _table, game_id, edit = seated_with(phone, "mitigatti-4", FOUR, [{
        "dealer": 0, "contract": {"type": "call", "declarer": 0, "called_card": "KH",
                                  "partner": 2},
        "piles": [{"side": 0, "points": 40}]}])
    said = call(phone.base, "GET", f"/games/{game_id}", edit,
                headers={"Accept-Language": "fr"})["hands"][0]["result"]
    assert said["contract_text"].startswith("Anna a appelé (ciama) ")
    page.click("tr.hand[data-hand='1'] .hand-button")
    expect(page.locator("#details-1 .contract")).to_have_text(said["contract_text"])
    expect(page.locator("#details-1 .payments li")).to_contain_text(
        f"({', '.join(p['flow'] for p in said['payments'])})")
