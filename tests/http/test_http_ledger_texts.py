"""Mitigatti's settlement said by the service (rulebook §5.6): each transfer of the
ledger carries its sentence (``text``), the table's players by name and the money as the
request's language writes it; a payment into the pot (R15) said as one."""

from __future__ import annotations

from typing import Any

import pytest
from http_support import auth

#: Seats 0 and 1 tie on 30, seat 2 (18) pays 1 marca, which cannot be split: it goes to the
#: pot (R15).
TIE = {"piles": [
    {"side": 0, "tricks": 10, "counting": ["T1", "T20", "FOOL", "KH", "KD"]},
    {"side": 1, "tricks": 10, "counting": ["KC", "KS", "QH", "QD", "QC", "QS"]}]}
#: Seat 2 is the sole top scorer, and collects the pot.
TOP = {"piles": [
    {"side": 2, "tricks": 12, "counting": ["T1", "T20", "FOOL", "KH", "KD", "KC", "KS"]},
    {"side": 0, "tricks": 8, "counting": ["QH", "QD", "QC", "QS"]}]}


def _evening(table: Any, hands: list[dict[str, Any]], **options: Any) -> Any:
    game = table(variant="mitigatti-3", players=("Anna", "Bruno", "Carla"), options=options)
    for dealer, hand in enumerate(hands):
        added = game.add({"dealer": dealer, **hand})
        assert added.status_code == 201, added.json
    return game


def _transfers(game: Any, lang: str) -> list[tuple[str, str, str]]:
    read = game.client.get(game.url, headers={**auth(game.read), "Accept-Language": lang})
    assert read.status_code == 200, read.json
    return sorted((t["from"], t["to"], t["text"]) for t in read.json["transfers"])


PAID = {
    "en": ["Anna pays Carla 1 marca (€0.50)", "Bruno pays Carla 1 marca (€0.50)"],
    "it": ["Anna paga 1 marca a Carla (0,50 €)", "Bruno paga 1 marca a Carla (0,50 €)"],
    "fr": ["Anna paie 1 marca à Carla (0,50 €)", "Bruno paie 1 marca à Carla (0,50 €)"],
}


@pytest.mark.parametrize("lang", PAID)
def test_each_transfer_says_who_pays_whom_and_the_money(table: Any, lang: str) -> None:
    game = _evening(table, [TIE, TOP], marca_value="0.50")
    assert _transfers(game, lang) == [("0", "2", PAID[lang][0]), ("1", "2", PAID[lang][1])]


IN_CHF = {"en": "Anna pays Carla 1 marca (CHF 0.50)", "it": "Anna paga 1 marca a Carla (0,50 CHF)"}


@pytest.mark.parametrize("lang", IN_CHF)
def test_a_currency_without_a_sign_is_written_by_its_code(table: Any, lang: str) -> None:
    game = _evening(table, [TIE, TOP], marca_value="0.50", currency="CHF")
    assert _transfers(game, lang)[0] == ("0", "2", IN_CHF[lang])


INTO_THE_POT = {
    "en": "Carla pays 2 marca into the pot",
    "it": "Carla mette 2 marche nel piatto",
    "fr": "Carla met 2 marca dans le pot",
}


@pytest.mark.parametrize("lang", INTO_THE_POT)
def test_what_the_pot_still_holds_is_paid_into_it(table: Any, lang: str) -> None:
    game = _evening(table, [TIE, TIE])
    assert _transfers(game, lang) == [("2", "pot", INTO_THE_POT[lang])]
