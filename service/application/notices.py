"""Change notices: which screens a committed write concerns, and how the processes that hold
those screens' streams hear of it.

A write names what it changed by **topics**, short strings:

- ``g:<game>``: a game (its sheet, its hands, its confirmations);
- ``e:<event>``: anything an event's screens show (its rounds, its door, its standings, a
  hand at one of its tables);
- ``ev:<event>``: the event's own writes (a round started or closed, seats swapped, its
  settings), which each of its tables' games shows too;
- ``c:<club>``: a club and its published results;
- ``f:<host>``: a field of duplicate sections, named by its host event;
- ``*``: anything (a process that lost its notices for a while).

A stream follows one resource (``followed``) and listens to the topics that can change it;
on a notice it reads the resource again, and tells its client only when the resource's
version moved. A notice is a hint, never the data: one too many costs a read that finds
nothing new, which is why the topics can be coarse.

How notices travel is the store's (``service.persistence.notices``): PostgreSQL's
``NOTIFY``, heard by every process that ``LISTEN``s; on SQLite (one process), ``LocalNotices``
below, within the process.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass

log = logging.getLogger(__name__)

#: A topic that every listener takes as "anything may have changed".
EVERYTHING = "*"

Listener = Callable[[frozenset[str]], None]


class LocalNotices:
    """Notices within one process: ``tell`` calls every listener at once, in the writer's
    thread (a listener hands the topics to its own loop and returns)."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with each notice's topics from now on; returns what stops it."""
        with self._lock:
            self._listeners.append(listener)

        def stop() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)
        return stop

    def tell(self, topics: Iterable[str]) -> None:
        told = frozenset(topics)
        if not told:
            return
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(told)
            except Exception:  # a listener's failure is its own; the write stands
                log.exception("a change notice's listener failed")


def game_topics(game_id: str, event_id: str | None, club_id: str | None,
                field_host: str | None, *, verdict: bool = False) -> set[str]:
    """What a write to a game concerns: its sheet, its event's screens, its club's, its
    field's. A player's ``verdict`` concerns the sheet and the club's figures (they count
    disputes), never the event's or the field's screens: nothing they say depends on one."""
    topics = {f"g:{game_id}"}
    if event_id and not verdict:
        topics.add(f"e:{event_id}")
    if club_id:
        topics.add(f"c:{club_id}")
    if field_host and not verdict:
        topics.add(f"f:{field_host}")
    return topics


def event_topics(event_id: str, club_id: str | None, field_host: str | None) -> set[str]:
    """What a write to an event concerns: its screens, its tables' games, its club's, its
    field's."""
    topics = {f"e:{event_id}", f"ev:{event_id}"}
    if club_id:
        topics.add(f"c:{club_id}")
    if field_host:
        topics.add(f"f:{field_host}")
    return topics


def club_topics(club_id: str) -> set[str]:
    return {f"c:{club_id}"}


@dataclass(frozen=True, slots=True)
class Follow:
    """A resource a stream may follow: its ``kind`` (what the stream's events say), the paths
    read to know its version (the event's screen reads the event and its standings), and
    what it is the resource of (``game``, ``event``, ``field`` or ``club``, with its id)."""

    kind: str
    paths: tuple[str, ...]
    of: str
    id: str


_ID = r"[A-Za-z0-9_-]{1,64}"
_FOLLOWED: tuple[tuple[re.Pattern[str], str, str, Callable[[str], tuple[str, ...]]], ...] = (
    (re.compile(rf"/api/v1/games/({_ID})"), "game", "game", lambda p: (p,)),
    (re.compile(rf"/api/v1/events/({_ID})"), "event", "event",
     lambda p: (p, f"{p}/standings")),
    (re.compile(rf"/api/v1/events/({_ID})/standings"), "standings", "event", lambda p: (p,)),
    (re.compile(rf"/api/v1/events/({_ID})/door"), "door", "event", lambda p: (p,)),
    (re.compile(rf"/api/v1/events/({_ID})/entrants/{_ID}"), "entrant", "event",
     lambda p: (p,)),
    (re.compile(rf"/api/v1/events/({_ID})/boards/\d{{1,4}}"), "board", "event", lambda p: (p,)),
    # A field's wall reads its brief standings: the body its stream makes ahead.
    (re.compile(rf"/api/v1/events/({_ID})/field"), "field", "field",
     lambda p: (f"{p}?rows=brief",)),
    (re.compile(rf"/api/v1/events/({_ID})/field/boards/\d{{1,4}}"), "traveller", "field",
     lambda p: (p,)),
    (re.compile(rf"/results/events/({_ID})"), "results", "event", lambda p: (p,)),
    (re.compile(rf"/results/clubs/({_ID})"), "results", "club", lambda p: (p,)),
    (re.compile(rf"/api/v1/public/events/({_ID})"), "results", "event", lambda p: (p,)),
    (re.compile(rf"/api/v1/public/clubs/({_ID})"), "results", "club", lambda p: (p,)),
)


def followed(path: str) -> Follow | None:
    """The resource that ``path`` (without its ``/stream``) names, when a stream may follow
    it; else None."""
    for pattern, kind, of, paths in _FOLLOWED:
        match = pattern.fullmatch(path)
        if match:
            return Follow(kind, paths(path), of, match.group(1))
    return None


def kept_for(topics: Collection[str]) -> list[str]:
    """The keys of the published states a process keeps a moment (``public.RECENT``) that
    these topics may have changed: forgotten before the streams read again."""
    keys = []
    for topic in topics:
        kind, _, name = topic.partition(":")
        if kind == "e":
            keys.append(f"event:{name}")
        elif kind == "c":
            keys.append(f"club:{name}")
    return keys
