"""The store's connections and transactions, shared by its repositories (games, events,
idempotency keys): one engine, one writer gate, and the transaction of the unit of work open
in this thread.

Outside a unit of work each write is a transaction of its own. Inside one
(``SqlConnections.atomic``, which the application's ``UnitOfWork`` opens through the store),
every write of every repository joins that unit's transaction: one request's effect and its
idempotency key commit together, or not at all. Reads inside a unit go through the unit's
connection too, so one request holds at most one connection of the pool, and a pool of one
serves (a read that took a second connection while the unit held the first waited for the
pool timeout once every connection was held that way). Before the unit's first write its
reads see what is committed (PostgreSQL's read committed; SQLite opens the transaction only
at the first write, so a reader there never waits for the writer); after it, they see the
unit's own writes as well. Outside a unit, a read takes a connection for itself alone; on
PostgreSQL it runs without a transaction (autocommit): under read committed each statement
sees what was committed when it started, in a transaction or not, and a read then costs two
round trips to the database (the pool's check and the statement) instead of four (with
``BEGIN`` and ``ROLLBACK``).

A request that only reads (``SqlConnections.reading``) takes one connection at its first read
and keeps it for its others: an event's reading, which reads its state, its rounds and each of
its tables' games, then checks a connection out of the pool once, and on PostgreSQL pays the
pool's check (a round trip) once, not once per statement. A unit of work begun meanwhile gives
that connection back first (a request still holds at most one), and a read that fails gives it
back too: the next read takes another.

Why a ``ContextVar`` holds the open transaction: one store object serves every thread (or
task) of a worker, and SQLAlchemy needs one connection per transaction. The repositories'
methods are the application's ports, which name no connection; the context variable is what
lets a repository find the connection of the unit open in *this* thread without SQLAlchemy
showing through the ports. Only ``atomic`` sets it, and only the repositories read it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager, nullcontext
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, Table, event, insert, select
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from service.application.ports import EventAction, StoreUnavailable

from .gate import writer_gate

_instances = itertools.count()


class _Unit:
    """A unit of work's transaction: its connection, and the writer gate once its first
    write took it (held on ``exits`` until the unit has ended)."""

    def __init__(self, connection: Connection, exits: ExitStack) -> None:
        self.connection = connection
        self.gated = False
        self.exits = exits


def aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; everything stored is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def action_log(connect: Callable[[], AbstractContextManager[Connection]], log: Table,
               owner: str, owner_id: str) -> list[EventAction]:
    """The actions an event's or a club's log (``owner``: ``event``, ``club``) keeps of
    ``owner_id``, in the order of the versions they made."""
    version = log.c[f"{owner}_version"]
    with connect() as connection:
        rows = connection.execute(
            select(log).where(log.c[f"{owner}_id"] == owner_id).order_by(version)).all()
    return [EventAction(row._mapping[version], row.action, dict(row.data),
                        aware(row.created_at)) for row in rows]


def log_action(connection: Connection, log: Table, owner: str, owner_id: str, version: int,
               action: str, data: dict[str, Any], now: datetime) -> None:
    """Append ``action`` to an event's or a club's log (``owner``: ``event``, ``club``), as
    the change that made ``owner_id``'s ``version``."""
    connection.execute(insert(log), {
        f"{owner}_id": owner_id, f"{owner}_version": version, "action": action, "data": data,
        "created_at": now})


def _unavailable(context: ExceptionContext) -> StoreUnavailable | None:
    """The database's own troubles (it cannot be reached, it went away, it is locked past the
    busy timeout) as ``StoreUnavailable``: an answer the client may retry (503), not a
    defect. Every other error (a constraint, a bad statement) is left as it is."""
    if context.is_disconnect or isinstance(context.sqlalchemy_exception,
                                           OperationalError | InterfaceError):
        original = context.original_exception
        return StoreUnavailable(
            f"the database is unavailable ({type(original).__name__}: "
            f"{str(original).strip().splitlines()[0] if str(original).strip() else ''})",
            lost_connection=context.is_disconnect,
        )
    return None


