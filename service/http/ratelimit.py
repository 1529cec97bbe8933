"""Rate limiting with ``limits``, in this process or shared by every process.

A client is its bearer token (by hash) on a game's or an event's own resources, where the token
is what opens them, and its address everywhere else (creating a game or an event, importing
one, scoring): a token made up afresh for every request buys no new allowance there, and one
that opens nothing spends the address's failures (below). A client may send at most
``RATE_LIMIT_BURST`` requests (default 1200) in any span of ``burst / rate`` minutes (12 s by
default), which is ``RATE_LIMIT_PER_MINUTE`` (default 6000; 0 turns limiting off) a minute
over time: a moving window, each request counted at its time. A request over it is refused
with 429 problem+json and ``Retry-After`` (whole seconds until one fits). ``/health`` is never
limited, and nor is the phone page: its shell (``/``), its service worker (``/sw.js``) and its
files (``/app/…``) are fixed for a release, kept by the browser a year at their version (the
shell revalidated, a 304), and a phone refused one of them shows nothing at all.

**Sized for a room.** A club's forty or fifty tables share the one public address of the
room's router, so the address's allowance is a room's, not a phone's. What the page sends
(``service/web/static``), per phone:

- a game's sheet polls the game every 4 s with ``If-None-Match``: 15 a minute (on the token);
- an event's board or organiser's view polls the event and its standings every 4 s: 30 a
  minute (on the event's token);
- a hand: one phone enters it (one ``POST``, up to ~20 previews ``POST /score`` debounced at
  300 ms, a meld suggestion or two) and every seat sends its verdict: about 25 requests a
  hand at a table of four, a hand every 3 minutes or more: 2 a minute per phone;
- opening the page: the shell and its files (not limited); on https the service worker, as it
  installs, reads the list of variants (1 on the address); a game's sheet reads its variant and
  rulebook (2 on the address) and the game (on the token), a board its event (on the token).

So a phone at a table sends about 17 requests a minute and one watching a board 30. The
allowance takes a room of **200 phones** all doing the most of it (a board read by every phone
in the room, which shares that board's one token): 200 × 30 = **6000 a minute**; and 200
phones arriving in the same 12 s (2 + 1 requests each on opening, 3 polls of a board each):
200 × 6 = **1200 in 12 s**. One address, or one token, that sends more than a room does is
refused. A table's phones count on their game's tokens, a board's on its event's, so a real
room spends the address's own allowance far below this: at most 200 × 3 = 600 requests on
arrival, then about one preview a minute per phone.

Failed authentications are limited on top, by what failed: every answer that a request's
token opens nothing here (401, a token that opens no game, event or club; 404, a game id this
token does not open) is a failure, counted against ``AUTH_FAILURES_PER_MINUTE`` (default 30),
at most ``AUTH_FAILURE_BURST`` (default 20) in a span, on two counts:

- **the token's, from its address**: one token that keeps failing (a phone still polling a
  game lost in a restore, every 4 s) spends its own count. While that is spent, that token
  from that address is refused 429 before it is looked at (no database read); no other
  token is.
- **the address's guesses**: each token (or, for a 404, each token and path) that failed
  counts once a minute, however often it is sent again. Many different tokens failing from
  one address is guessing (or flooding with random tokens); while the address's guesses are
  spent, a token-bearing request from it is refused 429 **unless its token opens
  something**: the token is looked up first (its hash, in the games', players', events' and
  clubs' unique indexes, as the handler would), and one that opened something is
  remembered by the worker for a minute (``KnownTokens``). So a room's phones behind one
  Wi-Fi address, holding valid tokens, are never refused for the failures of others at that
  address, and cost a dictionary lookup while they are remembered. A token that opens nothing
  costs a lookup in four indexes, about as much as a whole ``GET`` of a game
  (``docs/measurements.md``). A guesser's refusal therefore
  saves the database little: what the guesses' count holds back is guessing itself (a
  guesser gets 429, not the answer), and the address's request allowance (above) bounds the
  load of a flood.

A token that failed its own count and then comes to open something (a game restored again)
waits out its window (``burst / rate`` minutes: 40 s by default) before it is looked at.

Where the counts live is ``RATE_LIMIT_STORAGE_URL``: ``memory://`` (the default) keeps them in
each worker process, so with N workers a client can get up to N times the rate; a
``redis://host:port/db`` URL shares them between every process on every machine, the limits
then holding in total. If Redis goes away, each worker goes on with its own counts in memory
(logged once) and asks Redis again after 1, 2, 4… s (at most a minute) until it answers: the
service keeps serving. Behind a proxy, the client's address is the proxy's unless
``TRUSTED_PROXIES`` says how many to believe (``app.py``).

``limits`` is used directly, not through Flask-Limiter: Flask-Limiter resolves its limits on
every request, most of the cost of a light request in process (``bench/bench_limits.py``);
one window checked here costs a few µs.
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from flask import Flask, Response, request
from limits import RateLimitItem, RateLimitItemPerMinute, RateLimitItemPerSecond
from limits.errors import StorageError
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from .metrics import rate_limited
from .paths import (
    CLUBS_PREFIX,
    EVENTS_PREFIX,
    GAMES_PREFIX,
    IMPORT_PATH,
    PAGE_ASSETS_PREFIX,
    PAGE_PATHS,
)
from .problems import FAILED_AUTHENTICATION, problem_response

#: Set in the WSGI environ of a stream's reading again after a change notice
#: (``service/http/follow.py``): the server's own request, which no client's limit counts.
REREAD = "segnapunti.stream_reread"

log = logging.getLogger(__name__)

#: A room of 200 phones, each polling a board (30 a minute): see the module's docstring.
ROOM_PHONES = 200
DEFAULT_PER_MINUTE = ROOM_PHONES * 30
#: The same room arriving at once: 6 requests a phone in the window's 12 s.
DEFAULT_BURST = ROOM_PHONES * 6
DEFAULT_AUTH_FAILURES_PER_MINUTE = 30
DEFAULT_AUTH_FAILURE_BURST = 20
DEFAULT_STORAGE_URL = "memory://"
#: Where a token opens something: a game's and an event's own resources
#: (``/api/v1/games/<id>…``, ``/api/v1/events/<id>…``), not the collections they are created in.
TOKEN_SCOPED_PREFIXES = (f"{GAMES_PREFIX}/", f"{EVENTS_PREFIX}/", f"{CLUBS_PREFIX}/")
#: Never limited: liveness and readiness (a load balancer or Docker polls them from one
#: address; readiness asks the database at most once a second a worker, however often it is
#: called), and the phone page (its shell and service worker here, its files under
#: ``EXEMPT_PREFIX``).
EXEMPT_PATHS = frozenset({"/api/v1/health", "/api/v1/ready", *PAGE_PATHS})
EXEMPT_PREFIX = PAGE_ASSETS_PREFIX
#: A guess counts once a minute on its address's guesses, however often it is sent again.
ONCE_A_MINUTE = RateLimitItemPerMinute(1)
#: How many tokens that opened something a worker remembers, and for how long (seconds).
KNOWN_TOKENS = 4096
KNOWN_TOKEN_S = 60.0
#: How long a worker waits for Redis before counting in memory instead (seconds).
STORAGE_TIMEOUT_S = 0.5
#: The namespace of every count in the storage: one Redis may serve other programs, or other
#: instances of this one (``RATE_LIMIT_KEY_PREFIX``).
DEFAULT_KEY_PREFIX = "segnapunti"
#: The longest wait between two tries of a storage that went away (seconds).
MAX_STORAGE_BACKOFF_S = 60.0


def allowance(per_minute: int, burst: int) -> list[RateLimitItem]:
    """The moving window of a rate and its burst: ``burst`` in any span of ``burst /
    per_minute`` minutes, in whole seconds (one at least); and, where the rounding made that
    span's rate another, ``per_minute`` in any minute as well."""
    if per_minute <= 0 or burst < 1:
        raise ValueError("a rate limit needs a positive rate and a burst of at least 1")
    span = max(1, round(60 * burst / per_minute))
    items: list[RateLimitItem] = [RateLimitItemPerSecond(burst, span)]
    if span * per_minute != 60 * burst:
        items.append(RateLimitItemPerMinute(per_minute))
    return items


