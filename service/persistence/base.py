"""Database plumbing: the declarative base, engines from URLs, SQLite connection pragmas.

This package is the only importer of SQLAlchemy (docs/architecture.md, principle 7).
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import (
    JSON,
    Connection,
    Engine,
    MetaData,
    Table,
    Update,
    bindparam,
    create_engine,
    event,
    or_,
    select,
    update,
)
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import URL, make_url
from sqlalchemy.orm import DeclarativeBase

DEFAULT_SQLITE_PATH = Path("var") / "segnapunti.sqlite3"

#: How long the database may keep a request waiting (seconds): setting (environment variable,
#: default). A wait cut short is a 503 with ``Retry-After`` (``StoreUnavailable``), so that a
#: database that accepts connections and never answers frees every thread in seconds instead
#: of holding it for good.
#:   connect    PostgreSQL: a new connection's handshake (libpq's ``connect_timeout``, which
#:              counts whole seconds and at least 2)
#:   statement  PostgreSQL: one statement of a request, lock waits included (the server's
#:              ``statement_timeout``; 0 for none); the migrations and the backups have none
#:   busy       SQLite: a writer waiting for another's lock (``PRAGMA busy_timeout``)
#: A request waiting for a free connection of the pool waits ``DB_POOL_TIMEOUT`` at most.
TIMEOUTS = {
    "connect": ("DATABASE_CONNECT_TIMEOUT", 5.0),
    "statement": ("DATABASE_STATEMENT_TIMEOUT", 10.0),
    "busy": ("SQLITE_BUSY_TIMEOUT", 5.0),
}

#: The connection pool of each worker process (PostgreSQL, and a SQLite file): setting
#: (environment variable, default). A request holds at most one connection of it.
#: Connections are checked before use (pool_pre_ping), so a restarted database or a dropped
#: idle connection costs a reconnect, not an error.
POOL_SETTINGS = {
    "pool_size": ("DB_POOL_SIZE", 5),
    "max_overflow": ("DB_MAX_OVERFLOW", 10),
    "pool_timeout": ("DB_POOL_TIMEOUT", 10),
    "pool_recycle": ("DB_POOL_RECYCLE", 1800),
}

# Named constraints keep migrations reproducible and let Alembic's batch mode (SQLite) find them.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# JSON everywhere, stored as JSONB on PostgreSQL. ``NullableJSON`` stores Python ``None`` as SQL
# NULL rather than the JSON value ``null``.
JSONType = JSON().with_variant(postgresql.JSONB(), "postgresql")
NullableJSON = JSON(none_as_null=True).with_variant(
    postgresql.JSONB(none_as_null=True), "postgresql"
)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


def tables(*names: str) -> tuple[Table, ...]:
    """The schema's tables by name, for statements written with Core."""
    return tuple(Base.metadata.tables[name] for name in names)


def version_bump(table: Table, key: str) -> Update:
    """A row's version moved from ``expected`` to ``next_version``, if no concurrent write
    moved it first (the row whose id is the parameter ``key``): a count of 0 says one did."""
    return (update(table)
            .where(table.c.id == bindparam(key), table.c.version == bindparam("expected"))
            .values(version=bindparam("next_version")))


def token_opens_a_row(connection: Connection, table: Table, token_hash: str) -> bool:
    """Whether ``token_hash`` is the edit or the read token's hash of a row of ``table`` (a
    game's, an event's, a club's)."""
    return connection.execute(
        select(table.c.id).where(or_(table.c.edit_token_hash == token_hash,
                                     table.c.read_token_hash == token_hash))
        .limit(1)).first() is not None


def default_database_url() -> str:
    """``$DATABASE_URL``, or a SQLite file ``./var/segnapunti.sqlite3`` under the working dir."""
    return os.environ.get("DATABASE_URL") or f"sqlite:///{DEFAULT_SQLITE_PATH}"


def normalise_url(url: str | URL) -> URL:
    """Make a URL usable by this service: PostgreSQL always through psycopg 3.

    ``postgresql://`` and ``postgres://`` (as many hosts hand them out) become
    ``postgresql+psycopg://``; an explicit driver other than psycopg is replaced as well, since
    psycopg 3 is the only PostgreSQL driver installed.
    """
    if isinstance(url, str) and url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    parsed = make_url(url)
    if parsed.get_backend_name() == "postgresql" and parsed.drivername != "postgresql+psycopg":
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def sqlite_file(url: str | URL) -> Path | None:
    """The file of a SQLite database given by its path; ``None`` for any other database, an
    in-memory one or a ``file:`` URI."""
    parsed = normalise_url(url)
    database = parsed.database
    if parsed.get_backend_name() != "sqlite" or not database or database == ":memory:" \
            or database.startswith("file:"):
        return None
    return Path(database).expanduser().resolve()


def ensure_sqlite_directory(url: str | URL) -> None:
    """Create the directory of a SQLite database file if it is missing."""
    path = sqlite_file(url)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)


def pool_settings() -> dict[str, int]:
    """The PostgreSQL pool settings from the environment (``POOL_SETTINGS``)."""
    settings = {}
    for name, (variable, default) in POOL_SETTINGS.items():
        raw = os.environ.get(variable, "").strip()
        settings[name] = int(raw) if raw else default
    return settings


