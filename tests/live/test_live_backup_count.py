"""What ``python -m service backup`` reports is what its file holds: written while
hands arrive, the games and hands it prints are counted in the copy's own snapshot, not in the
live database a moment before the copy (2,193 printed where the file held 2,194).

Deterministic: hands are recorded at the two moments a count taken elsewhere would miss,
after the check that the database has tables, and (PostgreSQL) after the copy's snapshot was
taken but before ``pg_dump`` reads it."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest
from live_support import API, auth, gatti3_hand

from service.persistence import backup as backups
from service.persistence.base import sqlite_file


def _hands_in_file(db_url: str, copy: Path) -> tuple[int, int]:
    """The games and hands the backup file itself holds, read from the file."""
    if sqlite_file(db_url) is not None:
        with sqlite3.connect(copy) as connection:
            games = connection.execute("SELECT count(*) FROM games").fetchone()[0]
            hands = connection.execute("SELECT count(*) FROM hands").fetchone()[0]
        connection.close()
        return int(games), int(hands)
    counts = []
    for table in ("games", "hands"):
        dumped = subprocess.run(["pg_restore", "--data-only", "--table", table, "--file", "-",
                                 str(copy)], check=True, capture_output=True, text=True).stdout
        rows = dumped.split(f".{table} (", 1)[1].split(" FROM stdin;\n", 1)[1]
        counts.append(len(rows.split("\n\\.\n", 1)[0].splitlines()))
    return counts[0], counts[1]


def test_a_backup_reports_the_hands_its_file_holds_while_hands_arrive(
        client: Any, db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    recorded = 0

    def another_hand() -> None:
        """A game of its own for each hand (a gatti-3 game soon ends): both counts grow."""
        nonlocal recorded
        game = client.post(f"{API}/games", json={"variant": "gatti-3",
                                                 "players": ["Anna", "Bruno", "Carla"]})
        assert game.status_code == 201, game.get_json()
        created = game.get_json()
        reply = client.post(f"{API}/games/{created['id']}/hands", json=gatti3_hand(0),
                            headers=auth(created["tokens"]["edit"]))
        assert reply.status_code == 201, reply.get_json()
        recorded += 1

    for _ in range(3):
        another_hand()
    counted, dumped = backups.contents, backups._run

    def contents_then_a_hand(url: Any) -> Any:
        found = counted(url)
        another_hand()  # arrives after the check, before the copy
        return found

    def a_hand_then_dump(tool: str, args: list[str], env: dict[str, str]) -> None:
        another_hand()  # arrives after the copy's snapshot, before pg_dump reads it
        dumped(tool, args, env)

    monkeypatch.setattr(backups, "contents", contents_then_a_hand)
    monkeypatch.setattr(backups, "_run", a_hand_then_dump)
    copy = tmp_path / "evening.backup"
    reported = backups.backup(db_url, copy)

    assert (reported.games, reported.hands) == _hands_in_file(db_url, copy)
    assert (reported.games, reported.hands) == (4, 4)  # three before, one during the check; not the one after
