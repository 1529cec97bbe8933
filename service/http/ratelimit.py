"""Rate limiting: a token bucket per client, in this process.

A client is its bearer token (by hash) or, for requests without one, its address. Each
bucket holds up to ``burst`` requests and refills at ``per_minute`` a minute; a request that
finds it empty is refused with 429 and ``Retry-After`` (whole seconds until one request
fits). Settings: ``RATE_LIMIT_PER_MINUTE`` (default 600; 0 turns limiting off) and
``RATE_LIMIT_BURST`` (default 120).

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

from .problems import problem_response

DEFAULT_PER_MINUTE = 600
DEFAULT_BURST = 120
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


def client_key() -> str:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return "token:" + hashlib.sha256(token.strip().encode()).hexdigest()
    return f"address:{request.remote_addr or '-'}"


def settings_from_env() -> tuple[int, int]:
    per_minute = int(os.environ.get("RATE_LIMIT_PER_MINUTE", "").strip() or DEFAULT_PER_MINUTE)
    burst = int(os.environ.get("RATE_LIMIT_BURST", "").strip() or DEFAULT_BURST)
    return per_minute, burst


def install(app: Flask) -> None:
    """Check every request against the limits in ``RATE_LIMIT_PER_MINUTE`` and
    ``RATE_LIMIT_BURST`` of the app's config. Register before any other check, so that
    refused requests count too."""
    per_minute = int(app.config["RATE_LIMIT_PER_MINUTE"])
    if per_minute <= 0:
        return
    buckets = TokenBuckets(per_minute, int(app.config["RATE_LIMIT_BURST"]),
                           clock=app.config.get("RATE_LIMIT_CLOCK") or time.monotonic)
    app.extensions["segnapunti.rate_limit"] = buckets

    def limit() -> Response | None:
        if request.path in EXEMPT_PATHS:
            return None
        wait = buckets.take(client_key())
        if wait <= 0:
            return None
        seconds = max(1, math.ceil(wait))
        return problem_response(
            429,
            code="rate_limited",
            title="Too Many Requests",
            detail=(
                f"more than {per_minute} requests a minute from this client; retry in "
                f"{seconds} s"
            ),
            headers={"Retry-After": str(seconds)},
        )

    app.before_request(limit)
