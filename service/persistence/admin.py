"""What the instance's administrator writes (``service.application.admin``): a club's, an
event's or a game's token hashes replaced, on the store's connections (inside the unit of
work's transaction: an event and all its tables' games change together, or none)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    DateTime,
    Subquery,
    Table,
    Update,
    and_,
    delete,
    func,
    insert,
    not_,
    or_,
    select,
    union_all,
    update,
)
from sqlalchemy.exc import IntegrityError

from service.application import ports
from service.application.admin import (
    ACTION,
    REVOKE_ACTION,
    REVOKED_PREFIX,
    AdminPage,
    AdminQuery,
    AdminRow,
    GameKeys,
    Holdings,
    revoked_hash,
)
from service.domain import RULES_VERSION

from .base import tables, version_bump
from .connections import SqlConnections, aware, log_action

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
                    now: datetime, door_token_hash: str | None = None,
                    entrants: Sequence[dict[str, Any]] | None = None,
                    sealed: Sequence[tuple[int, int, dict[str, Any]]] = (),
                    field_key_hash: str | None = None) -> None:
        with self._write() as connection:
            _bump(connection, _BUMP_EVENT, event_id, expected_version)
            door: dict[str, Any] = {"door_token_hash": door_token_hash,
                                    "field_key_hash": field_key_hash}
            if entrants is not None:
                door["entrants"] = list(entrants)
            connection.execute(update(_events).where(_events.c.id == event_id).values(
                edit_token_hash=edit_token_hash, read_token_hash=read_token_hash, **door))
            for round_, table, links in sealed:
                connection.execute(update(_tables).where(
                    _tables.c.event_id == event_id, _tables.c.round == round_,
                    _tables.c.number == table).values(sealed=links))
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


# -- the operator's listing -----------------------------------------------------------------

(_hands, _confirmations, _members, _seasons, _results, _steps, _ratings, _rounds,
 _refusals, _keys, _purges) = tables(
    "hands", "confirmations", "club_members", "club_seasons", "club_results",
    "club_rating_steps", "club_ratings", "event_rounds", "board_refusals", "idempotency_keys",
    "purges")
_WHEN = DateTime(timezone=True)


def _game_activity() -> Subquery:
    """Each game's latest write after its creation: a hand's version (a hand, a correction, a
    deletion, the evening's end, new tokens) or a player's verdict."""
    moments = union_all(select(_versions.c.game_id, _versions.c.created_at.label("at")),
                        select(_confirmations.c.game_id,
                               _confirmations.c.created_at.label("at"))).subquery()
    return (select(moments.c.game_id, func.max(moments.c.at).label("at"))
            .group_by(moments.c.game_id).subquery())


def _latest(created: Any, activity: Subquery) -> Any:
    return func.coalesce(activity.c.at, created, type_=_WHEN).label("last_activity")


def _games_listing() -> tuple[Any, Any]:
    activity = _game_activity()
    last = _latest(_games.c.created_at, activity)
    query = select(_games.c.id, last).select_from(
        _games.outerjoin(activity, activity.c.game_id == _games.c.id))
    return query, last


def _owned_listing(table: Any, moments: Subquery) -> tuple[Any, Any]:
    """Each row of ``table`` (events, clubs) with its last activity: the latest of the
    ``moments`` (an ``owner`` and when: ``at``) it owns, else when it was made."""
    activity = (select(moments.c.owner, func.max(moments.c.at).label("at"))
                .group_by(moments.c.owner).subquery())
    last = _latest(table.c.created_at, activity)
    query = select(table.c.id, last).select_from(
        table.outerjoin(activity, activity.c.owner == table.c.id))
    return query, last


def _events_listing() -> tuple[Any, Any]:
    games = _game_activity()
    moments = union_all(
        select(_event_actions.c.event_id.label("owner"), _event_actions.c.created_at.label("at")),
        select(_games.c.event_id.label("owner"), games.c.at).select_from(
            _games.join(games, games.c.game_id == _games.c.id)).where(
            _games.c.event_id.is_not(None))).subquery()
    return _owned_listing(_events, moments)


def _clubs_listing() -> tuple[Any, Any]:
    games = _game_activity()
    moments = union_all(
        select(_club_actions.c.club_id.label("owner"), _club_actions.c.created_at.label("at")),
        select(_games.c.club_id.label("owner"), games.c.at).select_from(
            _games.join(games, games.c.game_id == _games.c.id)).where(
            _games.c.club_id.is_not(None)),
        select(_events.c.club_id.label("owner"), _event_actions.c.created_at.label("at"))
        .select_from(_events.join(_event_actions, _event_actions.c.event_id == _events.c.id))
        .where(_events.c.club_id.is_not(None))).subquery()
    return _owned_listing(_clubs, moments)


_LISTINGS = {"games": _games_listing, "events": _events_listing, "clubs": _clubs_listing}


def _counts(connection: Connection, table: Table, column: str,
            ids: Sequence[str]) -> dict[str, int]:
    key = table.c[column]
    return {row[0]: int(row[1]) for row in connection.execute(
        select(key, func.count()).where(key.in_(ids)).group_by(key))}


def _history_moments(connection: Connection, table: Table, column: str, ids: Sequence[str],
                     action: str) -> dict[str, datetime]:
    key = table.c[column]
    return {row[0]: aware(row[1]) for row in connection.execute(
        select(key, func.max(table.c.created_at)).where(
            key.in_(ids), table.c.action == action).group_by(key))}


def _state(token_hash: str) -> str:
    return "revoked" if token_hash.startswith(REVOKED_PREFIX) else "active"


class SqlAdminListing:
    """The operator's lists of clubs, events and games, by their last activity, and what
    each holds: read on the store's connections."""

    def __init__(self, connections: SqlConnections) -> None:
        self._connect = connections.connect

    def listing(self, kind: str, query: AdminQuery) -> AdminPage:
        statement, last = _LISTINGS[kind]()
        table = {"games": _games, "events": _events, "clubs": _clubs}[kind]
        if query.inactive_before is not None:
            statement = statement.where(last < query.inactive_before)
        if query.anonymous is not None and kind != "clubs":
            free: ColumnElement[bool] = table.c.club_id.is_(None)
            if kind == "games":
                free = and_(free, _games.c.event_id.is_(None))
            statement = statement.where(free if query.anonymous else not_(free))
        counted = select(func.count()).select_from(statement.subquery())
        order = (last.asc(), table.c.id.asc()) if query.oldest_first else (
            last.desc(), table.c.id.desc())
        with self._connect() as connection:
            total = int(connection.execute(counted).scalar() or 0)
            found = connection.execute(statement.order_by(*order).limit(query.limit)
                                       .offset(query.offset)).all()
            ids = [row[0] for row in found]
            lasts = {row[0]: aware(row[1]) for row in found}
            rows = {"games": self._games, "events": self._events,
                    "clubs": self._clubs}[kind](connection, ids, lasts)
        return AdminPage(total=total, rows=tuple(rows))

    def _games(self, connection: Connection, ids: list[str],
               lasts: dict[str, datetime]) -> list[AdminRow]:
        hands = _counts(connection, _hands, "game_id", ids)
        players = {row[0]: row[1] for row in connection.execute(
            select(_players.c.game_id, func.min(_players.c.token_hash)).where(
                _players.c.game_id.in_(ids)).group_by(_players.c.game_id))}
        renewed = _history_moments(connection, _versions, "game_id", ids, ACTION)
        revoked = _history_moments(connection, _versions, "game_id", ids, REVOKE_ACTION)
        found = {row.id: row for row in connection.execute(
            select(_games.c.id, _games.c.variant, _games.c.players, _games.c.created_at,
                   _games.c.event_id, _games.c.club_id, _games.c.edit_token_hash,
                   _games.c.read_token_hash).where(_games.c.id.in_(ids)))}
        rows = []
        for game_id in ids:
            row = found[game_id]
            tokens = {"edit": _state(row.edit_token_hash), "read": _state(row.read_token_hash)}
            if game_id in players:
                tokens["players"] = _state(players[game_id])
            rows.append(AdminRow(
                id=game_id, name=" · ".join(row.players), variant=row.variant,
                created_at=aware(row.created_at), last_activity=lasts[game_id],
                size={"hands": hands.get(game_id, 0), "players": len(row.players)},
                anonymous=row.event_id is None and row.club_id is None, club=row.club_id,
                event=row.event_id, tokens=tokens, renewed_at=renewed.get(game_id),
                revoked_at=revoked.get(game_id)))
        return rows

    def _events(self, connection: Connection, ids: list[str],
                lasts: dict[str, datetime]) -> list[AdminRow]:
        tables_ = _counts(connection, _tables, "event_id", ids)
        rounds = _counts(connection, _rounds, "event_id", ids)
        hands = {row[0]: int(row[1]) for row in connection.execute(
            select(_games.c.event_id, func.count()).select_from(
                _games.join(_hands, _hands.c.game_id == _games.c.id))
            .where(_games.c.event_id.in_(ids)).group_by(_games.c.event_id))}
        renewed = _history_moments(connection, _event_actions, "event_id", ids, ACTION)
        revoked = _history_moments(connection, _event_actions, "event_id", ids, REVOKE_ACTION)
        found = {row.id: row for row in connection.execute(
            select(_events.c.id, _events.c.name, _events.c.variant, _events.c.entrants,
                   _events.c.created_at, _events.c.club_id, _events.c.edit_token_hash,
                   _events.c.read_token_hash).where(_events.c.id.in_(ids)))}
        return [AdminRow(
            id=event_id, name=row.name, variant=row.variant, created_at=aware(row.created_at),
            last_activity=lasts[event_id],
            size={"entrants": len(row.entrants), "rounds": rounds.get(event_id, 0),
                  "tables": tables_.get(event_id, 0), "hands": hands.get(event_id, 0)},
            anonymous=row.club_id is None, club=row.club_id, event=None,
            tokens={"edit": _state(row.edit_token_hash), "read": _state(row.read_token_hash)},
            renewed_at=renewed.get(event_id), revoked_at=revoked.get(event_id))
            for event_id in ids for row in (found[event_id],)]

    def _clubs(self, connection: Connection, ids: list[str],
               lasts: dict[str, datetime]) -> list[AdminRow]:
        members = _counts(connection, _members, "club_id", ids)
        games = _counts(connection, _games, "club_id", ids)
        events = _counts(connection, _events, "club_id", ids)
        seasons = _counts(connection, _seasons, "club_id", ids)
        renewed = _history_moments(connection, _club_actions, "club_id", ids, ACTION)
        revoked = _history_moments(connection, _club_actions, "club_id", ids, REVOKE_ACTION)
        found = {row.id: row for row in connection.execute(
            select(_clubs.c.id, _clubs.c.name, _clubs.c.created_at, _clubs.c.edit_token_hash,
                   _clubs.c.read_token_hash).where(_clubs.c.id.in_(ids)))}
        return [AdminRow(
            id=club_id, name=row.name, variant=None, created_at=aware(row.created_at),
            last_activity=lasts[club_id],
            size={"members": members.get(club_id, 0), "games": games.get(club_id, 0),
                  "events": events.get(club_id, 0), "seasons": seasons.get(club_id, 0)},
            anonymous=False, club=None, event=None,
            tokens={"edit": _state(row.edit_token_hash), "read": _state(row.read_token_hash)},
            renewed_at=renewed.get(club_id), revoked_at=revoked.get(club_id))
            for club_id in ids for row in (found[club_id],)]

    def anonymous_untouched(self, before: datetime) -> tuple[list[str], datetime | None]:
        """The anonymous games (no event, no club) whose last activity is before ``before``,
        and the oldest activity among them."""
        statement, last = _games_listing()
        statement = statement.where(last < before, _games.c.club_id.is_(None),
                                    _games.c.event_id.is_(None))
        with self._connect() as connection:
            found = connection.execute(statement).all()
        return ([row[0] for row in found],
                min((aware(row[1]) for row in found), default=None))


# -- deleting ------------------------------------------------------------------------------


class SqlAdminWrites:
    """Deleting, revoking and purging, in the unit of work's transaction."""

    def __init__(self, connections: SqlConnections) -> None:
        self._connect = connections.connect
        self._write = connections.write

    def holdings(self, kind: str, resource_id: str) -> Holdings | None:
        """What deleting the club, event or game takes with it; None: there is none."""
        with self._connect() as connection:
            table = {"games": _games, "events": _events, "clubs": _clubs}[kind]
            found = connection.execute(select(table).where(table.c.id == resource_id)).first()
            if found is None:
                return None
            if kind == "games":
                return Holdings(games=(resource_id,), events=(),
                                      club=found.club_id, event=found.event_id)
            if kind == "events":
                games = connection.execute(select(_tables.c.game_id).where(
                    _tables.c.event_id == resource_id)).scalars().all()
                return Holdings(games=tuple(games), events=(resource_id,),
                                      club=found.club_id, event=None)
            events = connection.execute(select(_events.c.id).where(
                _events.c.club_id == resource_id)).scalars().all()
            games = connection.execute(select(_games.c.id).where(or_(
                _games.c.club_id == resource_id, _games.c.event_id.in_(events)))).scalars().all()
            return Holdings(games=tuple(games), events=tuple(events), club=None,
                                  event=None)

    def delete(self, holdings: Holdings, club_id: str | None) -> dict[str, int]:
        """Delete the games and events of ``holdings`` and, with ``club_id``, the club and
        all it keeps; the rows removed, by table."""
        removed: dict[str, int] = {}

        def gone(table: Table, condition: Any) -> None:
            count = connection.execute(delete(table).where(condition)).rowcount
            if count:
                removed[table.name] = removed.get(table.name, 0) + count

        games, events = list(holdings.games), list(holdings.events)
        subjects = [*games, *events, *([club_id] if club_id else [])]
        with self._write() as connection:
            if club_id is not None:
                subjects += connection.execute(select(_members.c.id).where(
                    _members.c.club_id == club_id)).scalars().all()
            for chunk in _chunks(subjects):
                gone(_keys, or_(_keys.c.subject.in_(chunk), _keys.c.scope.in_(chunk)))
            if events:
                gone(_tables, _tables.c.event_id.in_(events))
                gone(_rounds, _rounds.c.event_id.in_(events))
                gone(_event_actions, _event_actions.c.event_id.in_(events))
            for chunk in _chunks(games):
                for table in (_confirmations, _versions, _hands, _players, _refusals, _results,
                              _steps):
                    gone(table, table.c.game_id.in_(chunk))
                gone(_games, _games.c.id.in_(chunk))
            if events:
                gone(_events, _events.c.id.in_(events))
            if club_id is not None:
                for table in (_results, _steps, _ratings, _seasons, _members, _club_actions):
                    gone(table, table.c.club_id == club_id)
                gone(_clubs, _clubs.c.id == club_id)
        return removed

    def revoke_game(self, game_id: str, expected_version: int, which: Sequence[str],
                    now: datetime) -> None:
        with self._write() as connection:
            _bump(connection, _BUMP_GAME, game_id, expected_version)
            _revoke_game_tokens(connection, game_id, which)
            connection.execute(insert(_versions), {
                "game_id": game_id, "game_version": expected_version + 1, "number": 0,
                "version": expected_version + 1, "action": REVOKE_ACTION, "record": None,
                "rules_version": RULES_VERSION, "token_kind": "admin", "created_at": now})

    def revoke_owner(self, kind: str, owner_id: str, expected_version: int,
                     which: Sequence[str], tables: Sequence[tuple[str, int]],
                     now: datetime) -> None:
        """A club's or an event's tokens revoked (``which``: edit, read), and with
        ``tables`` (each table's game and version) every table's game's too."""
        table, log, bump, owner = ((_clubs, _club_actions, _BUMP_CLUB, "club")
                                   if kind == "clubs" else
                                   (_events, _event_actions, _BUMP_EVENT, "event"))
        with self._write() as connection:
            _bump(connection, bump, owner_id, expected_version)
            values: dict[str, Any] = {f"{name}_token_hash": revoked_hash()
                                      for name in which if name in ("edit", "read")}
            if kind == "events" and "edit" in which:
                # The door's and the entrants' tokens are worked out from the edit token
                # (docs/events.md#the-door): they go with it.
                values["door_token_hash"] = None
                values["field_key_hash"] = None  # the field's join key goes with it too
                entrants = connection.execute(select(_events.c.entrants).where(
                    _events.c.id == owner_id)).scalar_one()
                values["entrants"] = [{k: v for k, v in e.items() if k != "token_hash"}
                                      for e in entrants]
            if values:
                connection.execute(update(table).where(table.c.id == owner_id).values(values))
            for game_id, version in tables:
                self._revoke_table(connection, game_id, version, now)
            log_action(connection, log, owner, owner_id, expected_version + 1, REVOKE_ACTION,
                       {"by": "admin", "tokens": list(which)}, now)

    def _revoke_table(self, connection: Connection, game_id: str, version: int,
                      now: datetime) -> None:
        _bump(connection, _BUMP_GAME, game_id, version)
        _revoke_game_tokens(connection, game_id, ("edit", "read", "players"))
        connection.execute(insert(_versions), {
            "game_id": game_id, "game_version": version + 1, "number": 0,
            "version": version + 1, "action": REVOKE_ACTION, "record": None,
            "rules_version": RULES_VERSION, "token_kind": "admin", "created_at": now})

    def record_purge(self, *, by: str, day: date | None, now: datetime) -> int | None:
        """A purge's row, its id; None when ``day``'s purge has already been claimed."""
        try:
            with self._write() as connection:
                key = connection.execute(insert(_purges).values(
                    by=by, day=day, started_at=now, games=0)).inserted_primary_key
                return int(key[0]) if key is not None else None
        except IntegrityError:
            return None

    def purged(self, purge_id: int, games: int, oldest: datetime | None) -> None:
        with self._write() as connection:
            connection.execute(update(_purges).where(_purges.c.id == purge_id).values(
                games=games, oldest_activity=oldest))


def _revoke_game_tokens(connection: Connection, game_id: str, which: Sequence[str]) -> None:
    values = {f"{name}_token_hash": revoked_hash() for name in which if name in ("edit", "read")}
    if values:
        connection.execute(update(_games).where(_games.c.id == game_id).values(values))
    if "players" in which:
        for seat in connection.execute(select(_players.c.seat).where(
                _players.c.game_id == game_id)).scalars().all():
            connection.execute(update(_players).where(
                _players.c.game_id == game_id, _players.c.seat == seat).values(
                token_hash=revoked_hash()))


def _chunks(ids: Sequence[str], size: int = 500) -> list[Sequence[str]]:
    return [ids[i:i + size] for i in range(0, len(ids), size)]


class SqlAdmin(SqlAdminRepository, SqlAdminListing, SqlAdminWrites):
    """Everything the administration reads and writes, on the store's connections."""
