"""Retention: anonymous games (of no event and no club) left untouched for ``RETENTION_DAYS``
days are purged — their hands, history, verdicts and links with them. Off unless the setting
is given. It runs at ``python -m service migrate``'s upkeep, on ``python -m service purge``,
and once a day while serving: the first request a worker answers on a new day (UTC) tries to
claim that day's purge in the database (one row a day, unique: ``purges.day``); the worker
whose row went in runs it, in a thread of its own, and every other worker of every process
finds the day claimed and does nothing. No Redis, no lock held: two processes never purge the
same day twice.

Each purge is kept as a row (when, by what, how many games, the oldest activity among them),
logged as one line (``games``, ``oldest_activity``, ``by``) and counted in the metrics
(``segnapunti_games_purged_total``: the rows' sum, so a purge the command made between two
servers counts too)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from .admin import AdminStore, Holdings

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Purge:
    """What one purge removed: how many games, the oldest activity among them, the rows of
    each table."""

    by: str
    games: int
    oldest_activity: datetime | None
    rows: dict[str, int]


def retention_days(raw: str | None) -> int | None:
    """``RETENTION_DAYS``'s value: a whole number of days, 1 or more; unset or empty, None
    (games are kept for ever)."""
    value = (raw or "").strip()
    if not value:
        return None
    if not value.isdecimal() or int(value) < 1:
        raise ValueError(f"RETENTION_DAYS is a whole number of days (1 or more), not {raw!r}")
    return int(value)


class Retention:
    """Purges of anonymous games untouched for ``days`` days (None: never)."""

    def __init__(self, store: AdminStore, clock: Callable[[], datetime],
                 days: int | None) -> None:
        if days is not None and days < 1:
            raise ValueError(f"RETENTION_DAYS is a number of days (1 or more), not {days}")
        self.store = store
        self.clock = clock
        self.days = days
        self._claimed: date | None = None
        self._lock = threading.Lock()
        #: The daily purge's thread, while one runs (or ran last).
        self.thread: threading.Thread | None = None

    @property
    def enabled(self) -> bool:
        return self.days is not None

    def purge(self, by: str, *, day: date | None = None) -> Purge | None:
        """Purge now (``by``: what asked: ``upkeep``, ``command``, ``daily``); with ``day``,
        only if that day's purge is not claimed yet (None: it was)."""
        if self.days is None:
            return None
        now = self.clock()
        purge_id = self.store.admin.record_purge(by=by, day=day, now=now)
        if purge_id is None:
            return None
        ids, oldest = self.store.admin.anonymous_untouched(now - timedelta(days=self.days))
        rows = (self.store.admin.delete(Holdings(tuple(ids), (), None, None), None)
                if ids else {})
        self.store.admin.purged(purge_id, len(ids), oldest)
        log.info("retention: purged %d anonymous game%s untouched for %d days", len(ids),
                 "" if len(ids) == 1 else "s", self.days, extra={"fields": {
                     "purged_games": len(ids), "retention_days": self.days, "by": by,
                     "oldest_activity": oldest.isoformat() if oldest else None,
                     "rows": rows}})
        return Purge(by, len(ids), oldest, rows)

    def daily(self) -> None:
        """Called on each request: on a new day, once per process, claim and run the day's
        purge in a thread of its own (another process may have claimed it: then nothing)."""
        if self.days is None:
            return
        today = self.clock().date()
        if self._claimed == today:
            return
        with self._lock:
            if self._claimed == today:
                return
            self._claimed = today
            self.thread = threading.Thread(target=self._daily, args=(today,),
                                           name="segnapunti-retention", daemon=True)
            self.thread.start()

    def _daily(self, today: date) -> None:
        try:
            self.purge("daily", day=today)
        except Exception:  # the next day tries again; serving goes on
            log.exception("retention: the daily purge failed")
