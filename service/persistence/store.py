"""The store: one database, its repositories (games, events, clubs, idempotency keys) on shared
connections, so that one unit of work's writes to any of them commit together."""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager

from sqlalchemy import Engine, create_engine, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import NullPool

from service.application.ports import SchemaNotCurrent, StoreUnavailable

from .admin import SqlAdmin
from .clubs import SqlClubRepository
from .connections import SqlConnections
from .events import SqlEventRepository
from .figures import SqlFigures
from .idempotency import SqlIdempotencyRepository
from .migrate import database_revision, schema_head
from .refusals import SqlRefusalRepository
from .repository import SqlGameRepository

log = logging.getLogger(__name__)

#: How long the readiness check's probe may take to connect and to run its queries (seconds).
READY_TIMEOUT_S = 2
#: How long ``/ready`` waits for the probe's answer (seconds): a probe that takes longer is a
#: 503 at once (libpq waits at least 2 s to connect, more than a health check can), and it
#: goes on in the background, its outcome kept for the next check.
READY_WAIT_S = 1.0
#: How long a readiness check's outcome stands (seconds): however often ``/ready`` is asked,
#: a worker opens at most one probe connection in this time.
READY_FRESH_S = 1.0


class _Probe:
    """One readiness probe under way, in a thread of its own, and its outcome once done."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.outcome: Unready = None


#: What keeps the database from serving, as the error to raise (``StoreUnavailable`` or its
#: ``SchemaNotCurrent``, made anew for each request that raises it), or None when nothing does.
Unready = Callable[[], StoreUnavailable] | None


class SqlStore:
    """The application's ``Store`` port over SQLAlchemy."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.connections = SqlConnections(engine)
        self.games = SqlGameRepository(engine, self.connections)
        self.events = SqlEventRepository(self.connections, self.games)
        self.idempotency = SqlIdempotencyRepository(self.connections)
        self.clubs = SqlClubRepository(self.connections)
        self.admin = SqlAdmin(self.connections)
        self.refusals = SqlRefusalRepository(self.connections)
        #: What the metrics read: the pool in use, the figures counted at a scrape.
        self.figures = SqlFigures(engine)
        self._probe: Engine | None = None
        self._probe_lock = threading.Lock()
        self._readiness: tuple[float, Unready] | None = None
        self._probing: _Probe | None = None
        #: The schema revision the last probe that read it found (None before one did). Once
        #: it is the head the code reads it is not read again (a database at the head stays
        #: there while this process runs), until a probe fails: the database that answers
        #: next may be another (a restore, a fail-over), and is read afresh.
        self.database_revision: str | None = None
        self._at_head = False
        #: The revision the code reads, read once (no migrations found: no store).
        self.schema_head = schema_head()

    def atomic(self) -> AbstractContextManager[None]:
        """Open the unit of work's transaction: every repository's writes inside join it."""
        return self.connections.atomic()

    def reading(self) -> AbstractContextManager[None]:
        """Reads through one connection until the block ends (``SqlConnections.reading``)."""
        return self.connections.reading()

    def check_ready(self) -> None:
        """The database answers ``SELECT 1`` and its schema is the one this code reads (the
        migrations' head), within ``READY_WAIT_S``; else ``StoreUnavailable`` (or its
        ``SchemaNotCurrent``).

        On PostgreSQL the probe opens a connection of its own (no pool, a connect timeout and
        a statement timeout), so a pool busy with requests is not taken for a database that
        is down. The probe runs in a thread of its own and the check waits ``READY_WAIT_S``
        for it: a database that accepts connections and never answers fails the check in a
        second, while the probe runs out its own timeouts. One probe at a time, its outcome
        standing ``READY_FRESH_S``: a flood of ``/ready`` is not a flood of connections."""
        with self._probe_lock:
            known = self._readiness
            if known is not None and time.monotonic() - known[0] < READY_FRESH_S:
                outcome = known[1]
                probe = None
            else:
                probe = self._probing
                if probe is None:
                    probe = self._probing = _Probe()
                    threading.Thread(target=self._run_probe, args=(probe,), daemon=True,
                                     name="segnapunti-ready-probe").start()
        if probe is not None:
            if probe.done.wait(READY_WAIT_S):
                outcome = probe.outcome
            else:
                outcome = functools.partial(
                    StoreUnavailable, f"the database did not answer within {READY_WAIT_S:g} s")
        if outcome is not None:
            raise outcome()

    def _run_probe(self, probe: _Probe) -> None:
        try:
            probe.outcome = self._probe_once()
        except Exception as error:  # a check that cannot tell says not ready, never ready
            log.exception("the readiness check failed")
            probe.outcome = functools.partial(
                StoreUnavailable, f"the readiness check failed ({type(error).__name__})")
        finally:
            with self._probe_lock:
                self._readiness = (time.monotonic(), probe.outcome)
                self._probing = None
                if probe.outcome is not None:
                    self._at_head = False
            probe.done.set()

    def _probe_once(self) -> Unready:
        """What keeps the database from serving now; None when nothing does."""
        probe = self._probe_engine()
        try:
            with probe.connect() as connection:
                if probe is not self.engine:
                    connection.execute(text(
                        f"SET statement_timeout = {READY_TIMEOUT_S * 1000}"))
                connection.execute(text("SELECT 1")).scalar_one()
                if not self._at_head:
                    self.database_revision = database_revision(connection)
        except StoreUnavailable as error:
            return functools.partial(StoreUnavailable, error.detail)
        except SQLAlchemyError as error:  # the probe's own errors (the store's are mapped)
            detail = (f"the database is not ready ({type(error).__name__}: "
                      f"{str(error).strip().splitlines()[0]})")
            return functools.partial(StoreUnavailable, detail)
        if self.database_revision != self.schema_head:
            return functools.partial(SchemaNotCurrent, self.database_revision, self.schema_head)
        self._at_head = True
        return None

    def schema(self) -> tuple[str, str | None]:
        """The schema revision the code reads, and the one the database was last found at
        (None before a readiness check read it): what the process knows, asking nothing."""
        return self.schema_head, self.database_revision

    def _probe_engine(self) -> Engine:
        """The engine of the check (one probe runs at a time)."""
        if self.engine.url.get_backend_name() != "postgresql":
            return self.engine
        if self._probe is None:
            self._probe = create_probe_engine(self.engine)
        return self._probe


def create_probe_engine(engine: Engine) -> Engine:
    """A pool-less engine on ``engine``'s PostgreSQL database for the readiness check."""
    return create_engine(engine.url, poolclass=NullPool, connect_args={
        "connect_timeout": READY_TIMEOUT_S, "application_name": "segnapunti-ready"})
