"""The SQLite writer gate: the service's writers queue on a ``flock`` beside the database,
held from a unit of work's first write until it has committed."""

from __future__ import annotations

import fcntl
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from service.application.ports import StoredGame
from service.persistence import SqlGameRepository, make_engine, upgrade
from service.persistence.gate import SUFFIX, writer_gate


def _taken(path: Path) -> bool:
    """Whether someone holds the gate: a lock of another open file is refused while it is."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def test_a_sqlite_file_has_a_gate_beside_it_and_nothing_else_has_one(tmp_path: Path) -> None:
    gate = writer_gate(make_url(f"sqlite:///{tmp_path / 'db.sqlite3'}"))
    assert gate is not None and gate.path == tmp_path / f"db.sqlite3{SUFFIX}"
    assert writer_gate(make_url("sqlite://")) is None
    assert writer_gate(make_url("sqlite:///:memory:")) is None
    assert writer_gate(make_url("postgresql+psycopg://u@h/db")) is None


def test_the_gate_is_held_until_let_go(tmp_path: Path) -> None:
    gate = writer_gate(make_url(f"sqlite:///{tmp_path / 'db.sqlite3'}"))
    assert gate is not None
    with gate.held():
        assert _taken(gate.path)
    assert not _taken(gate.path)


@pytest.fixture()
def repo(tmp_path: Path) -> SqlGameRepository:
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    upgrade(url)
    return SqlGameRepository(make_engine(url))


def _game() -> StoredGame:
    return StoredGame(id="g1", variant="gatti-3", options={}, players=("A", "B", "C"),
                      first_dealer=0, edit_token_hash="e" * 64, read_token_hash="r" * 64,
                      created_at=datetime(2026, 1, 1, tzinfo=UTC), version=1)


def test_a_unit_of_work_takes_the_gate_at_its_first_write_and_lets_go_after_commit(
    repo: SqlGameRepository, tmp_path: Path,
) -> None:
    path = tmp_path / f"db.sqlite3{SUFFIX}"
    repo.add_game(_game())
    assert not _taken(path)  # a write of its own lets go once committed
    with repo.connections.atomic():
        repo.get_credentials("g1")
        assert not _taken(path)  # reading needs no gate
        repo.add_hand("g1", expected_game_version=1, number=1, record={"dealer": 0},
                      rules_version="test", token_kind="edit",
                      now=datetime(2026, 1, 1, tzinfo=UTC))
        assert _taken(path)
        repo.add_hand("g1", expected_game_version=2, number=2, record={"dealer": 1},
                      rules_version="test", token_kind="edit",
                      now=datetime(2026, 1, 1, tzinfo=UTC))
        assert _taken(path)
    assert not _taken(path)
    game = repo.get_game("g1")
    assert game is not None and len(game.hands) == 2


def test_a_failed_unit_of_work_lets_go_of_the_gate(
    repo: SqlGameRepository, tmp_path: Path,
) -> None:
    repo.add_game(_game())
    with pytest.raises(RuntimeError), repo.connections.atomic():
        repo.add_hand("g1", expected_game_version=1, number=1, record={"dealer": 0},
                      rules_version="test", token_kind="edit",
                      now=datetime(2026, 1, 1, tzinfo=UTC))
        raise RuntimeError("the request failed after writing")
    assert not _taken(tmp_path / f"db.sqlite3{SUFFIX}")
    game = repo.get_game("g1")
    assert game is not None and game.hands == () and game.version == 1
