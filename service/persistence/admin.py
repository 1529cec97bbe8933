"""What the instance's administrator writes (``service.application.admin``): a club's, an
event's or a game's token hashes replaced, on the store's connections (inside the unit of
work's transaction: an event and all its tables' games change together, or none)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Connection, Update, insert, select, update

from service.application import ports
from service.application.admin import ACTION, GameKeys
from service.domain import RULES_VERSION

from .base import tables, version_bump
from .connections import SqlConnections, log_action

(_clubs, _club_actions, _events, _event_actions, _tables, _games, _players,
 _versions) = tables("clubs", "club_actions", "events", "event_actions", "event_tables", "games",
                     "player_tokens", "hand_versions")
_BUMP_CLUB = version_bump(_clubs, "row_id")
_BUMP_EVENT = version_bump(_events, "row_id")
_BUMP_GAME = version_bump(_games, "row_id")


class SqlAdminRepository:
    """The administration's writes, on the store's connections."""

    def __init__(self, connections: SqlConnections) -> None:
        self._connect = connections.connect
        self._write = connections.write

    def event_of_game(self, game_id: str) -> str | None:
        with self._connect() as connection:
            found: str | None = connection.execute(
                select(_tables.c.event_id).where(_tables.c.game_id == game_id).limit(1)
            ).scalar()
        return found

    def rekey_club(self, club_id: str, *, expected_version: int, edit_token_hash: str,
                   read_token_hash: str, data: dict[str, object], now: datetime) -> None:
        with self._write() as connection:
            _bump(connection, _BUMP_CLUB, club_id, expected_version)
            connection.execute(update(_clubs).where(_clubs.c.id == club_id).values(
                edit_token_hash=edit_token_hash, read_token_hash=read_token_hash))
            log_action(connection, _club_actions, "club", club_id, expected_version + 1,
                       ACTION, dict(data), now)

    def rekey_event(self, event_id: str, *, expected_version: int, edit_token_hash: str,
                    read_token_hash: str, tables: Sequence[GameKeys], data: dict[str, object],
                    now: datetime) -> None:
        with self._write() as connection:
            _bump(connection, _BUMP_EVENT, event_id, expected_version)
            connection.execute(update(_events).where(_events.c.id == event_id).values(
                edit_token_hash=edit_token_hash, read_token_hash=read_token_hash))
            for keys in tables:
                _rekey_game(connection, keys, now)
            log_action(connection, _event_actions, "event", event_id, expected_version + 1,
                       ACTION, dict(data), now)

    def rekey_game(self, keys: GameKeys, now: datetime) -> None:
        with self._write() as connection:
            _rekey_game(connection, keys, now)


def _bump(connection: Connection, statement: Update, row_id: str, expected: int) -> None:
    """The row's version moved on, or ``StaleGame`` when another write moved it first."""
    bumped = connection.execute(statement, {"row_id": row_id, "expected": expected,
                                            "next_version": expected + 1})
    if bumped.rowcount != 1:
        raise ports.StaleGame(row_id)


def _rekey_game(connection: Connection, keys: GameKeys, now: datetime) -> None:
    """The game's token hashes replaced, its version moved on and its history saying so
    (hand 0, the game's own line, as "the evening is over" is)."""
    _bump(connection, _BUMP_GAME, keys.game_id, keys.version)
    connection.execute(update(_games).where(_games.c.id == keys.game_id).values(
        edit_token_hash=keys.edit_token_hash, read_token_hash=keys.read_token_hash))
    for seat, token_hash in keys.player_token_hashes:
        connection.execute(update(_players).where(
            _players.c.game_id == keys.game_id, _players.c.seat == seat).values(
            token_hash=token_hash))
    connection.execute(insert(_versions), {
        "game_id": keys.game_id, "game_version": keys.version + 1, "number": 0,
        "version": keys.version + 1, "action": ACTION, "record": None,
        "rules_version": RULES_VERSION, "token_kind": "admin", "created_at": now})
