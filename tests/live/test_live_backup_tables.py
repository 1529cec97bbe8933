"""A backup and a restore see every table the service keeps, not games alone: a restore
refuses a database holding a club and its members with no game yet, naming what it holds,
unless told ``--force``; and both commands print the rows of each table (the models' tables,
so a table added later is counted without anyone listing it)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from live_support import API, auth
from sqlalchemy import text

from service.persistence import Base, make_engine

MEMBERS = 12


def command(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "service", *args], check=False,
                          capture_output=True, text=True,
                          env={**os.environ, "DATABASE_URL": url})


def printed_rows(output: str) -> dict[str, int]:
    """The rows of each table a command printed, a line each (``  club_members  12``)."""
    return {table: int(count.replace(",", ""))
            for table, count in re.findall(r"^  (\w+) +([\d,]+)$", output, re.MULTILINE)}


def rows(url: str, table: str) -> int:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return int(connection.execute(text(f"SELECT count(*) FROM {table}")).scalar_one())
    finally:
        engine.dispose()


def a_club_with_members(client: Any, members: int) -> dict[str, Any]:
    club = client.post(f"{API}/clubs", json={"name": "Circolo del Giovedì"})
    assert club.status_code == 201, club.json
    for number in range(members):
        member = client.post(f"{API}/clubs/{club.json['id']}/members",
                             json={"name": f"Socio {number + 1}"},
                             headers=auth(club.json["tokens"]["edit"]))
        assert member.status_code == 201, member.json
    return dict(club.json)


def test_a_restore_refuses_a_club_with_members_and_no_game_naming_them_and_force_replaces_it(
        client: Any, app: Any, migrated_url: str, tmp_path: Path) -> None:
    club = a_club_with_members(client, MEMBERS)
    copy = tmp_path / "club.backup"
    made = command(migrated_url, "backup", str(copy))
    assert made.returncode == 0, made.stderr
    # One member more after the backup: what a restore would lose.
    late = client.post(f"{API}/clubs/{club['id']}/members", json={"name": "Ultimo"},
                       headers=auth(club["tokens"]["edit"]))
    assert late.status_code == 201, late.json
    app.extensions["segnapunti.games"].repository.engine.dispose()  # the service stopped
    assert rows(migrated_url, "games") == 0

    refused = command(migrated_url, "restore", str(copy))
    assert refused.returncode != 0
    assert f"holds 1 club, {MEMBERS + 1} club members" in refused.stderr, refused.stderr
    assert "use --force to replace it" in refused.stderr
    assert refused.stdout == ""
    assert rows(migrated_url, "club_members") == MEMBERS + 1  # nothing replaced

    forced = command(migrated_url, "restore", "--force", str(copy))
    assert forced.returncode == 0, forced.stderr
    assert rows(migrated_url, "clubs") == 1
    assert rows(migrated_url, "club_members") == MEMBERS  # the backup's, the late one gone


def test_backup_and_restore_print_the_rows_of_every_table_the_service_keeps(
        client: Any, app: Any, migrated_url: str, tmp_path: Path) -> None:
    a_club_with_members(client, 3)
    game = client.post(f"{API}/games", json={"variant": "gatti-3",
                                             "players": ["Anna", "Bruno", "Carla"]})
    assert game.status_code == 201, game.json
    app.extensions["segnapunti.games"].repository.engine.dispose()
    expected = {table: rows(migrated_url, table) for table in Base.metadata.tables}
    assert set(expected) >= {"games", "hands", "events", "clubs", "club_members",
                             "club_seasons", "club_results", "player_tokens", "idempotency_keys"}
    assert expected["clubs"] == 1 and expected["club_members"] == 3 and expected["games"] == 1

    copy = tmp_path / "all.backup"
    made = command(migrated_url, "backup", str(copy))
    assert made.returncode == 0, made.stderr
    assert printed_rows(made.stdout) == expected, made.stdout
    assert made.stdout.startswith("backed up 1 game, "), made.stdout

    restored = command(migrated_url, "restore", "--force", str(copy))
    assert restored.returncode == 0, restored.stderr
    assert printed_rows(restored.stdout) == expected, restored.stdout
    assert "1 club, 3 club members" in restored.stdout.splitlines()[0]
