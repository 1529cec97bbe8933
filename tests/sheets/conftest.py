"""Fixtures of the score-sheet tests: the sample games stored through the use cases."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sheet_samples import SAMPLES, Sample, StoredGames, play

from service.application.games import GameView
from service.persistence import SqlStore, make_engine


@pytest.fixture(scope="session")
def sheet_service(tmp_path_factory: pytest.TempPathFactory,
                  migrated_sqlite: Path) -> Iterator[StoredGames]:
    """Use cases over a SQLite file of their own, a copy of the process's migrated one (the
    sheet tests read games; the HTTP ones use the shared ``client`` on every backend)."""
    path = Path(tmp_path_factory.mktemp('sheets')) / 'sheets.sqlite3'
    shutil.copyfile(migrated_sqlite, path)
    url = f"sqlite:///{path}"
    store = SqlStore(make_engine(url))
    yield StoredGames(store)
    store.engine.dispose()


@pytest.fixture(scope="session")
def stored(sheet_service: StoredGames) -> Callable[[Sample], GameView]:
    """A sample, stored and read back (each sample once per session)."""
    cache: dict[int, GameView] = {}

    def get(sample: Sample) -> GameView:
        if id(sample) not in cache:
            cache[id(sample)] = play(sheet_service, sample)[0]
        return cache[id(sample)]

    return get


@pytest.fixture(scope="session")
def sample_views(stored: Callable[[Sample], GameView]) -> dict[str, GameView]:
    return {name: stored(sample) for name, sample in SAMPLES.items()}