class Counts:
    """Moving windows counted in the configured storage; while it is away (Redis stopped,
    unreachable), in this process's memory, asking the storage again after 1, 2, 4… s."""

    def __init__(self, url: str, clock: Callable[[], float] = time.monotonic,
                 now: Callable[[], float] = time.time) -> None:
        """``clock`` times the tries of a storage that went away; ``now`` is the wall clock
        the windows are counted on (``limits`` counts in ``time.time``), for ``Retry-After``."""
        self.url = url
        self.now = now
        self.storage = storage_from_string(url, wrap_exceptions=True, **_storage_options(url))
        self.shared = MovingWindowRateLimiter(self.storage)
        self.local = (self.shared if isinstance(self.storage, MemoryStorage)
                      else MovingWindowRateLimiter(MemoryStorage()))
        self.clock = clock
        self._lock = threading.Lock()
        self._away = False
        self._retry_at = 0.0
        self._backoff = 1.0

    def _current(self) -> MovingWindowRateLimiter:
        if not self._away:
            return self.shared
        if self.clock() < self._retry_at or not self._lock.acquire(blocking=False):
            return self.local  # not yet time to ask, or another thread is asking
        try:
            if self._away and self.clock() >= self._retry_at:
                if self.storage.check():
                    log.warning("rate limit storage %s answers again: counting there",
                                _safe(self.url))
                    self._away, self._backoff = False, 1.0
                else:
                    self._backoff = min(self._backoff * 2, MAX_STORAGE_BACKOFF_S)
                    self._retry_at = self.clock() + self._backoff
        finally:
            self._lock.release()
        return self.local if self._away else self.shared

    def _went_away(self, error: Exception) -> None:
        with self._lock:
            if not self._away:
                log.warning("rate limit storage %s unavailable (%s): counting in this "
                            "process's memory until it answers", _safe(self.url), error)
            self._away = True
            self._retry_at = self.clock() + self._backoff

    def wait(self, items: list[RateLimitItem], identifiers: tuple[str, ...], *,
             count: bool) -> float:
        """Seconds until a request fits every window (0: it fits), counting it if it does and
        ``count`` is set."""
        strategy = self._current()
        try:
            return self._wait(strategy, items, identifiers, count)
        except StorageError as error:
            if strategy is self.local:
                raise
            self._went_away(error)
            return self._wait(self.local, items, identifiers, count)

    def first_in_a_minute(self, identifiers: tuple[str, ...]) -> bool:
        """Whether these identifiers were not seen in the last minute (and now are)."""
        return self.wait([ONCE_A_MINUTE], identifiers, count=True) == 0.0

    def _wait(self, strategy: MovingWindowRateLimiter, items: list[RateLimitItem],
              identifiers: tuple[str, ...], count: bool) -> float:
        for item in items:
            fits = (strategy.hit if count else strategy.test)(item, *identifiers)
            if not fits:
                reset_at = strategy.get_window_stats(item, *identifiers).reset_time
                return max(reset_at - self.now(), 0.001)
        return 0.0


