"""Fixtures of the hostile-input suite: a world of two stored games that no case may change.

The suite runs on every backend of ``db_url`` (SQLite, and PostgreSQL when
``TEST_DATABASE_URL`` is set), one world per module: every case is refused, so the world
stays as it was made, which each case checks for itself (``World.snapshot``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "http"))  # http_support: hands, Table

from hostile_world import World, open_club, open_event, play_two_hands
from http_support import Table


@pytest.fixture(scope="module")
def world(app: Any) -> World:
    client = app.test_client()
    return World(client, play_two_hands(Table(client)),
                 Table(client, players=("Dario", "Elena", "Fabio")), open_event(client),
                 open_club(client))
