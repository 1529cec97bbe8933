"""``python -m service migrate`` waits for its database: on a first start of compose
PostgreSQL may not answer yet, and a migration that gave up at once left the app servers and
the proxy never started. It tries again with back-off while the database does not answer,
migrates once it does, and gives up with a plain message after ``MIGRATE_WAIT`` seconds."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest
from live_support import free_port
from native_topology import Forwarder

from service.persistence import make_engine, normalise_url
from service.persistence.base import sqlite_file


def _migrate(url: str, wait_s: int) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "service", "migrate"], text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "DATABASE_URL": url, "MIGRATE_WAIT": str(wait_s)})


@pytest.fixture()
def late_url(one_db_url: str) -> Iterator[tuple[str, int]]:
    """The module's PostgreSQL database through a port where nothing listens yet."""
    if sqlite_file(one_db_url) is not None:
        pytest.skip("needs PostgreSQL (TEST_DATABASE_URL): a SQLite file is always there")
    parsed = normalise_url(one_db_url)
    port = free_port()
    yield parsed.set(host="127.0.0.1", port=port).render_as_string(hide_password=False), port


def test_migrate_waits_for_a_database_that_comes_up_late_then_migrates(
        late_url: tuple[str, int], one_db_url: str) -> None:
    url, port = late_url
    migrating = _migrate(url, 60)
    stderr: list[str] = []
    try:
        assert migrating.stderr is not None
        stderr.append(migrating.stderr.readline())  # the first wait, said
        assert "does not answer yet" in stderr[0] and "trying again" in stderr[0]
        parsed = normalise_url(one_db_url)
        forwarder = Forwarder(port, (parsed.host or "127.0.0.1", parsed.port or 5432))
        forwarder.start()
        assert migrating.wait(timeout=60) == 0, migrating.stderr.read()
    finally:
        if migrating.poll() is None:
            migrating.kill()
    forwarder.cut()
    engine = make_engine(one_db_url)
    try:
        with engine.connect() as connection:
            assert connection.exec_driver_sql(
                "SELECT count(*) FROM alembic_version").scalar_one() == 1
    finally:
        engine.dispose()


def test_migrate_gives_up_plainly_after_its_wait(late_url: tuple[str, int]) -> None:
    url, _ = late_url
    migrating = _migrate(url, 1)
    _, stderr = migrating.communicate(timeout=60)
    assert migrating.returncode == 1
    assert "did not answer within 1 s" in stderr and "not migrated" in stderr
    assert "Traceback" not in stderr