class KnownTokens:
    """``token_opens``, remembering for a minute the tokens that opened something (their
    hashes, at most ``KNOWN_TOKENS`` of them, the least recently asked forgotten first): a
    room's phones polling through a guesser's refusals are looked up once a minute each, not
    on every poll."""

    def __init__(self, token_opens: Callable[[str], bool], clock: Callable[[], float]) -> None:
        self.token_opens = token_opens
        self.clock = clock
        self.known: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, token: str) -> bool:
        digest, now = _digest(token), self.clock()
        with self._lock:
            until = self.known.get(digest)
            if until is not None and until > now:
                self.known.move_to_end(digest)
                return True
        if not self.token_opens(token):
            return False
        with self._lock:
            self.known[digest] = now + KNOWN_TOKEN_S
            self.known.move_to_end(digest)
            while len(self.known) > KNOWN_TOKENS:
                self.known.popitem(last=False)
        return True


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _safe(url: str) -> str:
    """A storage URL without its password, for the log."""
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.rpartition('@')[2]}"


def bearer_token() -> str | None:
    """The request's bearer token, if it sends one (whether it opens anything or not)."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


def address_key() -> str:
    return f"address:{request.remote_addr or '-'}"


def client_key() -> str:
    """The bucket of this request: its token's on a game's or an event's own resources, else
    its address's."""
    token = bearer_token()
    if token is not None and request.path.startswith(TOKEN_SCOPED_PREFIXES) and (
            request.path != IMPORT_PATH):
        return "token:" + _digest(token)
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
    if url.startswith("redis"):  # redis://, rediss://, redis+sentinel://
        return {"socket_connect_timeout": STORAGE_TIMEOUT_S, "socket_timeout": STORAGE_TIMEOUT_S}
    return {}


