"""Each module's database starts as a copy of one migrated once in the test process (a SQLite
file, or on PostgreSQL a script replayed in the module's schema: tests/conftest.py): the copy
is the migrated schema."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from test_persistence_migrations import TABLES, _tables

from service.persistence import Base, make_engine
from service.persistence.migrate import alembic_config


def test_a_module_s_copied_schema_is_the_migrated_schema(migrated_url: str) -> None:
    """The copy holds the newest revision and exactly the tables, columns, indexes and
    constraints the models declare."""
    engine = make_engine(migrated_url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection)
            head = ScriptDirectory.from_config(alembic_config(migrated_url)).get_current_head()
            assert context.get_current_revision() == head
            assert _tables(migrated_url) == TABLES
            assert compare_metadata(context, Base.metadata) == []
    finally:
        engine.dispose()
