"""A refused request changes nothing, but its refusal is counted (a duplicate table's refused
records of a board), on SQLite and PostgreSQL: the unit of work writes what a use case keeps
``despite_rollback`` in a transaction of its own once the request has ended refused, and
never for a try that is run again after a concurrent change."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import text

from service.application.errors import ConcurrentChange
from service.application.idempotency import IdempotencyService, SavedResponse
from service.application.ports import StoredGame
from service.application.unit_of_work import KeyedRequest, UnitOfWork
from service.domain import Problem, RecordInvalid
from service.persistence import SqlStore, make_engine

T0 = datetime(2026, 11, 28, 21, 0, tzinfo=UTC)


@pytest.fixture()
def store(migrated_url: str) -> Iterator[SqlStore]:
    engine = make_engine(migrated_url)
    with engine.begin() as connection:
        for table in ("board_refusals", "idempotency_keys", "hand_versions", "hands",
                      "games"):
            connection.execute(text(f"DELETE FROM {table}"))
    made = SqlStore(engine)
    made.games.add_game(StoredGame(
        id="t1", variant="gatti-3", options={}, players=("A", "B", "C"), first_dealer=0,
        edit_token_hash="e" * 64, read_token_hash="r" * 64, created_at=T0, version=1))
    yield made
    engine.dispose()


def _refused() -> RecordInvalid:
    return RecordInvalid([Problem("discard[0]", "not_dealt", "board 1: seat 0 was not dealt KH")])


def test_a_refusal_is_counted_though_the_request_changes_nothing(store: SqlStore) -> None:
    unit = UnitOfWork(store, sleep=lambda _s: None)

    def refused() -> None:
        # A write of the request itself, which the refusal must roll back.
        unit.refusals.add_refusal("t1", 2, T0)
        unit.despite_rollback(lambda: unit.refusals.add_refusal("t1", 1, T0))
        raise _refused()

    for _ in range(3):
        with pytest.raises(RecordInvalid):
            unit.run(refused)
    assert store.refusals.counted_refusals("t1", 1) == 3
    assert store.refusals.counted_refusals("t1", 2) == 0


def test_a_try_run_again_counts_nothing_of_its_own(store: SqlStore) -> None:
    unit = UnitOfWork(store, sleep=lambda _s: None)

    def lost_then_refused() -> None:
        unit.despite_rollback(lambda: unit.refusals.add_refusal("t1", 1, T0))
        if unit.attempt == 1:
            raise ConcurrentChange("another request changed the game first")
        raise _refused()

    with pytest.raises(RecordInvalid):
        unit.run(lost_then_refused)
    assert store.refusals.counted_refusals("t1", 1) == 1

    def lost_then_taken() -> None:
        unit.despite_rollback(lambda: unit.refusals.add_refusal("t1", 1, T0))
        if unit.attempt == 1:
            raise ConcurrentChange("another request changed the game first")

    unit.run(lost_then_taken)
    assert store.refusals.counted_refusals("t1", 1) == 1


def test_a_release_leaves_the_total_and_counts_afresh(store: SqlStore) -> None:
    refusals = store.refusals
    assert refusals.release_refusals("t1", 1) is False  # nothing to release
    for _ in range(4):
        refusals.add_refusal("t1", 1, T0)
    assert refusals.release_refusals("t1", 1) is True
    assert refusals.release_refusals("t1", 1) is False
    refusals.add_refusal("t1", 1, T0)
    assert refusals.counted_refusals("t1", 1) == 1


def test_a_keyed_request_answered_by_its_twin_is_refused_nothing(
        store: SqlStore, migrated_url: str) -> None:
    """A request sent twice with one ``Idempotency-Key`` (a phone's retry while the first is
    still running): the twin committed first, so this one, refused only for coming second
    (the board it scored against was the next one), answers the twin's response and counts
    no refusal; refused with no twin, it counts one."""
    keys = IdempotencyService(store.idempotency, lambda: T0)
    twin_engine = make_engine(migrated_url)
    twin_keys = IdempotencyService(SqlStore(twin_engine).idempotency, lambda: T0)
    first = SavedResponse(201, {"Content-Type": "application/json"}, b"{}")

    def keyed(key: str, twin: bool) -> tuple[UnitOfWork, KeyedRequest, Callable[[], str]]:
        unit = UnitOfWork(store, keys, sleep=lambda _s: None)
        request = KeyedRequest("t1", key, "POST", "/api/v1/games/t1/hands", {"dealer": 0})

        def work() -> str:
            if twin:  # the twin commits, on a connection of its own, while this one runs
                twin_keys.remember("t1", key, request.fingerprint, first)
            unit.despite_rollback(lambda: unit.refusals.add_refusal("t1", 2, T0))
            raise _refused()

        return unit, request, work

    try:
        unit, request, work = keyed("k-twin", twin=True)
        answered = unit.run_once(request, work, kept=lambda _r: None,
                                 replayed=lambda saved: f"replayed {saved.status}")
        assert answered == "replayed 201"
        assert store.refusals.counted_refusals("t1", 2) == 0
        unit, request, work = keyed("k-alone", twin=False)
        with pytest.raises(RecordInvalid):
            unit.run_once(request, work, kept=lambda _r: None, replayed=lambda _s: "")
        assert store.refusals.counted_refusals("t1", 2) == 1
    finally:
        twin_engine.dispose()
