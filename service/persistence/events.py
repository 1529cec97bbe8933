"""The SQL implementation of the application's ``EventRepository`` port: events,
their rounds and tables, the organiser's actions, over the same store and units of work as
the games their tables play (a round's games are stored through the games' repository, in the
same transaction). Every action is guarded by the event's ``version``
(compare-and-set, the first statement of the write) and logged with it."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import Connection, bindparam, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from service.application import ports

from .base import tables, token_opens_a_row, version_bump
from .connections import SqlConnections, action_log, aware, log_action
from .repository import SqlGameRepository

_events, _rounds, _tables, _actions, _games, _hands = tables(
    "events", "event_rounds", "event_tables", "event_actions", "games", "hands")
(_clubs,) = tables("clubs")
_BUMP_EVENT = version_bump(_events, "event_id")
# A round's tables with their games' versions and whether they were closed, in order.
_TABLES = (
    select(_tables.c.round, _tables.c.number, _tables.c.game_id, _tables.c.entrants,
           _games.c.version, _games.c.closed_at, _tables.c.sealed)
    .join(_games, _games.c.id == _tables.c.game_id)
    .where(_tables.c.event_id == bindparam("event_id"))
    .order_by(_tables.c.round, _tables.c.number)
)

#: A game's version without its verdicts: what changes a table's standing in its event. A
#: verdict changes nothing its event says, so the event's screens are not told it moved.
_PLAYED_VERSION = _games.c.version - _games.c.verdicts

#: A published event's state (``event_state``) and its club's version, in one statement built
#: once; no row for an event not published.
_PUBLIC_STATE = (
    select(_events.c.version, func.coalesce(func.sum(_PLAYED_VERSION), 0),
           func.count(_games.c.id), func.coalesce(func.max(_clubs.c.version), 0))
    .select_from(_events.outerjoin(_tables, _tables.c.event_id == _events.c.id)
                 .outerjoin(_games, _games.c.id == _tables.c.game_id)
                 .outerjoin(_clubs, _clubs.c.id == _events.c.club_id))
    .where(_events.c.id == bindparam("event_id"), _events.c.public.is_(True))
    .group_by(_events.c.version)
)


class SqlEventRepository:
    """Events, on the connections of the store they share with ``games``."""

    def __init__(self, connections: SqlConnections, games: SqlGameRepository) -> None:
        self.connections = connections
        self.games = games
        self._connect = connections.connect
        self._write = connections.write

    # -- reads -------------------------------------------------------------------------------

    def get_event(self, event_id: str) -> ports.StoredEvent | None:
        with self._connect() as connection:
            row = connection.execute(
                select(_events).where(_events.c.id == event_id)).first()
            if row is None:
                return None
            rounds = connection.execute(
                select(_rounds).where(_rounds.c.event_id == event_id)
                .order_by(_rounds.c.number)).all()
            tables = connection.execute(_TABLES, {"event_id": event_id}).all()
        by_round: dict[int, list[ports.StoredTable]] = {}
        for table in tables:
            by_round.setdefault(table.round, []).append(ports.StoredTable(
                table.number, table.game_id, tuple(table.entrants), table.version,
                table.closed_at is not None,
                dict(table.sealed) if table.sealed is not None else None))
        return ports.StoredEvent(
            id=row.id, name=row.name, variant=row.variant, options=dict(row.options),
            format=row.format, pairing=row.pairing, scoring=row.scoring, rounds=row.rounds,
            seed=row.seed, entrants=tuple(row.entrants), club=row.club_id,
            edit_token_hash=row.edit_token_hash,
            read_token_hash=row.read_token_hash, created_at=aware(row.created_at),
            version=row.version, deals=row.deals, boards_per_round=row.boards_per_round,
            public=bool(row.public),
            settings=dict(row.settings) if row.settings is not None else None,
            checkin=bool(row.checkin), late_rounds=row.late_rounds,
            door_token_hash=row.door_token_hash,
            field_host=row.field_host, field_key_hash=row.field_key_hash,
            played=tuple(ports.StoredRound(
                r.number, r.state, tuple(r.byes), aware(r.started_at),
                aware(r.closed_at) if r.closed_at is not None else None,
                tuple(by_round.get(r.number, ()))) for r in rounds))

    def get_event_credentials(self, event_id: str) -> ports.EventCredentials | None:
        with self._connect() as connection:
            found = connection.execute(
                select(_events.c.edit_token_hash, _events.c.read_token_hash, _events.c.version)
                .where(_events.c.id == event_id)).first()
        return ports.EventCredentials(found[0], found[1], found[2]) if found else None

    def event_state(self, event_id: str) -> tuple[int, int, int] | None:
        """The event's version, the sum of its tables' games' versions (verdicts left out) and
        their count: one aggregate, whatever the event's size; any change to the event or to
        a hand at any of its tables moves it (versions only grow)."""
        with self._connect() as connection:
            found = connection.execute(
                select(_events.c.version, func.coalesce(func.sum(_PLAYED_VERSION), 0),
                       func.count(_games.c.id))
                .select_from(_events.outerjoin(_tables, _tables.c.event_id == _events.c.id)
                             .outerjoin(_games, _games.c.id == _tables.c.game_id))
                .where(_events.c.id == event_id)
                .group_by(_events.c.version)).first()
        return (int(found[0]), int(found[1]), int(found[2])) if found else None

    def public_event_state(self, event_id: str) -> tuple[int, int, int, int] | None:
        with self._connect() as connection:
            found = connection.execute(_PUBLIC_STATE, {"event_id": event_id}).first()
        return (int(found[0]), int(found[1]), int(found[2]), int(found[3])) if found else None

    def field_state(self, event_id: str
                    ) -> tuple[str, tuple[tuple[str, int, int], ...]] | None:
        with self._connect() as connection:
            host = connection.execute(select(_events.c.field_host)
                                      .where(_events.c.id == event_id)).scalar()
            if host is None:
                return None
            rows = connection.execute(
                select(_events.c.id, _events.c.version,
                       func.coalesce(func.sum(_PLAYED_VERSION), 0))
                .select_from(_events.outerjoin(_tables, _tables.c.event_id == _events.c.id)
                             .outerjoin(_games, _games.c.id == _tables.c.game_id))
                .where(_events.c.field_host == host)
                .group_by(_events.c.id, _events.c.version, _events.c.created_at)
                .order_by(_events.c.created_at, _events.c.id)).all()
        return str(host), tuple((str(r[0]), int(r[1]), int(r[2])) for r in rows)

    def open_round_clock(self, event_id: str
                         ) -> tuple[dict[str, Any] | None, int, datetime] | None:
        with self._connect() as connection:
            found = connection.execute(
                select(_events.c.settings, _rounds.c.number, _rounds.c.started_at)
                .select_from(_events.join(_rounds, _rounds.c.event_id == _events.c.id))
                .where(_events.c.id == event_id, _rounds.c.state == "open")
                .order_by(_rounds.c.number.desc()).limit(1)).first()
        return (found[0], found[1], aware(found[2])) if found else None

    def round_clock(self, event_id: str, number: int
                    ) -> tuple[dict[str, Any] | None, datetime] | None:
        with self._connect() as connection:
            found = connection.execute(
                select(_events.c.settings, _rounds.c.started_at)
                .select_from(_events.join(_rounds, _rounds.c.event_id == _events.c.id))
                .where(_events.c.id == event_id, _rounds.c.number == number)).first()
        return (found[0], aware(found[1])) if found else None

    def events_with_an_open_round(self) -> list[str]:
        with self._connect() as connection:
            return list(connection.execute(
                select(_rounds.c.event_id).where(_rounds.c.state == "open").distinct()
                .order_by(_rounds.c.event_id)).scalars())

    def open_rounds_closing_by_clock(self, started_before: datetime
                                     ) -> list[tuple[str, dict[str, Any], int, datetime]]:
        with self._connect() as connection:
            found = connection.execute(
                select(_events.c.id, _events.c.settings, _rounds.c.number, _rounds.c.started_at)
                .select_from(_rounds.join(_events, _events.c.id == _rounds.c.event_id))
                .where(_rounds.c.state == "open", _rounds.c.started_at <= started_before,
                       _events.c.settings["auto_close"].as_boolean().is_(True))
                .order_by(_events.c.id, _rounds.c.number)).all()
        return [(row[0], row[1], row[2], aware(row[3])) for row in found]

    def event_token_exists(self, token_hash: str) -> bool:
        with self._connect() as connection:
            return token_opens_a_row(connection, _events, token_hash) or connection.execute(
                select(_events.c.id).where(_events.c.door_token_hash == token_hash)
                .limit(1)).first() is not None

    def event_history(self, event_id: str) -> list[ports.EventAction]:
        return action_log(self._connect, _actions, "event", event_id)

    def table_event_token(self, game_id: str, token_hash: str) -> ports.TableEventToken | None:
        with self._connect() as connection:
            found = connection.execute(
                select(_events.c.id, _events.c.edit_token_hash, _tables.c.round,
                       _tables.c.number)
                .select_from(_tables.join(_events, _events.c.id == _tables.c.event_id))
                .where(_tables.c.game_id == game_id,
                       or_(_events.c.edit_token_hash == token_hash,
                           _events.c.read_token_hash == token_hash))
                .limit(1)).first()
        if found is None:
            return None
        kind: Literal["edit", "read"] = "edit" if found[1] == token_hash else "read"
        return ports.TableEventToken(kind, found[0], found[2], found[3])

    # -- writes ------------------------------------------------------------------------------

    def record_action(self, event_id: str, *, expected_version: int, action: str,
                      data: dict[str, Any], now: datetime) -> None:
        with self._write() as connection:
            self._bump_event(connection, event_id, expected_version)
            self._act(connection, event_id, expected_version + 1, action, data, now)

    def change_event(self, event_id: str, *, expected_version: int, values: dict[str, Any],
                     action: str, data: dict[str, Any], now: datetime) -> None:
        with self._write() as connection:
            self._bump_event(connection, event_id, expected_version)
            stored = dict(values)
            if "entrants" in stored:
                stored["entrants"] = list(stored["entrants"])
            connection.execute(update(_events).where(_events.c.id == event_id)
                               .values(**stored))
            self._act(connection, event_id, expected_version + 1, action, data, now)

    def publish_event(self, event_id: str, *, expected_version: int, public: bool,
                      now: datetime) -> None:
        with self._write() as connection:
            self._bump_event(connection, event_id, expected_version)
            connection.execute(update(_events).where(_events.c.id == event_id)
                               .values(public=public))
            self._act(connection, event_id, expected_version + 1,
                      "publish" if public else "unpublish", {}, now)

    def add_event(self, event: ports.StoredEvent, now: datetime) -> None:
        try:
            with self._write() as connection:
                connection.execute(insert(_events), {
                    "id": event.id, "name": event.name, "variant": event.variant,
                    "options": event.options, "format": event.format,
                    "pairing": event.pairing, "scoring": event.scoring,
                    "rounds": event.rounds, "seed": event.seed,
                    "entrants": list(event.entrants),
                    "edit_token_hash": event.edit_token_hash,
                    "read_token_hash": event.read_token_hash,
                    "created_at": event.created_at, "version": event.version,
                    "club_id": event.club,
                    "deals": event.deals, "boards_per_round": event.boards_per_round,
                    "settings": event.settings,
                    "checkin": event.checkin, "late_rounds": event.late_rounds,
                    "door_token_hash": event.door_token_hash,
                    "field_host": event.field_host,
                    "field_key_hash": event.field_key_hash,
                })
                self._act(connection, event.id, event.version, "create", {}, now)
        except IntegrityError as error:
            raise ports.GameIdTaken(event.id) from error

    def add_round(self, event_id: str, *, expected_version: int, played: ports.StoredRound,
                  games: tuple[ports.StoredGame, ...], data: dict[str, Any], now: datetime) -> None:
        with self._write() as connection:
            self._bump_event(connection, event_id, expected_version)
            connection.execute(insert(_rounds), {
                "event_id": event_id, "number": played.number, "state": played.state,
                "byes": list(played.byes), "started_at": played.started_at,
                "closed_at": None})
        for game in games:  # the same unit of work: they commit with the round
            self.games.add_game(game)
        with self._write() as connection:
            connection.execute(insert(_tables), [
                {"event_id": event_id, "round": played.number, "number": table.number,
                 "game_id": table.game_id, "entrants": list(table.entrants),
                 "sealed": table.sealed}
                for table in played.tables])
            self._act(connection, event_id, expected_version + 1, "start_round", data, now)

    def close_round(self, event_id: str, *, expected_version: int, number: int,
                    data: dict[str, Any], now: datetime,
                    closed_at: datetime | None = None) -> None:
        at = now if closed_at is None else closed_at
        with self._write() as connection:
            self._bump_event(connection, event_id, expected_version)
            connection.execute(
                update(_rounds).where(_rounds.c.event_id == event_id,
                                      _rounds.c.number == number)
                .values(state="closed", closed_at=at))
            # Every game of the round takes no more changes, and its version moves on (its
            # readers see it closed).
            connection.execute(
                update(_games).where(_games.c.event_id == event_id,
                                     _games.c.event_round == number)
                .values(closed_at=at, version=_games.c.version + 1))
            self._act(connection, event_id, expected_version + 1, "close_round", data, now)

    def set_settings(self, event_id: str, *, expected_version: int, settings: dict[str, Any],
                     data: dict[str, Any], now: datetime, open_round: int | None) -> None:
        with self._write() as connection:
            self._bump_event(connection, event_id, expected_version)
            connection.execute(update(_events).where(_events.c.id == event_id)
                               .values(settings=settings))
            if open_round is not None:
                connection.execute(
                    update(_games).where(_games.c.event_id == event_id,
                                         _games.c.event_round == open_round)
                    .values(version=_games.c.version + 1))
            self._act(connection, event_id, expected_version + 1, "settings", data, now)

    def hold_event(self, event_id: str) -> None:
        with self._write() as connection:
            connection.execute(select(_events.c.version).where(_events.c.id == event_id)
                               .with_for_update())

    def reseat_round(self, event_id: str, *, expected_version: int, number: int,
                     tables: tuple[tuple[int, tuple[int, ...], tuple[str, ...],
                                         tuple[str | None, ...] | None], ...],
                     byes: tuple[int, ...], data: dict[str, Any], now: datetime,
                     sealed: tuple[dict[str, dict[str, str]], ...] | None = None) -> None:
        with self._write() as connection:
            self._bump_event(connection, event_id, expected_version)
            games = dict(connection.execute(
                select(_tables.c.number, _tables.c.game_id)
                .where(_tables.c.event_id == event_id, _tables.c.round == number)).all())
            if self._any_hand(connection, games.values()):
                raise ports.StaleGame(event_id)
            for table, entrants, names, members in tables:
                connection.execute(
                    update(_tables).where(_tables.c.event_id == event_id,
                                          _tables.c.round == number,
                                          _tables.c.number == table)
                    .values(entrants=list(entrants),
                            **({} if sealed is None else {"sealed": sealed[table - 1]})))
                seats = {} if members is None else {"seat_members": list(members)}
                connection.execute(
                    update(_games).where(_games.c.id == games[table])
                    .values(players=list(names), version=_games.c.version + 1, **seats))
            connection.execute(
                update(_rounds).where(_rounds.c.event_id == event_id,
                                      _rounds.c.number == number)
                .values(byes=list(byes)))
            self._act(connection, event_id, expected_version + 1, "swap", data, now)

    # -- helpers -----------------------------------------------------------------------------

    @staticmethod
    def _any_hand(connection: Connection, game_ids: Iterable[str]) -> bool:
        ids = list(game_ids)
        return bool(ids) and connection.execute(
            select(_hands.c.game_id).where(_hands.c.game_id.in_(ids)).limit(1)).first() \
            is not None

    @staticmethod
    def _bump_event(connection: Connection, event_id: str, expected: int) -> None:
        bumped = connection.execute(_BUMP_EVENT, {
            "event_id": event_id, "expected": expected, "next_version": expected + 1})
        if bumped.rowcount != 1:
            raise ports.StaleGame(event_id)

    @staticmethod
    def _act(connection: Connection, event_id: str, version: int, action: str,
             data: dict[str, Any], now: datetime) -> None:
        log_action(connection, _actions, "event", event_id, version, action, data, now)
