"""Conditional reads and protective headers: the game's ETag and 304 for a page that polls,
the hand's too; ``Referrer-Policy: no-referrer`` everywhere; game data is never cached by a
shared cache."""

from __future__ import annotations

from typing import Any

from http_support import API, assert_problem, auth, gatti3_hand


def test_the_game_has_a_weak_etag_that_changes_with_its_hands(table: Any) -> None:
    game = table()
    first = game.get()
    assert first.status_code == 200
    tag = first.headers["ETag"]
    assert tag.startswith('W/"')
    assert game.get(game.edit).headers["ETag"] == tag  # the same for either token
    assert first.json["version"] == 1
    game.play()
    second = game.get()
    assert second.headers["ETag"] != tag
    assert second.json["version"] == 2


def test_if_none_match_gives_304_until_the_game_changes(client: Any, table: Any) -> None:
    game = table()
    tag = game.get().headers["ETag"]
    response = client.get(game.url, headers={**auth(game.read), "If-None-Match": tag})
    assert response.status_code == 304
    assert response.data == b""
    assert response.headers["ETag"] == tag
    # A strong form of the same tag and "*" match too (If-None-Match compares weakly).
    for value in (tag.removeprefix("W/"), "*", f'"other", {tag}'):
        assert client.get(game.url, headers={**auth(game.read), "If-None-Match": value}
                          ).status_code == 304, value
    game.play()
    response = client.get(game.url, headers={**auth(game.read), "If-None-Match": tag})
    assert response.status_code == 200
    assert response.headers["ETag"] != tag
    assert len(response.json["hands"]) == 1


def test_a_conditional_read_still_needs_the_token(client: Any, table: Any) -> None:
    game, other = table(), table(players=("Dario", "Elena", "Fabio"))
    tag = game.get().headers["ETag"]
    assert_problem(client.get(game.url, headers={"If-None-Match": tag}), 401)
    assert_problem(client.get(game.url, headers={**auth(other.read), "If-None-Match": "*"}),
                   404)


def test_a_hand_answers_if_none_match(client: Any, table: Any) -> None:
    game = table()
    etag = game.play()["etag"]
    url = f"{game.url}/hands/1"
    response = client.get(url, headers={**auth(game.read), "If-None-Match": etag})
    assert response.status_code == 304
    assert response.headers["ETag"] == etag
    assert client.get(url, headers={**auth(game.read), "If-None-Match": '"x"'}
                      ).status_code == 200


def test_no_response_leaks_its_address_through_referer(client: Any, table: Any) -> None:
    game = table()
    responses = [
        game.created,
        game.get(),
        client.get(f"{API}/variants"),
        client.get(f"{API}/nothing-here"),
        client.get(game.url),  # 401
        client.get("/api/v1/docs"),
    ]
    for response in responses:
        assert response.headers["Referrer-Policy"] == "no-referrer", response.request.path
        assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_game_data_is_private_and_the_tokens_are_never_stored(table: Any) -> None:
    game = table()
    assert game.created.headers["Cache-Control"] == "no-store"
    assert game.get().headers["Cache-Control"] == "private, no-cache"


def test_odd_if_match_values_are_412_not_errors(client: Any, table: Any) -> None:
    """Found by schemathesis: an empty tag made the server sort None against a string."""
    game = table()
    game.play()
    url = f"{game.url}/hands/1"
    for value in ('"", "fpS4t#NO$yT!fl<1"', '""', 'W/"", x', ",,", '"a" "b"'):
        response = client.put(url, json=gatti3_hand(0, counting_to=1),
                              headers={**auth(game.edit), "If-Match": value})
        assert_problem(response, 412, code="precondition_failed")
        response = client.delete(url, headers={**auth(game.edit), "If-Match": value})
        assert_problem(response, 412, code="precondition_failed")
    for value in ('""', 'W/"", x'):
        assert client.get(url, headers={**auth(game.read), "If-None-Match": value}
                          ).status_code == 200
