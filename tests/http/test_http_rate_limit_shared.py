"""Limits shared through Redis (``RATE_LIMIT_STORAGE_URL=redis://…``): two apps, as two
workers or two machines would be, spend one allowance per client between them; and when Redis
is away each goes on serving with counts of its own. Needs the Redis at ``TEST_REDIS_URL``
(default ``redis://127.0.0.1:6379/0``, as on CI); each test counts under a prefix of its own,
so runs never see each other's counts."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from http_support import API, assert_problem, auth
from limits.errors import StorageError
from redis_support import CLOSED_PORT_URL, REDIS_URL, forget, needs_redis

from service.http.app import create_app
from service.http.paths import GAMES_PREFIX
from service.http.ratelimit import Counts, allowance

App = Callable[..., Any]


@pytest.fixture()
def apps(migrated_url: str) -> Iterator[App]:
    """Apps on the module's database counting in one place, under this test's own prefix."""
    made: list[Any] = []
    prefix = f"test-{uuid.uuid4().hex}"

    def make(storage: str = REDIS_URL, **limits: int) -> Any:
        app = create_app({"DATABASE_URL": migrated_url, "TESTING": True,
                          "RATE_LIMIT_STORAGE_URL": storage, "RATE_LIMIT_KEY_PREFIX": prefix,
                          "RATE_LIMIT_PER_MINUTE": 60, "RATE_LIMIT_BURST": 3,
                          "AUTH_FAILURES_PER_MINUTE": 0, **limits})
        made.append(app)
        return app.test_client()

    yield make
    for app in made:
        app.extensions["segnapunti.games"].repository.engine.dispose()
    forget(prefix)


@needs_redis
def test_two_processes_spend_one_allowance(apps: App) -> None:
    one, other = apps(), apps()
    answers = [(one if i % 2 else other).get(f"{API}/variants").status_code for i in range(6)]
    assert answers == [200, 200, 200, 429, 429, 429]
    response = one.get(f"{API}/variants")
    assert_problem(response, 429, code="rate_limited")
    assert 1 <= int(response.headers["Retry-After"]) <= 3


@needs_redis
def test_a_tokens_allowance_is_shared_too(apps: App) -> None:
    one, other = apps(RATE_LIMIT_PER_MINUTE=600, RATE_LIMIT_BURST=4), apps(
        RATE_LIMIT_PER_MINUTE=600, RATE_LIMIT_BURST=4)
    created = one.post(f"{GAMES_PREFIX}", json={"variant": "gatti-3",
                                                "players": ["A", "B", "C"]}).json
    game = f"{GAMES_PREFIX}/{created['id']}"
    read = auth(created["tokens"]["read"])
    answers = [(one if i % 2 else other).get(game, headers=read).status_code for i in range(6)]
    assert answers == [200, 200, 200, 200, 429, 429]


@needs_redis
def test_failed_authentications_are_counted_by_every_process(apps: App) -> None:
    limits = {"RATE_LIMIT_PER_MINUTE": 6000, "RATE_LIMIT_BURST": 1000,
              "AUTH_FAILURES_PER_MINUTE": 60, "AUTH_FAILURE_BURST": 2}
    one, other = apps(**limits), apps(**limits)
    game = f"{GAMES_PREFIX}/zzzzzzzzzz"
    assert_problem(one.get(game, headers=auth("guess-1")), 401)
    assert_problem(other.get(game, headers=auth("guess-2")), 401)
    body = assert_problem(one.get(game, headers=auth("guess-3")), 429)
    assert "failed authentications" in body["detail"]


def test_without_redis_every_process_keeps_serving(apps: App,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    limits = {"AUTH_FAILURES_PER_MINUTE": 60, "AUTH_FAILURE_BURST": 2}
    caplog.set_level(logging.WARNING)
    one, other = apps(CLOSED_PORT_URL, **limits), apps(CLOSED_PORT_URL, **limits)
    answers = [(one if i % 2 else other).get(f"{API}/variants").status_code for i in range(8)]
    # Each counts on its own in memory: three each, then refused.
    assert answers == [200, 200, 200, 200, 200, 200, 429, 429]
    assert "counting in this process's memory" in caplog.text
    # Token checks go on too, failures counted in memory.
    assert_problem(one.get(f"{GAMES_PREFIX}/zzzzzzzzzz", headers=auth("guess")), 401)


@needs_redis
def test_a_worker_counts_in_redis_again_once_it_answers(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    now = [100.0]
    counts = Counts(REDIS_URL, clock=lambda: now[0])
    items = allowance(60, 2)
    client = ("test-" + uuid.uuid4().hex, "requests", "address:192.0.2.1")
    answers = counts.shared.hit

    def gone(*_args: Any, **_kwargs: Any) -> bool:
        raise StorageError(ConnectionError("connection refused"))

    monkeypatch.setattr(counts.shared, "hit", gone)
    monkeypatch.setattr(counts.storage, "check", lambda: False)
    assert counts.wait(items, client, count=True) == 0  # counted in memory
    assert "counting in this process's memory" in caplog.text
    assert counts.local.get_window_stats(items[0], *client).remaining == 1
    now[0] += 0.5  # not yet time to ask again: memory still
    assert counts.wait(items, client, count=True) == 0
    assert counts.wait(items, client, count=True) > 0  # memory's 2 are spent

    monkeypatch.setattr(counts.shared, "hit", answers)
    monkeypatch.setattr(counts.storage, "check", lambda: True)
    now[0] += 1.0  # a second after it went away: asked again, and it answers
    assert counts.wait(items, client, count=True) == 0
    assert "answers again" in caplog.text
    assert counts.shared.get_window_stats(items[0], *client).remaining == 1
    counts.shared.clear(items[0], *client)
