"""Trick-by-trick records over HTTP: /score and stored hands referee the play, and
/adjudicate/trick settles one trick."""

from __future__ import annotations

import random
from typing import Any

import pytest
from http_support import API, assert_problem, auth, error_fields
from legal_play import random_legal_hand


def played_hand(variant_id: str, seed: int, dealer: int) -> dict[str, Any]:
    return random_legal_hand(variant_id, random.Random(seed), dealer)


def test_score_replays_a_trick_record(stateless_client: Any) -> None:
    hand = played_hand("gatti-3", 3, dealer=0)
    response = stateless_client.post(f"{API}/score", json={"variant": "gatti-3", "hand": hand})
    assert response.status_code == 200, response.json
    result = response.json
    assert len(result["tricks"]) == 25
    assert result["tricks"][0]["leader"] == 1
    assert all(t["leader"] == prev["winner"]
               for prev, t in zip(result["tricks"], result["tricks"][1:], strict=False))
    assert result["violations"] == []
    deck = sum(line["points"] for side in result["sides"] for line in side["lines"]
               if line["item"] == "deck_points")
    assert deck == 78


def test_score_reports_a_revoke_with_its_proof(stateless_client: Any) -> None:
    hand = played_hand("gatti-3", 3, dealer=0)
    result = stateless_client.post(f"{API}/score",
                                   json={"variant": "gatti-3", "hand": hand}).json
    # Find a trick where a follower played the led suit, and a later trick where the same
    # seat played a card of another suit that did not win: swapping them is a revoke.
    tricks = result["tricks"]
    swap = None
    for t in tricks:
        lead = t["cards"][0]
        for k in (1, 2):
            card = t["cards"][k]
            if lead[-1] in "HDCS" and card[-1] == lead[-1] and card != "FOOL":
                seat = (t["leader"] + k) % 3
                swap = (t["number"], k, seat)
                break
        if swap:
            break
    assert swap is not None
    number, k, seat = swap
    for later in tricks[number:]:
        j = (seat - later["leader"]) % 3
        other = later["cards"][j]
        if j == 0 or other.startswith("T") or other == "FOOL":
            continue
        if other[-1] == tricks[number - 1]["cards"][0][-1]:
            continue
        changed = [list(t["cards"]) for t in tricks]
        changed[number - 1][k], changed[later["number"] - 1][j] = other, changed[number - 1][k]
        response = stateless_client.post(
            f"{API}/score",
            json={"variant": "gatti-3", "hand": {"dealer": 0, "tricks": changed}})
        if response.status_code != 200:
            continue
        found = [v for v in response.json["violations"]
                 if v["trick"] == number and v["seat"] == seat]
        if found:
            assert found[0]["rule"] == "must_follow_suit"
            assert found[0]["card"] == other
            assert found[0]["proof"]["trick"] > number
            return
    raise AssertionError("no swap produced a revoke")


def test_score_rejects_an_incomplete_trick_list(stateless_client: Any) -> None:
    hand = played_hand("gatti-4", 1, dealer=2)
    hand["tricks"] = hand["tricks"][:-1]
    response = stateless_client.post(f"{API}/score", json={"variant": "gatti-4", "hand": hand})
    body = assert_problem(response, 422)
    assert error_fields(body)["hand.tricks"] == "incomplete_tricks"


def test_score_rejects_a_bagatto_record_the_tricks_contradict(stateless_client: Any) -> None:
    hand = played_hand("gatti-3", 3, dealer=0)
    result = stateless_client.post(f"{API}/score",
                                   json={"variant": "gatti-3", "hand": hand}).json
    claimed = {"seat": 0, "won": True}
    if result.get("bagatto") == claimed:
        claimed = {"seat": 1, "won": True}
    response = stateless_client.post(
        f"{API}/score", json={"variant": "gatti-3", "hand": {**hand, "bagatto": claimed}})
    body = assert_problem(response, 422)
    assert error_fields(body)["hand.bagatto"] == "disagrees_with_tricks"


def test_a_called_partner_is_revealed_by_the_tricks(stateless_client: Any) -> None:
    hand = played_hand("gatti-4-call", 2, dealer=1)
    hand["call"] = {"card": "KS"}
    result = stateless_client.post(f"{API}/score",
                                   json={"variant": "gatti-4-call", "hand": hand}).json
    holder = next((t["leader"] + t["cards"].index("KS")) % 4
                  for t in result["tricks"] if "KS" in t["cards"])
    assert result["partner"] == holder
    assert result["sides"][0]["seats"] == sorted({1, holder})


def test_a_stored_trick_record_is_refereed(table: Any, client: Any) -> None:
    game = table(variant="gatti-4", players=("Anna", "Bruno", "Carla", "Dario"))
    hand = played_hand("gatti-4", 5, dealer=0)
    response = client.post(f"{game.url}/hands", json=hand, headers=auth(game.edit))
    assert response.status_code == 201, response.json
    assert len(response.json["result"]["tricks"]) == 19
    state = game.state()
    assert sum(state["totals"].values()) >= 72
    assert state["hands"][0]["record"]["tricks"] == hand["tricks"]


def test_adjudicate_trick_over_http(stateless_client: Any) -> None:
    response = stateless_client.post(f"{API}/adjudicate/trick", json={
        "variant": "gatti-3", "leader": 0, "cards": ["KH", "3S", "T5"],
        "hands": {"1": ["3S", "4H"]}})
    assert response.status_code == 200, response.json
    assert response.json["winner"] == 2
    assert [p["legal"] for p in response.json["plays"]] == [True, False, True]
    assert response.json["violations"][0]["rule"] == "must_follow_suit"


def test_adjudicate_trick_problems(stateless_client: Any) -> None:
    response = stateless_client.post(f"{API}/adjudicate/trick", json={
        "variant": "gatti-3", "leader": 5, "cards": ["KH", "ZZ"]})
    body = assert_problem(response, 422)
    assert error_fields(body) == {"leader": "out_of_range", "cards[1]": "not_a_card"}


@pytest.mark.parametrize("seat", ["³", "²", "-1", "x"])
def test_adjudicate_trick_refuses_a_hand_under_a_seat_that_is_not_a_number(
        stateless_client: Any, seat: str) -> None:
    """A key of ``hands`` is a seat's number in decimal digits; anything else (a superscript
    "³" is a digit to Python's ``isdigit`` but no number to ``int``) is a 422, never a 500."""
    response = stateless_client.post(f"{API}/adjudicate/trick", json={
        "variant": "gatti-3", "leader": 0, "cards": ["KH", "3S", "T5"],
        "hands": {seat: ["3S", "4H"]}})
    body = assert_problem(response, 422)
    assert any(e["field"].startswith("hands") for e in body["errors"]), body
