"""``GET /api/v1/ready``: readiness, apart from liveness (issue 25). 200 while the database
answers ``SELECT 1``; 503 problem+json (with ``Retry-After``) when it cannot be reached or does
not answer within the check's short timeout, while ``/health`` (liveness) still says 200.
What compose's, Docker's and Caddy's health checks call."""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from http_support import API, assert_problem

from service.http.app import create_app
from service.persistence.store import READY_TIMEOUT_S

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")
NO_RATE_LIMIT = {"RATE_LIMIT_PER_MINUTE": 0, "AUTH_FAILURES_PER_MINUTE": 0}
needs_postgresql = pytest.mark.skipif(TEST_DATABASE_URL is None,
                                      reason="needs a PostgreSQL URL to point away")


def test_ready_answers_200_while_the_database_answers(client: Any) -> None:
    response = client.get(f"{API}/ready")
    assert response.status_code == 200
    assert response.json == {"status": "ready"}
    assert response.mimetype == "application/json"
    assert client.get(f"{API}/health").json == {"status": "ok"}


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
    assert time.monotonic() - started < READY_TIMEOUT_S + 1.5


def test_a_flood_of_ready_checks_asks_the_database_once_a_second(
        client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    store = client.application.extensions["segnapunti.store"]
    probes = []
    real = store._probe_once
    monkeypatch.setattr(store, "_probe_once", lambda: probes.append(1) or real())
    monkeypatch.setattr(store, "_readiness", None)
    assert all(client.get(f"{API}/ready").status_code == 200 for _ in range(10))
    assert len(probes) == 1
