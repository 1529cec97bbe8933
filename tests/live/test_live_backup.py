"""Backups that restore: ``python -m service backup`` taken while clients record
hands, restored into an empty database, holds every hand acknowledged before the backup
began, identical, on SQLite (the online backup API) and on PostgreSQL (``pg_dump``)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from live_support import API, LiveServer, auth, gatti3_hand
from sqlalchemy import text
from waiting import wait_until

from service.persistence import make_engine, normalise_url
from service.persistence.backup import BackupError, backup, pg_target, restore

WRITERS = 3
#: Hands on record before the backup begins (three times the least the test accepts), and
#: after it ends: waited for, however long a loaded machine takes to record them.
HANDS_BEFORE = 30
HANDS_AFTER = 2 * WRITERS
LOAD_TIMEOUT_S = 120.0


def command(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "service", *args], check=False,
                          capture_output=True, text=True,
                          env={**os.environ, "DATABASE_URL": url})


class Writer(threading.Thread):
    """A client recording gatti-3 games, three hands each, with Idempotency-Keys and a
    retry on any error; every 201 is kept with the moment it arrived."""

    def __init__(self, server: LiveServer, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.server = server
        self.stop = stop
        self.acknowledged: list[tuple[float, str, str, int, dict[str, Any]]] = []

    def post(self, path: str, body: Any, token: str | None = None) -> Any:
        headers = {"Idempotency-Key": str(uuid.uuid4()), **(auth(token) if token else {})}
        for _ in range(5):
            reply = self.server.call("POST", path, body, headers=headers)
            if reply.status == 201:
                return reply
            time.sleep(0.05)
        raise AssertionError(reply)

    def run(self) -> None:
        while not self.stop.is_set():
            game = self.post(f"{API}/games", {"variant": "gatti-3",
                                              "players": ["Anna", "Bruno", "Carla"]}).body
            for number in range(1, 4):
                if self.stop.is_set():
                    return
                reply = self.post(f"{API}/games/{game['id']}/hands",
                                  gatti3_hand(number - 1, counting_to=number % 3),
                                  game["tokens"]["edit"])
                self.acknowledged.append((time.monotonic(), game["id"],
                                          game["tokens"]["read"], number, reply.body))


def _fresh_target(db_url: str, tmp_path: Path) -> str:
    """Where to restore: a new SQLite file, or the same PostgreSQL schema emptied (as after
    losing the database)."""
    if normalise_url(db_url).get_backend_name() == "sqlite":
        return f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    schema = pg_target(db_url).schema
    assert schema, db_url
    engine = make_engine(db_url)
    with engine.begin() as connection:
        connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    engine.dispose()
    return db_url


def test_a_backup_under_load_restores_every_acknowledged_hand(
        db_url: str, tmp_path: Path) -> None:
    server = LiveServer(db_url, tmp_path / "before", workers=2)
    (tmp_path / "before").mkdir()
    server.start()
    stop = threading.Event()
    writers = [Writer(server, stop) for _ in range(WRITERS)]

    def hands() -> int:
        return sum(len(writer.acknowledged) for writer in writers)

    try:
        for writer in writers:
            writer.start()
        wait_until(lambda: hands() >= HANDS_BEFORE, LOAD_TIMEOUT_S)
        began = time.monotonic()
        made = command(db_url, "backup", str(tmp_path / "evening.backup"))
        after = hands()  # the load goes on after the backup too
        wait_until(lambda: hands() >= after + HANDS_AFTER, LOAD_TIMEOUT_S)
    finally:
        stop.set()
        for writer in writers:
            writer.join(timeout=30)
        server.stop()
    assert made.returncode == 0, made.stderr
    assert "backed up" in made.stdout
    before = [hand for writer in writers for hand in writer.acknowledged if hand[0] < began]
    assert len(before) >= 10, "the load recorded too little before the backup"

    target = _fresh_target(db_url, tmp_path)
    restored = command(target, "restore", str(tmp_path / "evening.backup"))
    assert restored.returncode == 0, restored.stderr
    (tmp_path / "after").mkdir()
    again = LiveServer(target, tmp_path / "after", workers=1).start()
    try:
        games: dict[str, Any] = {}
        for _, game_id, read, number, body in before:
            if game_id not in games:
                reply = again.call("GET", f"{API}/games/{game_id}", headers=auth(read))
                assert reply.status == 200, reply
                games[game_id] = reply.body
            hand = games[game_id]["hands"][number - 1]
            assert hand["record"] == body["record"]
            assert hand["result"] == body["result"]
            assert hand["version"] == body["version"]
        # And the restored service takes new hands.
        game_id, read = before[-1][1], before[-1][2]
        assert again.call("GET", f"{API}/games/{game_id}/history",
                          headers=auth(read)).status == 200
    finally:
        again.stop()


def test_a_restore_never_replaces_games_unasked(tmp_path: Path) -> None:
    from service.persistence import upgrade

    db_url = f"sqlite:///{tmp_path / 'one.sqlite3'}"  # the refusal is the same on both
    upgrade(db_url)
    engine = make_engine(db_url)
    with engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO games (id, variant, options, players, first_dealer, edit_token_hash, "
            "read_token_hash, created_at, version) VALUES ('abcdefghjk', 'gatti-3', '{}', "
            "'[\"A\", \"B\", \"C\"]', 0, 'e', 'r', '2026-11-25 10:00:00', 1)"))
    engine.dispose()
    copy = tmp_path / "one.backup"
    assert backup(db_url, copy).games == 1
    with pytest.raises(BackupError, match="exists"):
        backup(db_url, copy)
    with pytest.raises(BackupError, match="holds 1 game: use --force"):
        restore(db_url, copy)
    assert restore(db_url, copy, force=True).games == 1
    with pytest.raises(BackupError, match="no backup file"):
        restore(db_url, tmp_path / "missing.backup")


def test_pg_dump_missing_is_said_plainly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                         db_url: str) -> None:
    if normalise_url(db_url).get_backend_name() != "postgresql":
        pytest.skip("PostgreSQL backups only")
    from service.persistence import upgrade

    upgrade(db_url)
    monkeypatch.setenv("PATH", str(tmp_path))  # no pg_dump on it
    with pytest.raises(BackupError, match="pg_dump is not installed"):
        backup(db_url, tmp_path / "x.backup")


def test_a_postgresql_url_becomes_libpq_arguments() -> None:
    target = pg_target("postgresql://ada:s3cret@db.example:6543/segnapunti"
                       "?options=-csearch_path%3Dclub_a")
    assert target.args == ("--host", "db.example", "--port", "6543", "--username", "ada",
                           "--dbname", "segnapunti")
    assert target.env == {"PGPASSWORD": "s3cret"}  # never on the command line
    assert target.schema == "club_a"
    plain = pg_target("postgres://localhost/test")
    assert plain.schema is None and plain.env == {}
    with pytest.raises(BackupError):
        pg_target("sqlite:///x.sqlite3")
