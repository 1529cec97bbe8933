"""Fixtures shared by the HTTP and persistence tests.

``db_url`` runs a test module once on SQLite (a temporary file) and, when
``TEST_DATABASE_URL`` is set, once more on PostgreSQL in a schema of its own that is dropped
afterwards, so modules never see each other's rows and may run in parallel.

The run's PostgreSQL tests do not use the database ``TEST_DATABASE_URL`` names itself but one
made for each test process beside it (``<name>_<worker>_<run>``: ``test_gw0_1a2b3c4d``, or
``test_main_…`` without pytest-xdist) and dropped at its end: a test that cuts the database's
connections (tests/http/test_http_outage.py) then cuts only its own process's, never those of
another worker or of another run on the same server. ``TEST_DATABASE_URL`` is set to it for
the process, so the test modules that read it read that one. Where the role may not create
databases, the named database is used as it is.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool

from service.persistence import make_engine, normalise_url, upgrade

# Python keeps its compiled modules (__pycache__) even where the machine says not to
# (PYTHONDONTWRITEBYTECODE, as the Makefile's test target does): the suite starts many
# interpreters (pytest's workers, live servers and their gunicorn workers, the service's
# commands, schemathesis), and without the cache each compiles again every module it imports,
# a second or two of CPU apiece. Set here, before pytest-xdist starts its workers, it holds for
# `pytest` run directly too, and for every process the tests start.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# Servers and scripts the tests start in other processes import this checkout's service, not
# whatever copy of the package is installed (an editable install may point at another tree).
_CHECKOUT = str(Path(__file__).resolve().parents[1])
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (_CHECKOUT, os.environ.get("PYTHONPATH")) if p)

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")
# The in-process apps answer as many requests as the tests send; the limiter has tests of its
# own (tests/http/test_http_rate_limit.py).
NO_RATE_LIMIT = {"RATE_LIMIT_PER_MINUTE": 0, "AUTH_FAILURES_PER_MINUTE": 0}
BACKENDS = ["sqlite"] + (["postgresql"] if TEST_DATABASE_URL else [])
#: The database made for this process (dropped at its end), if one was.
_OWN_DATABASE: tuple[str, str] | None = None


def _is_xdist_controller(config: pytest.Config) -> bool:
    """The process that hands tests to pytest-xdist's workers (and runs none itself)."""
    return not hasattr(config, "workerinput") and getattr(config.option, "dist", "no") != "no"


def _admin_engine(url: Any) -> Any:
    """Connections that create and drop databases, named apart from the service's (which
    tests/http/test_http_outage.py cuts)."""
    return make_engine(url, isolation_level="AUTOCOMMIT", poolclass=NullPool,
                       connect_args={"application_name": "segnapunti-tests"})


#: What takes longest (real servers, browsers, the contract's fuzzing) starts first, so that
#: the parallel workers finish together instead of one waiting on a live test handed out
#: last. Files keep this order because pytest-xdist runs with ``--no-loadscope-reorder``
#: (pyproject's addopts); by default it hands out the files with most tests first.
SLOW_FIRST = ("tests/live/test_live_contract.py", "tests/live/test_live_proxy_topology.py",
              "tests/live/", "tests/web/", "tests/sheets/")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        return next((i for i, prefix in enumerate(SLOW_FIRST) if item.nodeid.startswith(prefix)),
                    len(SLOW_FIRST))

    items.sort(key=rank)  # stable: within a rank, the order they were collected in


def pytest_configure(config: pytest.Config) -> None:
    global TEST_DATABASE_URL, _OWN_DATABASE
    if not TEST_DATABASE_URL or _is_xdist_controller(config):
        return
    workerinput = getattr(config, "workerinput", None)
    worker = workerinput["workerid"] if workerinput else "main"
    run = (workerinput or {}).get("testrunuid") or secrets.token_hex(4)
    base = normalise_url(TEST_DATABASE_URL)
    name = f"{base.database}_{worker}_{run[:8]}".lower()
    admin = _admin_engine(base)
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    except DBAPIError as error:  # no CREATEDB privilege: the named database, shared
        config.issue_config_time_warning(pytest.PytestWarning(
            f"the tests use {base.database} itself: could not create {name}: {error.orig}"), 2)
        return
    finally:
        admin.dispose()
    _OWN_DATABASE = (base.render_as_string(hide_password=False), name)
    TEST_DATABASE_URL = base.set(database=name).render_as_string(hide_password=False)
    os.environ["TEST_DATABASE_URL"] = TEST_DATABASE_URL


def pytest_unconfigure(config: pytest.Config) -> None:
    if _OWN_DATABASE is None:
        return
    base, name = _OWN_DATABASE
    admin = _admin_engine(base)
    try:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


