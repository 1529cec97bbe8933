"""``GET /api/v1/ready``: readiness, apart from liveness. 200 while the database answers
``SELECT 1`` at the schema this release reads; 503 problem+json (with ``Retry-After``) when it
cannot be reached, does not answer within the check's short wait, or was not migrated, while
``/health`` (liveness) still says 200. What compose's, Docker's and Caddy's health checks
call."""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from alembic.script import ScriptDirectory
from http_support import API, assert_problem

import service.persistence.store as persistence_store
from service.http.app import create_app
from service.persistence import make_engine, upgrade
from service.persistence.migrate import alembic_config

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")
NO_RATE_LIMIT = {"RATE_LIMIT_PER_MINUTE": 0, "AUTH_FAILURES_PER_MINUTE": 0}
needs_postgresql = pytest.mark.skipif(TEST_DATABASE_URL is None,
                                      reason="needs a PostgreSQL URL to point away")


def test_ready_answers_200_while_the_database_answers(client: Any) -> None:
    response = client.get(f"{API}/ready")
    assert response.status_code == 200
    assert response.json == {"status": "ready"}
    assert response.mimetype == "application/json"
    assert client.get(f"{API}/health").json["status"] == "ok"


def _unready_client(port: int) -> Any:
    url = f"postgresql+psycopg://postgres@127.0.0.1:{port}/test"
    return create_app({"DATABASE_URL": url, "TESTING": True, **NO_RATE_LIMIT}).test_client()


def _assert_not_ready(response: Any) -> None:
    body = assert_problem(response, 503, code="database_unavailable")
    assert response.headers["Retry-After"] == "5"
    assert "Try again" in body["detail"]


@needs_postgresql
def test_ready_is_503_when_the_database_cannot_be_reached_and_health_stays_200() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # nothing listens on it once the probe is closed
    client = _unready_client(port)
    _assert_not_ready(client.get(f"{API}/ready"))
    assert client.get(f"{API}/health").status_code == 200


@pytest.fixture()
def silent_server() -> Iterator[int]:
    """A port that takes connections and never says a word (a database that hangs)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        yield listener.getsockname()[1]


@needs_postgresql
def test_ready_is_503_within_its_timeout_when_the_database_does_not_answer(
        silent_server: int) -> None:
    client = _unready_client(silent_server)
    started = time.monotonic()
    _assert_not_ready(client.get(f"{API}/ready"))
    assert time.monotonic() - started < 2  # within a health check's patience, whatever libpq waits


def test_a_flood_of_ready_checks_asks_the_database_once_a_second(
        client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    store = client.application.extensions["segnapunti.store"]
    probes = []
    real = store._probe_once
    monkeypatch.setattr(store, "_probe_once", lambda: probes.append(1) or real())
    monkeypatch.setattr(store, "_readiness", None)
    assert all(client.get(f"{API}/ready").status_code == 200 for _ in range(10))
    assert len(probes) == 1


def _schema_not_current(response: Any, database: str | None, expected: str) -> None:
    body = assert_problem(response, 503, code="schema_not_current")
    assert response.headers["Retry-After"] == "5"
    assert expected in body["detail"]
    assert (database or "never migrated") in body["detail"]


def test_ready_is_503_until_the_database_is_migrated_to_the_head_the_code_reads(
        empty_db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(persistence_store, "READY_FRESH_S", 0.0)  # every check asks afresh
    script = ScriptDirectory.from_config(alembic_config(empty_db_url))
    head = script.get_current_head()
    assert head is not None
    previous = script.get_revision(head).down_revision
    assert isinstance(previous, str)
    app = create_app({"DATABASE_URL": empty_db_url, "TESTING": True, **NO_RATE_LIMIT})
    client = app.test_client()
    try:
        _schema_not_current(client.get(f"{API}/ready"), None, head)  # never migrated
        upgrade(empty_db_url, previous)  # one migration short of what the code reads
        _schema_not_current(client.get(f"{API}/ready"), previous, head)
        assert client.get(f"{API}/health").json["schema"] == {"head": head,
                                                             "database": previous}
        upgrade(empty_db_url)
        assert client.get(f"{API}/ready").status_code == 200
        assert client.get(f"{API}/health").json["schema"] == {"head": head, "database": head}
    finally:
        app.extensions["segnapunti.store"].engine.dispose()


def test_a_schema_found_at_the_head_is_not_read_again_while_the_database_answers(
        client: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    store = client.application.extensions["segnapunti.store"]
    monkeypatch.setattr(persistence_store, "READY_FRESH_S", 0.0)
    monkeypatch.setattr(store, "_at_head", False)
    reads = []
    real = persistence_store.database_revision
    monkeypatch.setattr(persistence_store, "database_revision",
                        lambda connection: reads.append(1) or real(connection))
    assert all(client.get(f"{API}/ready").status_code == 200 for _ in range(3))
    assert reads == [1]
    # A failed check forgets it: the database that answers next may be another one.
    away = make_engine(f"sqlite:///{tmp_path / 'no such directory' / 'db.sqlite3'}")
    (tmp_path / "no such directory").rmdir()
    engine = store._probe_engine
    monkeypatch.setattr(store, "_probe_engine", lambda: away)
    assert_problem(client.get(f"{API}/ready"), 503, code="database_unavailable")
    monkeypatch.setattr(store, "_probe_engine", engine)
    assert client.get(f"{API}/ready").status_code == 200
    assert reads == [1, 1]


def test_a_readiness_check_that_cannot_tell_says_not_ready(
        client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    store = client.application.extensions["segnapunti.store"]
    monkeypatch.setattr(persistence_store, "READY_FRESH_S", 0.0)
    monkeypatch.setattr(store, "_at_head", False)

    def broken(connection: Any) -> str:
        raise RuntimeError("a defect of the check itself")

    monkeypatch.setattr(persistence_store, "database_revision", broken)
    assert_problem(client.get(f"{API}/ready"), 503, code="database_unavailable")
