"""Answers' bodies shared by every process of the topology, in Redis.

An event's reading, its standings and a field's are made once for each state of the event
(their entity tag) and kept in the process that made them (``kept_json``), as a game's is for
each version. Behind the proxy several processes answer (two app servers of two workers each,
and the streams' server): without a shared copy each one makes the standings of each new state
again, and a worker busy making them holds up every other request of its own (one interpreter
lock). With ``SHARED_CACHE_URL`` (a Redis URL) a body made by one process is read by the
others: a state's standings are made once for the whole topology, whichever process a board's
reading reaches first, and a game a room's phones open at once is read from the database
once. A field's sections are summed up the same way (``EventService.shared``): each
section's summary at each of its states is made by one process and read by the others, so a
field's tag, read after every hand of every section, never has a process load every section.

- **Keys** are the entity tag, under the release that made the body (a release that says
  something differently never reads another's bodies) and a ``TTL_S`` after which Redis
  forgets them (a state is read for a few minutes at most).
- **One maker.** The screens of a room read a new state all at once (a board, the
  organiser, a thousand spectators' pages, each told by its stream): the first to miss a
  body claims its making (``SET … NX``, for ``CLAIM_S`` at most) and the others wait for it,
  asking Redis every ``POLL_S``, up to ``WAIT_S``, instead of each making it too. A claim
  left by a process that died runs out; a waiter that sees the claim gone and no body (one
  too large to share) makes its own.
- **The newest made.** An event's bodies are kept with a pointer to each reader's newest
  (``Newest``: the event as one kind of token reads it, in one language). A screen told by
  its stream reads when told, and by then another hand may have moved the event again: with
  ``Cache-Control: max-stale`` it is answered the newest state already made, at once, where
  the current one is not made yet: never older than what its stream told it (made before it
  was told), and its stream, which makes the current one, tells it of the next. Without it
  (a poll, the reader's read after its own write) a read waits for the current state.
- **Redis away** (stopped, unreachable, too slow): the process makes the body itself, as
  without one, and asks Redis again after 1, 2, 4… s (``MAX_BACKOFF_S`` at most). A body is
  never wrong for being made twice; only its cost is shared.
- Without ``SHARED_CACHE_URL`` (the embedded default, one process) nothing is shared.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import redis

log = logging.getLogger(__name__)

#: Seconds Redis keeps a body.
TTL_S = 600
#: What a body in Redis may weigh: a larger one is made by each process.
MAX_BYTES = 4 * 1024 * 1024
#: How long an answer of Redis is waited for, in seconds.
TIMEOUT_S = 0.1
MAX_BACKOFF_S = 30.0
#: How long a claim to make a body stands at most, in seconds (its maker died meanwhile).
CLAIM_S = 5.0
#: How long a reader waits for the body another is making, and how often it asks.
WAIT_S = 2.0
POLL_S = 0.01


#: Sets a resource's newest key (``Newest``) to ARGV[2], made at order ARGV[1], unless the one
#: it names was made at a later order (two makers finishing in the other order).
_SET_NEWEST = """
local now = redis.call('GET', KEYS[1])
if now then
  local order = tonumber(string.match(now, '^(%d+):'))
  if order and order > tonumber(ARGV[1]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1] .. ':' .. ARGV[2], 'EX', ARGV[3])
