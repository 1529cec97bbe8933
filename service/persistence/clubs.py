"""The SQL implementation of the application's ``ClubRepository`` port: clubs,
their members and their history, over the store's shared connections and units of work.
Every change is guarded by the club's ``version`` (compare-and-set, the first statement of
the write) and logged with it."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import (
    Connection,
    String,
    and_,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    type_coerce,
    update,
)
from sqlalchemy.exc import IntegrityError

from service.application import ports
from service.domain import ClubResult, MemberRow, Season

from .base import tables, token_opens_a_row, version_bump
from .connections import SqlConnections, action_log, aware, log_action

_clubs, _members, _actions, _keys, _results, _seasons, _games, _events = tables(
    "clubs", "club_members", "club_actions", "idempotency_keys", "club_results",
    "club_seasons", "games", "events")
_steps, _ratings = tables("club_rating_steps", "club_ratings")
_BUMP_CLUB = version_bump(_clubs, "club_id")
#: A member's rows as their statistics read them (the index of club and member counted
#: for), those written after a results version (``since``), in one statement with the
#: club's version and how many rows count for the member: the club's row joined to them, so
#: it is there (with NULLs) when no row is. The time and the facts come as the database
#: gives them (SQLite: text) and are read in ``member_results``, several times faster than
#: their types' own processing.
_MEMBER_COUNT = (
    select(func.count()).select_from(_results)
    .where(_results.c.club_id == bindparam("club"),
           _results.c.counted_for == bindparam("member"))
    .scalar_subquery())
_MEMBER_ROWS = (
    select(_clubs.c.version, _MEMBER_COUNT, _results.c.seat, _results.c.written_version,
           _results.c.game_id, _results.c.event_id, _results.c.family, _results.c.variant,
           type_coerce(_results.c.finished_at, String), _results.c.place, _results.c.shared,
           _results.c.points, _results.c.hands, _results.c.marca,
           type_coerce(_results.c.facts, String))
    .select_from(_clubs.outerjoin(_results, and_(
        _results.c.club_id == bindparam("club"),
        _results.c.counted_for == bindparam("member"),
        _results.c.written_version > bindparam("since"))))
    .where(_clubs.c.id == bindparam("club")))
#: How many rows count for a member and the newest results version that wrote one: what
#: their statistics' entity tag says of their rows.
_MEMBER_STATE = (
    select(func.count(), func.max(_results.c.written_version))
    .where(_results.c.club_id == bindparam("club"),
           _results.c.counted_for == bindparam("member")))


class SqlClubRepository:
    """Clubs, on the store's connections."""

    def __init__(self, connections: SqlConnections) -> None:
        self._connect = connections.connect
        self._write = connections.write

    # -- reads -------------------------------------------------------------------------------

    def get_club(self, club_id: str) -> ports.StoredClub | None:
        with self._connect() as connection:
            row = connection.execute(select(_clubs).where(_clubs.c.id == club_id)).first()
            if row is None:
                return None
            members = connection.execute(
                select(_members).where(_members.c.club_id == club_id)
                .order_by(_members.c.number)).all()
        return ports.StoredClub(
            id=row.id, name=row.name, edit_token_hash=row.edit_token_hash,
            read_token_hash=row.read_token_hash, created_at=aware(row.created_at),
            version=row.version, public=bool(row.public),
            public_ratings=bool(row.public_ratings),
            members=tuple(ports.StoredMember(
                id=m.id, number=m.number, name=m.name, name_key=m.name_key,
                initials=m.initials, active=bool(m.active), joined_at=aware(m.joined_at),
                merged_into=m.merged_into, forgotten=bool(m.forgotten),
                changed_version=m.changed_version, public=bool(m.public)) for m in members))

    def get_club_credentials(self, club_id: str) -> ports.ClubCredentials | None:
        with self._connect() as connection:
            found = connection.execute(
                select(_clubs.c.edit_token_hash, _clubs.c.read_token_hash, _clubs.c.version,
                       _clubs.c.results_version)
                .where(_clubs.c.id == club_id)).first()
        return ports.ClubCredentials(found[0], found[1], found[2], found[3]) if found else None

    def club_token_exists(self, token_hash: str) -> bool:
        with self._connect() as connection:
            return token_opens_a_row(connection, _clubs, token_hash)

    def club_history(self, club_id: str) -> list[ports.EventAction]:
        return action_log(self._connect, _actions, "club", club_id)

    def public_club_state(self, club_id: str) -> tuple[int, int, bool, str] | None:
        with self._connect() as connection:
            found = connection.execute(
                select(_clubs.c.version, _clubs.c.results_version, _clubs.c.public_ratings)
                .where(_clubs.c.id == club_id, _clubs.c.public.is_(True))).first()
            if found is None:
                return None
            events = connection.execute(
                select(_events.c.id, _events.c.version)
                .where(_events.c.club_id == club_id, _events.c.public.is_(True))
                .order_by(_events.c.id)).all()
        fingerprint = ",".join(f"{e.id}.{e.version}" for e in events)
        return int(found[0]), int(found[1]), bool(found[2]), fingerprint

    def public_events_of(self, club_id: str) -> list[tuple[str, str, datetime]]:
        with self._connect() as connection:
            rows = connection.execute(
                select(_events.c.id, _events.c.name, _events.c.created_at)
                .where(_events.c.club_id == club_id, _events.c.public.is_(True))
                .order_by(_events.c.created_at.desc(), _events.c.id)).all()
        return [(r.id, r.name, aware(r.created_at)) for r in rows]

    def publish_club(self, club_id: str, *, expected_version: int, public: bool,
                     public_ratings: bool, data: dict[str, Any], now: datetime) -> None:
        with self._write() as connection:
            self._bump(connection, club_id, expected_version)
            connection.execute(update(_clubs).where(_clubs.c.id == club_id)
                               .values(public=public, public_ratings=public_ratings))
            self._act(connection, club_id, expected_version + 1, "publish", data, now)

    def club_results(self, club_id: str) -> list[ClubResult]:
        with self._connect() as connection:
            rows = connection.execute(
                select(_results).where(_results.c.club_id == club_id)
                .order_by(_results.c.finished_at, _results.c.game_id, _results.c.seat)).all()
        return [_result(r) for r in rows]

    # -- the ratings as kept --------------------------------------------------------------------

    def rated_at(self, game_id: str) -> tuple[str, datetime] | None:
        with self._connect() as connection:
            found = connection.execute(select(_steps.c.family, _steps.c.finished_at).where(
                _steps.c.game_id == game_id).limit(1)).first()
        return (found[0], aware(found[1])) if found else None

    def first_seats(self, club_id: str, member_id: str) -> dict[str, ports.RatingOrder]:
        with self._connect() as connection:
            rows = connection.execute(
                select(_results.c.family, _results.c.finished_at, _results.c.game_id)
                .where(_results.c.club_id == club_id, _results.c.member_id == member_id)
                .order_by(_results.c.finished_at, _results.c.game_id)).all()
        out: dict[str, ports.RatingOrder] = {}
        for family, finished, game in rows:
            out.setdefault(family, (aware(finished), game))
        return out

    def family_results(self, club_id: str, family: str,
                       since: ports.RatingOrder | None) -> list[ClubResult]:
        query = (select(_results).where(_results.c.club_id == club_id,
                                        _results.c.family == family)
                 .order_by(_results.c.finished_at, _results.c.game_id, _results.c.seat))
        if since is not None:
            query = query.where(_from(_results, since))
        with self._connect() as connection:
            return [_result(r) for r in connection.execute(query).all()]

    def drop_rating_steps(self, club_id: str, family: str,
                          since: ports.RatingOrder) -> set[str]:
        where = (_steps.c.club_id == club_id, _steps.c.family == family, _from(_steps, since))
        with self._write() as connection:
            members = set(connection.execute(
                select(_steps.c.member_id).where(*where).distinct()).scalars())
            if members:
                connection.execute(delete(_steps).where(*where))
        return members

    def rated_games(self, club_id: str, family: str) -> int:
        with self._connect() as connection:
            rated = connection.execute(select(func.max(_steps.c.number)).where(
                _steps.c.club_id == club_id, _steps.c.family == family)).scalar()
        return int(rated or 0)

    def last_rating_steps(self, club_id: str, family: str, members: Collection[str],
                          stale: Collection[str] = ()) -> dict[str, ports.RatingStep]:
        kept = sorted(set(members) - set(stale))
        out: dict[str, ports.RatingStep] = {}
        with self._connect() as connection:
            if kept:
                rows = connection.execute(select(_ratings).where(
                    _ratings.c.club_id == club_id, _ratings.c.family == family,
                    _ratings.c.member_id.in_(kept))).all()
                out.update((r.member_id, ports.RatingStep(
                    r.last_game, r.member_id, aware(r.last_played), 0, r.games, r.mu,
                    r.sigma, r.change)) for r in rows)
            if stale:
                last = (select(_steps.c.member_id, func.max(_steps.c.number).label("number"))
                        .where(_steps.c.club_id == club_id, _steps.c.family == family,
                               _steps.c.member_id.in_(sorted(stale)))
                        .group_by(_steps.c.member_id).subquery())
                rows = connection.execute(select(_steps).join(last, and_(
                    _steps.c.member_id == last.c.member_id, _steps.c.number == last.c.number))
                    .where(_steps.c.club_id == club_id, _steps.c.family == family)).all()
                out.update((r.member_id, _step(r)) for r in rows)
        return out

    def keep_rating_steps(self, club_id: str, family: str, steps: list[ports.RatingStep],
                          current: Collection[ports.RatingStep],
                          gone: Collection[str]) -> None:
        moved = sorted({s.member for s in current} | set(gone))
        with self._write() as connection:
            if steps:
                connection.execute(insert(_steps), [{
                    "game_id": s.game, "member_id": s.member, "club_id": club_id,
                    "family": family, "finished_at": s.finished_at, "number": s.number,
                    "games": s.games, "mu": s.mu, "sigma": s.sigma, "change": s.change}
                    for s in steps])
            if moved:
                connection.execute(delete(_ratings).where(
                    _ratings.c.club_id == club_id, _ratings.c.family == family,
                    _ratings.c.member_id.in_(moved)))
            if current:
                connection.execute(insert(_ratings), [{
                    "club_id": club_id, "family": family, "member_id": s.member,
                    "games": s.games, "mu": s.mu, "sigma": s.sigma, "change": s.change,
                    "last_game": s.game, "last_played": s.finished_at} for s in current])

    def kept_ratings(self, club_id: str, family: str) -> tuple[int, list[ports.RatingStep]]:
        rated = (select(func.max(_steps.c.number))
                 .where(_steps.c.club_id == club_id, _steps.c.family == family)
                 .scalar_subquery())
        with self._connect() as connection:
            rows = connection.execute(
                select(rated, _ratings.c.member_id, _ratings.c.games, _ratings.c.mu,
                       _ratings.c.sigma, _ratings.c.change, _ratings.c.last_game,
                       type_coerce(_ratings.c.last_played, String))
                .select_from(_clubs.outerjoin(_ratings, and_(
                    _ratings.c.club_id == club_id, _ratings.c.family == family)))
                .where(_clubs.c.id == club_id)).all()
        return int(rows[0][0] or 0) if rows else 0, [
            ports.RatingStep(game, member, _moment(played), 0, games, mu, sigma, change)
            for _, member, games, mu, sigma, change, game, played in rows
            if member is not None]

    def member_rating_steps(self, club_id: str, family: str,
                            member_id: str) -> list[ports.RatingStep]:
        with self._connect() as connection:
            rows = connection.execute(select(_steps).where(
                _steps.c.club_id == club_id, _steps.c.family == family,
                _steps.c.member_id == member_id).order_by(_steps.c.number)).all()
        return [_step(r) for r in rows]

    def member_results(self, club_id: str, member_id: str,
                       since: int = -1) -> ports.MemberRows:
        with self._connect() as connection:
            found = connection.execute(_MEMBER_ROWS, {
                "club": club_id, "member": member_id, "since": since}).all()
        if not found:
            return ports.MemberRows(0, 0, ())
        return ports.MemberRows(found[0][0], found[0][1], tuple(
            (seat, written, MemberRow(
                game, event, family, variant, _moment(finished), place, shared, points, hands,
                int(marca) if marca is not None else None, _json(facts)))
            for (_, _, seat, written, game, event, family, variant, finished, place, shared,
                 points, hands, marca, facts) in found if game is not None))

    def member_rows_state(self, club_id: str, member_id: str) -> tuple[int, int]:
        with self._connect() as connection:
            found = connection.execute(_MEMBER_STATE, {"club": club_id, "member": member_id}
                                       ).one()
        return int(found[0]), int(found[1] or 0)

    def evening_ends(self, club_id: str, events: Collection[str]) -> dict[str, datetime]:
        if not events:
            return {}
        with self._connect() as connection:
            rows = connection.execute(
                select(_results.c.event_id, func.max(_results.c.finished_at))
                .where(_results.c.event_id.in_(sorted(events)),
                       _results.c.club_id == club_id)
                .group_by(_results.c.event_id)).all()
        return {event: aware(end) for event, end in rows}

    def club_games(self, club_id: str) -> list[ports.ClubGame]:
        with self._connect() as connection:
            rows = connection.execute(
                select(_games.c.id, _games.c.variant, _games.c.players, _games.c.seat_members,
                       _games.c.created_at, _games.c.event_id, _games.c.event_round,
                       _games.c.event_table, _games.c.ended_at)
                .where(_games.c.club_id == club_id)
                .order_by(_games.c.created_at, _games.c.id)).all()
        return [ports.ClubGame(
            id=r.id, variant=r.variant, players=tuple(r.players),
            seat_members=tuple(r.seat_members or ()), created_at=aware(r.created_at),
            event=(r.event_id, r.event_round, r.event_table) if r.event_id else None,
            ended_at=aware(r.ended_at) if r.ended_at is not None else None) for r in rows]

    def shared_game(self, club_id: str, member: str, other: str) -> str | None:
        with self._connect() as connection:
            games = connection.execute(
                select(_games.c.id, _games.c.seat_members)
                .where(_games.c.club_id == club_id).order_by(_games.c.created_at)).all()
        return next((g.id for g in games
                     if member in (g.seat_members or ()) and other in (g.seat_members or ())),
                    None)

    def member_states(self, club_id: str) -> dict[str, str | None]:
        with self._connect() as connection:
            rows = connection.execute(
                select(_members.c.id, _members.c.merged_into)
                .where(_members.c.club_id == club_id)).all()
        return {r.id: r.merged_into or r.id for r in rows}

    def seasons(self, club_id: str) -> list[ports.StoredSeason]:
        with self._connect() as connection:
            rows = connection.execute(
                select(_seasons).where(_seasons.c.club_id == club_id)
                .order_by(_seasons.c.created_at, _seasons.c.id)).all()
        return [ports.StoredSeason(r.id, Season(
            r.name, r.date_from, r.date_to, tuple(r.families), r.counting, r.best_n),
            aware(r.created_at)) for r in rows]

    # -- writes ------------------------------------------------------------------------------

    def replace_results(self, club_id: str, game_id: str,
                        rows: tuple[ClubResult, ...]) -> None:
        with self._write() as connection:
            gone = connection.execute(delete(_results).where(_results.c.game_id == game_id))
            if not rows and not gone.rowcount:
                return
            written = self._results_moved(connection, club_id)
            if rows:
                connection.execute(insert(_results), [{
                    "game_id": r.game, "seat": r.seat, "club_id": club_id,
                    "member_id": r.member, "counted_for": r.counted_for,
                    "event_id": r.event, "event_round": r.round, "event_table": r.table,
                    "family": r.family, "variant": r.variant, "finished_at": r.finished_at,
                    "column": str(r.column), "place": r.place, "shared": r.shared,
                    "partners": list(r.partners), "opponents": list(r.opponents),
                    "totals": list(r.totals), "points": r.points, "hands": r.hands,
                    "marca": str(r.marca) if r.marca is not None else None,
                    "state": r.state,
                    "facts": dict(r.facts) if r.facts is not None else None,
                    "written_version": written} for r in rows])

    def fill_facts(self, game_id: str, facts: Mapping[int, Mapping[str, Any]]) -> None:
        with self._write() as connection:
            for seat, found in sorted(facts.items()):
                connection.execute(update(_results).where(
                    _results.c.game_id == game_id, _results.c.seat == seat,
                    _results.c.facts.is_(None)).values(facts=dict(found)))

    def recount_member(self, club_id: str, member_id: str, counted_for: str) -> None:
        with self._write() as connection:
            connection.execute(update(_results).where(
                _results.c.club_id == club_id, _results.c.member_id == member_id)
                .values(counted_for=counted_for))
            self._results_moved(connection, club_id)

    def club_entrants(self, club_id: str) -> list[tuple[str, tuple[dict[str, Any], ...]]]:
        with self._connect() as connection:
            events = connection.execute(
                select(_events.c.id, _events.c.entrants).where(_events.c.club_id == club_id)
                .order_by(_events.c.created_at, _events.c.id)).all()
        return [(e.id, tuple(dict(entrant) for entrant in e.entrants)) for e in events]

    def store_names(self, players: Mapping[str, tuple[str, ...]],
                    entrants: Mapping[str, tuple[dict[str, Any], ...]]) -> None:
        with self._write() as connection:
            for game_id, names in players.items():
                connection.execute(update(_games).where(_games.c.id == game_id).values(
                    players=list(names), version=_games.c.version + 1))
            for event_id, found in entrants.items():
                connection.execute(update(_events).where(_events.c.id == event_id).values(
                    entrants=[dict(e) for e in found], version=_events.c.version + 1))

    def lock_club(self, club_id: str) -> None:
        """Hold the club until the unit of work ends: its row locked (``FOR UPDATE`` on
        PostgreSQL), or on SQLite the writer gate taken (one writer at a time) before
        anything is read, so the unit's reads see every change committed before it."""
        with self._write() as connection:
            connection.execute(select(_clubs.c.id).where(_clubs.c.id == club_id)
                               .with_for_update())

    def withdraw_replays(self, club_id: str, member_id: str) -> int:
        """The kept first responses that name a member withdrawn: their sealed bodies
        dropped (the fingerprint kept, so a retry is told, and another request with the key
        is still a reuse). They are those of the member (added, merged, unmerged), and those
        made in or about a game of the club they sit in or an event of the club they
        entered (its creation, its hands, its rounds)."""
        with self._write() as connection:
            games = connection.execute(
                select(_games.c.id, _games.c.seat_members).where(_games.c.club_id == club_id)
            ).all()
            events = connection.execute(
                select(_events.c.id, _events.c.entrants).where(_events.c.club_id == club_id)
            ).all()
            named = {member_id}
            named.update(g.id for g in games if member_id in (g.seat_members or ()))
            named.update(e.id for e in events if any(
                entrant.get("member") == member_id or member_id in (entrant.get("members") or ())
                for entrant in e.entrants))
            withdrawn = connection.execute(
                update(_keys).where(or_(_keys.c.scope.in_(named), _keys.c.subject.in_(named)),
                                    _keys.c.body != ports.WITHDRAWN)
                .values(body=ports.WITHDRAWN, headers={}))
            return int(withdrawn.rowcount)

    def add_season(self, club_id: str, *, expected_version: int, season: ports.StoredSeason,
                   data: dict[str, Any], now: datetime) -> None:
        with self._write() as connection:
            self._bump(connection, club_id, expected_version)
            spec = season.season
            connection.execute(insert(_seasons), {
                "club_id": club_id, "id": season.id, "name": spec.name,
                "date_from": spec.date_from, "date_to": spec.date_to,
                "families": list(spec.families), "counting": spec.counting,
                "best_n": spec.best_n, "created_at": season.created_at})
            self._act(connection, club_id, expected_version + 1, "add_season", data, now)

    def add_club(self, club: ports.StoredClub, now: datetime) -> None:
        try:
            with self._write() as connection:
                connection.execute(insert(_clubs), {
                    "id": club.id, "name": club.name,
                    "edit_token_hash": club.edit_token_hash,
                    "read_token_hash": club.read_token_hash,
                    "created_at": club.created_at, "version": club.version})
                self._act(connection, club.id, club.version, "create",
                          {"name": club.name}, now)
        except IntegrityError as error:
            raise ports.GameIdTaken(club.id) from error

    def change_members(self, club_id: str, *, expected_version: int,
                       members: tuple[ports.StoredMember, ...], action: str,
                       data: dict[str, Any], now: datetime,
                       forget: str | None = None) -> None:
        with self._write() as connection:
            self._bump(connection, club_id, expected_version)
            known = set(connection.execute(
                select(_members.c.id).where(_members.c.club_id == club_id,
                                            _members.c.id.in_([m.id for m in members])))
                .scalars())
            for member in members:
                values = {"number": member.number, "name": member.name,
                          "name_key": member.name_key, "initials": member.initials,
                          "active": member.active, "joined_at": member.joined_at,
                          "merged_into": member.merged_into, "forgotten": member.forgotten,
                          "changed_version": member.changed_version,
                          "public": member.public}
                if member.id in known:
                    connection.execute(
                        update(_members).where(_members.c.club_id == club_id,
                                               _members.c.id == member.id).values(values))
                else:
                    connection.execute(insert(_members),
                                       {"club_id": club_id, "id": member.id, **values})
            if forget is not None:
                self._scrub(connection, club_id, forget)
            self._act(connection, club_id, expected_version + 1, action, data, now)

    # -- helpers -----------------------------------------------------------------------------

    @staticmethod
    def _results_moved(connection: Connection, club_id: str) -> int:
        """The club's results one version on (the club's row locked until the write ends, so
        versions follow the order writes commit in); the new version."""
        connection.execute(update(_clubs).where(_clubs.c.id == club_id)
                           .values(results_version=_clubs.c.results_version + 1))
        version: int = connection.execute(select(_clubs.c.results_version).where(
            _clubs.c.id == club_id)).scalar_one()
        return version

    @staticmethod
    def _bump(connection: Connection, club_id: str, expected_version: int) -> None:
        bumped = connection.execute(_BUMP_CLUB, {
            "club_id": club_id, "expected": expected_version,
            "next_version": expected_version + 1})
        if bumped.rowcount != 1:
            raise ports.StaleGame(club_id)

    @staticmethod
    def _scrub(connection: Connection, club_id: str, member_id: str) -> None:
        """The forgotten member's names out of every earlier action of the club (the first
        responses kept for Idempotency-Keys that name them: ``withdraw_replays``)."""
        rows = connection.execute(
            select(_actions.c.id, _actions.c.data).where(_actions.c.club_id == club_id)).all()
        for row in rows:
            data = dict(row.data)
            if data.get("member") != member_id:
                continue
            scrubbed = {k: v for k, v in data.items()
                        if k not in {"name", "before", "after", "initials"}}
            if scrubbed != data:
                connection.execute(update(_actions).where(_actions.c.id == row.id)
                                   .values(data=scrubbed))

    @staticmethod
    def _act(connection: Connection, club_id: str, version: int, action: str,
             data: dict[str, Any], now: datetime) -> None:
        log_action(connection, _actions, "club", club_id, version, action, data, now)


