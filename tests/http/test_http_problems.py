"""Every 4xx is an RFC 9457 application/problem+json body."""

from __future__ import annotations

from typing import Any

from http_support import API, assert_problem, auth, gatti3_hand


def test_unknown_route_is_a_404_problem(stateless_client: Any) -> None:
    body = assert_problem(stateless_client.get(f"{API}/nothing-here"), 404)
    assert body["type"] == "about:blank"
    assert body["title"] == "Not Found"


def test_wrong_method_is_a_405_problem_with_allow(stateless_client: Any) -> None:
    response = stateless_client.delete(f"{API}/variants")
    assert_problem(response, 405)
    assert "GET" in response.headers["Allow"]


def test_malformed_json_is_a_400_problem(stateless_client: Any) -> None:
    response = stateless_client.post(f"{API}/score", data='{"variant": "gatti-3",',
                                     content_type="application/json")
    assert_problem(response, 400, code="malformed_json")


def test_body_that_is_not_json_is_a_415_problem(stateless_client: Any) -> None:
    response = stateless_client.post(f"{API}/score", data="variant=gatti-3",
                                     content_type="application/x-www-form-urlencoded")
    assert_problem(response, 415)


def test_body_over_one_mebibyte_is_a_413_problem(stateless_client: Any) -> None:
    hand = gatti3_hand(0)
    hand["exposed"] = ["KH"] * 200_000  # about 1.2 MB of JSON
    response = stateless_client.post(f"{API}/score", json={"variant": "gatti-3", "hand": hand})
    assert_problem(response, 413)


def test_a_body_that_is_not_an_object_is_a_422_problem(stateless_client: Any) -> None:
    response = stateless_client.post(f"{API}/score", json=[1, 2, 3])
    body = assert_problem(response, 422, code="invalid_request")
    assert body["errors"][0]["field"] == ""


def test_missing_and_null_fields(stateless_client: Any) -> None:
    response = stateless_client.post(f"{API}/score", json={"variant": None})
    errors = {e["field"]: e["code"] for e in assert_problem(response, 422)["errors"]}
    assert errors == {"variant": "invalid_field", "hand": "missing_field"}


def test_game_errors_are_problems(client: Any, table: Any) -> None:
    game = table()
    assert_problem(client.get(game.url), 401, code="token_missing")
    assert client.get(game.url).headers["WWW-Authenticate"].startswith("Bearer")
    assert_problem(client.post(f"{game.url}/hands", json=gatti3_hand(0),
                               headers=auth(game.read)), 403, code="read_only_token")
    assert_problem(client.get(f"{API}/games/nosuchgame", headers=auth(game.read)), 404)
    assert_problem(client.get(f"{game.url}/hands/1", headers=auth(game.read)), 404)
    game.play()
    assert_problem(client.put(f"{game.url}/hands/1", json=gatti3_hand(0),
                              headers=auth(game.edit)), 428, code="precondition_required")
    assert_problem(client.put(f"{game.url}/hands/1", json=gatti3_hand(0),
                              headers={**auth(game.edit), "If-Match": '"stale"'}),
                   412, code="precondition_failed")
    game.play()
    game.play()
    assert_problem(game.add(gatti3_hand(0)), 409, code="game_finished")
    assert_problem(client.post(f"{API}/games", json={"variant": "gatti-3", "players": ["A"]}),
                   422, code="record_invalid")
