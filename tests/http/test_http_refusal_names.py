"""A game's refusals name its players: every sentence of the core that names a
seat says it as a ``Seats``, and the service says a game's problems with its table's names, in
the request's language; a hand scored with no game says "seat 0", or the names it was sent."""

from __future__ import annotations

from typing import Any

import pytest
from http_support import API, auth

from service.domain import RecordInvalid, find_variant, score_record

#: A gatti-3 record dealt by seat 1 (seat 0 deals the first hand) in which seat 1 shows the
#: King of Diamonds that seat 0 showed already.
REFUSED = {"dealer": 1,
           "declarations": [{"seat": 0, "kind": "family", "cards": ["KD", "QD", "CD", "JD"]},
                            {"seat": 1, "kind": "four_of_a_kind", "rank": "K"}],
           "piles": [{"side": 0, "points": 40}, {"side": 1, "points": 20}]}

#: What each language says of the two problems, by their codes: the table's players by name.
NAMED = {
    "en": {"wrong_dealer": "Anna deals this hand, not Bruno",
           "shown_by_two_players": "KD was already shown by Anna"},
    "it": {"wrong_dealer": "questa mano la dà Anna, non Bruno",
           "shown_by_two_players": "Anna ha già mostrato re di quadri"},
    "fr": {"wrong_dealer": "c'est Anna qui distribue cette donne, pas Bruno",
           "shown_by_two_players": "Anna a déjà montré roi de carreau"},
}
#: The same without a game: the seats by number, in each language's words.
NUMBERED = {
    "en": {"shown_by_two_players": "KD was already shown by seat 0"},
    "it": {"shown_by_two_players": "posto 0 ha già mostrato re di quadri"},
    "fr": {"shown_by_two_players": "la place 0 a déjà montré roi de carreau"},
}


def _messages(response: Any) -> dict[str, str]:
    assert response.status_code == 422, response.json
    return {e["code"]: e["message"] for e in response.json["errors"]}


def test_the_cores_sentences_name_seats_as_seats() -> None:
    """Without a renderer that knows the players, a seat is "seat N" in the core's English."""
    with pytest.raises(RecordInvalid) as caught:
        score_record(find_variant("gatti-3"), {}, REFUSED, expected_dealer=0)
    said = {p.code: p.message for p in caught.value.problems}
    assert said["wrong_dealer"] == "seat 0 deals this hand, not seat 1"
    assert said["shown_by_two_players"] == NUMBERED["en"]["shown_by_two_players"]
    assert caught.value.seats is None


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
def test_a_refused_hand_names_the_games_players(client: Any, table: Any, lang: str) -> None:
    game = table()
    refused = client.post(f"{game.url}/hands", json=REFUSED,
                          headers={**auth(game.edit), "Accept-Language": lang})
    said = _messages(refused)
    assert refused.headers["Content-Language"] == lang
    for code, message in NAMED[lang].items():
        assert said[code] == message
    # The fields, codes and rules are the problems' own, whatever the words.
    assert {(e["field"], e["code"]) for e in refused.json["errors"]} >= {
        ("dealer", "wrong_dealer"), ("declarations[1]", "shown_by_two_players")}


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
def test_a_hand_scored_without_a_game_says_the_seats(client: Any, lang: str) -> None:
    refused = client.post(f"{API}/score", json={"variant": "gatti-3", "hand": REFUSED},
                          headers={"Accept-Language": lang})
    said = _messages(refused)
    for code, message in NUMBERED[lang].items():
        assert said[code] == message


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
def test_a_hand_scored_with_the_seats_named_says_the_names(client: Any, lang: str) -> None:
    refused = client.post(f"{API}/score", json={"variant": "gatti-3", "hand": REFUSED,
                                                 "seats": ["Anna", "Bruno", "Carla"]},
                          headers={"Accept-Language": lang})
    assert _messages(refused)["shown_by_two_players"] == (
        NAMED[lang]["shown_by_two_players"])


def test_the_seats_named_are_one_a_seat(client: Any) -> None:
    refused = client.post(f"{API}/score", json={"variant": "gatti-3", "hand": REFUSED,
                                                 "seats": ["Anna", "Bruno"]})
    assert _messages(refused)["wrong_seat_count"] == (
        "gatti-3 has 3 seats: name one player for each")
    assert refused.json["errors"][0]["field"] == "seats"


def test_a_refused_correction_names_the_games_players(client: Any, table: Any) -> None:
    game = table()
    game.play()
    etag = game.hand(1).headers["ETag"]
    refused = client.put(f"{game.url}/hands/1", json=REFUSED,
                         headers={**auth(game.edit), "If-Match": etag})
    assert _messages(refused)["wrong_dealer"] == NAMED["en"]["wrong_dealer"]