@contextmanager
def _postgres_schema() -> Iterator[str]:
    """A URL of the PostgreSQL test database whose search path is a new, empty schema,
    dropped afterwards."""
    assert TEST_DATABASE_URL is not None
    base = normalise_url(TEST_DATABASE_URL)
    schema = f"test_{secrets.token_hex(6)}"
    admin = make_engine(base)
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        url = base.update_query_dict({"options": f"-csearch_path={schema}"})
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(scope="module", params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An empty database (no tables) for this test module."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('db') / 'segnapunti.sqlite3'}"
        return
    with _postgres_schema() as url:
        yield url


@pytest.fixture(params=BACKENDS)
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database of the test's own with no schema at all: a new SQLite file, or a new
    PostgreSQL schema (dropped afterwards)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.sqlite3'}"
        return
    with _postgres_schema() as url:
        yield url


@pytest.fixture(scope="module")
def one_db_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One empty database for a module that needs only one: PostgreSQL when there is one
    (as in CI and production), else SQLite."""
    if TEST_DATABASE_URL:
        with _postgres_schema() as url:
            yield url
        return
    yield f"sqlite:///{tmp_path_factory.mktemp('db') / 'segnapunti.sqlite3'}"


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to the newest schema once in this process, which each module's
    SQLite database starts as a copy of (the migrations' own tests migrate for themselves)."""
    path = tmp_path_factory.mktemp("migrated") / "segnapunti.sqlite3"
    upgrade(f"sqlite:///{path}")
    return path


#: Where the PostgreSQL script names the schema it was dumped from (replaced by each module's).
_SCHEMA_MARK = "segnapunti_migrated_schema"


def _search_path(url: str) -> re.Match[str] | None:
    """The schema a test URL's connections use (its ``options=-csearch_path=…``)."""
    options = normalise_url(url).query.get("options", "")
    return re.search(r"search_path=(\w+)", options if isinstance(options, str) else "")


@pytest.fixture(scope="session")
def migrated_postgres_script() -> str | None:
    """The newest schema as one SQL script naming ``_SCHEMA_MARK`` for its schema: a schema
    migrated once in this process, dumped by ``pg_dump`` (its tables, indexes, sequences and
    rows, such as Alembic's version). A module's schema replays it in one round trip instead
    of running every migration again. ``None`` where ``pg_dump`` is not at hand or fails: each
    module then migrates its own schema."""
    if not TEST_DATABASE_URL or shutil.which("pg_dump") is None:
        return None
    with _postgres_schema() as url:
        upgrade(url)
        schema = _search_path(url)
        base = normalise_url(TEST_DATABASE_URL)
        assert schema is not None
        env = {**os.environ, "PGPASSWORD": base.password or ""}
        dumped = subprocess.run(
            ["pg_dump", "--host", base.host or "127.0.0.1", "--port", str(base.port or 5432),
             "--username", base.username or "postgres", "--dbname", base.database or "",
             "--schema", schema.group(1), "--inserts", "--no-owner", "--no-privileges",
             "--no-comments"],
            capture_output=True, text=True, env=env, check=False)
    if dumped.returncode != 0:
        return None
    statements = [line for line in dumped.stdout.splitlines()
                  if not line.startswith(("CREATE SCHEMA", "SELECT pg_catalog.set_config", "\\"))]
    return "\n".join(statements).replace(schema.group(1), _SCHEMA_MARK)


@pytest.fixture(scope="module")
def migrated_url(db_url: str, request: pytest.FixtureRequest) -> str:
    """The module's database, migrated to the newest schema: a copy of one migrated once in
    this process (SQLite's file, PostgreSQL's script), else migrated here."""
    if db_url.startswith("sqlite:///"):
        shutil.copyfile(request.getfixturevalue("migrated_sqlite"),
                        db_url.removeprefix("sqlite:///"))
        return db_url
    script = request.getfixturevalue("migrated_postgres_script")
    schema = _search_path(db_url)
    if script is None or schema is None:
        upgrade(db_url)
        return db_url
    engine = make_engine(normalise_url(TEST_DATABASE_URL), poolclass=NullPool)
    try:
        raw = engine.raw_connection()
        try:
            with raw.cursor() as cursor:
                cursor.execute(script.replace(_SCHEMA_MARK, schema.group(1)))
            raw.commit()
        finally:
            raw.close()
    finally:
        engine.dispose()
    return db_url


@pytest.fixture(scope="module")
def app(migrated_url: str) -> Iterator[Any]:
    from service.http.app import create_app

    application = create_app({"DATABASE_URL": migrated_url, "TESTING": True, **NO_RATE_LIMIT})
    yield application
    application.extensions["segnapunti.games"].repository.engine.dispose()


@pytest.fixture()
def client(app: Any) -> Any:
    """A test client on an emptied database."""
    engine = app.extensions["segnapunti.games"].repository.engine
    with engine.begin() as connection:
        for table in ("idempotency_keys", "club_actions", "club_members", "clubs",
                      "event_actions", "event_tables", "event_rounds", "events", "confirmations", "player_tokens", "hand_versions", "hands",
                      "games"):
            connection.execute(text(f"DELETE FROM {table}"))
    return app.test_client()


@pytest.fixture(scope="session")
def stateless_app() -> Any:
    """An app for the endpoints that store nothing (its database is never touched)."""
    from service.http.app import create_app

    return create_app({"DATABASE_URL": "sqlite://", "TESTING": True, **NO_RATE_LIMIT})


@pytest.fixture()
def stateless_client(stateless_app: Any) -> Any:
    return stateless_app.test_client()
