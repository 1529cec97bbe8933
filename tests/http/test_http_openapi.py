"""The committed OpenAPI file is exactly what the code generates, and the docs work offline."""

from __future__ import annotations

from typing import Any

import yaml

from service.http.openapi import OPENAPI_FILE, build_spec, render_spec


def test_committed_openapi_file_matches_the_code() -> None:
    assert OPENAPI_FILE.exists(), "run: python -m service.http.openapi"
    assert OPENAPI_FILE.read_text(encoding="utf-8") == render_spec(), (
        "openapi/openapi.yaml is out of date: run python -m service.http.openapi"
    )


def test_served_spec_is_the_committed_one(stateless_client: Any) -> None:
    response = stateless_client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert response.json == yaml.safe_load(OPENAPI_FILE.read_text(encoding="utf-8"))


def test_every_error_response_is_documented_as_problem_json() -> None:
    spec = build_spec()
    responses = spec["components"]["responses"]
    for name, response in responses.items():
        if "content" in response and name != "DEFAULT_ERROR":
            assert list(response["content"]) == ["application/problem+json"], name
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            for status, response in operation["responses"].items():
                if status.startswith("4"):
                    ref = response.get("$ref", "")
                    target = responses[ref.rsplit("/", 1)[-1]] if ref else response
                    assert "application/problem+json" in target["content"], (path, method, status)


def test_documented_paths(stateless_client: Any) -> None:
    paths = set(build_spec()["paths"])
    assert {
        "/api/v1/variants",
        "/api/v1/variants/{variant_id}",
        "/api/v1/score",
        "/api/v1/melds/suggest",
        "/api/v1/games",
        "/api/v1/games/{game_id}",
        "/api/v1/games/{game_id}/hands",
        "/api/v1/games/{game_id}/hands/{number}",
        "/api/v1/games/{game_id}/history",
    } <= paths


def test_docs_page_and_its_assets_are_served_locally(stateless_client: Any) -> None:
    page = stateless_client.get("/api/v1/docs")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "/api/v1/docs/static/swagger-ui-bundle.js" in html
    assert "//cdn" not in html and "unpkg" not in html
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css", "swagger-ui-standalone-preset.js"):
        response = stateless_client.get(f"/api/v1/docs/static/{asset}")
        assert response.status_code == 200, asset
        assert len(response.data) > 1000
        response.close()


def test_a_conditional_read_documents_its_query_beside_its_headers() -> None:
    """A read that takes a query and ``If-None-Match`` documents both: the header given to
    ``Blueprint.doc`` joins the parameters of its ``arguments`` instead of replacing them."""
    paths = build_spec()["paths"]

    def named(path: str) -> set[tuple[str, str]]:
        return {(p["in"], p["name"]) for p in paths[path]["get"].get("parameters", [])}

    assert named("/api/v1/events/{event_id}/field") == {
        ("query", "rows"), ("header", "If-None-Match")}
    assert {("query", "lang"), ("query", "detail"), ("header", "If-None-Match")} <= named(
        "/api/v1/games/{game_id}/sheet.pdf")
