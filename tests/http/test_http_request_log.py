"""Each request's id (``X-Request-ID``: the caller's sane one, else a new one) and its line in
the log: one JSON object with its time, level, id, method, route template, status, duration,
client address (the one the trusted proxy forwarded) and, refused, its problem code; every
other line written while it is served carries its id."""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from http_support import API, auth

from service.http.app import create_app
from service.logs import JsonFormatter, RequestIdFilter


class Lines(logging.Handler):
    """The log's lines as the service writes them in JSON, captured."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(JsonFormatter())
        self.addFilter(RequestIdFilter())
        self.lines: list[dict[str, Any]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.loads(self.format(record)))

    def of(self, request_id: str) -> list[dict[str, Any]]:
        return [line for line in self.lines if line.get("request_id") == request_id]


@pytest.fixture()
def lines() -> Iterator[Lines]:
    root = logging.getLogger()
    captured, level = Lines(), root.level
    root.addHandler(captured)
    root.setLevel(logging.INFO)
    yield captured
    root.removeHandler(captured)
    root.setLevel(level)


@pytest.fixture()
def client(migrated_url: str) -> Iterator[Any]:
    app = create_app({"DATABASE_URL": migrated_url, "TESTING": True, "TRUSTED_PROXIES": 1,
                      "RATE_LIMIT_PER_MINUTE": 60, "RATE_LIMIT_BURST": 3})
    yield app.test_client()
    app.extensions["segnapunti.games"].repository.engine.dispose()


def test_every_answer_echoes_a_sane_request_id_and_makes_one_otherwise(client: Any) -> None:
    sent = "4bf92f3577b34da6a3ce929d0e0e4736"
    assert client.get(f"{API}/health", headers={"X-Request-ID": sent}).headers[
        "X-Request-ID"] == sent
    made = client.get(f"{API}/health").headers["X-Request-ID"]
    assert uuid.UUID(made).version == 4
    # Too long, spaces, quotes, a line break: never echoed, a new id in their place.
    for insane in ("a" * 129, "two words", 'quote"d', "line\tbreak"):
        answered = client.get(f"{API}/health", headers={"X-Request-ID": insane}).headers[
            "X-Request-ID"]
        assert answered != insane and uuid.UUID(answered).version == 4
    # Every answer: a route's, no route's (404), the page's.
    assert client.get("/nothing-here").headers["X-Request-ID"]
    assert client.get("/").headers["X-Request-ID"]


def test_a_requests_line_is_one_json_object_with_its_fields(client: Any, lines: Lines) -> None:
    created = client.post(f"{API}/games", json={"variant": "gatti-3",
                                                "players": ["A", "B", "C"]}).json
    response = client.get(f"{API}/games/{created['id']}",
                          headers={**auth(created["tokens"]["read"]), "X-Request-ID": "r-1",
                                   "X-Forwarded-For": "203.0.113.9"})
    assert response.status_code == 200
    [line] = [line for line in lines.of("r-1") if line["logger"] == "service.request"]
    assert line["level"] == "INFO" and line["time"].endswith("Z")
    assert {k: line[k] for k in ("method", "route", "status", "client")} == {
        "method": "GET", "route": "/api/v1/games/<game_id:game_id>", "status": 200,
        "client": "203.0.113.9"}
    assert isinstance(line["duration_ms"], float) and line["duration_ms"] >= 0
    assert "problem" not in line
    # Neither the game's id (half of what opens it) nor its token is written.
    text = json.dumps(lines.lines)
    assert created["id"] not in text and created["tokens"]["read"] not in text


def test_a_refused_requests_line_has_its_problem_code(client: Any, lines: Lines) -> None:
    assert client.get(f"{API}/games/zzzzzzzzzz", headers={
        **auth("opens-nothing"), "X-Request-ID": "bad-token"}).status_code == 401
    client.get("/nothing-here", headers={"X-Request-ID": "no-route"})
    for n in range(3):  # the address's burst is 3, the 404 one of them
        client.get(f"{API}/variants", headers={"X-Request-ID": f"poll-{n}"})
    [refused] = lines.of("poll-2")
    assert refused["status"] == 429 and refused["problem"] == "rate_limited"
    assert refused["route"] == "/api/v1/variants"
    [failed] = lines.of("bad-token")
    assert failed["status"] == 401 and failed["problem"] == "invalid_token"
    [unrouted] = lines.of("no-route")
    assert unrouted["route"] is None and unrouted["problem"] == "not_found"


def test_every_line_written_while_a_request_is_served_has_its_id(lines: Lines) -> None:
    """A database that is not there (no tables): the service's warning and the request's
    line, both with the request's id; lines written outside a request have none."""
    app = create_app({"DATABASE_URL": "sqlite://", "TESTING": True})
    app.test_client().get(f"{API}/games/zzzzzzzzzz",
                          headers={**auth("t"), "X-Request-ID": "db-gone"})
    mine = lines.of("db-gone")
    assert [line["logger"] for line in mine] == ["service.http.problems", "service.request"]
    assert mine[0]["level"] == "WARNING" and mine[1]["problem"] == "database_unavailable"
    logging.getLogger("service.test").warning("outside any request")
    assert "request_id" not in lines.lines[-1]