class _Reads:
    """A request's reads outside a unit of work (``SqlConnections.reading``): the connection
    its first read took, kept until the request ends."""

    def __init__(self) -> None:
        self.connection: Connection | None = None
        self._exits = ExitStack()

    def take(self, connection: AbstractContextManager[Connection]) -> Connection:
        self.connection = self._exits.enter_context(connection)
        return self.connection

    def give_back(self) -> None:
        self.connection = None
        self._exits.close()


@contextmanager
def _pool_waits() -> Iterator[None]:
    """Every connection of the pool busy for the whole pool timeout: unavailable too."""
    try:
        yield
    except PoolTimeout as error:
        raise StoreUnavailable(f"no database connection is free ({error})") from error


class SqlConnections:
    """Connections to one database, and the unit of work open in this context."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        if not event.contains(engine, "handle_error", _unavailable):
            event.listen(engine, "handle_error", _unavailable)
        self._gate = writer_gate(engine.url)
        #: Reads outside a unit of work without a transaction: PostgreSQL's (see the module).
        self._autocommit_reads = engine.dialect.name == "postgresql"
        # The unit of work open in this context (thread or task), if any: see the module's
        # docstring for why it is a context variable.
        instance = next(_instances)
        self._unit: ContextVar[_Unit | None] = ContextVar(
            f"segnapunti_unit_of_work_{instance}", default=None
        )
        # The reads of the request open in this context, if it reads through one connection.
        self._reads: ContextVar[_Reads | None] = ContextVar(
            f"segnapunti_reads_{instance}", default=None
        )

    @contextmanager
    def connect(self) -> Iterator[Connection]:
        """The connection to read with: the unit of work's when one is open in this context
        (a request never holds two connections of the pool: with every connection busy, a
        second one could only be waited for, by every request at once), else one of its own
        for the read alone."""
        unit = self._unit.get()
        if unit is not None:
            yield unit.connection
            return
        reads = self._reads.get()
        if reads is None:
            with self._own(reading=True) as connection:
                yield connection
            return
        connection = reads.connection or reads.take(self._own(reading=True))
        try:
            yield connection
        except BaseException:
            # A read that failed (the database gone, a statement refused) leaves a connection
            # the next read should not trust: it takes another.
            reads.give_back()
            raise

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Reads outside a unit of work through one connection, taken at the first and given
        back when the block ends (or a unit of work begins). Inside one already, or inside a
        unit of work, the block changes nothing."""
        if self._reads.get() is not None or self._unit.get() is not None:
            yield
            return
        reads = _Reads()
        reset = self._reads.set(reads)
        try:
            yield
        finally:
            self._reads.reset(reset)
            reads.give_back()

    @contextmanager
    def begin(self) -> Iterator[Connection]:
        """A transaction of its own, on a connection taken for it (never the unit's)."""
        with self._own(reading=False) as connection, connection.begin():
            yield connection

    @contextmanager
    def _own(self, *, reading: bool) -> Iterator[Connection]:
        """A connection of the pool for one read (on PostgreSQL without a transaction) or
        one transaction, given back when the block ends."""
        with _pool_waits():
            connection = self.engine.connect()
        with connection:
            if reading and self._autocommit_reads:
                connection.execution_options(isolation_level="AUTOCOMMIT")
            yield connection

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """A unit of work: every write made inside joins one transaction, committed when the
        block ends and rolled back if it raises. Inside one already, the block joins it."""
        if self._unit.get() is not None:
            yield
            return
        reads = self._reads.get()
        if reads is not None:
            reads.give_back()  # a request holds one connection: the unit's, from now on
        # The unit's exits (the writer gate, once taken) are left after it has committed.
        with ExitStack() as exits, self.begin() as connection:
            unit = _Unit(connection, exits)
            reset = self._unit.set(unit)
            try:
                yield
            finally:
                self._unit.reset(reset)

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """The connection to write with: the unit of work's, or a transaction of its own.
        On SQLite the writer gate is taken first and held until the transaction ends."""
        unit = self._unit.get()
        if unit is not None:
            if not unit.gated and self._gate is not None:
                unit.exits.enter_context(self._gate.held())
                unit.gated = True
            yield unit.connection
            return
        with self.gated(), self.begin() as connection:
            yield connection

    def gated(self) -> AbstractContextManager[None]:
        return self._gate.held() if self._gate is not None else nullcontext()
