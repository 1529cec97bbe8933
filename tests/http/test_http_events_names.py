"""docs/events.md#bad-input (duplicate names are a 422) and "Formats" (the organiser seats by
name), for names that differ only by their Unicode form: "José" typed precomposed
or decomposed, full-width ``Ａnna`` and ``Anna``, ``An\\u200bna`` and ``Anna`` are one person.
Names are compared NFKC-normalised, case-folded, without the characters that show nothing;
a name of nothing but those is no name, and a dispute's reason of nothing but spaces and
zero-width characters gives no reason."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from http_support import assert_problem, auth, error_fields, gatti3_hand

from service.domain import name_key, visible

API = "/api/v1"
PRECOMPOSED = unicodedata.normalize("NFC", "José")
DECOMPOSED = unicodedata.normalize("NFD", "José")
SAME = [(PRECOMPOSED, DECOMPOSED), ("Ａnna", "Anna"), ("An\u200bna", "Anna"),
        ("\ufeffAnna\u200d", "anna"), ("Anna\u00a0Maria", "anna  maria")]
ROSTER = ["Bruno", "Carla", "Dario"]


def test_name_key_makes_one_name_of_every_form_of_it() -> None:
    for a, b in SAME:
        assert a != b and name_key(a) == name_key(b)
    assert name_key("Anna") != name_key("Anne")
    assert name_key("\u200d") == name_key("\ufeff\u200b \u3000") == ""
    assert visible(" \u200b a\u2060b \u00a0") == "ab"


@pytest.mark.parametrize(("first", "second"), SAME)
def test_duplicate_names_in_any_unicode_form_are_a_422(client: Any, first: str,
                                                       second: str) -> None:
    response = client.post(f"{API}/events", json={
        "name": "Sera", "variant": "gatti-3", "format": "individual",
        "entrants": [{"name": first}, *({"name": n} for n in ROSTER), {"name": second}]})
    assert error_fields(assert_problem(response, 422)) == {"entrants[4].name": "duplicate_name"}


def test_a_player_in_two_pairs_in_any_unicode_form_is_a_422(client: Any) -> None:
    response = client.post(f"{API}/events", json={
        "name": "Sera", "variant": "ottocento", "format": "pairs",
        "entrants": [{"name": "I Rossi", "players": [PRECOMPOSED, "Bruno"]},
                     {"name": "I Bianchi", "players": ["Carla", DECOMPOSED]},
                     {"name": "I Verdi", "players": ["Ａnna", "Anna"]}]})
    assert error_fields(assert_problem(response, 422)) == {
        "entrants[1].players[1]": "player_in_two_pairs",
        "entrants[2].players[1]": "player_twice"}


@pytest.mark.parametrize("invisible", ["\u200d", "\ufeff", "\u200b\u200d \ufeff", "\u3164"])
def test_a_name_of_invisible_characters_is_no_name(client: Any, invisible: str) -> None:
    response = client.post(f"{API}/events", json={
        "name": invisible, "variant": "gatti-3", "format": "individual",
        "entrants": [{"name": invisible}, *({"name": n} for n in ROSTER)]})
    assert error_fields(assert_problem(response, 422)) == {
        "name": "missing_name", "entrants[0].name": "missing_name"}
    game = client.post(f"{API}/games", json={"variant": "gatti-3",
                                              "players": ["Bruno", invisible, "Carla"]})
    assert error_fields(assert_problem(game, 422)) == {"players[1]": "invalid_name"}


@pytest.mark.parametrize(("first", "second"), SAME)
def test_a_game_s_players_in_any_unicode_form_are_one_name(client: Any, first: str,
                                                           second: str) -> None:
    response = client.post(f"{API}/games", json={"variant": "gatti-3",
                                                  "players": [first, "Bruno", second]})
    assert error_fields(assert_problem(response, 422)) == {"players[2]": "duplicate_name"}


def test_the_organiser_seats_an_entrant_by_any_spelling_of_the_name(client: Any) -> None:
    created = client.post(f"{API}/events", json={
        "name": "Sera", "variant": "gatti-3", "format": "free",
        "entrants": [{"name": PRECOMPOSED}, {"name": "Anna"}, {"name": "Bruno"}]}).json
    started = client.post(f"{API}/events/{created['id']}/rounds",
                          json={"tables": [[DECOMPOSED, "An\u200bna", "ＢＲＵＮＯ"]]},
                          headers=auth(created["tokens"]["edit"]))
    assert started.status_code == 201, started.json
    assert started.json["tables"][0]["seats"] == [PRECOMPOSED, "Anna", "Bruno"]


@pytest.mark.parametrize("reason", ["   ", "\u200b", " \u200b\u200d\ufeff ", "\u3000\u2060"])
def test_a_dispute_s_reason_of_spaces_and_zero_width_characters_is_no_reason(
        client: Any, table: Any, reason: str) -> None:
    game = table()
    assert client.post(f"{game.url}/hands", json=gatti3_hand(0),
                       headers=auth(game.edit)).status_code == 201
    player = game.created.json["tokens"]["players"][1]
    response = client.post(f"{game.url}/hands/1/confirmations",
                           json={"verdict": "dispute", "reason": reason},
                           headers=auth(player))
    assert error_fields(assert_problem(response, 422)) == {"reason": "reason_missing"}
