"""Games that end by a target (Ottocento's rubber, R12/R13) and games settled in marca
(Mitigatti's ledger), played through the API."""

from __future__ import annotations

from typing import Any

from http_support import assert_problem, auth, error_fields

from service.domain.ottocento.combos import SIGNIFICANT
from service.domain.registry import find_variant

OTTO = find_variant("ottocento")
ALL_SIGNIFICANT = [c.code for c in OTTO.pack.sort(SIGNIFICANT)]
FOUR = ("Anna", "Bruno", "Carla", "Dario")


def post(client: Any, game: Any, hand: dict[str, Any]) -> Any:
    return client.post(f"{game.url}/hands", json=hand, headers=auth(game.edit))


def big_first_hand() -> dict[str, Any]:
    """Seats 0 and 2 take 12 tricks, the discard and every card that matters but the ♥
    King, Queen and Knight: 736 to 25."""
    keep = [c for c in ALL_SIGNIFICANT if c not in ("KH", "QH", "CH")]
    return {"dealer": 0, "discard": ["6S", "7S"], "last_trick": 0,
            "piles": [{"side": 0, "tricks": 13, "counting": keep}]}


def test_r13_a_rubber_won_during_the_declarations(table: Any, client: Any) -> None:
    game = table(variant="ottocento", players=FOUR)
    first = post(client, game, big_first_hand())
    assert first.status_code == 201, first.json
    assert game.state()["totals"] == {"0": 736, "1": 25}

    # Hand 2, dealt by seat 1: seat 2 leads and declares first, three cricche doubled (118).
    stop = {"dealer": 1, "declarations": [
        {"seat": 2, "kind": "cricca", "cards": ["KS", "KH", "KD", "KC"]},
        {"seat": 2, "kind": "cricca", "cards": ["CS", "CH", "CD"]},
        {"seat": 2, "kind": "cricca", "cards": ["JS", "JH", "JD"]},
        {"seat": 3, "kind": "cricca", "cards": ["QS", "QH", "QD"]}]}
    response = post(client, game, stop)
    assert response.status_code == 201, response.json
    state = game.state()
    assert state["status"] == "finished" and state["winners"] == ["0"]
    assert state["ended_by"] == "R13"
    # Seat 3's declaration comes after the rubber is won: it is not counted.
    assert state["totals"] == {"0": 736 + 118, "1": 25}
    assert_problem(post(client, game, big_first_hand()), 409)


def test_r13_declarations_that_do_not_win_need_the_rest_of_the_hand(table: Any,
                                                                     client: Any) -> None:
    game = table(variant="ottocento", players=FOUR)
    before = game.state()
    response = post(client, game, {"dealer": 0, "declarations": [
        {"seat": 1, "kind": "cricca", "cards": ["KS", "KH", "KD"]}]})
    body = assert_problem(response, 422)
    assert error_fields(body) == {"piles": "hand_not_finished"}
    assert game.state()["hands"] == before["hands"]


def test_r12_a_rubber_won_at_the_end_of_a_hand(table: Any, client: Any) -> None:
    game = table(variant="ottocento", players=FOUR)
    everything = {"dealer": 0, "discard": ["6S", "7S"], "last_trick": 2,
                  "piles": [{"side": 0, "tricks": 16, "counting": ALL_SIGNIFICANT}]}
    assert post(client, game, everything).status_code == 201
    state = game.state()
    assert state["status"] == "finished" and state["ended_by"] == "R12"
    assert state["winners"] == ["0"] and state["totals"]["0"] >= 800


def test_a_mitigatti_evening_with_a_thrown_in_deal_a_tie_and_the_pot(table: Any,
                                                                     client: Any) -> None:
    game = table(variant="mitigatti-3", players=("Anna", "Bruno", "Carla"),
                 options={"marca_value": "0.50"})
    assert post(client, game, {"dealer": 0, "thrown_in": True}).status_code == 201
    assert game.state()["next_dealer"] == 0  # a thrown-in deal does not move the deal

    # Seats 0 and 1 tie on 30; seat 2 (18) pays 1, which cannot be split: it goes to the pot.
    tie = {"dealer": 0, "piles": [
        {"side": 0, "tricks": 10, "counting": ["T1", "T20", "FOOL", "KH", "KD"]},
        {"side": 1, "tricks": 10, "counting": ["KC", "KS", "QH", "QD", "QC", "QS"]}]}
    response = post(client, game, tie)
    assert response.status_code == 201, response.json
    assert response.json["result"]["marca"] == {"0": 0, "1": 0, "2": -1}
    assert response.json["result"]["pot"] == 1
    state = game.state()
    assert state["balances"] == {"0": 10, "1": 10, "2": 9} and state["pot"] == 1

    # Seat 2 is the sole top scorer of the next hand and collects the pot.
    top = {"dealer": 1, "piles": [
        {"side": 2, "tricks": 12, "counting": ["T1", "T20", "FOOL", "KH", "KD", "KC", "KS"]},
        {"side": 0, "tricks": 8, "counting": ["QH", "QD", "QC", "QS"]}]}
    response = post(client, game, top)
    assert response.status_code == 201, response.json
    state = game.state()
    assert state["balances"] == {"0": 9, "1": 9, "2": 12} and state["pot"] == 0
    assert state["pot_collected"] == [{
        "hand": 3, "seat": "2", "marca": 1,
        "text": "Carla is the sole top scorer and collects the pot: 1 marca"}]
    assert sum(state["balances"].values()) + state["pot"] == 30
    assert state["money"] == {"0": "-0.50", "1": "-0.50", "2": "1.00"}
    assert sorted((t["from"], t["to"], t["marca"], t["money"]) for t in state["transfers"]) \
        == [("0", "2", 1, "0.50"), ("1", "2", 1, "0.50")]


def test_mitigatti_marca_value_must_be_money(table: Any, client: Any) -> None:
    response = client.post("/api/v1/games", json={
        "variant": "mitigatti-4", "players": list(FOUR), "options": {"marca_value": "lots"}})
    body = assert_problem(response, 422)
    assert error_fields(body) == {"options.marca_value": "invalid_option"}
