"""Backups that restore: ``python -m service backup FILE`` and ``python -m service restore FILE``.

A plain copy of a SQLite file taken while the service runs is not a backup: the newest
commits live in the write-ahead log beside it (``-wal``) until a checkpoint, and a copy of the
file alone lost 71 of some 480 acknowledged hands in an audit. SQLite's online backup API
copies the database as one consistent snapshot, log included, while writers go on; PostgreSQL's
``pg_dump`` does the same from one transaction's snapshot. These are the two ways used here,
and the rows a backup reports are counted in the copy's own snapshot: what the
file holds, not what the database held a moment earlier. Every table the service keeps is
counted (the models' tables, not a list written here), and the commands print each one.

- SQLite: the backup is itself a SQLite database file (open it with ``sqlite3``), written
  beside the target and renamed into place, so a failed backup leaves no half file.
- PostgreSQL: ``pg_dump --format=custom`` (restore with ``pg_restore``). A URL whose
  ``options`` set a ``search_path`` (a schema of its own, as the tests use) dumps and
  restores that schema only.

Restoring refuses a database that holds anything (a club and its members with no game yet
as much as games) unless told ``--force``, and names what it holds: a restore replaces what
is there. Stop the service before restoring into its database.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import inspect, text
from sqlalchemy.engine import URL
from sqlalchemy.pool import NullPool

from .base import Base, ensure_sqlite_directory, make_engine, normalise_url, sqlite_file


class BackupError(Exception):
    """A backup or a restore that cannot be done; its message says why, for an operator."""


def kept_tables() -> tuple[str, ...]:
    """Every table the service keeps, as its models declare them (in their order): what a
    backup copies, a restore replaces, and both count."""
    from . import models  # noqa: F401  (declares the tables on ``Base.metadata``)

    return tuple(Base.metadata.tables)


def _label(table: str, count: int) -> str:
    """``1 club member``, ``12 club members``: the table's name said as rows of it."""
    words = table.replace("_", " ")
    if count == 1 and words.endswith("s"):
        words = words[:-1]
    return f"{count:,} {words}"


@dataclass(frozen=True)
class Contents:
    """What a database holds, as the commands report it: the rows of each table the service
    keeps (those the database has: an older schema may lack the newest)."""

    counts: tuple[tuple[str, int], ...]

    @property
    def games(self) -> int:
        return self.count("games")

    @property
    def hands(self) -> int:
        return self.count("hands")

    def count(self, table: str) -> int:
        return dict(self.counts).get(table, 0)

    @property
    def held(self) -> tuple[tuple[str, int], ...]:
        """The tables holding anything, with their rows."""
        return tuple((table, count) for table, count in self.counts if count)

    def __str__(self) -> str:
        """The tables holding anything (``1 club, 12 club members``), or ``nothing``."""
        return ", ".join(_label(table, count) for table, count in self.held) or "nothing"

    def lines(self) -> list[str]:
        """Every table's rows, a line each, aligned: what the commands print."""
        width = max((len(table) for table, _ in self.counts), default=0)
        return [f"  {table:<{width}}  {count:>9,}" for table, count in self.counts]


def _count(execute: Callable[[str], Any], present: Collection[str]) -> Contents:
    """The rows of each kept table in ``present``, each counted with ``execute`` (one
    connection, so one snapshot where the caller holds one)."""
    return Contents(tuple((table, int(execute(f'SELECT count(*) FROM "{table}"')))
                          for table in kept_tables() if table in present))


def contents(url: str | URL) -> Contents | None:
    """The rows of every table the service keeps in the database at ``url``; ``None`` when
    it has no schema yet."""
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            present = set(inspect(connection).get_table_names())
            if "games" not in present:
                return None
            return _count(lambda sql: connection.execute(text(sql)).scalar_one(), present)
    finally:
        engine.dispose()


# -- PostgreSQL: the URL as libpq's arguments ------------------------------------------------


@dataclass(frozen=True)
class PgTarget:
    """A PostgreSQL database as ``pg_dump`` and ``pg_restore`` take it."""

    args: tuple[str, ...]
    env: dict[str, str]
    schema: str | None


def pg_target(url: str | URL) -> PgTarget:
    """libpq connection arguments for a SQLAlchemy URL: host, port, user and database as
    options, the password in ``PGPASSWORD`` (never on a command line), and the schema of a
    ``-csearch_path=…`` in the URL's ``options``."""
    parsed = normalise_url(url)
    if parsed.get_backend_name() != "postgresql":
        raise BackupError(f"not a PostgreSQL URL: {parsed.render_as_string()}")
    args: list[str] = []
    if parsed.host:
        args += ["--host", parsed.host]
    if parsed.port:
        args += ["--port", str(parsed.port)]
    if parsed.username:
        args += ["--username", parsed.username]
    if not parsed.database:
        raise BackupError("the PostgreSQL URL names no database")
    args += ["--dbname", parsed.database]
    env = {"PGPASSWORD": parsed.password} if parsed.password else {}
    schema = None
    options = parsed.query.get("options")
    for option in (options if isinstance(options, tuple) else (options or "",)):
        for word in option.split():
            if word.startswith("-csearch_path="):
                schema = word.split("=", 1)[1].split(",")[0].strip('"') or None
    return PgTarget(tuple(args), env, schema)


