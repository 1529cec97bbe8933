"""The Swagger UI's own files, served from the ``swagger-ui-bundle`` package so that
``/api/v1/docs`` works without a network (flask-smorest's page would load them from a CDN)."""

from __future__ import annotations

from flask import Blueprint, Response, send_from_directory
from swagger_ui_bundle import swagger_ui_path

from ..paths import SWAGGER_UI_STATIC

assets = Blueprint("swagger_ui_assets", __name__)


@assets.route(f"{SWAGGER_UI_STATIC}<path:filename>")
def swagger_ui_file(filename: str) -> Response:
    return send_from_directory(swagger_ui_path, filename, max_age=86400)