def _moment(value: str | datetime) -> datetime:
    """A time as the database gives it back: SQLite's text (UTC, its offset left out),
    PostgreSQL's datetime."""
    if isinstance(value, datetime):
        return aware(value)
    return datetime.fromisoformat(value if "+" in value[19:] else f"{value}+00:00")


def _json(value: str | dict[str, Any] | None) -> dict[str, Any] | None:
    """A JSON column as the database gives it back: SQLite's text, PostgreSQL's object."""
    if value is None or isinstance(value, dict):
        return value
    found: dict[str, Any] = orjson.loads(value)
    return found


def _result(r: Any) -> ClubResult:
    """A row of ``club_results`` as the projection's value."""
    return ClubResult(
        club=r.club_id, game=r.game_id, seat=r.seat, member=r.member_id,
        counted_for=r.counted_for, event=r.event_id, round=r.event_round,
        table=r.event_table, family=r.family, variant=r.variant,
        finished_at=aware(r.finished_at), column=int(r.column), place=r.place,
        shared=r.shared, partners=tuple(r.partners), opponents=tuple(r.opponents),
        totals=tuple(r.totals), hands=r.hands,
        marca=int(r.marca) if r.marca is not None else None, state=r.state,
        facts=r.facts)


def _from(table: Any, since: ports.RatingOrder) -> Any:
    """The rows of ``table`` (its ``finished_at`` and ``game_id``) from ``since`` on, in
    finishing order."""
    moment, game = since
    # The range first, so that the index on the finishing time reads from ``since`` on.
    return and_(table.c.finished_at >= moment,
                or_(table.c.finished_at > moment, table.c.game_id >= game))


def _step(r: Any) -> ports.RatingStep:
    return ports.RatingStep(r.game_id, r.member_id, aware(r.finished_at), r.number, r.games,
                            r.mu, r.sigma, r.change)
