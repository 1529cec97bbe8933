"""The store: one database, its repositories (games, events, clubs, idempotency keys) on shared
connections, so that one unit of work's writes to any of them commit together."""

from __future__ import annotations

import threading
import time
from contextlib import AbstractContextManager

from sqlalchemy import Engine, create_engine, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import NullPool

from service.application.ports import StoreUnavailable

from .admin import SqlAdminRepository
from .clubs import SqlClubRepository
from .connections import SqlConnections
from .events import SqlEventRepository
from .figures import SqlFigures
from .idempotency import SqlIdempotencyRepository
from .refusals import SqlRefusalRepository
from .repository import SqlGameRepository

#: How long the readiness check may take to connect and to run its query (seconds).
READY_TIMEOUT_S = 2
#: How long a readiness check's outcome stands (seconds): however often ``/ready`` is asked,
#: a worker opens at most one probe connection in this time.
READY_FRESH_S = 1.0


class SqlStore:
    """The application's ``Store`` port over SQLAlchemy."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.connections = SqlConnections(engine)
        self.games = SqlGameRepository(engine, self.connections)
        self.events = SqlEventRepository(self.connections, self.games)
        self.idempotency = SqlIdempotencyRepository(self.connections)
        self.clubs = SqlClubRepository(self.connections)
        self.admin = SqlAdminRepository(self.connections)
        self.refusals = SqlRefusalRepository(self.connections)
        #: What the metrics read: the pool in use, the figures counted at a scrape.
        self.figures = SqlFigures(engine)
        self._probe: Engine | None = None
        self._probe_lock = threading.Lock()
        self._readiness: tuple[float, str | None] | None = None

    def atomic(self) -> AbstractContextManager[None]:
        """Open the unit of work's transaction: every repository's writes inside join it."""
        return self.connections.atomic()

    def check_ready(self) -> None:
        """The database answers ``SELECT 1`` within ``READY_TIMEOUT_S``, or ``StoreUnavailable``.

        On PostgreSQL the check opens a connection of its own (no pool, a connect timeout and
        a statement timeout), so a pool busy with requests is not taken for a database that
        is down, and a database that does not answer fails the check in seconds. One check
        at a time, its outcome standing ``READY_FRESH_S``: a flood of ``/ready`` is not a
        flood of connections."""
        with self._probe_lock:
            known = self._readiness
            if known is None or time.monotonic() - known[0] >= READY_FRESH_S:
                known = (time.monotonic(), self._probe_once())
                self._readiness = known
        if known[1] is not None:
            raise StoreUnavailable(known[1])

    def _probe_once(self) -> str | None:
        """What keeps the database from answering now; None when it answers."""
        probe = self._probe_engine()
        try:
            with probe.connect() as connection:
                if probe is not self.engine:
                    connection.execute(text(
                        f"SET statement_timeout = {READY_TIMEOUT_S * 1000}"))
                connection.execute(text("SELECT 1")).scalar_one()
        except StoreUnavailable as error:
            return error.detail
        except SQLAlchemyError as error:  # the probe's own errors (the store's are mapped)
            return (f"the database is not ready ({type(error).__name__}: "
                    f"{str(error).strip().splitlines()[0]})")
        return None

    def _probe_engine(self) -> Engine:
        """The engine of the check (``_probe_lock`` held)."""
        if self.engine.url.get_backend_name() != "postgresql":
            return self.engine
        if self._probe is None:
            self._probe = create_probe_engine(self.engine)
        return self._probe


def create_probe_engine(engine: Engine) -> Engine:
    """A pool-less engine on ``engine``'s PostgreSQL database for the readiness check."""
    return create_engine(engine.url, poolclass=NullPool, connect_args={
        "connect_timeout": READY_TIMEOUT_S, "application_name": "segnapunti-ready"})
