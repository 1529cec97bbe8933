"""The phone page: ``/`` and its static files (``service/web/static``).

A plain Flask blueprint, so the page stays out of the OpenAPI document: it is a client of the
API like any other and uses only the public endpoints. Game tokens never reach the server in a
page's address: share links carry them in the URL fragment (``/#/games/{id}?token=…``), which
browsers do not send, and the page sends them as ``Authorization: Bearer``.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, send_from_directory

STATIC_DIR = Path(__file__).resolve().parents[2] / "web" / "static"
#: Where the page's files are served from.
ASSETS_PREFIX = "/app/"

#: The page loads nothing from elsewhere and may not be framed; QR codes are inline SVG.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'; manifest-src 'self'"
)

page = Blueprint("web", __name__)


def _secure(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["X-Frame-Options"] = "DENY"
    # Revalidate every time (cheap: ETag and Last-Modified give 304s), so that a new version
    # of the page reaches phones at once.
    response.headers["Cache-Control"] = "no-cache"
    return response


@page.route("/")
def index() -> Response:
    return _secure(send_from_directory(STATIC_DIR, "index.html", max_age=0))


@page.route(f"{ASSETS_PREFIX}<path:filename>")
def asset(filename: str) -> Response:
    return _secure(send_from_directory(STATIC_DIR, filename, max_age=0))
