"""Access: no token 401, read token on a write 403, another game's token 404."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from http_support import assert_problem, auth, gatti3_hand

Request = Callable[[Any, Any, dict[str, str]], Any]


READS: dict[str, Request] = {
    "get game": lambda c, g, h: c.get(g.url, headers=h),
    "get hand": lambda c, g, h: c.get(f"{g.url}/hands/1", headers=h),
    "history": lambda c, g, h: c.get(f"{g.url}/history", headers=h),
}
WRITES: dict[str, Request] = {
    "add hand": lambda c, g, h: c.post(f"{g.url}/hands", json=gatti3_hand(1), headers=h),
    "correct hand": lambda c, g, h: c.put(f"{g.url}/hands/1", json=gatti3_hand(0),
                                          headers={**h, "If-Match": "*"}),
    "delete hand": lambda c, g, h: c.delete(f"{g.url}/hands/1", headers={**h, "If-Match": "*"}),
}


@pytest.fixture()
def games(table: Any) -> tuple[Any, Any]:
    mine, other = table(), table(players=("Dario", "Elena", "Fabio"))
    mine.play()
    return mine, other


@pytest.mark.parametrize("name", sorted(READS))
def test_reads(client: Any, games: tuple[Any, Any], name: str) -> None:
    mine, other = games
    request = READS[name]
    assert_problem(request(client, mine, {}), 401)
    assert_problem(request(client, mine, {"Authorization": "Basic Zm9vOmJhcg=="}), 401)
    assert_problem(request(client, mine, auth(other.edit)), 404)
    assert_problem(request(client, mine, auth("not-a-token")), 404)
    assert request(client, mine, auth(mine.read)).status_code == 200
    assert request(client, mine, auth(mine.edit)).status_code == 200


@pytest.mark.parametrize("name", sorted(WRITES))
def test_writes(client: Any, games: tuple[Any, Any], name: str) -> None:
    mine, other = games
    request = WRITES[name]
    before = mine.state()
    assert_problem(request(client, mine, {}), 401)
    assert_problem(request(client, mine, auth(other.edit)), 404)
    assert_problem(request(client, mine, auth(other.read)), 404)
    assert_problem(request(client, mine, auth(mine.read)), 403)
    assert mine.state() == before
    assert request(client, mine, auth(mine.edit)).status_code in {200, 201, 204}


def test_an_unknown_game_looks_like_a_wrong_token(client: Any, games: tuple[Any, Any]) -> None:
    mine, _ = games
    missing = client.get("/api/v1/games/doesnotexist", headers=auth(mine.edit)).json
    wrong = client.get(mine.url, headers=auth("wrong")).json
    assert missing["status"] == wrong["status"] == 404
    assert missing["code"] == wrong["code"]


def test_token_is_checked_before_the_body(client: Any, games: tuple[Any, Any]) -> None:
    mine, _ = games
    response = client.post(f"{mine.url}/hands", json={"garbage": True})
    assert_problem(response, 401)
    response = client.post(f"{mine.url}/hands", json={"garbage": True}, headers=auth(mine.read))
    assert_problem(response, 403)
