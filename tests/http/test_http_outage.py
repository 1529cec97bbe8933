"""Database trouble is a 503 with Retry-After, never a 500: a database that cannot be reached,
one that accepts connections and never answers (past the connect timeout), a statement that
runs past the statement timeout, a SQLite file locked past the busy timeout, a pool with no
free connection. A request whose connection was lost before anything committed runs once more;
a write whose commit was cut is not run again (its outcome is unknown: the client's retry with
its Idempotency-Key finds out). Liveness and readiness answer within 2 s whatever the database
does."""

from __future__ import annotations

import os
import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from http_support import API, assert_problem, auth, gatti3_hand
from sqlalchemy import text

from service.application.ports import StoreUnavailable
from service.http.app import create_app
from service.persistence import SqlGameRepository, SqlStore, make_engine, upgrade

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")
NO_RATE_LIMIT = {"RATE_LIMIT_PER_MINUTE": 0, "AUTH_FAILURES_PER_MINUTE": 0}
GAME = {"variant": "gatti-3", "players": ["Anna", "Bruno", "Carla"]}


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port  # nothing listens on it once the probe is closed


def assert_unavailable(response: Any) -> None:
    body = assert_problem(response, 503, code="database_unavailable")
    assert response.headers["Retry-After"] == "5"
    assert "Try again" in body["detail"]


@pytest.mark.skipif(TEST_DATABASE_URL is None, reason="needs a PostgreSQL URL to point away")
def test_a_postgresql_server_that_cannot_be_reached_is_a_503() -> None:
    url = f"postgresql+psycopg://postgres@127.0.0.1:{_closed_port()}/test"
    app = create_app({"DATABASE_URL": url, "TESTING": True, **NO_RATE_LIMIT})
    client = app.test_client()
    assert_unavailable(client.post(f"{API}/games", json=GAME))
    assert_unavailable(client.get(f"{API}/games/abcdefghjk", headers=auth("x")))
    assert_unavailable(client.post(f"{API}/games/abcdefghjk/hands", json=gatti3_hand(0),
                                   headers={**auth("x"), "Idempotency-Key": "k"}))
    # What needs no database still answers.
    assert client.get(f"{API}/health").status_code == 200
    assert client.post(f"{API}/score", json={"variant": "gatti-3",
                                             "hand": gatti3_hand(0)}).status_code == 200


