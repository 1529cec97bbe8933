"""Fixtures of the live-server tests: a running server per test module on the module's
database (``db_url``: SQLite, and PostgreSQL when ``TEST_DATABASE_URL`` is set)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from live_support import LiveServer


@pytest.fixture(scope="module")
def server(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(db_url, tmp_path_factory.mktemp("server"), workers=4).start()
    yield live
    live.stop()
