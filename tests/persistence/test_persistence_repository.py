"""The SQL repository: compare-and-set writes, versions, history, URLs and SQLite settings."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import JSON, Column, Integer, MetaData, Table, select, text
from sqlalchemy.dialects.postgresql import JSONB

from service.application.ports import (
    AddedHands,
    GameIdTaken,
    GivenVerdict,
    StaleGame,
    StoredGame,
    StoredHand,
)
from service.domain import Confirmation
from service.persistence import SqlGameRepository, make_engine, normalise_url
from service.persistence.base import pool_settings, read_json

T0 = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")


@pytest.fixture()
def repo(migrated_url: str) -> Iterator[SqlGameRepository]:
    engine = make_engine(migrated_url)
    with engine.begin() as connection:
        for table in ("idempotency_keys", "hand_versions", "hands", "games"):
            connection.execute(text(f"DELETE FROM {table}"))
    yield SqlGameRepository(engine)
    engine.dispose()


def _game(game_id: str = "g1") -> StoredGame:
    return StoredGame(id=game_id, variant="gatti-3", options={"melds": "hand"},
                      players=("A", "B", "C"), first_dealer=0, edit_token_hash="e" * 64,
                      read_token_hash="r" * 64, created_at=T0, version=1)


def _add(repo: SqlGameRepository, number: int, version: int, dealer: int = 0) -> None:
    repo.add_hand("g1", expected_game_version=version, number=number,
                  record={"dealer": dealer}, rules_version="test", token_kind="edit",
                  now=T0 + timedelta(minutes=number))


def test_round_trip(repo: SqlGameRepository) -> None:
    repo.add_game(_game())
    _add(repo, 1, 1)
    game = repo.get_game("g1")
    assert game is not None
    assert game.players == ("A", "B", "C")
    assert game.options == {"melds": "hand"}
    assert game.created_at == T0
    assert game.version == 2
    assert [(h.number, h.version, h.record) for h in game.hands] == [(1, 1, {"dealer": 0})]
    assert game.hands[0].created_at.tzinfo is not None
    assert repo.get_game("nope") is None
    credentials = repo.get_credentials("g1")
    assert credentials is not None and credentials.edit_token_hash == "e" * 64
    assert repo.get_credentials("nope") is None


def test_changes_since_a_version(repo: SqlGameRepository) -> None:
    repo.add_game(_game())
    for number in (1, 2, 3):
        _add(repo, number, number)
    added = repo.changes_since("g1", 2)
    assert added is not None and added.version == 4
    assert [(h.number, h.version, h.record) for h in added.changes] == [
        (2, 1, {"dealer": 0}), (3, 1, {"dealer": 0})]
    game = repo.get_game("g1")
    assert game is not None and added.changes == game.hands[1:]
    nothing = repo.changes_since("g1", 4)
    assert nothing is not None and nothing.changes == () and nothing.version == 4


def test_changes_since_is_none_after_a_correction_or_a_deletion(
    repo: SqlGameRepository,
) -> None:
    repo.add_game(_game())
    _add(repo, 1, 1)
    _add(repo, 2, 2)
    repo.replace_hand("g1", expected_game_version=3, number=1, expected_hand_version=1,
                      record={"dealer": 0, "x": 1}, rules_version="test", token_kind="edit",
                      now=T0)
    assert repo.changes_since("g1", 2) is None
    assert repo.changes_since("g1", 4) is not None
    repo.delete_hand("g1", expected_game_version=4, number=2, expected_hand_version=1,
                     rules_version="test", token_kind="edit", now=T0)
    assert repo.changes_since("g1", 4) is None
    _add(repo, 2, 5)
    added = repo.changes_since("g1", 5)
    assert added is not None and [(h.number, h.version) for h in added.changes] == [(2, 3)]


def test_changes_since_a_version_hold_the_verdicts_given_in_their_turn(
        repo: SqlGameRepository) -> None:
    repo.add_game(_game())
    _add(repo, 1, 1)
    said = Confirmation(seat=1, verdict="confirm", version=1, at=T0)
    repo.add_confirmation("g1", confirmation=said, number=1)  # the game at 3
    _add(repo, 2, 3)
    doubt = Confirmation(seat=2, verdict="dispute", version=1, at=T0, reason="Sbagliato")
    repo.add_confirmation("g1", confirmation=doubt, number=1)  # at 5
    added = repo.changes_since("g1", 1)
    assert added is not None and added.version == 5
    hands = repo.get_game("g1").hands  # type: ignore[union-attr]
    assert added.changes == (replace(hands[0], confirmations=()), GivenVerdict(1, said),
                             hands[1], GivenVerdict(1, doubt))
    assert tuple(c for c in added.changes if isinstance(c, StoredHand)) == (
        replace(hands[0], confirmations=()), hands[1])
    after = repo.changes_since("g1", 3)
    assert after is not None and after.changes == (hands[1], GivenVerdict(1, doubt))
    # A change of another kind (the evening ended) makes the game one to read whole.
    repo.end_game("g1", expected_game_version=5, ended=True, token_kind="edit", now=T0)
    assert repo.changes_since("g1", 3) is None
    assert repo.changes_since("g1", 6) == AddedHands(version=6, changes=())


def test_games_read_together_are_each_as_read_alone(repo: SqlGameRepository) -> None:
    # An event's tables are read in three statements, whatever their number; each game
    # comes back with its own hands in order and the verdicts on them.
    for game_id in ("g1", "g2", "g3"):
        repo.add_game(_game(game_id))
    for number in (1, 2, 3):
        _add(repo, number, number)
    repo.add_hand("g2", expected_game_version=1, number=1, record={"dealer": 1},
                  rules_version="test", token_kind="edit", now=T0)
    repo.add_confirmation("g2", confirmation=Confirmation(seat=0, verdict="confirm",
                                                          version=1, at=T0), number=1)
    found = repo.get_games(["g3", "g1", "nope", "g2", "g1"])
    assert sorted(found) == ["g1", "g2", "g3"]
    for game_id in ("g1", "g2", "g3"):
        assert found[game_id] == repo.get_game(game_id)
    assert [h.number for h in found["g1"].hands] == [1, 2, 3]
    assert found["g2"].hands[0].confirmations[0].verdict == "confirm"
    assert found["g3"].hands == ()
    assert repo.get_games([]) == {}


def test_duplicate_game_id(repo: SqlGameRepository) -> None:
    repo.add_game(_game())
    with pytest.raises(GameIdTaken):
        repo.add_game(_game())


def test_stale_game_version_changes_nothing(repo: SqlGameRepository) -> None:
    repo.add_game(_game())
    _add(repo, 1, 1)
    with pytest.raises(StaleGame):
        _add(repo, 2, 1)  # the game is at version 2 now
    game = repo.get_game("g1")
    assert game is not None and len(game.hands) == 1 and game.version == 2
    assert len(repo.history("g1")) == 1


def test_replace_and_delete_check_the_hand_version(repo: SqlGameRepository) -> None:
    repo.add_game(_game())
    _add(repo, 1, 1)
    with pytest.raises(StaleGame):
        repo.replace_hand("g1", expected_game_version=2, number=1, expected_hand_version=7,
                          record={"dealer": 0, "x": 1}, rules_version="test",
                          token_kind="edit", now=T0)
    replaced = repo.replace_hand("g1", expected_game_version=2, number=1,
                                 expected_hand_version=1, record={"dealer": 0, "x": 1},
                                 rules_version="test", token_kind="edit", now=T0)
    assert replaced.version == 2 and replaced.record == {"dealer": 0, "x": 1}
    with pytest.raises(StaleGame):
        repo.delete_hand("g1", expected_game_version=3, number=1, expected_hand_version=1,
                         rules_version="test", token_kind="edit", now=T0)
    repo.delete_hand("g1", expected_game_version=3, number=1, expected_hand_version=2,
                     rules_version="test", token_kind="edit", now=T0)
    _add(repo, 1, 4)
    game = repo.get_game("g1")
    assert game is not None and [h.version for h in game.hands] == [4]
    history = repo.history("g1")
    assert [(v.number, v.version, v.action) for v in history] == [
        (1, 1, "create"), (1, 2, "correct"), (1, 3, "delete"), (1, 4, "create"),
    ]
    assert history[2].record is None
    assert history[0].record == {"dealer": 0}


def test_deleting_a_game_cascades(repo: SqlGameRepository) -> None:
    repo.add_game(_game())
    _add(repo, 1, 1)
    with repo.engine.begin() as connection:
        connection.execute(text("DELETE FROM games"))
        assert connection.execute(text("SELECT count(*) FROM hands")).scalar() == 0
        assert connection.execute(text("SELECT count(*) FROM hand_versions")).scalar() == 0


@pytest.mark.parametrize(("given", "expected"), [
    ("postgresql://u:p@h:5432/d", "postgresql+psycopg://u:p@h:5432/d"),
    ("postgres://u@h/d", "postgresql+psycopg://u@h/d"),
    ("postgresql+psycopg2://u@h/d", "postgresql+psycopg://u@h/d"),
    ("postgresql+psycopg://u@h/d", "postgresql+psycopg://u@h/d"),
    ("sqlite:///var/x.sqlite3", "sqlite:///var/x.sqlite3"),
])
def test_normalise_url(given: str, expected: str) -> None:
    assert normalise_url(given).render_as_string(hide_password=False) == expected


def test_sqlite_connections_use_wal_busy_timeout_and_foreign_keys(tmp_path: object) -> None:
    engine = make_engine(f"sqlite:///{tmp_path}/sub/dir/db.sqlite3")
    try:
        with engine.connect() as connection:
            assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
            assert connection.execute(text("PRAGMA busy_timeout")).scalar() == 5000
            assert connection.execute(text("PRAGMA synchronous")).scalar() == 1  # NORMAL
    finally:
        engine.dispose()


def test_sqlite_synchronous_full_is_a_setting(tmp_path: object,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SQLITE_SYNCHRONOUS", "full")
    engine = make_engine(f"sqlite:///{tmp_path}/db.sqlite3")
    try:
        with engine.connect() as connection:
            assert connection.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
    finally:
        engine.dispose()
    monkeypatch.setenv("SQLITE_SYNCHRONOUS", "OFF")
    with pytest.raises(ValueError, match="NORMAL or FULL"):
        make_engine(f"sqlite:///{tmp_path}/other.sqlite3")


def test_postgresql_pool_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    for variable in ("DB_POOL_SIZE", "DB_MAX_OVERFLOW", "DB_POOL_TIMEOUT", "DB_POOL_RECYCLE",
                     "DB_POOL_PRE_PING"):
        monkeypatch.delenv(variable, raising=False)
    assert pool_settings() == {"pool_size": 5, "max_overflow": 10, "pool_timeout": 10,
                               "pool_recycle": 1800}
    monkeypatch.setenv("DB_POOL_SIZE", "3")
    monkeypatch.setenv("DB_POOL_RECYCLE", "60")
    # No connection is made: the engine only holds its pool.
    engine = make_engine("postgresql://u@127.0.0.1:1/none")
    try:
        assert engine.pool.size() == 3
        assert engine.pool._recycle == 60
        assert engine.pool._max_overflow == 10
        assert engine.pool._pre_ping is True
    finally:
        engine.dispose()
    monkeypatch.setenv("DB_POOL_PRE_PING", "0")
    engine = make_engine("postgresql://u@127.0.0.1:1/none")
    try:
        assert engine.pool._pre_ping is False
    finally:
        engine.dispose()


@pytest.mark.skipif(not TEST_DATABASE_URL, reason="needs PostgreSQL (TEST_DATABASE_URL)")
def test_postgresql_connections_are_named() -> None:
    assert TEST_DATABASE_URL is not None
    engine = make_engine(TEST_DATABASE_URL)
    try:
        with engine.connect() as connection:
            name = connection.execute(text("SHOW application_name")).scalar()
            assert name == "segnapunti"
    finally:
        engine.dispose()


def test_a_verdict_moves_the_game_on_whatever_its_version_and_fails_only_for_its_hand(
    repo: SqlGameRepository,
) -> None:
    from service.domain import Confirmation

    with repo.engine.begin() as connection:
        connection.execute(text("DELETE FROM confirmations"))
    repo.add_game(_game())
    _add(repo, 1, 1)
    _add(repo, 2, 2)  # the game is at version 3
    first = repo.add_confirmation("g1", confirmation=Confirmation(0, "confirm", 1, T0),
                                  number=1)
    second = repo.add_confirmation("g1", confirmation=Confirmation(1, "dispute", 1, T0, "no"),
                                   number=1)
    assert (first.game_version, second.game_version) == (4, 5)
    assert [(c.seat, c.verdict) for c in first.verdicts] == [(0, "confirm")]
    assert [(c.seat, c.verdict) for c in second.verdicts] == [(0, "confirm"), (1, "dispute")]
    repo.replace_hand("g1", expected_game_version=5, number=1, expected_hand_version=1,
                      record={"dealer": 0, "x": 1}, rules_version="test", token_kind="edit",
                      now=T0)
    with pytest.raises(StaleGame):  # a verdict on the version a correction replaced
        repo.add_confirmation("g1", confirmation=Confirmation(2, "confirm", 1, T0), number=1)
    with pytest.raises(StaleGame):  # on a hand that is not there
        repo.add_confirmation("g1", confirmation=Confirmation(2, "confirm", 1, T0), number=3)
    with pytest.raises(StaleGame):  # an import's replay still compares the game's version
        repo.add_confirmation("g1", confirmation=Confirmation(2, "confirm", 1, T0), number=2,
                              expected_game_version=5)
    game = repo.get_game("g1")
    assert game is not None and game.version == 6
    assert game.hands[0].confirmations == ()


def test_database_timeouts_come_from_the_environment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SQLITE_BUSY_TIMEOUT", "0.25")
    engine = make_engine(f"sqlite:///{tmp_path}/busy.sqlite3")
    try:
        with engine.connect() as connection:
            assert connection.execute(text("PRAGMA busy_timeout")).scalar() == 250
    finally:
        engine.dispose()
    for variable in ("DATABASE_CONNECT_TIMEOUT", "DATABASE_STATEMENT_TIMEOUT",
                     "SQLITE_BUSY_TIMEOUT"):
        monkeypatch.setenv(variable, "soon")
        with pytest.raises(ValueError, match=variable):
            make_engine("postgresql://u@127.0.0.1:1/none", serving=True)
        monkeypatch.delenv(variable)
    if not TEST_DATABASE_URL:
        return
    # PostgreSQL: the serving engine's statements are cut at the timeout, the URL's own
    # options kept beside it; other engines (migrations, backups) have none.
    monkeypatch.setenv("DATABASE_STATEMENT_TIMEOUT", "0.3")
    url = normalise_url(TEST_DATABASE_URL).update_query_dict(
        {"options": "-csearch_path=somewhere"})
    for serving, expected in ((True, "300ms"), (False, "0")):
        engine = make_engine(url, serving=serving)
        try:
            with engine.connect() as connection:
                assert connection.execute(text("SHOW statement_timeout")).scalar() == expected
                assert connection.execute(text("SHOW search_path")).scalar() == "somewhere"
        finally:
            engine.dispose()


# -- stored JSON ---------------------------------------------------------------------------


STORED = {"roster": [{"name": "Anna", "seed": 7}], "note": "già", "ratio": 0.5,
          "past_64_bits": 2 ** 70, "nothing": None}


def test_stored_json_reads_back_as_written(empty_db_url: str) -> None:
    """A JSON column reads back what was written, by the engine's own reader (orjson), and
    what orjson refuses (a whole number past 64 bits) by the standard library's."""
    engine = make_engine(empty_db_url)
    assert engine.dialect._json_deserializer is read_json
    metadata = MetaData()
    kept = Table("kept_json", metadata, Column("id", Integer, primary_key=True),
                 Column("value", JSON().with_variant(JSONB(), "postgresql")))
    metadata.create_all(engine)
    try:
        with engine.begin() as connection:
            connection.execute(kept.insert(), [{"id": 1, "value": STORED},
                                               {"id": 2, "value": {"small": 2 ** 40}}])
        with engine.connect() as connection:
            found = dict(connection.execute(select(kept.c.id, kept.c.value)).all())
        assert found == {1: STORED, 2: {"small": 2 ** 40}}
    finally:
        metadata.drop_all(engine)
        engine.dispose()


@pytest.mark.parametrize("raw", [b'{"a": [1, 2.5, "\\u00e0"]}', '{"a": [1, 2.5, "\\u00e0"]}',
                                 memoryview(b'{"a": [1, 2.5, "\\u00e0"]}')])
def test_read_json_takes_what_a_driver_hands_it(raw: Any) -> None:
    assert read_json(raw) == {"a": [1, 2.5, "à"]}
    assert read_json(b"[18446744073709551616]") == [2 ** 64]
