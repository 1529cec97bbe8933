"""``GET /api/v1/health``: the cheapest request, through the same middleware, and which
release answers it."""

from __future__ import annotations

import importlib.metadata
from typing import Any

from alembic.script import ScriptDirectory

from service.domain import RULES_VERSION
from service.http.schemas import HealthSchema
from service.persistence.migrate import alembic_config


def test_health_answers_ok_as_json(stateless_client: Any) -> None:
    response = stateless_client.get("/api/v1/health")
    assert response.status_code == 200
    assert response.json["status"] == "ok"
    assert response.mimetype == "application/json"
    # The headers every response gets.
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_health_takes_no_body_and_no_token(stateless_client: Any) -> None:
    assert stateless_client.post("/api/v1/health", json={}).status_code == 405


def test_health_says_the_release_the_rules_and_the_schema_it_reads(stateless_client: Any) -> None:
    body = stateless_client.get("/api/v1/health").json
    assert body["version"] == importlib.metadata.version("segnapunti")
    assert body["rules_version"] == RULES_VERSION
    # The schema's head as Alembic itself finds it; the database's revision is unknown until
    # a readiness check reads it (health reads no database).
    head = ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()
    assert body["schema"] == {"head": head, "database": None}
    assert HealthSchema().validate(body) == {}  # what the OpenAPI document says it is