def pool_pre_ping() -> bool:
    """Whether PostgreSQL connections are checked before use: ``$DB_POOL_PRE_PING``, on unless
    ``0``. The check is one round trip per request (about a tenth of a cached game read on
    loopback); without it, the first request on each connection a database restart dropped
    fails (500) before the pool replaces the connections."""
    return os.environ.get("DB_POOL_PRE_PING", "").strip() != "0"


def timeout(name: str) -> float:
    """A timeout of ``TIMEOUTS`` in seconds, from its environment variable or its default."""
    variable, default = TIMEOUTS[name]
    raw = os.environ.get(variable, "").strip()
    try:
        value = float(raw) if raw else default
    except ValueError:
        raise ValueError(f"{variable} is a number of seconds, not {raw!r}") from None
    if value < 0 or (name != "statement" and value == 0):
        raise ValueError(f"{variable} is a number of seconds above 0, not {raw!r}")
    return value


def _with_timeouts(parsed: URL, kwargs: dict[str, Any], serving: bool) -> None:
    """PostgreSQL's connect timeout, and a serving engine's statement timeout, as libpq's
    connection options (no round trip of their own). What the URL sets itself stands."""
    connect_args = kwargs.setdefault("connect_args", {})
    if "connect_timeout" not in parsed.query:
        # libpq counts whole seconds, and waits at least 2 whatever it is told.
        connect_args.setdefault("connect_timeout", max(2, math.ceil(timeout("connect"))))
    statement_ms = round(timeout("statement") * 1000)
    if serving and statement_ms:
        options = connect_args.get("options", parsed.query.get("options", ""))
        if isinstance(options, tuple):
            options = " ".join(options)
        if "statement_timeout" not in options:
            connect_args["options"] = f"{options} -c statement_timeout={statement_ms}".strip()


def read_json(data: bytes | bytearray | memoryview | str) -> Any:
    """A stored JSON value, parsed by orjson (an event's reading parses a hundred and more:
    its roster and each table's seats, several times faster than the standard library's
    parser), or by the standard library's where orjson refuses what that one took in (a
    whole number past 64 bits)."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return json.loads(bytes(data) if isinstance(data, memoryview) else data)


def make_engine(url: str | URL, *, serving: bool = False, **kwargs: Any) -> Engine:
    """An engine for ``url``. SQLite connections get WAL, a busy timeout, the sync of
    ``sqlite_synchronous`` and foreign keys; both a pool sized from the environment
    (``pool_settings``; a SQLite file's, PostgreSQL's checked before use), and PostgreSQL's
    connections a connect timeout (``TIMEOUTS``). ``serving``: the engine answers requests,
    so each statement is cut at the statement timeout as well (migrations, backups and
    upkeep may run longer). Stored JSON is parsed by ``read_json``. ``kwargs`` override any
    of it. A bad setting fails here, not at the first request."""
    for name in TIMEOUTS:
        timeout(name)
    kwargs.setdefault("json_deserializer", read_json)
    parsed = normalise_url(url)
    if parsed.get_backend_name() == "sqlite":
        sqlite_synchronous()  # a bad setting fails here, not at the first request
        ensure_sqlite_directory(parsed)
        if sqlite_file(parsed) is not None and kwargs.get("poolclass") is None:
            # A file's connections are pooled as PostgreSQL's are, by the same settings.
            for name, value in pool_settings().items():
                kwargs.setdefault(name, value)
        engine = create_engine(parsed, **kwargs)
        event.listen(engine, "connect", _sqlite_on_connect)
        return engine
    kwargs.setdefault("pool_pre_ping", pool_pre_ping())
    if kwargs.get("poolclass") is None:
        for name, value in pool_settings().items():
            kwargs.setdefault(name, value)
    if "application_name" not in parsed.query:
        kwargs.setdefault("connect_args", {}).setdefault("application_name", "segnapunti")
    _with_timeouts(parsed, kwargs, serving)
    return create_engine(parsed, **kwargs)


def sqlite_synchronous() -> str:
    """``$SQLITE_SYNCHRONOUS``: NORMAL (the default) or FULL."""
    value = os.environ.get("SQLITE_SYNCHRONOUS", "").strip().upper() or "NORMAL"
    if value not in {"NORMAL", "FULL"}:
        raise ValueError(f"SQLITE_SYNCHRONOUS is NORMAL or FULL, not {value!r}")
    return value


def _sqlite_on_connect(dbapi_connection: Any, _record: Any) -> None:
    """WAL: readers never wait for the writer. A writer waits up to the busy timeout for
    another. ``synchronous``: with NORMAL (the default) a commit is in the write-ahead log
    before it is acknowledged, so a killed process or server loses nothing acknowledged, and
    the log is synced to disk at checkpoints: only a power cut or an OS crash can lose the
    last commits. FULL syncs every commit too (``SQLITE_SYNCHRONOUS=FULL``), at the price of
    a disk flush per hand (0.3 ms to many ms, by disk)."""
    synchronous = sqlite_synchronous()
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout = {round(timeout('busy') * 1000)}")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute(f"PRAGMA synchronous = {synchronous}")
    finally:
        cursor.close()
