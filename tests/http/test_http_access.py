"""Access, as a matrix over every operation that opens a game and every kind of credential:
no token 401; a token that opens no game 401 (``invalid_token``); the token of another game
404, the same as for a game that does not exist; the read token on a change 403; the game's
own tokens open it. A refused request changes nothing. The operations are taken from the
OpenAPI document, so a new one cannot be added without its row here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from http_support import Table, assert_problem, auth, gatti3_hand

from service.http.openapi import build_spec

Request = Callable[[Any, Any, dict[str, str]], Any]

GAME = "/api/v1/games/{game_id}"

# (method, path) in the OpenAPI document -> how to call it on a game with one hand.
READS: dict[tuple[str, str], Request] = {
    ("get", GAME): lambda c, g, h: c.get(g.url, headers=h),
    ("get", f"{GAME}/hands/{{number}}"): lambda c, g, h: c.get(f"{g.url}/hands/1", headers=h),
    ("get", f"{GAME}/history"): lambda c, g, h: c.get(f"{g.url}/history", headers=h),
    ("get", f"{GAME}/sheet.pdf"): lambda c, g, h: c.get(f"{g.url}/sheet.pdf", headers=h),
    ("get", f"{GAME}.json"): lambda c, g, h: c.get(f"{g.url}.json", headers=h),
    ("get", f"{GAME}.csv"): lambda c, g, h: c.get(f"{g.url}.csv", headers=h),
}
WRITES: dict[tuple[str, str], Request] = {
    ("post", f"{GAME}/hands"): lambda c, g, h: c.post(f"{g.url}/hands", json=gatti3_hand(1),
                                                       headers=h),
    ("put", f"{GAME}/hands/{{number}}"): lambda c, g, h: c.put(
        f"{g.url}/hands/1", json=gatti3_hand(0, counting_to=1), headers={**h, "If-Match": "*"}),
    ("delete", f"{GAME}/hands/{{number}}"): lambda c, g, h: c.delete(
        f"{g.url}/hands/1", headers={**h, "If-Match": "*"}),
    # Shown to the edit token alone, like a write (it writes nothing for a new game).
    ("get", f"{GAME}/players"): lambda c, g, h: c.get(f"{g.url}/players", headers=h),
    # "The evening is over" and its undo: past the door, a game of gatti-3 ends
    # by its own rules (``EVENING``).
    ("post", f"{GAME}/end"): lambda c, g, h: c.post(f"{g.url}/end", headers=h),
    ("post", f"{GAME}/reopen"): lambda c, g, h: c.post(f"{g.url}/reopen", headers=h),
}
#: What the edit token gets from the scorekeeper's word on the evening of a game of gatti-3,
#: which ends by its hands: the rules' 409, once the door has let it through.
EVENING = {("post", f"{GAME}/end"): "ends_by_rules", ("post", f"{GAME}/reopen"): "ends_by_rules"}
# A player's own word on a hand: only a player's link gives it.
VERDICTS: dict[tuple[str, str], Request] = {
    ("post", f"{GAME}/hands/{{number}}/confirmations"): lambda c, g, h: c.post(
        f"{g.url}/hands/1/confirmations", json={"verdict": "confirm"}, headers=h),
}
OPERATIONS = {**READS, **WRITES, **VERDICTS}

# credential -> the status a verdict gets with it, where it differs from a write's, and its
# code.
VERDICT_MATRIX: dict[str, tuple[int | None, str | None]] = {
    "own read": (403, "not_a_player_token"),
    "own edit": (403, "not_a_player_token"),
    "own player": (None, None),
}

# credential -> the status every read and every write gets with it (None: the success).
MATRIX: dict[str, tuple[int | None, int | None, str | None]] = {
    # name: (read status, write status, problem code)
    "none": (401, 401, "token_missing"),
    "basic": (401, 401, "token_missing"),
    "empty bearer": (401, 401, "token_missing"),
    "unknown token": (401, 401, "invalid_token"),
    "other game's edit": (404, 404, "not_found"),
    "other game's read": (404, 404, "not_found"),
    "own read": (None, 403, "read_only_token"),
    "own player": (None, 403, "read_only_token"),
    "other game's player": (404, 404, "not_found"),
    "own edit": (None, None, None),
}


def _headers(name: str, mine: Any, other: Any) -> dict[str, str]:
    return {
        "none": {},
        "basic": {"Authorization": "Basic Zm9vOmJhcg=="},
        "empty bearer": {"Authorization": "Bearer "},
        "unknown token": auth("Tb" + mine.edit[2:][::-1]),
        "other game's edit": auth(other.edit),
        "other game's read": auth(other.read),
        "own read": auth(mine.read),
        "own player": auth(mine.created.json["tokens"]["players"][0]),
        "other game's player": auth(other.created.json["tokens"]["players"][0]),
        "own edit": auth(mine.edit),
    }[name]


def test_every_operation_that_opens_a_game_is_in_the_matrix() -> None:
    spec = build_spec()
    secured = set()
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            if operation.get("security") and path.startswith(GAME):
                secured.add((method, path))
            elif path.startswith(GAME):
                pytest.fail(f"{method.upper()} {path} opens a game but needs no token")
    assert secured == set(OPERATIONS)


@pytest.fixture()
def games(table: Any) -> tuple[Any, Any]:
    mine, other = table(), table(players=("Dario", "Elena", "Fabio"))
    mine.play()
    return mine, other


@pytest.fixture(scope="module")
def kept() -> dict[str, Any]:
    """The matrix's games while they stand as made (see ``matrix_games``)."""
    return {}


