"""Who may create here, and how much one address may create: ``CREATION`` (``open``,
``clubs``, ``admin``: ``service/application/creation.py``) checked before a creation's view,
and the address's creation quotas counted after each creation that succeeded.

**Quotas.** One address (``request.remote_addr``: behind proxies, the one the trusted proxies
forwarded, ``TRUSTED_PROXIES``) may start at most ``CREATION_QUOTA_GAMES`` games (default
300), ``CREATION_QUOTA_EVENTS`` events (30) and ``CREATION_QUOTA_CLUBS`` clubs (10) in any
hour (a moving window; 0 turns a quota off). Over it, the creation is refused 429
(``creation_quota``) with ``Retry-After``. Sized for a room: a club's forty or fifty tables
share the one address of the room's router, and each table starts a game or two an evening
(an event's tables are started by the event itself, one creation for the whole evening); a
club founds itself once. A script that creates games by the thousand is held at 300 an hour.
What counts is a creation answered 201 (not a replay of one, not one refused); the
administrator (the admin token) is never counted. The quotas are part of the rate limiting:
``RATE_LIMIT_PER_MINUTE=0``, which turns limiting off (a bench, a test), turns them off too. The counts live where the rate limits'
do (``RATE_LIMIT_STORAGE_URL``: each process's memory, or Redis shared by every process).
"""

from __future__ import annotations

import logging
import math
import os
import time
from collections.abc import Callable

from flask import Flask, Response, request
from limits import RateLimitItem, RateLimitItemPerHour

from service.application.creation import (
    Creation,
    CreationRestricted,
    check_creation,
    creation_mode,
    quota_spent,
)

from .metrics import creation_refused
from .ratelimit import DEFAULT_KEY_PREFIX, DEFAULT_STORAGE_URL, Counts, address_key, bearer_token

log = logging.getLogger(__name__)

#: The creations, by the view that makes them.
CREATIONS: dict[str, Creation] = {
    "games.Games": "game",
    "sheets.GameImport": "game",
    "events.Events": "event",
    "clubs.Clubs": "club",
}
DEFAULT_QUOTAS: dict[Creation, int] = {"game": 300, "event": 30, "club": 10}
_QUOTA_KEYS: dict[Creation, str] = {"game": "CREATION_QUOTA_GAMES",
                                    "event": "CREATION_QUOTA_EVENTS",
                                    "club": "CREATION_QUOTA_CLUBS"}


def settings_from_env() -> dict[str, str | int]:
    """``CREATION`` and the quotas from the environment, by config key."""
    settings: dict[str, str | int] = {"CREATION": os.environ.get("CREATION", "").strip()}
    for what, key in _QUOTA_KEYS.items():
        raw = os.environ.get(key, "").strip()
        if raw and not raw.isdecimal():
            raise ValueError(f"{key} is a whole number of creations an hour, not {raw!r}")
        settings[key] = int(raw) if raw else DEFAULT_QUOTAS[what]
    return settings


def _creation() -> Creation | None:
    if request.method != "POST" or request.routing_exception is not None:
        return None
    return CREATIONS.get(request.endpoint or "")


def _for_a_club() -> bool:
    body = request.get_json(silent=True)
    return (isinstance(body, dict) and body.get("club") is not None
            and _bearer("Club-Authorization") is not None)


def _bearer(header: str) -> str | None:
    scheme, _, value = request.headers.get(header, "").partition(" ")
    return (value.strip() or None) if scheme.lower() == "bearer" else None


def install(app: Flask, is_admin_token: Callable[[str], bool], *, administered: bool) -> None:
    """Check who creates (``CREATION``) and count what each address creates (the quotas).
    ``administered``: the service has an admin token (without one, ``clubs`` and ``admin``
    leave no one able to found a club: said in the log)."""
    config = app.config
    mode = creation_mode(str(config.get("CREATION") or ""))
    if mode != "open" and not administered:
        log.warning("CREATION=%s without ADMIN_TOKEN: no one can found a club here", mode)
    quotas = {what: int(config.get(key, DEFAULT_QUOTAS[what]))
              for what, key in _QUOTA_KEYS.items()}
    if any(quota < 0 for quota in quotas.values()):
        raise ValueError("a creation quota is a number of creations an hour, 0 or more")
    limiting = int(config.get("RATE_LIMIT_PER_MINUTE", 1)) > 0
    windows: dict[Creation, list[RateLimitItem]] = {
        what: [RateLimitItemPerHour(quota)] for what, quota in quotas.items()
               if quota and limiting}
    counts = Counts(str(config.get("RATE_LIMIT_STORAGE_URL") or DEFAULT_STORAGE_URL),
                    now=config.get("RATE_LIMIT_CLOCK") or time.time)
    prefix = str(config.get("RATE_LIMIT_KEY_PREFIX") or DEFAULT_KEY_PREFIX)
    app.extensions["segnapunti.creation"] = mode

    def admin() -> bool:
        token = bearer_token()
        return token is not None and is_admin_token(token)

    def check() -> None:
        what = _creation()
        if what is None:
            return
        if admin():
            return
        try:
            check_creation(mode, what, admin=False,
                           for_a_club=mode == "clubs" and _for_a_club())
        except CreationRestricted:
            creation_refused(what, "policy")
            raise
        if what in windows:
            wait = counts.wait(windows[what], (prefix, "creations", what, address_key()),
                               count=False)
            if wait > 0:
                creation_refused(what, "quota")
                raise quota_spent(what, quotas[what], max(1, math.ceil(wait)))

    def count(response: Response) -> Response:
        what = _creation()
        if (what in windows and response.status_code == 201
                and "Idempotent-Replayed" not in response.headers and not admin()):
            counts.wait(windows[what], (prefix, "creations", what, address_key()), count=True)
        return response

    app.before_request(check)
    app.after_request(count)