def install(app: Flask, token_opens: Callable[[str], bool] = lambda _token: False) -> None:
    """Check every request against the limits of the app's config (``settings_from_env``'s
    keys). Register before any other check, so that refused requests count too.
    ``token_opens(token)``: whether a token opens anything (a game, an event, a club, the
    administration), asked only of requests from an address whose guesses are spent."""
    config = app.config
    clock = config.get("RATE_LIMIT_CLOCK") or time.time
    per_minute = int(config["RATE_LIMIT_PER_MINUTE"])
    failures_per_minute = int(config.get("AUTH_FAILURES_PER_MINUTE", 0))
    if per_minute <= 0 and failures_per_minute <= 0:
        return
    requests = allowance(per_minute, int(config["RATE_LIMIT_BURST"])) if per_minute > 0 else []
    failures = (allowance(failures_per_minute, int(config["AUTH_FAILURE_BURST"]))
                if failures_per_minute > 0 else [])
    prefix = str(config.get("RATE_LIMIT_KEY_PREFIX") or DEFAULT_KEY_PREFIX)
    counts = Counts(str(config.get("RATE_LIMIT_STORAGE_URL") or DEFAULT_STORAGE_URL), now=clock)

    opens = KnownTokens(token_opens, clock)

    def limit() -> Response | None:
        if request.path in EXEMPT_PATHS or request.path.startswith(EXEMPT_PREFIX):
            return None
        if request.environ.get(REREAD):  # a stream's own reading again, not the client's
            return None
        token = bearer_token()
        if failures and token is not None:
            address = address_key()
            wait = counts.wait(failures, (prefix, "token-failures", address, _digest(token)),
                               count=False)
            if wait > 0:
                rate_limited("token_failures")
                return _too_many(wait, f"this token failed more than {failures_per_minute} "
                                       "times a minute from this address")
            wait = counts.wait(failures, (prefix, "auth-guesses", address), count=False)
            if wait > 0 and not opens(token):
                rate_limited("address_failures")
                return _too_many(wait, f"more than {failures_per_minute} different failed "
                                       "authentications a minute from this address")
        if requests:
            wait = counts.wait(requests, (prefix, "requests", client_key()), count=True)
            if wait > 0:
                rate_limited("requests")
                return _too_many(wait, f"more than {per_minute} requests a minute "
                                       f"({requests[0].amount} in {_span(requests[0])}) "
                                       "from this client")
        return None

    def count_failure(response: Response) -> Response:
        if failures and request.environ.get(FAILED_AUTHENTICATION):
            address, token = address_key(), bearer_token()
            digest = _digest(token) if token is not None else "-"
            # A 401 is the token's failure; a 404 the path's, the token opening something.
            guess = digest if response.status_code != 404 else f"{digest} {request.path}"
            if counts.first_in_a_minute((prefix, "auth-guess-seen", address, guess)):
                counts.wait(failures, (prefix, "auth-guesses", address), count=True)
            if response.status_code != 404:
                counts.wait(failures, (prefix, "token-failures", address, digest), count=True)
        return response

    app.before_request(limit)
    app.after_request(count_failure)
    app.extensions["segnapunti.rate_limit"] = counts


def _span(item: RateLimitItem) -> str:
    seconds = item.get_expiry()
    return "a minute" if seconds == 60 else f"{seconds} s"
