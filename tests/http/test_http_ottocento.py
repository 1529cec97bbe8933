"""Ottocento over HTTP: the variant, a hand scored, declarations suggested."""

from __future__ import annotations

from typing import Any

from http_support import API, assert_problem, error_fields


def test_ottocento_is_described(stateless_client: Any) -> None:
    body = stateless_client.get(f"{API}/variants/ottocento").json
    assert body["pack"]["size"] == 62
    assert body["target"] == 800
    assert body["deck_points_total"] == 93
    assert body["ranks"]["trumps_low_to_high"][1] == ["MORO1", "MORO2", "MORO3", "MORO4"]


def test_ottocento_hand_in_summary_form(stateless_client: Any) -> None:
    hand = {"dealer": 0, "discard": ["6S", "7S"], "last_trick": 1,
            "declarations": [{"seat": 1, "kind": "sequence",
                              "cards": ["KH", "QH", "MATTO"]}],
            "piles": [{"side": 0, "tricks": 8,
                       "counting": ["ANGEL", "WORLD", "SUN", "T16", "KS", "QS", "CS", "KD",
                                    "KC", "1S", "1C", "1H"]}]}
    response = stateless_client.post(f"{API}/score", json={"variant": "ottocento", "hand": hand})
    assert response.status_code == 200, response.json
    result = response.json
    card_points = [line["points"] for side in result["sides"] for line in side["lines"]
                   if line["item"] == "card_points"]
    assert sum(card_points) == 93
    assert result["acts"] == [{"seat": 1, "column": "1", "points": 10}]


def test_ottocento_rejects_a_king_in_the_discard(stateless_client: Any) -> None:
    response = stateless_client.post(f"{API}/score", json={"variant": "ottocento", "hand": {
        "dealer": 0, "discard": ["KS", "2H"], "last_trick": 1,
        "piles": [{"side": 0, "tricks": 8}]}})
    body = assert_problem(response, 422)
    fields = error_fields(body)
    assert fields["hand.discard[0]"] == "king_discarded"
    assert fields["hand.discard[1]"] == "card_not_in_pack"


def test_ottocento_suggests_declarations(stateless_client: Any) -> None:
    response = stateless_client.post(f"{API}/melds/suggest", json={
        "variant": "ottocento", "cards": ["KS", "KH", "KD", "QS", "CS", "MATTO"]})
    assert response.status_code == 200, response.json
    found = {(s["kind"], s.get("type"), s["points"]) for s in response.json}
    assert found == {("cricca", "K", 17), ("sequence", "S", 15)}


def test_a_cricca_declared_by_its_type_is_stored_as_said(client: Any, table: Any) -> None:
    """A table that taps "cricca of Kings, four" rather than each King records the
    declaration by its type; the stored record keeps it so, its points as by the cards, and
    a declaration with a type where the kind takes none is refused naming the field."""
    game = table(variant="ottocento", players=("Anna", "Bruno", "Carla", "Dario"))
    record = {"dealer": 0, "last_trick": 1,
              "declarations": [{"seat": 1, "kind": "cricca", "type": "K", "count": 4}],
              "piles": [{"side": 0, "points": 40}]}
    added = game.add(record)
    assert added.status_code == 201, added.json
    assert added.json["record"]["declarations"] == record["declarations"]
    assert added.json["result"]["acts"] == [{"seat": 1, "column": "1", "points": 34}]
    gatti = client.post(f"{API}/score", json={"variant": "gatti-3", "hand": {
        "dealer": 0, "declarations": [{"seat": 1, "kind": "family", "suit": "H", "type": "K"}],
        "piles": [{"side": 0, "points": 40}, {"side": 1, "points": 20}]}})
    assert error_fields(assert_problem(gatti, 422)) == {
        "hand.declarations[0].type": "field_not_for_kind"}
