"""Writes that lose a race are run again from a fresh read: a change elsewhere in the game
costs the client nothing, a change to the same thing gets the answer for the new state (412
for a stale If-Match, wrong dealer for the same next hand). Real parallel clients on a real
server: ``tests/live/test_live_concurrency.py``."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from http_support import assert_problem, auth, error_fields, gatti3_hand


@pytest.fixture()
def stale_once(app: Any, monkeypatch: Any) -> Any:
    """Make the next read of a game return it as it was before its last change, as a
    request sees it when another one commits right after its read."""
    repository = app.extensions["segnapunti.games"].repository
    read = repository.get_game
    state = {"armed": False, "before": None}

    def get_game(game_id: str) -> Any:
        stored = read(game_id)
        if state["armed"]:
            state["armed"] = False
            return state["before"]
        return stored

    def arm(game_id: str) -> None:
        state["before"] = read(game_id)

    def fire() -> None:
        state["armed"] = True

    monkeypatch.setattr(repository, "get_game", get_game)
    return arm, fire


def test_a_hand_added_while_another_hand_was_corrected_is_recorded(
    client: Any, table: Any, stale_once: Any
) -> None:
    arm, fire = stale_once
    game = table()
    game.play()
    arm(game.id)
    etag = game.hand(1).headers["ETag"]
    corrected = client.put(f"{game.url}/hands/1", json=gatti3_hand(0, counting_to=1),
                           headers={**auth(game.edit), "If-Match": etag})
    assert corrected.status_code == 200
    fire()  # the next add read the game before the correction
    response = game.add(gatti3_hand(1))
    assert response.status_code == 201, response.json
    state = game.state()
    assert [h["number"] for h in state["hands"]] == [1, 2]
    assert state["hands"][0]["version"] == 2


def test_the_same_next_hand_from_two_phones_is_recorded_once(
    client: Any, table: Any, stale_once: Any
) -> None:
    arm, fire = stale_once
    game = table()
    arm(game.id)
    assert game.add(gatti3_hand(0)).status_code == 201  # phone A
    fire()  # phone B read the game before A's hand
    response = game.add(gatti3_hand(0))
    assert error_fields(assert_problem(response, 422)) == {"dealer": "wrong_dealer"}
    assert len(game.state()["hands"]) == 1


def test_two_corrections_with_the_same_if_match_make_one_version(
    client: Any, table: Any, stale_once: Any
) -> None:
    arm, fire = stale_once
    game = table()
    game.play()
    etag = game.hand(1).headers["ETag"]
    url = f"{game.url}/hands/1"
    arm(game.id)
    first = client.put(url, json=gatti3_hand(0, counting_to=1),
                       headers={**auth(game.edit), "If-Match": etag})
    assert first.status_code == 200
    fire()  # the second read the hand at the version its If-Match names
    second = client.put(url, json=gatti3_hand(0, counting_to=2),
                        headers={**auth(game.edit), "If-Match": etag})
    assert_problem(second, 412, code="precondition_failed")
    assert [v["action"] for v in game.history()] == ["create", "correct"]
    assert game.state()["hands"][0]["record"] == first.json["record"]


def test_a_write_that_keeps_losing_is_a_409_and_changes_nothing(
    app: Any, client: Any, table: Any, monkeypatch: Any
) -> None:
    game = table()
    game.play()
    before = game.state()
    service = app.extensions["segnapunti.games"]
    repository = service.repository
    read = repository.get_game
    sleeps: list[float] = []
    monkeypatch.setattr(app.extensions["segnapunti.units"], "sleep", sleeps.append)
    monkeypatch.setattr(repository, "get_game", lambda game_id: dataclasses.replace(
        read(game_id), version=read(game_id).version - 1))
    # The game's views cached in this process would spare the read: do without them.
    monkeypatch.setattr(service.views.kept, "get", lambda *_: None)
    assert_problem(game.add(gatti3_hand(1)), 409, code="concurrent_change")
    assert len(sleeps) == 4  # five attempts, a short random pause between them
    assert all(0 <= pause <= 0.1 for pause in sleeps)
    monkeypatch.undo()
    assert game.state() == before
