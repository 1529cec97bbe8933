"""Rounds earlier releases left open with every table finished (they ended a round only when
the organiser closed it), ended by ``python -m service migrate`` once the schema is at its
head, as the write that finished the round's last table ends it now: closed when that table
finished, ``automatic`` and ``upgrade`` in the history, counted for the club (its results,
season standings, ratings). A round with a table still playing stays open; a second run ends
nothing. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from http_support import auth
from test_http_club_links import club_event, play, results
from test_http_club_seasons import open_season
from test_http_clubs import found_club
from test_http_round_end import GAMES, SIX, counted_for_the_club, event_of, game_of, history, start

from service.__main__ import migrate
from service.application.events import EventService


def left_open(app: Any, client: Any, club: dict[str, Any], players: list[str],
              hands: tuple[int, ...]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A club's one-round event whose tables played ``hands`` (3 finishes a table), stored as
    earlier releases left it: no round ended by itself."""
    event = club_event(client, club, [{"name": n} for n in players], rounds=1, seed=5).json
    games = app.extensions["segnapunti.games"]
    rounds, games.rounds = games.rounds, None
    try:
        tables = start(client, event)
        for table, count in zip(tables, hands, strict=True):
            play(client, game_of(table), count)
    finally:
        games.rounds = rounds
    return event, tables


def run_migrate(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                url: str) -> str:
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("MIGRATE_WAIT", "5")
    capsys.readouterr()
    assert migrate() == 0
    return capsys.readouterr().err


def test_migrate_ends_a_round_left_open_with_every_table_finished_and_the_club_counts_it(
        app: Any, client: Any, migrated_url: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    club = found_club(client)
    season = open_season(client, club, families=["gatti"]).json["id"]
    event, (table,) = left_open(app, client, club, SIX[:3], (3,))
    last_hand = client.get(f"{GAMES}/{table['game']}/hands/3",
                           headers=auth(table["tokens"]["read"])).json
    assert event_of(client, event)["rounds"][0]["state"] == "open"
    assert results(client, club) == []

    said = run_migrate(monkeypatch, capsys, migrated_url)

    assert "ended 1 round left open with every table finished" in said
    ended = event_of(client, event)
    assert (ended["status"], ended["rounds"][0]["state"]) == ("over", "closed")
    # Closed when its last table finished, as the write that finished it would have closed
    # it: the club counts the evening on the day it was played.
    assert datetime.fromisoformat(ended["rounds"][0]["closed_at"]) == \
        datetime.fromisoformat(last_hand["updated_at"])
    last = history(client, event)[-1]
    assert (last["action"], last["data"]) == (
        "close_round", {"round": 1, "automatic": True, "upgrade": True})
    counted_for_the_club(client, club, season, event, table)


def test_migrate_leaves_open_a_round_with_a_table_still_playing(
        app: Any, client: Any, migrated_url: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    club = found_club(client)
    playing, _ = left_open(app, client, club, SIX, (3, 2))
    finished, _ = left_open(app, client, club, [f"{n} 2" for n in SIX[:3]], (3,))
    before = history(client, playing)

    said = run_migrate(monkeypatch, capsys, migrated_url)

    assert "ended 1 round left open with every table finished" in said
    assert event_of(client, playing)["rounds"][0]["state"] == "open"
    assert history(client, playing) == before
    assert event_of(client, finished)["rounds"][0]["state"] == "closed"
    assert {r["event"] for r in results(client, club)} == {finished["id"]}


def test_migrate_run_again_ends_nothing_more(
        app: Any, client: Any, migrated_url: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    club = found_club(client)
    event, _ = left_open(app, client, club, SIX[:3], (3,))
    run_migrate(monkeypatch, capsys, migrated_url)
    first = (event_of(client, event), history(client, event), results(client, club))

    said = run_migrate(monkeypatch, capsys, migrated_url)

    assert "ended" not in said
    assert (event_of(client, event), history(client, event), results(client, club)) == first
    assert [a["action"] for a in history(client, event)].count("close_round") == 1


def test_migrate_ends_the_other_events_rounds_when_one_event_cannot_be_ended(
        app: Any, client: Any, migrated_url: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    club = found_club(client)
    broken, _ = left_open(app, client, club, SIX[:3], (3,))
    fine, _ = left_open(app, client, club, SIX[3:], (3,))
    end = EventService.end_rounds_left_open

    def end_but_fail_one(self: EventService, unit: Any, event_id: str) -> tuple[int, ...]:
        ended = end(self, unit, event_id)
        if event_id == broken["id"]:
            raise RuntimeError("a game that cannot be read")
        return ended

    monkeypatch.setattr(EventService, "end_rounds_left_open", end_but_fail_one)
    said = run_migrate(monkeypatch, capsys, migrated_url)

    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == [
        f"could not end the rounds left open of event {broken['id']}; the next run tries again"]
    assert "ended 1 round left open with every table finished" in said
    assert event_of(client, broken)["rounds"][0]["state"] == "open"  # nothing of it written
    assert "close_round" not in [a["action"] for a in history(client, broken)]
    assert event_of(client, fine)["rounds"][0]["state"] == "closed"
    assert {r["event"] for r in results(client, club)} == {fine["id"]}
