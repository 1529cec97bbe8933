"""What the service's metrics (``GET /metrics``) read of the database: the connections of this
process's pool in use, and the figures an operator watches, counted when the metrics are read.

The figures are five counts in one statement: events with a round open, rounds open, clubs,
games, and the games the retention has purged (the purges' sum). The first two read
``event_rounds`` (a few rows an event); the totals count every club and game (on PostgreSQL a
scan of the table), which a scrape can afford: it runs once a scrape (every 15 s or so), by
the one worker of a server that answers it (``docs/measurements.md`` has the figures)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, event, func, select
from sqlalchemy.exc import SQLAlchemyError

from service.application.ports import StoreUnavailable

from .models import ClubRow, EventRoundRow, GameRow, PurgeRow

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Figures:
    """What runs now, and what the database holds."""

    events_running: int
    rounds_running: int
    clubs: int
    games: int
    #: Anonymous games the retention has purged, all purges summed (``purges``).
    games_purged: int = 0


class SqlFigures:
    """The metrics' reads of one engine's database and pool."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def pool_in_use(self) -> int | None:
        """Connections of this process's pool checked out now; None for a pool that does not
        count them (an in-memory SQLite database's single connection)."""
        checkedout = getattr(self.engine.pool, "checkedout", None)
        return int(checkedout()) if checkedout is not None else None

    def watch_pool(self, in_use: Callable[[int], None]) -> None:
        """Call ``in_use`` with the connections checked out each time one is checked out or
        in, so a gauge kept by each process follows its pool between two scrapes. (The
        check-in is told before the connection is back in the pool: one less.)"""
        if self.pool_in_use() is None:
            return

        def checked_out(*_args: Any) -> None:
            in_use(self.pool_in_use() or 0)

        def checked_in(*_args: Any) -> None:
            in_use(max((self.pool_in_use() or 0) - 1, 0))

        event.listen(self.engine.pool, "checkout", checked_out)
        event.listen(self.engine.pool, "checkin", checked_in)

    def count(self) -> Figures | None:
        """The figures now; None (and a warning in the log) when the database does not
        answer, so that the other metrics are read all the same."""
        open_rounds = EventRoundRow.state == "open"
        statement = select(
            select(func.count(func.distinct(EventRoundRow.event_id)))
            .where(open_rounds).scalar_subquery(),
            select(func.count()).select_from(EventRoundRow).where(open_rounds)
            .scalar_subquery(),
            select(func.count()).select_from(ClubRow).scalar_subquery(),
            select(func.count()).select_from(GameRow).scalar_subquery(),
            select(func.coalesce(func.sum(PurgeRow.games), 0)).scalar_subquery(),
        )
        try:
            with self.engine.connect() as connection:
                row = connection.execute(statement).one()
        except (SQLAlchemyError, StoreUnavailable) as error:
            log.warning("metrics: the database's figures could not be read (%s)",
                        type(error).__name__)
            return None
        return Figures(*(int(value or 0) for value in row))
