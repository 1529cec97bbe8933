"""Migrations run up from an empty database and back down, on SQLite and PostgreSQL, and
the ORM models are exactly what the migrations build."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from service.persistence import Base, downgrade, make_engine, upgrade
from service.persistence.migrate import alembic_config

TABLES = {"games", "hands", "hand_versions", "idempotency_keys"}


def _tables(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return set(inspect(connection).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()


def test_upgrade_from_empty_and_downgrade_to_base(db_url: str) -> None:
    assert _tables(db_url) == set()
    upgrade(db_url)
    assert _tables(db_url) == TABLES
    upgrade(db_url)  # idempotent
    downgrade(db_url, "base")
    assert _tables(db_url) == set()
    upgrade(db_url)
    assert _tables(db_url) == TABLES


def test_every_revision_goes_down_and_up_again(db_url: str) -> None:
    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    revisions = [r.revision for r in script.walk_revisions()]  # newest first
    upgrade(db_url)
    for revision in revisions[1:]:
        downgrade(db_url, revision)
    downgrade(db_url, "base")
    assert _tables(db_url) == set()
    for revision in reversed(revisions):
        upgrade(db_url, revision)
    assert _tables(db_url) == TABLES


def test_models_match_migrations(db_url: str) -> None:
    upgrade(db_url)
    engine = make_engine(db_url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            assert compare_metadata(context, Base.metadata) == []
    finally:
        engine.dispose()


def test_single_head() -> None:
    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    assert len(script.get_heads()) == 1
