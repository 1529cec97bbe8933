"""Rate limiting with Flask-Limiter, in this process or shared by every process.

A client is its bearer token (by hash) on a game's own resources, where the token is what
opens them, and its address everywhere else (creating a game, importing one, scoring): a
token made up afresh for every request buys no new allowance there. A client may send
``RATE_LIMIT_PER_MINUTE`` requests in any minute (default 600; 0 turns limiting off), and at
most ``RATE_LIMIT_BURST`` (default 120) in any span of ``burst / rate`` minutes (12 s by
default): the limits are moving windows, each request counted at its time. A request over
either is refused with 429 problem+json and ``Retry-After`` (whole seconds until one fits);
refused requests count too. ``/health`` is never limited.

Failed authentications are limited by address on top: every answer that a request's token
opens nothing here (401, a token that opens no game; 404, a game id this token does not open)
counts against the address's ``AUTH_FAILURES_PER_MINUTE`` (default 30), at most
``AUTH_FAILURE_BURST`` (default 20) in a span. While that is spent, every request from that
address that carries a token is refused 429 before its token is looked at: guessing tokens or
game ids, or flooding with random tokens, costs the guesser its address's allowance. Phones
that share an address (a club's Wi-Fi) share it too, but a table's phones hold valid tokens
and never spend it.

Where the counts live is ``RATE_LIMIT_STORAGE_URL``: ``memory://`` (the default) keeps them in
each worker process, so with N workers a client can get up to N times the rate; a
``redis://host:port/db`` URL shares them between every process on every machine, the limits
then holding in total. If Redis goes away, each worker goes on with its own counts in memory
(logged) and goes back to Redis when it answers again: the service keeps serving. Behind a
proxy, the client's address is the proxy's unless ``TRUSTED_PROXIES`` says how many to
believe (``app.py``).
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import time

from flask import Flask, Response, request
from flask_limiter import Limiter, RequestLimit
from limits import RateLimitItem, RateLimitItemPerMinute, RateLimitItemPerSecond

from .config import GAMES_PREFIX, IMPORT_PATH
from .problems import FAILED_AUTHENTICATION, problem_response

log = logging.getLogger(__name__)

DEFAULT_PER_MINUTE = 600
DEFAULT_BURST = 120
DEFAULT_AUTH_FAILURES_PER_MINUTE = 30
DEFAULT_AUTH_FAILURE_BURST = 20
DEFAULT_STORAGE_URL = "memory://"
#: Where a token opens something: a game's own resources (``/api/v1/games/<id>…``).
TOKEN_SCOPED_PREFIX = f"{GAMES_PREFIX}/"
#: Never limited: the health check (a load balancer or Docker polls it from one address).
EXEMPT_PATHS = frozenset({"/api/v1/health"})
#: How long a worker waits for Redis before counting in memory instead (seconds).
STORAGE_TIMEOUT_S = 0.5
#: The namespace of every count in the storage: one Redis may serve other programs, or other
#: instances of this one (``RATE_LIMIT_KEY_PREFIX``).
DEFAULT_KEY_PREFIX = "segnapunti"


def allowance(per_minute: int, burst: int) -> list[RateLimitItem]:
    """The moving windows of a rate and its burst: ``per_minute`` in any minute, and
    ``burst`` in any span of ``burst / per_minute`` minutes (a second at least)."""
    if per_minute <= 0 or burst < 1:
        raise ValueError("a rate limit needs a positive rate and a burst of at least 1")
    span = max(1, round(60 * burst / per_minute))
    return [RateLimitItemPerMinute(per_minute), RateLimitItemPerSecond(burst, span)]


def bearer_token() -> str | None:
    """The request's bearer token, if it sends one (whether it opens anything or not)."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


def address_key() -> str:
    return f"address:{request.remote_addr or '-'}"


def client_key() -> str:
    """The bucket of this request: its token's on a game's own resources, else its
    address's."""
    token = bearer_token()
    if token is not None and request.path.startswith(TOKEN_SCOPED_PREFIX) and (
            request.path != IMPORT_PATH):
        return "token:" + hashlib.sha256(token.encode()).hexdigest()
    return address_key()


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, "").strip() or default)


