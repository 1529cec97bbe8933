"""Configuration of the Flask app; ``create_app(config)`` overrides any key."""

from __future__ import annotations

import os
from typing import Any

from service.application.clock_sweep import sweep_seconds
from service.application.games import CACHE_HANDS
from service.application.printouts import (
    PDF_CACHE_BYTES,
    PDF_RENDER_CONCURRENCY,
    PDF_RENDER_WAIT_S,
)
from service.application.retention import retention_days
from service.persistence import default_database_url

from . import creation
from .paths import API_PREFIX, SWAGGER_UI_STATIC
from .ratelimit import settings_from_env

MAX_BODY_BYTES = 1024 * 1024


def cache_hands_from_env() -> int:
    """``$CACHE_HANDS``: hands of games and results each worker keeps (0 keeps none)."""
    raw = os.environ.get("CACHE_HANDS", "").strip()
    if not raw:
        return CACHE_HANDS
    if not raw.isdecimal():
        raise ValueError(f"CACHE_HANDS is a whole number of hands, not {raw!r}")
    return int(raw)


def _env_number(name: str, default: float, kind: type[int | float] = int) -> Any:
    raw = os.environ.get(name, "").strip()
    try:
        return kind(raw) if raw else default
    except ValueError:
        raise ValueError(f"{name} is a number, not {raw!r}") from None


def default_config() -> dict[str, Any]:
    return {
        # service/application/games.py: a worker's cached game views and hand results.
        "CACHE_HANDS": cache_hands_from_env(),
        # service/http/ratelimit.py: RATE_LIMIT_PER_MINUTE, RATE_LIMIT_BURST,
        # AUTH_FAILURES_PER_MINUTE, AUTH_FAILURE_BURST; 0 a minute turns a limit off.
        **settings_from_env(),
        # service/application/printouts/printer.py: rendered sheets kept by each worker, renders at
        # once in a worker, and how long a request waits for its turn before a 503.
        "PDF_CACHE_BYTES": _env_number("PDF_CACHE_BYTES", PDF_CACHE_BYTES),
        "PDF_RENDER_CONCURRENCY": _env_number("PDF_RENDER_CONCURRENCY", PDF_RENDER_CONCURRENCY),
        "PDF_RENDER_WAIT_S": _env_number("PDF_RENDER_WAIT_S", PDF_RENDER_WAIT_S, float),
        "DATABASE_URL": default_database_url(),
        # The site's address for share links, e.g. https://segnapunti.example; by default the
        # address the request came to.
        "PUBLIC_URL": os.environ.get("PUBLIC_URL", ""),
        # The service's admin token (docs/operations.md, "Administration"): who holds it may
        # issue a club, an event or a game new tokens. Unset or empty, the service has no
        # administration at all (its paths answer 404).
        "ADMIN_TOKEN": os.environ.get("ADMIN_TOKEN", "").strip(),
        # service/http/creation.py: who may create (CREATION: open, clubs, admin) and what one
        # address may create in an hour (CREATION_QUOTA_GAMES, _EVENTS, _CLUBS; 0: no quota).
        **creation.settings_from_env(),
        # service/application/retention.py: anonymous games untouched for this many days are
        # purged (unset or empty: never).
        "RETENTION_DAYS": retention_days(os.environ.get("RETENTION_DAYS")),
        # service/application/clock_sweep.py: every this many seconds a serving process
        # closes the rounds their clock closed (auto_close); 0: only a reading closes them.
        "CLOCK_SWEEP_SECONDS": sweep_seconds(os.environ.get("CLOCK_SWEEP_SECONDS")),
        # Who else may read GET /metrics (service/http/metrics.py), as a bearer token: a client
        # on this machine or a private network reads it without one.
        "METRICS_TOKEN": os.environ.get("METRICS_TOKEN", "").strip(),
        # service/http/shared_bodies.py: a Redis where the processes behind one proxy share
        # the events' bodies they make (unset: each keeps its own).
        "SHARED_CACHE_URL": os.environ.get("SHARED_CACHE_URL", "").strip(),
        # How many proxies in front of the service to believe (their X-Forwarded-For, -Proto,
        # -Host, -Port and -Prefix, one hop each): 0, the default, believes none.
        "TRUSTED_PROXIES": _env_number("TRUSTED_PROXIES", 0),
        "MAX_CONTENT_LENGTH": MAX_BODY_BYTES,
        "API_TITLE": "Segnapunti",
        "API_VERSION": "1.0.0",
        "OPENAPI_VERSION": "3.0.3",
        "OPENAPI_URL_PREFIX": API_PREFIX,
        "OPENAPI_JSON_PATH": "openapi.json",
        "OPENAPI_SWAGGER_UI_PATH": "docs",
        # Served by this app from the swagger-ui-bundle package: the docs work offline.
        "OPENAPI_SWAGGER_UI_URL": SWAGGER_UI_STATIC,
        "API_SPEC_OPTIONS": {
            "info": {
                "description": (
                    "Score-keeper and referee for Italian tarot games: Gatti, Ottocento, "
                    "Mitigatti. Errors are RFC 9457 problems (application/problem+json). "
                    "Stored games are opened with their tokens: Authorization: Bearer …"
                ),
            },
            "components": {
                "securitySchemes": {
                    "gameToken": {
                        "type": "http",
                        "scheme": "bearer",
                        "description": "the game's edit token, or its read token for reads",
                    },
                    "adminToken": {
                        "type": "http",
                        "scheme": "bearer",
                        "description": "the service's admin token (ADMIN_TOKEN)",
                    },
                }
            },
        },
    }
