"""Limits: bodies that are not JSON are 400 whatever breaks the parser, every list and string
is bounded (422), ids and hand numbers outside their bounds match no route (404), and an
undeclared method is a 405 before anything looks at the body."""

from __future__ import annotations

import re
from typing import Any

import pytest
from http_support import API, assert_problem, auth, error_fields, gatti3_hand

import service.application.games.use_cases as games_module
from service.http.schemas.common import (
    MAX_CARDS,
    MAX_DECLARATIONS,
    MAX_OPTIONS,
    MAX_SEATS,
    MAX_TEXT,
    MAX_TRICKS,
)

MALFORMED = {
    "truncated": b'{"variant": "gatti-3",',
    "nested 100,000 deep": b"[" * 100_000 + b"]" * 100_000,
    "a 5,000-digit number": b'{"variant": "gatti-3", "hand": {"dealer": ' + b"7" * 5000 + b"}}",
    "NaN": b'{"variant": "gatti-3", "hand": {"dealer": NaN}}',
    "Infinity": b'{"variant": "gatti-3", "hand": {"dealer": -Infinity}}',
    "not UTF-8": b'{"variant": "\xff\xfe"}',
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_json_is_a_400_whatever_breaks_the_parser(
    stateless_client: Any, name: str
) -> None:
    response = stateless_client.post(f"{API}/score", data=MALFORMED[name],
                                     content_type="application/json")
    assert_problem(response, 400, code="malformed_json")


def _score(client: Any, **hand_changes: Any) -> Any:
    return client.post(f"{API}/score", json={"variant": "gatti-3",
                                             "hand": {**gatti3_hand(0), **hand_changes}})


@pytest.mark.parametrize(("field", "value", "path"), [
    ("discard", ["2H"] * (MAX_CARDS + 1), "hand.discard"),
    ("exposed", ["x" * (MAX_TEXT + 1)], "hand.exposed[0]"),
    ("declarations", [{"seat": 0, "kind": "trumps", "count": 10}] * (MAX_DECLARATIONS + 1),
     "hand.declarations"),
    ("piles", [{"side": 0, "tricks": 1}] * (MAX_SEATS + 1), "hand.piles"),
    ("tricks", [["KH", "3H", "T5"]] * (MAX_TRICKS + 1), "hand.tricks"),
    ("declarations", [{"seat": 0, "kind": "k" * (MAX_TEXT + 1)}], "hand.declarations[0].kind"),
])
def test_lists_and_strings_are_bounded(
    stateless_client: Any, field: str, value: Any, path: str
) -> None:
    body = assert_problem(_score(stateless_client, **{field: value}), 422, code="invalid_request")
    assert path in error_fields(body), body


def test_at_the_limit_is_not_a_schema_error(stateless_client: Any) -> None:
    response = _score(stateless_client, exposed=["KH"] * MAX_CARDS)
    assert response.status_code in {200, 422}
    assert response.json.get("code") != "invalid_request", response.json


def test_game_setup_is_bounded(client: Any) -> None:
    too_many_options = {f"o{i}": True for i in range(MAX_OPTIONS + 1)}
    cases = [
        ({"players": ["A", "B", "C"], "variant": "v" * (MAX_TEXT + 1)}, "variant"),
        ({"players": ["A", "B", "n" * (MAX_TEXT + 1)], "variant": "gatti-3"}, "players[2]"),
        ({"players": ["A"] * (MAX_SEATS + 1), "variant": "gatti-3"}, "players"),
        ({"players": ["A", "B", "C"], "variant": "gatti-3", "options": too_many_options},
         "options"),
    ]
    for body, field in cases:
        response = client.post(f"{API}/games", json=body)
        assert field in error_fields(assert_problem(response, 422, code="invalid_request"))


def test_adjudication_is_bounded(stateless_client: Any) -> None:
    body = {"variant": "gatti-3", "leader": 0, "cards": ["KH"],
            "history": [{"leader": 0, "cards": ["2H", "3H", "4H"]}] * (MAX_TRICKS + 1),
            "hands": {str(seat): [] for seat in range(MAX_SEATS + 1)}}
    response = stateless_client.post(f"{API}/adjudicate/trick", json=body)
    fields = error_fields(assert_problem(response, 422, code="invalid_request"))
    assert {"history", "hands"} <= set(fields)


@pytest.mark.parametrize("game_id", ["G84ZKE8E5E", "g" * 33, "g-1", "g%20x", "gi0lo1"])
def test_game_ids_out_of_bounds_match_no_route(client: Any, table: Any, game_id: str) -> None:
    game = table()
    response = client.get(f"{API}/games/{game_id}", headers=auth(game.read))
    assert_problem(response, 404)


def test_only_a_games_id_is_read_by_the_game_id_converter(app: Any) -> None:
    """Every other id (an event's, a club's, a member's, a season's) has the ``id``
    converter: the same bounds, without calling a club's id a game's."""
    for rule in app.url_map.iter_rules():
        for converter, argument in re.findall(r"<(\w+)(?:\([^)]*\))?:(\w+)>", rule.rule):
            if argument.endswith("_id"):
                assert (converter == "game_id") == (argument == "game_id"), rule.rule


@pytest.mark.parametrize("number", ["0", "1001", "-1", "99999999999999999999999"])
def test_hand_numbers_out_of_bounds_match_no_route(client: Any, table: Any, number: str) -> None:
    game = table()
    response = client.get(f"{game.url}/hands/{number}", headers=auth(game.read))
    assert_problem(response, 404)


def test_a_game_holds_a_bounded_number_of_hands(table: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(games_module, "MAX_HANDS", 1)
    game = table()
    game.play()
    assert_problem(game.add(gatti3_hand(1)), 409, code="too_many_hands")
    assert len(game.state()["hands"]) == 1


@pytest.mark.parametrize("path", ["/variants", "/variants/gatti-3", "/games/abc/history"])
def test_an_undeclared_method_is_405_before_the_body_is_looked_at(
    stateless_client: Any, path: str
) -> None:
    response = stateless_client.put(f"{API}{path}")
    assert_problem(response, 405)
    assert "GET" in response.headers["Allow"]


def test_no_word_route_is_read_as_a_game_id(stateless_client: Any) -> None:
    """/games/import is a route of its own: OPTIONS lists only its methods."""
    response = stateless_client.options(f"{API}/games/import")
    assert set(response.headers["Allow"].split(", ")) == {"POST", "OPTIONS"}