def within(seconds: float, request: Callable[[], Any]) -> Any:
    """``request``'s response, failing the test if it takes longer than ``seconds`` (it is
    left to finish in its thread: without the timeouts it would hang for minutes)."""
    answered: list[Any] = []
    started = time.monotonic()
    worker = threading.Thread(target=lambda: answered.append(request()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert answered, f"no answer within {seconds} s"
    assert time.monotonic() - started < seconds
    return answered[0]


@pytest.fixture()
def black_hole() -> Iterator[int]:
    """A server on 127.0.0.1 that accepts every connection and never says a word, as a
    database that hangs: its port."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                held.append(listener.accept()[0])
            except OSError:
                return  # the listener was closed

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield listener.getsockname()[1]
    finally:
        listener.close()
        for connection in held:
            connection.close()


def test_a_database_that_accepts_connections_and_never_answers_is_a_503_in_seconds(
        black_hole: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_CONNECT_TIMEOUT", "2")  # libpq's least
    url = f"postgresql+psycopg://postgres@127.0.0.1:{black_hole}/test"
    app = create_app({"DATABASE_URL": url, "TESTING": True, **NO_RATE_LIMIT})
    client = app.test_client()
    # Liveness reads no database; readiness waits a second for its probe, not for libpq.
    assert within(2, lambda: client.get(f"{API}/health")).status_code == 200
    assert_unavailable(within(2, lambda: client.get(f"{API}/ready")))
    # A request's connection gives up at the connect timeout.
    assert_unavailable(within(2 + 1.5, lambda: client.get(f"{API}/games/abcdefghjk",
                                                          headers=auth("x"))))
    assert within(2, lambda: client.get(f"{API}/health")).status_code == 200


@pytest.mark.skipif(TEST_DATABASE_URL is None, reason="PostgreSQL's statement timeout")
def test_a_statement_that_runs_past_the_statement_timeout_is_a_503(
        migrated_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if not migrated_url.startswith("postgresql"):
        pytest.skip("PostgreSQL's statement timeout (SQLite's wait is its busy timeout)")
    monkeypatch.setenv("DATABASE_STATEMENT_TIMEOUT", "0.3")
    app = create_app({"DATABASE_URL": migrated_url, "TESTING": True, **NO_RATE_LIMIT})
    client = app.test_client()
    created = client.post(f"{API}/games", json=GAME).get_json()
    game = f"{API}/games/{created['id']}"
    other = make_engine(migrated_url)
    try:
        with other.connect() as connection, connection.begin():
            # Another program holds the game's row: a write to it waits for the lock.
            connection.execute(text("SELECT id FROM games WHERE id = :id FOR UPDATE"),
                               {"id": created["id"]})
            assert_unavailable(within(0.3 + 1.5, lambda: client.post(
                f"{game}/hands", json=gatti3_hand(0), headers=auth(created["tokens"]["edit"]))))
            # And one that holds the whole table keeps every read of it waiting.
            connection.execute(text("LOCK TABLE games IN ACCESS EXCLUSIVE MODE"))
            assert_unavailable(within(0.3 + 1.5, lambda: client.get(
                game, headers=auth(created["tokens"]["read"]))))
    finally:
        other.dispose()
    # Nothing half-done, and the next write goes through.
    state = client.get(game, headers=auth(created["tokens"]["read"])).get_json()
    assert state["hands"] == []
    assert client.post(f"{game}/hands", json=gatti3_hand(0),
                       headers=auth(created["tokens"]["edit"])).status_code == 201
    app.extensions["segnapunti.store"].engine.dispose()


@pytest.fixture()
def sqlite_app(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, str]]:
    monkeypatch.setenv("SQLITE_BUSY_TIMEOUT", "0.05")
    path = tmp_path / "locked.sqlite3"
    upgrade(f"sqlite:///{path}")
    app = create_app({"DATABASE_URL": f"sqlite:///{path}", "TESTING": True, **NO_RATE_LIMIT})
    yield app, str(path)
    app.extensions["segnapunti.games"].repository.engine.dispose()


def test_a_sqlite_file_locked_past_the_busy_timeout_is_a_503(sqlite_app: Any) -> None:
    app, path = sqlite_app
    client = app.test_client()
    created = client.post(f"{API}/games", json=GAME).get_json()
    game = f"{API}/games/{created['id']}"
    other = sqlite3.connect(path, isolation_level=None)  # another program holds the writer lock
    try:
        other.execute("BEGIN IMMEDIATE")
        assert_unavailable(client.post(f"{API}/games", json=GAME))
        assert_unavailable(client.post(f"{game}/hands", json=gatti3_hand(0),
                                       headers=auth(created["tokens"]["edit"])))
        # Readers are never blocked by a writer (WAL).
        assert client.get(game, headers=auth(created["tokens"]["read"])).status_code == 200
    finally:
        other.execute("ROLLBACK")
        other.close()
    # Nothing half-done: the game has no hand, and the next write goes through.
    assert client.get(game, headers=auth(created["tokens"]["read"])).get_json()["hands"] == []
    assert client.post(f"{game}/hands", json=gatti3_hand(0),
                       headers=auth(created["tokens"]["edit"])).status_code == 201


class _Flaky:
    """Make one repository method lose its connection the first ``times`` calls."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, name: str, times: int) -> None:
        self.calls = 0
        original = getattr(SqlGameRepository, name)

        def flaky(repository: Any, *args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            if self.calls <= times:
                raise StoreUnavailable("connection lost", lost_connection=True)
            return original(repository, *args, **kwargs)

        monkeypatch.setattr(SqlGameRepository, name, flaky)


def test_a_read_that_lost_its_connection_is_read_once_more(
        client: Any, table: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    game = table()
    flaky = _Flaky(monkeypatch, "get_credentials", times=1)
    assert game.get().status_code == 200
    assert flaky.calls == 2
    flaky = _Flaky(monkeypatch, "get_credentials", times=2)  # lost twice: the client is told
    assert_unavailable(game.get())


def test_a_write_that_lost_its_connection_before_committing_runs_once_more(
        client: Any, table: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    game = table()
    flaky = _Flaky(monkeypatch, "add_hand", times=1)
    assert game.add(gatti3_hand(0)).status_code == 201
    assert flaky.calls == 2
    monkeypatch.undo()
    assert len(game.state()["hands"]) == 1
    assert len(game.history()) == 1


def test_a_write_whose_commit_was_cut_is_not_run_again(
        client: Any, table: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    game = table()
    store = client.application.extensions["segnapunti.store"]
    commits = []
    original = store.atomic

    class CutAtCommit:
        def __enter__(self) -> None:
            self.inner = original()
            self.inner.__enter__()

        def __exit__(self, *exc: object) -> None:
            self.inner.__exit__(*exc)
            commits.append(1)
            if exc[0] is None:
                raise StoreUnavailable("connection lost at commit", lost_connection=True)

    monkeypatch.setattr(store, "atomic", CutAtCommit)
    assert_unavailable(game.add(gatti3_hand(0)))
    assert commits == [1]
    monkeypatch.undo()
    assert len(game.state()["hands"]) == 1  # it had committed: the retry must find out


def test_connections_cut_by_a_postgresql_restart_cost_no_request(
        client: Any, table: Any) -> None:
    engine = client.application.extensions["segnapunti.games"].repository.engine
    if engine.dialect.name != "postgresql":
        pytest.skip("a PostgreSQL server's connections (SQLite has none to cut)")
    game = table()
    assert game.get().status_code == 200
    with engine.connect() as connection:  # as a restart does to every pooled connection
        connection.execute(text(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE application_name = 'segnapunti' AND pid <> pg_backend_pid() "
            "AND datname = current_database() AND usename = current_user "
            "AND state = 'idle'"))
    assert game.get().status_code == 200
    assert game.add(gatti3_hand(0)).status_code == 201


def test_a_pool_with_no_free_connection_is_a_503(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'pool.sqlite3'}"
    upgrade(url)
    engine = make_engine(url, pool_size=1, max_overflow=0, pool_timeout=0.05)
    app = create_app({"DATABASE_URL": url, "TESTING": True, **NO_RATE_LIMIT,
                      "STORE": SqlStore(engine)})
    client = app.test_client()
    with engine.connect():  # every connection of the pool busy
        assert_unavailable(client.post(f"{API}/games", json=GAME))
    assert client.post(f"{API}/games", json=GAME).status_code == 201
    engine.dispose()
