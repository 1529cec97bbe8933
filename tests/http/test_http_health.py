"""``GET /api/v1/health``: the cheapest request, through the same middleware."""

from __future__ import annotations

from typing import Any


def test_health_answers_ok_as_json(stateless_client: Any) -> None:
    response = stateless_client.get("/api/v1/health")
    assert response.status_code == 200
    assert response.json == {"status": "ok"}
    assert response.mimetype == "application/json"
    # The headers every response gets.
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_health_takes_no_body_and_no_token(stateless_client: Any) -> None:
    assert stateless_client.post("/api/v1/health", json={}).status_code == 405
