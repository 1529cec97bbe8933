"""Change notices through the database (``service.application.notices`` says what they are).

On PostgreSQL a committed write's topics go out as ``NOTIFY segnapunti_changes``, and every
process that holds streams ``LISTEN``s (``listen``), whichever app server made the write: no
broker beside the database the topology already runs. On SQLite the service is one process,
and the notice goes to that process's listeners (``LocalNotices``).

``StoreNotices`` also says what a write concerns (a game's event, club and field; an event's
club and field), one small read each, kept: a game never moves to another event or club, an
event never to another club or field.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable

import psycopg
from sqlalchemy import Engine, select, text
from sqlalchemy.engine import make_url

from service.application.caches import LruCache
from service.application.notices import (
    EVERYTHING,
    LocalNotices,
    club_topics,
    event_topics,
    game_topics,
)

from .base import tables

log = logging.getLogger(__name__)

CHANNEL = "segnapunti_changes"
#: PostgreSQL refuses a payload of 8,000 bytes or more: topics go out in notices below this.
PAYLOAD_BYTES = 7_000
#: Seconds between two tries to listen again, once the listening connection was lost.
RELISTEN_S = (0.5, 1.0, 2.0, 5.0)

_games, _events = tables("games", "events")


def _field_host(row: object) -> str | None:
    return getattr(row, "field_host", None)


class StoreNotices:
    """Tells each committed write's topics to every process that holds streams."""

    def __init__(self, engine: Engine | None, local: LocalNotices | None = None) -> None:
        #: None: a store without a database (a test's), whose notices stay in the process and
        #: name only what the write's path names.
        self.engine = engine
        self.local = local or LocalNotices()
        self.postgres = engine is not None and engine.dialect.name == "postgresql"
        self._games: LruCache[str, tuple[str | None, str | None, str | None]] = LruCache(50_000)
        self._events: LruCache[str, tuple[str | None, str | None]] = LruCache(20_000)

    # -- what a write concerns ----------------------------------------------------------------

    def of_game(self, game_id: str) -> tuple[str | None, str | None, str | None]:
        """The game's event, club and field (each None when it has none)."""
        known = self._games.get(game_id)
        if known is not None:
            return known
        if self.engine is None:
            return (None, None, None)
        with self.engine.connect() as connection:
            row = connection.execute(select(_games.c.event_id, _games.c.club_id)
                                     .where(_games.c.id == game_id)).first()
        if row is None:
            return (None, None, None)
        field = self.of_event(row.event_id)[1] if row.event_id else None
        found = (row.event_id, row.club_id, field)
        self._games.put(game_id, found)
        return found

    def of_event(self, event_id: str) -> tuple[str | None, str | None]:
        """The event's club and field host (each None when it has none)."""
        known = self._events.get(event_id)
        if known is not None:
            return known
        if self.engine is None:
            return (None, None)
        columns = [_events.c.club_id]
        if "field_host" in _events.c:
            columns.append(_events.c.field_host)
        with self.engine.connect() as connection:
            row = connection.execute(select(*columns).where(_events.c.id == event_id)).first()
        if row is None:
            return (None, None)
        found = (row.club_id, _field_host(row))
        self._events.put(event_id, found)
        return found

    def wrote(self, *, game_id: str | None = None, event_id: str | None = None,
              club_id: str | None = None, verdict: bool = False) -> None:
        """A write that stands changed this game, event or club (``verdict``: a player's
        verdict on one of the game's hands): tell its topics."""
        topics: set[str] = set()
        if game_id:
            topics |= game_topics(game_id, *self.of_game(game_id), verdict=verdict)
        if event_id:
            topics |= event_topics(event_id, *self.of_event(event_id))
        if club_id:
            topics |= club_topics(club_id)
        self.tell(topics)

    # -- telling ------------------------------------------------------------------------------

    def tell(self, topics: Iterable[str]) -> None:
        told = sorted(set(topics))
        if not told:
            return
        if not self.postgres or self.engine is None:
            self.local.tell(told)
            return
        # Outside a transaction: each notice is sent as its statement runs, with no BEGIN or
        # COMMIT (two round trips less after every write).
        with self.engine.connect() as connection:
            connection.execution_options(isolation_level="AUTOCOMMIT")
            for payload in _payloads(told):
                connection.execute(text("SELECT pg_notify(:channel, :payload)"),
                                   {"channel": CHANNEL, "payload": payload})

    def listen(self, deliver: Callable[[frozenset[str]], None],
               stopping: asyncio.Event) -> Callable[[], None] | asyncio.Task[None]:
        """Hear every notice from now on, ``deliver``ed its topics: on PostgreSQL a task of
        the running loop (``LISTEN``, again after a lost connection, telling ``*`` then: what
        was said meanwhile is lost); else within the process (what stops it is returned)."""
        if not self.postgres or self.engine is None:
            return self.local.listen(deliver)
        url = make_url(self.engine.url).set(drivername="postgresql")
        conninfo = url.render_as_string(hide_password=False)
        return asyncio.get_running_loop().create_task(_listen(conninfo, deliver, stopping))


def _payloads(topics: list[str]) -> Iterable[str]:
    """The topics, space-separated, in payloads under ``PAYLOAD_BYTES``."""
    chunk: list[str] = []
    size = 0
    for topic in topics:
        if chunk and size + len(topic) + 1 > PAYLOAD_BYTES:
            yield " ".join(chunk)
            chunk, size = [], 0
        chunk.append(topic)
        size += len(topic) + 1
    if chunk:
        yield " ".join(chunk)


async def _listen(conninfo: str, deliver: Callable[[frozenset[str]], None],
                  stopping: asyncio.Event) -> None:
    tries = 0
    while not stopping.is_set():
        try:
            async with await psycopg.AsyncConnection.connect(
                    conninfo, autocommit=True, connect_timeout=5) as connection:
                await connection.execute(f"LISTEN {CHANNEL}")
                if tries:
                    log.info("listening for change notices again")
                    deliver(frozenset({EVERYTHING}))
                tries = 0
                async for notice in connection.notifies():
                    deliver(frozenset(notice.payload.split()))
                    if stopping.is_set():
                        return
        except asyncio.CancelledError:
            raise
        except Exception:  # the database away: streams go on, told everything later
            wait = RELISTEN_S[min(tries, len(RELISTEN_S) - 1)]
            tries += 1
            log.warning("change notices lost; listening again in %.1f s", wait, exc_info=True)
            await asyncio.sleep(wait)
