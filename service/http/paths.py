"""The service's addresses, which more than one part of the HTTP layer reads (the limiter, the
body checks, the blueprints): a leaf that imports nothing of the service."""

from __future__ import annotations

API_PREFIX = "/api/v1"
GAMES_PREFIX = f"{API_PREFIX}/games"
IMPORT_PATH = f"{GAMES_PREFIX}/import"
SWAGGER_UI_STATIC = f"{API_PREFIX}/docs/static/"
EVENTS_PREFIX = f"{API_PREFIX}/events"
CLUBS_PREFIX = f"{API_PREFIX}/clubs"
#: The phone page: its shell (and the operator's page, the same shell at ``/admin``), its
#: service worker, and its files (``resources/web.py``).
PAGE_PATHS = frozenset({"/", "/admin", "/sw.js"})
PAGE_ASSETS_PREFIX = "/app/"
