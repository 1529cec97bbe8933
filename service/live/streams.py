"""Server-Sent Events beside each resource a screen follows (``GET …/stream``).

A stream opens with a reading of the resource it follows, through the app and with the
client's headers (``service/http/follow.py``): the same access rules, and the same refusal
when they say no. Then it waits, holding no thread: a coroutine of the server's one loop.

- **Followers.** The streams that follow the same resource with the same token and language
  share one ``Follower``: a thousand spectators of a published page cost one reading a
  change, not a thousand, and a stream that joins a follower already held opens with no
  reading of its own.
- **Threads.** The streams' readings run in a pool of their own, so that a crowd opening
  streams at once never keeps the app's other requests (a health check) waiting.
- **Notices.** A committed write tells its topics (``service.application.notices``); the
  ``Hub`` pokes the followers listening to them, and each reads its resource again, for its
  entity tag alone (``follow.TAG_ONLY``: the body is the client's to read when told), a game's
  for its body, and an event's, its standings' and a field's for theirs too (``WARMED``:
  made once and kept for every process before the screens told read them). Only when the
  resource's version moved does each of its streams get an event.
- **Events.** ``event: change``, ``id`` the resource's version, ``data`` ``{"kind",
  "version"}``: the page then reads what changed as it does when polling. A game's change
  also carries the game as its read answers it (``etag`` and ``body``, while the body is at
  most ``CARRIED_MOST`` bytes): the table's four phones, told of each hand and each verdict,
  then read nothing. Its follower's readings ask for the body with the tag it holds, so an
  unchanged game is a 304 and a changed one is made once per version in this process (the
  app keeps each version's body), however many tokens follow it. A stream that sends
  ``Last-Event-ID`` is told at once when the resource moved since, and not otherwise. A
  comment every ``KEEP_ALIVE_S`` seconds keeps proxies and phones from closing a quiet
  stream. A token revoked or a resource gone ends the stream with ``event: gone`` and the
  refusal's problem as its data.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from tornado.iostream import StreamClosedError
from tornado.web import RequestHandler

from service.application.notices import EVERYTHING, Follow, followed
from service.http.follow import Reading, passed_on, read

log = logging.getLogger(__name__)

#: Seconds between two comments on a quiet stream, by default (``STREAM_KEEP_ALIVE_SECONDS``,
#: 1 to 25: at most what proxies and phones keep a quiet connection).
KEEP_ALIVE_S = 15.0
#: How long a client waits before it opens a stream again (the ``retry`` field).
RETRY_MS = 3_000
#: The shortest time between two readings of one follower: notices closer together are
#: taken as one.
MIN_GAP_S = 0.2
#: The app's readiness: what a stream answers when its database is away.
READY_PATH = "/api/v1/ready"
#: The statuses that end a stream: the token no longer opens the resource, or it is gone.
ENDING = frozenset({401, 403, 404, 410})
#: The kinds whose change events carry the resource itself: a game, which its table's phones
#: would otherwise each read again after every hand and verdict.
CARRIED = frozenset({"game"})
#: The kinds whose readings make the body (without keeping it) before the change is told:
#: an event's, its standings' and a field's bodies are kept by entity tag for every process
#: (``shared_bodies``), so the screens told read a body already made, not all at once
#: waiting for its one maker.
WARMED = frozenset({"event", "standings", "field"})
#: The largest body a change event carries (bytes, uncompressed: a stream is never
#: compressed); a longer game's change says its version alone and the page reads it.
CARRIED_MOST = 64 * 1024


def version_of(parts: list[str]) -> str:
    """A resource's version from its readings' entity tags (or bodies' digests)."""
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:20]


@dataclass(eq=False)
class Listener:
    """One open stream's mailbox: the latest version it has not yet sent, or the end."""

    moved: asyncio.Event = field(default_factory=asyncio.Event)
    version: str | None = None
    gone: Reading | None = None
    closed: bool = False

    def tell(self, version: str) -> None:
        self.version = version
        self.moved.set()

    def end(self, reading: Reading | None) -> None:
        self.gone = reading
        self.closed = reading is None
        self.moved.set()

    async def next(self, timeout: float) -> bool:
        """Whether something came within ``timeout`` seconds."""
        try:
            await asyncio.wait_for(self.moved.wait(), timeout)
        except TimeoutError:
            return False
        self.moved.clear()
        return True


