"""A read request's reads go through one connection of the pool (``Store.reading``): an
event's reading, which reads its credentials, its state, its rounds and every table's game,
checks a connection out once; a unit of work begun inside a reading gives the reading's
connection back first, so a request never holds two; a read that fails gives it back, and the
next read takes another. On SQLite and PostgreSQL (the ``app`` and ``client`` fixtures)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from http_support import auth
from sqlalchemy import event, text
from sqlalchemy.exc import DBAPIError

from service.application.ports import StoreUnavailable

API = "/api/v1"


@contextmanager
def checkouts(engine: Any) -> Iterator[list[int]]:
    """Each checkout of the pool, with how many connections were out after it."""
    seen: list[int] = []

    def counted(*_: Any) -> None:
        seen.append(engine.pool.checkedout())

    event.listen(engine, "checkout", counted)
    try:
        yield seen
    finally:
        event.remove(engine, "checkout", counted)


def test_an_events_reading_takes_one_connection_for_all_its_reads(client: Any) -> None:
    created = client.post(f"{API}/events", json={
        "name": "Sera", "variant": "gatti-4", "format": "individual",
        "entrants": [{"name": f"Giocatore {n}"} for n in range(12)]})
    event_id, edit = created.json["id"], created.json["tokens"]["edit"]
    tables = client.post(f"{API}/events/{event_id}/rounds", json={},
                         headers=auth(edit)).json["tables"]
    for table in tables:
        hand = client.post(f"{API}/games/{table['game']}/hands", json={
            "dealer": 0, "piles": [{"side": 0, "points": 40}, {"side": 1, "points": 32}]},
            headers=auth(table["tokens"]["edit"]))
        assert hand.status_code == 201, hand.json
    store = client.application.extensions["segnapunti.store"]
    with checkouts(store.engine) as seen:
        read = client.get(f"{API}/events/{event_id}/standings", headers=auth(edit))
    assert read.status_code == 200, read.json
    assert len(read.json["rows"]) == 12
    assert seen == [1]


def test_a_unit_of_work_inside_a_reading_has_the_only_connection(app: Any) -> None:
    store = app.extensions["segnapunti.store"]
    connections = store.connections
    with checkouts(store.engine) as seen, store.reading():
        with connections.connect() as first:
            first.execute(text("SELECT 1"))
        with connections.connect() as again:
            assert again is first
        with store.atomic(), connections.connect() as inside:
            assert inside is not first
            inside.execute(text("SELECT 1"))
        with connections.connect() as after:
            after.execute(text("SELECT 1"))
    assert seen == [1, 1, 1], "never two connections out at once"
    assert store.engine.pool.checkedout() == 0


def test_a_failed_read_gives_its_connection_back(app: Any) -> None:
    store = app.extensions["segnapunti.store"]
    connections = store.connections
    with checkouts(store.engine) as seen, store.reading():
        with pytest.raises((DBAPIError, StoreUnavailable)), connections.connect() as failing:
            failing.execute(text("SELECT * FROM no_such_table"))
        assert store.engine.pool.checkedout() == 0
        with connections.connect() as next_one:
            assert next_one.execute(text("SELECT 1")).scalar() == 1
    assert seen == [1, 1]
    assert store.engine.pool.checkedout() == 0