return 1
"""
#: A resource's newest key and its body (ARGV[1]: the keys' prefix); nil when either is gone.
_GET_NEWEST = """
local now = redis.call('GET', KEYS[1])
if not now then return nil end
local key = string.match(now, '^%d+:(.*)$')
local body = redis.call('GET', ARGV[1] .. key)
if not body then return nil end
return {key, body}
"""


#: A resource whose newest body made is kept beside the bodies by key: its name (the resource
#: as one kind of reader reads it, whatever its state), and the order of the state made (it
#: grows as the resource moves), so that a body made later for an older state never passes
#: for the newest.
Newest = tuple[str, int]


def _release() -> str:
    try:
        return version("segnapunti")
    except PackageNotFoundError:  # a checkout never installed
        return "unreleased"


class SharedBodies:
    """Bodies by key in Redis, for every process; see the module's docstring."""

    def __init__(self, url: str, prefix: str = "segnapunti",
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.client = redis.Redis.from_url(url, socket_timeout=TIMEOUT_S,
                                           socket_connect_timeout=TIMEOUT_S)
        self.prefix = f"{prefix}:body:{_release()}:"
        self.clock = clock
        self._lock = threading.Lock()
        self._retry_at = 0.0
        self._backoff = 0.0

    def get(self, key: str) -> bytes | None:
        answered, found = self._ask(lambda: self.client.get(self.prefix + key))
        if not answered:
            return None
        self._back()
        return found if isinstance(found, bytes) else None

    def get_many(self, keys: Sequence[str]) -> list[bytes | None]:
        """Each key's body in one request; None for each where Redis keeps none or is away."""
        answered, found = self._ask(lambda: self.client.mget([self.prefix + k for k in keys]))
        if not answered:
            return [None] * len(keys)
        self._back()
        return [body if isinstance(body, bytes) else None for body in found]

    def made(self, key: str, make: Callable[[], bytes],
             sleep: Callable[[float], None] = time.sleep) -> bytes:
        """The body of ``key``: from Redis, else made by one reader of all those asking now
        (this one, or another it waits for)."""
        return self.answered(key, make, sleep)[1]

    def answered(self, key: str, make: Callable[[], bytes],
                 sleep: Callable[[float], None] = time.sleep, *,
                 newest: Newest | None = None, stale: bool = False) -> tuple[str, bytes]:
        """The key answered and its body: ``key``'s, from Redis or made by one reader of all
        those asking now. ``newest``: the resource's newest body is kept beside the one made
        (``Newest``); ``stale``: where ``key``'s is not made yet, the resource's newest body
        made so far answers at once (``max-stale``: a reader told by a stream, which makes
        ``key``'s before it tells of it)."""
        found = self.get(key)
        if found is not None:
            return key, found
        older = self.newest_made(newest[0]) if newest is not None and stale else None
        if older is not None:
            return older
        claim = f"{self.prefix}{key}:making"
        claimed = self._claim(claim)
        if not claimed:
            found = self._made_elsewhere(key, claim, sleep)
            if found is not None:
                return key, found
        try:
            body = make()
            self.put(key, body, newest)
            return key, body
        finally:
            if claimed:
                self._ask(lambda: self.client.delete(claim))

    def _claim(self, claim: str) -> bool:
        """Whether this reader makes the body (Redis away: it does, as every other)."""
        answered, claimed = self._ask(
            lambda: self.client.set(claim, b"1", nx=True, px=int(CLAIM_S * 1000)))
        return not answered or bool(claimed)

    def _made_elsewhere(self, key: str, claim: str,
                        sleep: Callable[[float], None]) -> bytes | None:
        """The body another reader claimed, once it is in Redis; None when it has not come
        within ``WAIT_S``, its maker let go without sharing it, or Redis stopped answering."""
        deadline = self.clock() + WAIT_S
        while self._answering() and self.clock() < deadline:
            sleep(POLL_S)
            answered, found = self._ask(lambda: self.client.mget([self.prefix + key, claim]))
            if not answered:
                return None
            body, making = found
            if isinstance(body, bytes):
                return body
            if making is None:
                return None  # its maker ended without sharing it
        return None

    def put(self, key: str, body: bytes, newest: Newest | None = None) -> None:
        if len(body) > MAX_BYTES:
            return
        if newest is None:
            self._ask(lambda: self.client.set(self.prefix + key, body, ex=TTL_S))
            return

        def both() -> Any:
            with self.client.pipeline(transaction=False) as pipe:
                pipe.set(self.prefix + key, body, ex=TTL_S)
                pipe.eval(_SET_NEWEST, 1, f"{self.prefix}newest:{newest[0]}", newest[1],
                          key, TTL_S)
                return pipe.execute()

        self._ask(both)

    def put_many(self, bodies: Sequence[tuple[str, bytes]]) -> None:
        """Each ``(key, body)`` kept, in one exchange with Redis (a body over ``MAX_BYTES``
        is not kept, as ``put`` keeps none)."""

        def every() -> Any:
            with self.client.pipeline(transaction=False) as pipe:
                for key, body in bodies:
                    if len(body) <= MAX_BYTES:
                        pipe.set(self.prefix + key, body, ex=TTL_S)
                return pipe.execute()

        self._ask(every)

    def newest_made(self, name: str) -> tuple[str, bytes] | None:
        """The newest body made of ``name`` (``Newest``), and its key; None when none is
        kept."""
        answered, found = self._ask(lambda: self.client.eval(
            _GET_NEWEST, 1, f"{self.prefix}newest:{name}", self.prefix))
        if not answered or not isinstance(found, list) or len(found) != 2:
            return None
        return found[0].decode(), found[1]

    def _ask(self, command: Callable[[], Any]) -> tuple[bool, Any]:
        """Whether Redis answered ``command``, and its answer; a Redis left alone for now
        (``_answering``) is not asked, and one that fails is left alone a while longer."""
        if not self._answering():
            return False, None
        try:
            return True, command()
        except redis.RedisError as error:
            self._away(error)
            return False, None

    def _answering(self) -> bool:
        return self._backoff == 0.0 or self.clock() >= self._retry_at

    def _away(self, error: Exception) -> None:
        with self._lock:
            if self._backoff == 0.0:
                log.warning("the shared cache does not answer (%s): each process makes its "
                            "bodies until it does", type(error).__name__)
            self._backoff = min(max(1.0, self._backoff * 2), MAX_BACKOFF_S)
            self._retry_at = self.clock() + self._backoff

    def _back(self) -> None:
        if self._backoff:
            with self._lock:
                if self._backoff:
                    log.warning("the shared cache answers again")
                    self._backoff = 0.0


def shared_bodies(url: str | None) -> SharedBodies | None:
    """The topology's shared bodies at ``url`` (``SHARED_CACHE_URL``); none without one."""
    url = (url or "").strip()
    return SharedBodies(url) if url else None
