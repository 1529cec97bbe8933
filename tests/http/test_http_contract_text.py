"""Who played with whom, who paid whom and who collected the pot, said by the
service in the table's language with the players' names — a Mitigatti hand's contract
(``contract_text``, §5.3), gatti-4-call's call (§2.2), each payment's ``flow`` and the pot
collected (R15) — which the page and the sheet show as they come.

Cards are named as the Speaker names them in the game's family (``card_name``: another part
of the service, tested on its own), so these tests hold the sentences around them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from http_support import API, auth

from service.application.language import card_name
from service.domain import find_variant

IT = {"Accept-Language": "it"}
FR = {"Accept-Language": "fr"}
LANGS = {"en": {}, "it": IT, "fr": FR}
FOUR = ("Anna", "Bruno", "Carla", "Dario")
TRICKS = Path(__file__).parents[1] / "scenarios" / "tricks" / "corpus" / "gatti-4-call.json"


def named(code: str, lang: str, variant: str = "mitigatti-4") -> str:
    """A card as the service says it in ``lang`` in a game of ``variant``."""
    found = find_variant(variant)
    return card_name(found.pack.card(code), lang, found.family)


def results(game: Any) -> dict[str, dict[str, Any]]:
    """The game's body in each language."""
    out = {}
    for lang, headers in LANGS.items():
        response = game.client.get(game.url, headers={**auth(game.read), **headers})
        assert response.status_code == 200, response.json
        out[lang] = response.json
    return out


def contract_said(table: Any, hand: dict[str, Any]) -> dict[str, str]:
    game = table(variant="mitigatti-4", players=FOUR, first_dealer=hand["dealer"])
    added = game.add(hand)
    assert added.status_code == 201, added.json
    return {lang: body["hands"][0]["result"]["contract_text"]
            for lang, body in results(game).items()}


def test_s5_3_a_call_is_said_with_the_declarers_and_the_partners_names(table: Any) -> None:
    said = contract_said(table, {
        "dealer": 0, "contract": {"type": "call", "declarer": 0, "called_card": "KH",
                                  "partner": 2},
        "piles": [{"side": 0, "points": 40}]})
    assert said == {
        "en": "Anna called KH: partner Carla",
        "it": f"Anna ha chiamato {named('KH', 'it')}: compagno Carla",
        "fr": f"Anna a appelé (ciama) {named('KH', 'fr')}\u202f: partenaire Carla"}


def test_s5_3_a_solo_taking_a_card_from_its_holder_names_both(table: Any) -> None:
    said = contract_said(table, {
        "dealer": 0, "contract": {"type": "solo", "declarer": 1, "called_card": "T21",
                                  "partner": 3},
        "piles": [{"side": 0, "points": 40}]})
    assert said == {
        "en": "Bruno played solo, calling T21 from Dario",
        "it": f"Bruno ha giocato solo chiamando {named('T21', 'it')} a Dario",
        "fr": f"Bruno a joué solete en appelant {named('T21', 'fr')} à Dario"}


def test_s5_3_a_solo_whose_card_holder_is_not_recorded_says_the_card(table: Any) -> None:
    said = contract_said(table, {
        "dealer": 0, "contract": {"type": "solo", "declarer": 1, "called_card": "T21"},
        "piles": [{"side": 0, "points": 40}]})
    assert said == {
        "en": "Bruno played solo, calling T21",
        "it": f"Bruno ha giocato solo chiamando {named('T21', 'it')}",
        "fr": f"Bruno a joué solete en appelant {named('T21', 'fr')}"}


@pytest.mark.parametrize("contract", [{"type": "solo", "declarer": 3, "sans_prendre": True},
                                      {"type": "solo", "declarer": 3}],
                         ids=["flagged", "no card called"])
def test_r17_a_solo_calling_no_card_is_said_sans_prendre(table: Any,
                                                        contract: dict[str, Any]) -> None:
    said = contract_said(table, {"dealer": 0, "contract": contract,
                                 "piles": [{"side": 0, "points": 40}]})
    assert said == {"en": "Dario played solo sans prendre",
                    "it": "Dario ha giocato solo sans prendre (senza chiamare)",
                    "fr": "Dario a joué solete sans prendre"}


def test_s5_3_a_surrender_is_said_with_the_declarers_name(table: Any) -> None:
    said = contract_said(table, {"dealer": 1, "contract": {
        "type": "surrender", "declarer": 1, "called_card": "KH"}})
    assert said == {"en": "Bruno called a card of their own and surrendered",
                    "it": "Bruno ha chiamato una carta sua e si è arreso",
                    "fr": "Bruno a appelé une de ses propres cartes et a abandonné"}


