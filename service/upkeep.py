"""What ``python -m service migrate`` does once the schema is at its head: bring the rows
earlier releases left behind up to what this release would have written.

Rounds left open with every table finished: earlier releases ended a round only when the
organiser closed it (or the next round started), so an event's last round, all its tables
finished, could stay open for good, and the club (its results, seasons, ratings,
statistics) never counted it. This release ends a round in the write that finishes its last
table; here each round left open that way is ended as that write would have ended it, through
the events' own use case (whether a game has finished is the rules' to say, not a query's).

It runs at every migrate, after the schema's upgrade: when nothing is left open it is one
query that finds no event; each event it ends rounds of is one short transaction of its own.

Then, with ``RETENTION_DAYS`` set, the anonymous games untouched for that many days are
purged (``service/application/retention.py``); ``python -m service purge`` does that alone.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from service.application.events import EventService, end_rounds_left_open
from service.application.games import GameService, utc_now
from service.application.retention import Purge, Retention, retention_days
from service.application.unit_of_work import UnitOfWorkFactory
from service.persistence import SqlStore, make_engine


def end_finished_rounds(url: str, say: Callable[[str], None]) -> int:
    """End every round stored open at ``url`` whose tables have all finished (see the
    module); how many it ended, told to ``say`` when there were any. An event that could not
    be ended is logged, with why, and left for the next run: the schema is upgraded all the
    same, and the service serves."""
    engine = make_engine(url)
    try:
        store = SqlStore(engine)
        games = GameService(store.games, event_tokens=store.events)
        events = EventService(store.events, games, store.refusals)
        games.rounds = events
        ended = end_rounds_left_open(events, UnitOfWorkFactory(store))
    finally:
        engine.dispose()
    if ended:
        say(f"ended {ended} round{'s' if ended != 1 else ''} left open with every table "
            "finished")
    return ended


def purge_untouched(url: str, say: Callable[[str], None], by: str) -> Purge | None:
    """Purge the anonymous games at ``url`` untouched for ``RETENTION_DAYS`` days (``by``:
    ``upkeep``, ``command``), telling ``say`` what it removed; None when retention is off."""
    days = retention_days(os.environ.get("RETENTION_DAYS"))
    if days is None:
        return None
    engine = make_engine(url)
    try:
        store = SqlStore(engine)
        purge = Retention(store, utc_now, days).purge(by)
    finally:
        engine.dispose()
    if purge is not None:
        oldest = purge.oldest_activity.isoformat() if purge.oldest_activity else "none"
        say(f"purged {purge.games} anonymous game{'s' if purge.games != 1 else ''} untouched "
            f"for {days} days (the oldest last active {oldest}; rows removed: "
            f"{sum(purge.rows.values())})")
    return purge