def _run(tool: str, args: list[str], env: dict[str, str]) -> None:
    if shutil.which(tool) is None:
        raise BackupError(f"{tool} is not installed (Debian: apt-get install postgresql-client; "
                          "use the major version of the server or newer)")
    finished = subprocess.run([tool, *args], env={**os.environ, **env}, check=False,
                              capture_output=True, text=True)
    if finished.returncode != 0:
        raise BackupError(f"{tool} failed (exit status {finished.returncode}): "
                          f"{finished.stderr.strip()}")


# -- the commands ---------------------------------------------------------------------------


def backup(url: str | URL, destination: Path, *, force: bool = False) -> Contents:
    """Write a consistent copy of the database at ``url`` to ``destination`` while the
    service may go on writing; what the copy holds (counted in the copy's own snapshot, never
    in the live database a moment before or after it)."""
    destination = destination.expanduser().resolve()
    if destination.exists() and not force:
        raise BackupError(f"{destination} exists; choose another name or pass --force")
    destination.parent.mkdir(parents=True, exist_ok=True)
    if contents(url) is None:
        raise BackupError("the database has no Segnapunti tables: nothing to back up")
    source = sqlite_file(url)
    if source is not None:
        return _sqlite_backup(source, destination)
    return _pg_backup(url, destination)


def _pg_backup(url: str | URL, destination: Path) -> Contents:
    """``pg_dump`` from the snapshot of a transaction of ours, counted in that same
    snapshot: a REPEATABLE READ transaction exports its snapshot (``pg_export_snapshot``),
    counts the rows of every kept table it sees, and stays open while ``pg_dump --snapshot`` copies
    exactly what it sees. Counting in another transaction, before the dump, printed a hand
    fewer than the file held when a hand arrived in between (2,193 printed, 2,194 restored)."""
    target = pg_target(url)
    partial = destination.with_name(destination.name + ".partial")
    engine = make_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            connection = connection.execution_options(isolation_level="REPEATABLE READ")
            with connection.begin():
                snapshot = connection.execute(text("SELECT pg_export_snapshot()")).scalar_one()
                present = set(inspect(connection).get_table_names())
                held = _count(lambda sql: connection.execute(text(sql)).scalar_one(), present)
                args = ["--format=custom", "--no-owner", f"--snapshot={snapshot}",
                        "--file", str(partial)]
                if target.schema:
                    args += ["--schema", target.schema]
                _run("pg_dump", [*args, *target.args], target.env)
        partial.replace(destination)
    finally:
        partial.unlink(missing_ok=True)
        engine.dispose()
    return held


def _sqlite_backup(source: Path, destination: Path) -> Contents:
    with tempfile.NamedTemporaryFile(dir=destination.parent, prefix=destination.name,
                                     suffix=".partial", delete=False) as handle:
        partial = Path(handle.name)
    try:
        with sqlite3.connect(source) as origin, sqlite3.connect(partial) as copy:
            origin.execute("PRAGMA busy_timeout = 5000")
            origin.backup(copy)  # one consistent snapshot, the write-ahead log included
            copy.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
            checked = copy.execute("PRAGMA integrity_check").fetchone()[0]
            if checked != "ok":
                raise BackupError(f"the copy fails SQLite's integrity check: {checked}")
            present = {row[0] for row in copy.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            held = _count(lambda sql: copy.execute(sql).fetchone()[0], present)
        origin.close()
        copy.close()
        partial.replace(destination)
    finally:
        partial.unlink(missing_ok=True)
    return held


def restore(url: str | URL, source: Path, *, force: bool = False) -> Contents:
    """Replace the database at ``url`` with the backup in ``source``; what it now holds.
    Refuses a database holding anything, in any table the service keeps, unless ``force``:
    a club with its members and no game yet is as much lost to a restore as a game."""
    source = source.expanduser().resolve()
    if not source.is_file():
        raise BackupError(f"there is no backup file {source}")
    if not force:
        refuse_a_database_holding_anything(url)
    target_file = sqlite_file(url)
    if target_file is not None:
        ensure_sqlite_directory(url)
        with sqlite3.connect(source) as backup_copy, sqlite3.connect(target_file) as live:
            backup_copy.backup(live)
            live.execute("PRAGMA journal_mode = WAL")
        backup_copy.close()
        live.close()
    else:
        target = pg_target(url)
        args = ["--clean", "--if-exists", "--no-owner", "--exit-on-error"]
        if target.schema:
            args += ["--schema", target.schema]
            _ensure_pg_schema(url, target.schema)
        _run("pg_restore", [*args, *target.args, str(source)], target.env)
    restored = contents(url)
    if restored is None:
        raise BackupError(f"{source} restored no Segnapunti tables: is it a backup of ours?")
    return restored


def refuse_a_database_holding_anything(url: str | URL) -> None:
    """A ``BackupError`` naming what the database at ``url`` holds, if it holds anything: what
    a restore without ``--force`` checks first (``deploy/native.sh restore`` too, before it
    stops the app servers for nothing)."""
    present = contents(url)
    if present is not None and present.held:
        raise BackupError(f"the database holds {present}: use --force to replace it "
                          "(a restore replaces everything in it; stop the service first)")


def _ensure_pg_schema(url: str | URL, schema: str) -> None:
    """``pg_restore --schema`` restores into the schema but does not create it."""
    engine = make_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{schema}"'))
    finally:
        engine.dispose()