@pytest.fixture()
def matrix_games(app: Any, kept: dict[str, Any]) -> tuple[Any, Any]:
    """The matrix's two games, one with a hand played. A refused request leaves them as they
    were, which every case checks, so they serve case after case; a case whose request may
    succeed drops them (``kept.clear()``) and the next one makes new ones, as does a case
    that finds them gone (a test on the emptied database ran between)."""
    made = kept.get("made")
    if made is None or made[0].client.get(made[0].url, headers=auth(made[0].read)
                                          ).status_code != 200:
        client = app.test_client()
        mine, other = Table(client), Table(client, players=("Dario", "Elena", "Fabio"))
        mine.play()
        made = kept["made"] = (mine, other)
    return made  # type: ignore[no-any-return]


@pytest.mark.parametrize("credential", sorted(MATRIX))
@pytest.mark.parametrize("operation", sorted(OPERATIONS), ids=" ".join)
def test_access_matrix(
    matrix_games: tuple[Any, Any], kept: dict[str, Any], operation: tuple[str, str],
    credential: str
) -> None:
    mine, other = matrix_games
    client = mine.client
    read_status, write_status, code = MATRIX[credential]
    expected = write_status if operation in WRITES else read_status
    if operation in VERDICTS:
        expected, code = VERDICT_MATRIX.get(credential, (write_status, code))
    if operation in EVENING and credential == "own edit":
        expected, code = 409, EVENING[operation]
    before = mine.state(), mine.history()
    response = OPERATIONS[operation](client, mine, _headers(credential, mine, other))
    if expected is None:
        kept.clear()  # it may have changed them
        assert response.status_code in {200, 201, 204}, response.json
        return
    assert_problem(response, expected, code=code)
    if expected == 401:
        challenge = response.headers["WWW-Authenticate"]
        assert challenge.startswith("Bearer")
        assert ('error="invalid_token"' in challenge) == (code == "invalid_token")
    assert (mine.state(), mine.history()) == before  # a refused request changes nothing


def test_whether_a_game_exists_is_told_to_no_one(client: Any, games: tuple[Any, Any]) -> None:
    mine, other = games
    missing = "/api/v1/games/zzzzzzzzzz"  # the alphabet of ids, no game
    # With a token that opens nothing: 401 for every id, existing or not.
    assert_problem(client.get(missing, headers=auth("wrong")), 401, code="invalid_token")
    assert_problem(client.get(mine.url, headers=auth("wrong")), 401, code="invalid_token")
    # With the token of another game: 404 for every other id, existing or not.
    a = assert_problem(client.get(missing, headers=auth(other.edit)), 404)
    b = assert_problem(client.get(mine.url, headers=auth(other.edit)), 404)
    assert a["code"] == b["code"] and a["title"] == b["title"]


def test_token_is_checked_before_the_body(client: Any, games: tuple[Any, Any]) -> None:
    mine, _ = games
    response = client.post(f"{mine.url}/hands", json={"garbage": True})
    assert_problem(response, 401)
    response = client.post(f"{mine.url}/hands", json={"garbage": True}, headers=auth(mine.read))
    assert_problem(response, 403)


def test_a_token_in_the_query_string_opens_nothing(client: Any, games: tuple[Any, Any]) -> None:
    mine, _ = games
    assert_problem(client.get(f"{mine.url}?token={mine.edit}"), 401)
    assert_problem(client.get(f"{mine.url}?access_token={mine.edit}"), 401)


def test_tokens_are_random_distinct_and_stored_only_hashed(
    app: Any, client: Any, table: Any
) -> None:
    games = [table() for _ in range(3)]
    tokens = [t for g in games for t in (g.edit, g.read)]
    assert len(set(tokens)) == len(tokens)
    assert all(len(t) >= 32 for t in tokens)  # 24 random bytes, URL-safe base64
    engine = app.extensions["segnapunti.games"].repository.engine
    with engine.connect() as connection:
        dump = "\n".join(str(row) for table_name in ("games", "hands", "hand_versions")
                         for row in connection.exec_driver_sql(f"SELECT * FROM {table_name}"))
    for token in tokens:
        assert token not in dump


def test_share_links_carry_the_token_only_in_the_fragment(table: Any) -> None:
    game = table()
    links = game.created.json["links"]
    for kind, token in (("edit", game.edit), ("read", game.read)):
        link = links[kind]
        before, _, fragment = link.partition("#")
        assert token not in before
        assert fragment == f"/games/{game.id}?token={token}"
        assert before.startswith("http://localhost")
    assert "links" not in game.state()


def test_share_links_use_the_public_url(app: Any, table: Any, monkeypatch: Any) -> None:
    monkeypatch.setitem(app.config, "PUBLIC_URL", "https://segnapunti.example/")
    game = table()
    assert game.created.json["links"]["read"] == (
        f"https://segnapunti.example/#/games/{game.id}?token={game.read}"
    )
