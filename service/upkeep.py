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
"""

from __future__ import annotations

from collections.abc import Callable

from service.application.events import EventService, end_rounds_left_open
from service.application.games import GameService
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
