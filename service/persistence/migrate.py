"""Alembic, driven from code: ``upgrade`` to the newest schema, ``downgrade``, and the
``Config`` both use. Migrations live in the repository's top-level ``migrations/`` folder,
found relative to this package so that ``python -m service`` works from any directory
(``$SEGNAPUNTI_MIGRATIONS`` overrides the location).

Alembic (with Mako and Pygments behind it, ≈ 5 MB resident) is imported by these functions,
not by the module: the service's workers import ``service.persistence`` and never migrate.
"""

from __future__ import annotations

import ast
import functools
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, inspect, text
from sqlalchemy.engine import URL
from sqlalchemy.exc import InterfaceError, OperationalError

from .base import ensure_sqlite_directory, make_engine, normalise_url

if TYPE_CHECKING:
    from alembic.config import Config

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def migrations_directory() -> Path:
    override = os.environ.get("SEGNAPUNTI_MIGRATIONS")
    directory = Path(override) if override else PROJECT_ROOT / "migrations"
    if not (directory / "env.py").is_file():
        raise RuntimeError(
            f"Alembic migrations not found at {directory}; set SEGNAPUNTI_MIGRATIONS"
        )
    return directory


def alembic_config(url: str | URL) -> Config:
    """An Alembic configuration for ``url`` that needs no ``alembic.ini``."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(migrations_directory()))
    # ConfigParser interpolation: a literal % in a password must be doubled.
    rendered = normalise_url(url).render_as_string(hide_password=False)
    config.set_main_option("sqlalchemy.url", rendered.replace("%", "%%"))
    return config


@functools.cache
def schema_head() -> str:
    """The revision the code's newest schema is (Alembic's head), read from the migrations'
    own ``revision`` and ``down_revision`` without importing Alembic (the workers ask, and
    never migrate): the revision no other revises. Heads of branches not yet merged, if
    any, are joined by ``+``."""
    revisions: set[str] = set()
    revised: set[str] = set()
    for script in (migrations_directory() / "versions").glob("*.py"):
        names = _assigned(ast.parse(script.read_text(encoding="utf-8")))
        revision, down = names.get("revision"), names.get("down_revision")
        if isinstance(revision, str):
            revisions.add(revision)
            revised.update([down] if isinstance(down, str)
                           else down if isinstance(down, tuple | list) else ())
    heads = sorted(revisions - revised)
    if not heads:
        raise RuntimeError(f"no migration found in {migrations_directory() / 'versions'}")
    return "+".join(heads)


def _assigned(module: ast.Module) -> dict[str, object]:
    """The constants a migration's module assigns at its top level (annotated or not)."""
    names: dict[str, object] = {}
    for node in module.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
                and node.value is not None:
            target, value = node.target.id, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            target, value = node.targets[0].id, node.value
        else:
            continue
        try:
            names[target] = ast.literal_eval(value)
        except ValueError:
            continue
    return names


def database_revision(connection: Connection) -> str | None:
    """The revision ``connection``'s database is at (``alembic_version``; several joined by
    ``+`` as ``schema_head`` joins them), None where it was never migrated."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    rows = connection.execute(text("SELECT version_num FROM alembic_version")).scalars()
    return "+".join(sorted(rows)) or None


def upgrade(url: str | URL, revision: str = "head") -> None:
    from alembic import command

    ensure_sqlite_directory(url)
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str | URL, revision: str = "base") -> None:
    from alembic import command

    command.downgrade(alembic_config(url), revision)


class DatabaseNotAnswering(Exception):
    """The database did not answer within the wait; the message says what it last said."""


def wait_for_database(url: str | URL, wait_s: float, say: Callable[[str], None]) -> None:
    """Until a connection to ``url`` answers ``SELECT 1``, trying again with back-off (0.5 s
    doubling to 5 s) for up to ``wait_s`` seconds, each wait told to ``say``; then
    ``DatabaseNotAnswering``. A first start of compose, where PostgreSQL is still initialising
    its volume, or a database restarting, is waited for rather than failed."""
    deadline = time.monotonic() + wait_s
    delay = 0.5
    engine = make_engine(url)
    try:
        while True:
            try:
                with engine.connect() as connection:
                    connection.execute(text("SELECT 1"))
                return
            except (OperationalError, InterfaceError) as error:
                reason = str(error.orig or error).strip().splitlines()[0]
                if time.monotonic() + delay > deadline:
                    raise DatabaseNotAnswering(
                        f"the database did not answer within {wait_s:g} s ({reason})") from error
                say(f"the database does not answer yet ({reason}); trying again in {delay:g} s")
                time.sleep(delay)
                delay = min(delay * 2, 5.0)
    finally:
        engine.dispose()
