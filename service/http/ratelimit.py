"""Rate limiting: a token bucket per client, in this process.

A client is its bearer token (by hash) on a game's own resources, where the token is what
opens them, and its address everywhere else (creating a game, importing one, scoring): a
token made up afresh for every request buys no new bucket there. Each bucket holds up to
``burst`` requests and refills at ``per_minute`` a minute; a request that finds it empty is
refused with 429 and ``Retry-After`` (whole seconds until one request fits). Settings:
``RATE_LIMIT_PER_MINUTE`` (default 600; 0 turns limiting off) and ``RATE_LIMIT_BURST``
(default 120).

Failed authentications are limited by address on top: every answer that a request's token
opens nothing here (401, a token that opens no game; 404, a game id this token does not open)
spends one from the address's failure bucket, ``AUTH_FAILURES_PER_MINUTE`` (default 30) in
bursts of ``AUTH_FAILURE_BURST`` (default 20). While it is empty, every request from that
address that carries a token is refused 429 before its token is looked at: guessing tokens
or game ids, or flooding with random tokens, costs the guesser its address's allowance.
Phones that share an address (a club's Wi-Fi) share it too, but a table's phones hold valid
tokens and never spend it.

The buckets live in the worker process: with N gunicorn workers a client can get up to N
times the rate when its requests spread over them. That bounds what one phone, script or
leaked link can do to the others without a shared store; a limit that must hold across
processes belongs in the proxy in front. Behind a proxy, requests without a token share the
proxy's address.
"""

from __future__ import annotations

import hashlib
import math
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from flask import Flask, Response, request

from .config import GAMES_PREFIX, IMPORT_PATH
from .problems import FAILED_AUTHENTICATION, problem_response

DEFAULT_PER_MINUTE = 600
DEFAULT_BURST = 120
DEFAULT_AUTH_FAILURES_PER_MINUTE = 30
DEFAULT_AUTH_FAILURE_BURST = 20
#: Where a token opens something: a game's own resources (``/api/v1/games/<id>…``).
TOKEN_SCOPED_PREFIX = f"{GAMES_PREFIX}/"
#: Buckets kept; the least recently used go first (an evicted bucket was refilling anyway,
#: or its client is one of very many).
MAX_CLIENTS = 10_000
#: Never limited: the health check (a load balancer or Docker polls it from one address).
EXEMPT_PATHS = frozenset({"/api/v1/health"})


class TokenBuckets:
    def __init__(
        self,
        per_minute: float,
        burst: int,
        clock: Callable[[], float] = time.monotonic,
        max_clients: int = MAX_CLIENTS,
    ) -> None:
        if per_minute <= 0 or burst < 1:
            raise ValueError("a rate limit needs a positive rate and a burst of at least 1")
        self.rate = per_minute / 60.0  # requests a second
        self.burst = float(burst)
        self.clock = clock
        self.max_clients = max_clients
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def wait(self, client: str) -> float:
        """The seconds until the client's bucket holds a request again (0 if it does), taking
        nothing."""
        with self._lock:
            now = self.clock()
            tokens, then = self._buckets.get(client, (self.burst, now))
            tokens = min(self.burst, tokens + (now - then) * self.rate)
            return 0.0 if tokens >= 1 else (1 - tokens) / self.rate

    def take(self, client: str) -> float:
        """Take one request from the client's bucket: 0 if it was there, else the seconds
        until it will be."""
        with self._lock:
            now = self.clock()
            tokens, then = self._buckets.pop(client, (self.burst, now))
            tokens = min(self.burst, tokens + (now - then) * self.rate)
            wait = 0.0
            if tokens >= 1:
                tokens -= 1
            else:
                wait = (1 - tokens) / self.rate
            self._buckets[client] = (tokens, now)
            while len(self._buckets) > self.max_clients:
                self._buckets.popitem(last=False)
            return wait


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


def settings_from_env() -> dict[str, int]:
    """The limits' settings from the environment, by config key."""
    return {
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


def install(app: Flask) -> None:
    """Check every request against the limits of the app's config (``settings_from_env``'s
    keys). Register before any other check, so that refused requests count too."""
    config = app.config
    clock = config.get("RATE_LIMIT_CLOCK") or time.monotonic
    per_minute = int(config["RATE_LIMIT_PER_MINUTE"])
    failures_per_minute = int(config.get("AUTH_FAILURES_PER_MINUTE", 0))
    buckets = (TokenBuckets(per_minute, int(config["RATE_LIMIT_BURST"]), clock=clock)
               if per_minute > 0 else None)
    failures = (TokenBuckets(failures_per_minute, int(config["AUTH_FAILURE_BURST"]),
                             clock=clock) if failures_per_minute > 0 else None)
    if buckets is not None:
        app.extensions["segnapunti.rate_limit"] = buckets
    if buckets is None and failures is None:
        return

    def limit() -> Response | None:
        if request.path in EXEMPT_PATHS:
            return None
        if failures is not None and bearer_token() is not None:
            wait = failures.wait(address_key())
            if wait > 0:
                return _too_many(wait, f"more than {failures_per_minute} failed "
                                       "authentications a minute from this address")
        if buckets is not None:
            wait = buckets.take(client_key())
            if wait > 0:
                return _too_many(wait, f"more than {per_minute} requests a minute from "
                                       "this client")
        return None

    def count_failure(response: Response) -> Response:
        if failures is not None and request.environ.get(FAILED_AUTHENTICATION):
            failures.take(address_key())
        return response

    app.before_request(limit)
    app.after_request(count_failure)