def settings_from_env() -> dict[str, int | str]:
    """The limits' settings from the environment, by config key."""
    return {
        "RATE_LIMIT_STORAGE_URL": (os.environ.get("RATE_LIMIT_STORAGE_URL", "").strip()
                                   or DEFAULT_STORAGE_URL),
        "RATE_LIMIT_KEY_PREFIX": (os.environ.get("RATE_LIMIT_KEY_PREFIX", "").strip()
                                  or DEFAULT_KEY_PREFIX),
        "RATE_LIMIT_PER_MINUTE": _env_int("RATE_LIMIT_PER_MINUTE", DEFAULT_PER_MINUTE),
        "RATE_LIMIT_BURST": _env_int("RATE_LIMIT_BURST", DEFAULT_BURST),
        "AUTH_FAILURES_PER_MINUTE": _env_int("AUTH_FAILURES_PER_MINUTE",
                                             DEFAULT_AUTH_FAILURES_PER_MINUTE),
        "AUTH_FAILURE_BURST": _env_int("AUTH_FAILURE_BURST", DEFAULT_AUTH_FAILURE_BURST),
    }


def _too_many(seconds_to_wait: float, detail: str) -> Response:
    seconds = max(1, math.ceil(seconds_to_wait))
    return problem_response(
        429,
        code="rate_limited",
        title="Too Many Requests",
        detail=f"{detail}; retry in {seconds} s",
        headers={"Retry-After": str(seconds)},
    )


def _storage_options(url: str) -> dict[str, float]:
    """Redis: wait a short while for it, then count in memory (the worker's fallback)."""
    if url.startswith(("redis", "rediss")):
        return {"socket_connect_timeout": STORAGE_TIMEOUT_S, "socket_timeout": STORAGE_TIMEOUT_S}
    return {}


def install(app: Flask) -> None:
    """Check every request against the limits of the app's config (``settings_from_env``'s
    keys). Register before any other check, so that refused requests count too."""
    config = app.config
    clock = config.get("RATE_LIMIT_CLOCK") or time.time
    per_minute = int(config["RATE_LIMIT_PER_MINUTE"])
    failures_per_minute = int(config.get("AUTH_FAILURES_PER_MINUTE", 0))
    if per_minute <= 0 and failures_per_minute <= 0:
        return
    requests = allowance(per_minute, int(config["RATE_LIMIT_BURST"])) if per_minute > 0 else []
    failures = (allowance(failures_per_minute, int(config["AUTH_FAILURE_BURST"]))
                if failures_per_minute > 0 else [])
    storage = str(config.get("RATE_LIMIT_STORAGE_URL") or DEFAULT_STORAGE_URL)
    prefix = str(config.get("RATE_LIMIT_KEY_PREFIX") or DEFAULT_KEY_PREFIX)

    def breached(limit: RequestLimit) -> Response:
        return _too_many(limit.window[0] - clock(),
                         f"more than {limit.limit.amount} requests in "
                         f"{_span(limit.limit)} from this client")

    limiter = Limiter(
        client_key,
        application_limits=[str(item) for item in requests],
        application_limits_exempt_when=lambda: request.path in EXEMPT_PATHS,
        strategy="moving-window",
        storage_uri=storage,
        storage_options=_storage_options(storage),  # type: ignore[arg-type]
        in_memory_fallback_enabled=True,
        swallow_errors=True,
        headers_enabled=False,
        key_prefix=prefix,
        on_breach=breached,
    )

    def failed(key: str) -> float:
        """Seconds until the address may fail again (0: it may), from the live counts."""
        for item in failures:
            if not limiter.limiter.test(item, prefix, "auth-failures", key):
                reset_at, _ = limiter.limiter.get_window_stats(item, prefix, "auth-failures", key)
                return max(reset_at - clock(), 1.0)
        return 0.0

    def guard() -> Response | None:
        if not failures or request.path in EXEMPT_PATHS or bearer_token() is None:
            return None
        try:
            wait = failed(address_key())
        except Exception:  # the storage is away: serve, the limits resume with it
            log.warning("rate limit storage unavailable; failed authentications not checked",
                        exc_info=True)
            return None
        if wait > 0:
            return _too_many(wait, f"more than {failures_per_minute} failed authentications "
                                   "a minute from this address")
        return None

    def count_failure(response: Response) -> Response:
        if failures and request.environ.get(FAILED_AUTHENTICATION):
            try:
                for item in failures:
                    limiter.limiter.hit(item, prefix, "auth-failures", address_key())
            except Exception:
                log.warning("rate limit storage unavailable; a failed authentication not "
                            "counted", exc_info=True)
        return response

    app.before_request(guard)  # before the limiter's own check: its refusal is cheaper
    limiter.init_app(app)
    app.after_request(count_failure)
    app.extensions["segnapunti.rate_limit"] = limiter


def _span(item: RateLimitItem) -> str:
    seconds = item.get_expiry()
    return "a minute" if seconds == 60 else f"{seconds} s"