class Follower:
    """The streams that follow one resource with one token and language, and its version."""

    def __init__(self, hub: Hub, key: tuple[Any, ...], follow: Follow,
                 headers: dict[str, str], remote: str) -> None:
        self.hub = hub
        self.key = key
        self.follow = follow
        self.headers = headers
        self.remote = remote
        self.version = ""
        self.parts: dict[str, tuple[str | None, str]] = {}  # path -> (etag, part)
        #: Whether its change events carry the resource (``CARRIED``), and the body last read.
        self.carries = follow.kind in CARRIED and len(follow.paths) == 1
        #: Whether its readings ask for the body all the same (``WARMED``).
        self.warms = self.carries or follow.kind in WARMED
        self.body = b""
        #: The change event of the current version, as every stream of the follower sends it.
        self.said = ""
        self.topics: frozenset[str] = frozenset()
        self.listeners: set[Listener] = set()
        self.reading = False
        self.again = False
        self.last = 0.0

    def take(self, path: str, reading: Reading) -> None:
        """A reading's part of the version: its entity tag (a 304 says the current one: a
        stream's readings ask for the tag alone), else its body's digest."""
        if reading.status == 304:
            if reading.etag:
                self.parts[path] = (reading.etag, reading.etag)
            return
        part = reading.etag or hashlib.sha256(reading.body).hexdigest()
        self.parts[path] = (reading.etag, part)
        if self.carries:
            self.body = reading.body

    def settle(self) -> None:
        """The version from the parts read, and its change event."""
        version = version_of([self.parts[p][1] for p in self.follow.paths])
        if version == self.version and self.said:
            return
        self.version = version
        carried = None
        if self.carries and self.body and len(self.body) <= CARRIED_MOST:
            carried = (self.parts[self.follow.paths[0]][0], self.body)
        self.said = change(self.follow.kind, version, carried)

    def read_again(self) -> Reading | None:
        """Every path read again (in a worker thread): the refusal that ends the streams,
        else None (the parts updated)."""
        for path in self.follow.paths:
            etag = self.parts.get(path, (None, ""))[0]
            reading = self.hub.read(path, self.headers, self.remote, etag=etag, again=True,
                                    body=self.warms)
            if reading.status in ENDING:
                return reading
            if reading.status in (200, 304):
                self.take(path, reading)
            # anything else (a 503 while the database is away): the next notice tries again
        return None

    def poke(self) -> None:
        if self.reading:
            self.again = True
            return
        self.reading = True
        asyncio.get_running_loop().create_task(self._refresh())

    async def _refresh(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                self.again = False
                wait = MIN_GAP_S - (time.monotonic() - self.last)
                if wait > 0:
                    await asyncio.sleep(wait)
                self.last = time.monotonic()
                try:
                    ending = await loop.run_in_executor(self.hub.executor, self.read_again)
                except Exception:
                    log.exception("a stream's reading failed; the next notice tries again")
                    ending = None
                if ending is not None:
                    self.hub.drop(self)
                    for listener in list(self.listeners):
                        listener.end(ending)
                    return
                before = self.version
                self.settle()
                if self.version != before:
                    for listener in list(self.listeners):
                        listener.tell(self.version)
                if not self.again:
                    return
        finally:
            self.reading = False


class Hub:
    """Every follower of this process, by key and by topic; notices in, pokes out."""

    def __init__(self, app: Any, executor: Executor,
                 topics_of: Callable[[Follow], frozenset[str]],
                 heard: Callable[[frozenset[str]], None] = lambda _topics: None,
                 keep_alive: float = KEEP_ALIVE_S,
                 counted: Callable[[int], None] = lambda _open: None) -> None:
        self.app = app
        self.keep_alive = keep_alive
        #: Told how many streams are open, each time one opens or closes (the metrics).
        self.counted = counted
        self.executor = executor
        self.topics_of = topics_of
        #: Told of each notice before any follower reads again (what the process keeps of
        #: the published pages is forgotten there).
        self.heard = heard
        self.loop: asyncio.AbstractEventLoop | None = None
        self.followers: dict[tuple[Any, ...], Follower] = {}
        self.by_topic: dict[str, set[Follower]] = {}
        #: Streams open now (the metrics' gauge, through ``counted``).
        self.open_streams = 0

    def read(self, path: str, headers: Mapping[str, str], remote: str, *,
             etag: str | None = None, again: bool = False, body: bool = False) -> Reading:
        return read(self.app, path, headers, remote, etag=etag, again=again, body=body)

    def deliver(self, topics: frozenset[str]) -> None:
        """Take a notice's topics, from any thread."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._notice, topics)

    def _notice(self, topics: frozenset[str]) -> None:
        self.heard(topics)
        poked: set[Follower] = set()
        if EVERYTHING in topics:
            poked.update(self.followers.values())
        else:
            for topic in topics:
                poked.update(self.by_topic.get(topic, ()))
        for follower in poked:
            follower.poke()

    async def open(self, follow: Follow, headers: dict[str, str],
                   remote: str) -> Reading | tuple[Follower, Listener]:
        """The client's own reading of the resource: its refusal, or the follower it joins
        and its listener."""
        loop = asyncio.get_running_loop()
        key = (follow.paths, headers.get("authorization", ""),
               headers.get("accept-language", ""))
        follower = self.followers.get(key)
        if follower is not None and follower.listeners:
            # The same resource, token and language as streams already held: the follower's
            # readings answer for this one too (a token revoked since is read by the notice
            # that revoked it, and ends every stream of the follower).
            return self._join(follower)
        fresh = Follower(self, key, follow, headers, remote)

        def first() -> Reading | None:
            for path in follow.paths:
                reading = self.read(path, headers, remote, body=fresh.carries)
                if reading.status not in (200, 304):
                    return reading
                fresh.take(path, reading)
            fresh.topics = self.topics_of(follow)
            return None

        refusal = await loop.run_in_executor(self.executor, first)
        if refusal is not None:
            return refusal
        follower = self.followers.get(key)
        if follower is None:
            follower = fresh
            follower.settle()
            self.followers[key] = follower
            for topic in follower.topics:
                self.by_topic.setdefault(topic, set()).add(follower)
        elif follower.parts != fresh.parts and not follower.reading:
            follower.poke()  # the client read something newer than the follower knows
        return self._join(follower)

    def _join(self, follower: Follower) -> tuple[Follower, Listener]:
        listener = Listener(version=follower.version)
        follower.listeners.add(listener)
        self.open_streams += 1
        self.counted(self.open_streams)
        return follower, listener

    def leave(self, follower: Follower, listener: Listener) -> None:
        self.open_streams -= 1
        self.counted(self.open_streams)
        follower.listeners.discard(listener)
        if not follower.listeners:
            self.drop(follower)

    def drop(self, follower: Follower) -> None:
        if self.followers.get(follower.key) is follower:
            del self.followers[follower.key]
        for topic in follower.topics:
            followers = self.by_topic.get(topic)
            if followers is not None:
                followers.discard(follower)
                if not followers:
                    del self.by_topic[topic]


def change(kind: str, version: str, carried: tuple[str | None, bytes] | None = None) -> str:
    """A change event; ``carried``: the resource's entity tag and body (JSON), which its data
    then holds as ``etag`` and ``body``."""
    said: dict[str, Any] = {"kind": kind, "version": version}
    if carried is not None:
        said["etag"] = carried[0]
    data = json.dumps(said, separators=(",", ":"), ensure_ascii=False)
    if carried is not None:
        data = f'{data[:-1]},"body":{carried[1].decode().strip()}}}'
    # A line of the body's JSON is a ``data`` line: the client joins them again with newlines.
    lines = "".join(f"data: {line}\n" for line in data.split("\n"))
    return f"id: {version}\nevent: change\n{lines}\n"


def gone(reading: Reading) -> str:
    try:
        problem = json.loads(reading.body or b"{}")
    except ValueError:
        problem = {}
    if not isinstance(problem, dict):
        problem = {}
    problem.setdefault("status", reading.status)
    data = json.dumps(problem, separators=(",", ":"), ensure_ascii=False)
    return f"event: gone\ndata: {data}\n\n"


class StreamHandler(RequestHandler):
    """``GET <resource>/stream``: see the module's docstring. A path that names no followed
    resource goes to the app, which answers it as any unknown path."""

    hub: Hub
    fallback: Callable[[Any], None]

    def initialize(self, hub: Hub, fallback: Callable[[Any], None]) -> None:
        self.hub = hub
        self.fallback = fallback
        self.listener: Listener | None = None

    def _request_summary(self) -> str:
        # What tornado logs of a request that failed: its path, never its query string.
        return f"{self.request.method} {self.request.path}"

    def set_default_headers(self) -> None:
        self.clear_header("Server")
        self.set_header("Server", "segnapunti")

    def _to_the_app(self) -> None:
        self.fallback(self.request)
        self._finished = True
        self.on_finish()

    async def get(self, path: str) -> None:
        follow = followed(path)
        if follow is None:
            self._to_the_app()
            return
        headers = passed_on(self.request.headers)
        try:
            opened = await self.hub.open(follow, headers, self.request.remote_ip or "")
        except Exception:
            # Its database away between the reading and the topics: the app's readiness
            # says so (503, in the client's language); anything else is a failure (500).
            ready = await asyncio.get_running_loop().run_in_executor(
                self.hub.executor, self.hub.read, READY_PATH, headers, "")
            if ready.status == 200:
                raise
            opened = ready
        if isinstance(opened, Reading):
            self.set_status(opened.status)
            for name, value in opened.headers:
                self.set_header(name, value)
            self.set_header("Content-Type", opened.content_type or "application/problem+json")
            self.set_header("Cache-Control", "no-store")
            self.finish(opened.body)
            return
        follower, listener = opened
        self.listener = listener
        try:
            await self._stream(follower, listener)
        except StreamClosedError:
            pass
        finally:
            self.hub.leave(follower, listener)

    async def _stream(self, follower: Follower, listener: Listener) -> None:
        self.set_header("Content-Type", "text/event-stream; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("X-Accel-Buffering", "no")  # a proxy passes each event on at once
        self.write(f"retry: {RETRY_MS}\n\n")
        last = self.request.headers.get("Last-Event-ID")
        if last != follower.version:
            self.write(follower.said)
        await self.flush()
        sent = follower.version
        while not listener.closed:
            if not await listener.next(self.hub.keep_alive):
                self.write(": keep-alive\n\n")
            elif listener.gone is not None:
                self.write(gone(listener.gone))
                await self.flush()
                return
            elif listener.version and follower.version != sent:
                # The follower's latest (a version told meanwhile and passed is not sent).
                sent = follower.version
                self.write(follower.said)
            else:
                continue
            await self.flush()

    def on_connection_close(self) -> None:
        if self.listener is not None:
            self.listener.end(None)
