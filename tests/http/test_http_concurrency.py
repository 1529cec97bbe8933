"""Writes that lose a race are run again from a fresh read: a change elsewhere in the game
costs the client nothing, a change to the same thing gets the answer for the new state (412
for a stale If-Match, wrong dealer for the same next hand). Real parallel clients on a real
server: ``tests/live/test_live_concurrency.py``."""

from __future__ import annotations

import dataclasses
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from http_support import Table, assert_problem, auth, error_fields, gatti3_hand


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


# -- one connection of the pool per request ----------------------------------------

def _small_pool_app(migrated_url: str, size: int) -> Any:
    """An app whose workers' pool holds ``size`` connections and no overflow, and whose
    game views are never kept (every write reads its game inside its unit of work, as a
    worker that has not seen the game does)."""
    from service.http.app import create_app

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DB_POOL_SIZE", str(size))
        patch.setenv("DB_MAX_OVERFLOW", "0")
        patch.setenv("DB_POOL_TIMEOUT", "3")
        application = create_app({"DATABASE_URL": migrated_url, "TESTING": True,
                                  "RATE_LIMIT_PER_MINUTE": 0, "AUTH_FAILURES_PER_MINUTE": 0})
    views = application.extensions["segnapunti.games"].views
    views.kept.put = lambda *_args, **_kw: None
    pool = application.extensions["segnapunti.games"].repository.engine.pool
    assert (pool.size(), pool._max_overflow) == (size, 0)
    return application


@pytest.fixture()
def pool_of_one(migrated_url: str) -> Any:
    application = _small_pool_app(migrated_url, 1)
    yield application
    application.extensions["segnapunti.games"].repository.engine.dispose()


@pytest.fixture()
def pool_of_two(migrated_url: str) -> Any:
    application = _small_pool_app(migrated_url, 2)
    yield application
    application.extensions["segnapunti.games"].repository.engine.dispose()


def test_every_write_is_served_by_a_pool_of_one_connection(pool_of_one: Any) -> None:
    from test_http_events import TWELVE, Evening

    client = pool_of_one.test_client()
    game = Table(client)
    assert game.add(gatti3_hand(0)).status_code == 201
    assert game.add(gatti3_hand(1)).status_code == 201
    etag = game.hand(2).headers["ETag"]
    corrected = client.put(f"{game.url}/hands/2", json=gatti3_hand(1, counting_to=1),
                           headers={**auth(game.edit), "If-Match": etag})
    assert corrected.status_code == 200, corrected.json
    seats = game.created.json["tokens"]["players"]
    for seat in (0, 1):
        verdict = client.post(f"{game.url}/hands/1/confirmations", json={"verdict": "confirm"},
                              headers=auth(seats[seat]))
        assert verdict.status_code == 201, verdict.json
    deleted = client.delete(f"{game.url}/hands/2", headers={
        **auth(game.edit), "If-Match": game.hand(2).headers["ETag"]})
    assert deleted.status_code == 204, deleted.json
    keyed = {**auth(game.edit), "Idempotency-Key": "one-connection"}
    for _ in range(2):  # the first stores its answer, the second replays it
        again = client.post(f"{game.url}/hands", json=gatti3_hand(1), headers=keyed)
        assert again.status_code == 201, again.json
    evening = Evening(client, name="Sera", variant="gatti-3", format="individual", seed=3,
                      entrants=[{"name": n} for n in TWELVE[:9]])
    table = evening.start()["tables"][0]
    evening.record(table, {"discard": ["2H", "3H", "4S"], "piles": gatti3_hand(0)["piles"]})
    assert evening.close(1).status_code == 200
    assert evening.start()["round"] == 2
    assert [h["version"] for h in game.state()["hands"]] == [1, 4]  # 2: made, corrected, deleted, made


def test_eight_first_hands_at_once_are_served_by_a_pool_of_two(pool_of_two: Any) -> None:
    games = [Table(pool_of_two.test_client()) for _ in range(8)]
    barrier = threading.Barrier(len(games))

    def first_hand(game: Table) -> int:
        client = pool_of_two.test_client()
        barrier.wait()
        return int(client.post(f"{game.url}/hands", json=gatti3_hand(0),
                               headers=auth(game.edit)).status_code)

    with ThreadPoolExecutor(len(games)) as pool:
        statuses = list(pool.map(first_hand, games))
    assert statuses == [201] * len(games)