def test_a_score_with_no_table_says_the_contract_with_seats(client: Any) -> None:
    response = client.post(f"{API}/score", json={"variant": "mitigatti-4", "hand": {
        "dealer": 0, "contract": {"type": "call", "declarer": 0, "called_card": "KH",
                                  "partner": 2},
        "piles": [{"side": 0, "points": 40}]}})
    assert response.status_code == 200, response.json
    assert response.json["contract_text"] == "Seat 0 called KH: partner seat 2"


def _trick_case(name: str) -> dict[str, Any]:
    cases = json.loads(TRICKS.read_text(encoding="utf-8"))["cases"]
    return next(case["hand"] for case in cases if case["name"] == name)


def test_s2_2_the_call_names_the_partner_the_tricks_revealed(table: Any) -> None:
    """Bruno deals and calls KD without saying who held it: Dario played it."""
    hand = _trick_case("the called King's player is the partner (derived)")
    assert "partner" not in hand["call"]
    game = table(variant="gatti-4-call", players=FOUR, first_dealer=1)
    assert game.add(hand).status_code == 201
    said = {lang: body["hands"][0]["result"]["contract_text"]
            for lang, body in results(game).items()}
    assert said == {
        "en": "Bruno called KD: partner Dario",
        "it": f"Bruno ha chiamato {named('KD', 'it', 'gatti-4-call')}: compagno Dario",
        "fr": f"Bruno a appelé {named('KD', 'fr', 'gatti-4-call')}\u202f: partenaire Dario"}


def test_s2_2_a_dealer_calling_their_own_card_is_said_alone(table: Any) -> None:
    hand = _trick_case("the dealer calls a King of its own: alone against three")
    game = table(variant="gatti-4-call", players=FOUR, first_dealer=1)
    assert game.add(hand).status_code == 201
    said = {lang: body["hands"][0]["result"]["contract_text"]
            for lang, body in results(game).items()}
    assert said == {
        "en": "Bruno called KD, a card of their own: alone against three",
        "it": f"Bruno ha chiamato {named('KD', 'it', 'gatti-4-call')}, carta sua: da solo "
              "contro tre",
        "fr": f"Bruno a appelé {named('KD', 'fr', 'gatti-4-call')}, une de ses propres cartes\u202f: seul "
              "contre trois"}


def test_a_hand_without_a_call_or_a_contract_says_none(table: Any) -> None:
    game = table(variant="mitigatti-3", players=FOUR[:3])
    added = game.add({"dealer": 0, "piles": [
        {"side": 0, "tricks": 10, "counting": ["T1", "T20", "FOOL", "KH", "KD"]},
        {"side": 1, "tricks": 10, "counting": ["KC", "KS", "QH", "QD", "QC", "QS"]}]})
    assert added.status_code == 201, added.json
    assert "contract_text" not in added.json["result"]


def test_r15_payments_and_the_pot_collected_are_said_with_names(table: Any) -> None:
    """Anna and Bruno tie on 30: Carla's 1 marca cannot be split and goes to the pot; Carla,
    sole top scorer of the next hand, collects it."""
    game = table(variant="mitigatti-3", players=FOUR[:3])
    for hand in (
            {"dealer": 0, "piles": [
                {"side": 0, "tricks": 10, "counting": ["T1", "T20", "FOOL", "KH", "KD"]},
                {"side": 1, "tricks": 10, "counting": ["KC", "KS", "QH", "QD", "QC", "QS"]}]},
            {"dealer": 1, "piles": [
                {"side": 2, "tricks": 12, "counting": ["T1", "T20", "FOOL", "KH", "KD", "KC",
                                                       "KS"]},
                {"side": 0, "tricks": 8, "counting": ["QH", "QD", "QC", "QS"]}]}):
        assert game.add(hand).status_code == 201
    bodies = results(game)
    flows = {lang: [p["flow"] for p in body["hands"][0]["result"]["payments"]]
             for lang, body in bodies.items()}
    assert flows == {"en": ["Carla → the pot 1"], "it": ["Carla → il piatto 1"],
                     "fr": ["Carla → le pot 1"]}
    second = {lang: [p["flow"] for p in body["hands"][1]["result"]["payments"]]
              for lang, body in bodies.items()}
    assert second["en"] == second["it"] == second["fr"] == ["Anna → Carla 1", "Bruno → Carla 1"]
    collected = {lang: [x["text"] for x in body["pot_collected"]]
                 for lang, body in bodies.items()}
    assert collected == {
        "en": ["Carla is the sole top scorer and collects the pot: 1 marca"],
        "it": ["Carla ha fatto più punti da solo e prende il piatto: 1 marca"],
        "fr": ["Carla a fait seul le plus de points et prend le pot\u202f: 1 marca"]}
