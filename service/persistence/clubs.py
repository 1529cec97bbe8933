"""The SQL implementation of the application's ``ClubRepository`` port (issue 29): clubs,
their members and their history, over the store's shared connections and units of work.
Every change is guarded by the club's ``version`` (compare-and-set, the first statement of
the write) and logged with it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from service.application.ports import (
    ClubCredentials,
    EventAction,
    GameIdTaken,
    StaleGame,
    StoredClub,
    StoredMember,
)

from .base import tables, version_bump
from .connections import SqlConnections, aware

_clubs, _members, _actions, _keys = tables("clubs", "club_members", "club_actions",
                                           "idempotency_keys")
_BUMP_CLUB = version_bump(_clubs, "club_id")


class SqlClubRepository:
    """Clubs, on the store's connections."""

    def __init__(self, connections: SqlConnections) -> None:
        self._connect = connections.connect
        self._write = connections.write

    # -- reads -------------------------------------------------------------------------------

    def get_club(self, club_id: str) -> StoredClub | None:
        with self._connect() as connection:
            row = connection.execute(select(_clubs).where(_clubs.c.id == club_id)).first()
            if row is None:
                return None
            members = connection.execute(
                select(_members).where(_members.c.club_id == club_id)
                .order_by(_members.c.number)).all()
        return StoredClub(
            id=row.id, name=row.name, edit_token_hash=row.edit_token_hash,
            read_token_hash=row.read_token_hash, created_at=aware(row.created_at),
            version=row.version,
            members=tuple(StoredMember(
                id=m.id, number=m.number, name=m.name, name_key=m.name_key,
                initials=m.initials, active=bool(m.active), joined_at=aware(m.joined_at),
                merged_into=m.merged_into, forgotten=bool(m.forgotten),
                changed_version=m.changed_version) for m in members))

    def get_club_credentials(self, club_id: str) -> ClubCredentials | None:
        with self._connect() as connection:
            found = connection.execute(
                select(_clubs.c.edit_token_hash, _clubs.c.read_token_hash, _clubs.c.version)
                .where(_clubs.c.id == club_id)).first()
        return ClubCredentials(found[0], found[1], found[2]) if found else None

    def club_token_exists(self, token_hash: str) -> bool:
        with self._connect() as connection:
            return connection.execute(
                select(_clubs.c.id).where(or_(_clubs.c.edit_token_hash == token_hash,
                                              _clubs.c.read_token_hash == token_hash))
                .limit(1)).first() is not None

    def club_history(self, club_id: str) -> list[EventAction]:
        with self._connect() as connection:
            rows = connection.execute(
                select(_actions).where(_actions.c.club_id == club_id)
                .order_by(_actions.c.club_version)).all()
        return [EventAction(r.club_version, r.action, dict(r.data), aware(r.created_at))
                for r in rows]

    # -- writes ------------------------------------------------------------------------------

    def add_club(self, club: StoredClub, now: datetime) -> None:
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
            raise GameIdTaken(club.id) from error

    def change_members(self, club_id: str, *, expected_version: int,
                       members: tuple[StoredMember, ...], action: str,
                       data: dict[str, Any], now: datetime,
                       forget: str | None = None) -> None:
        with self._write() as connection:
            bumped = connection.execute(_BUMP_CLUB, {
                "club_id": club_id, "expected": expected_version,
                "next_version": expected_version + 1})
            if bumped.rowcount != 1:
                raise StaleGame(club_id)
            known = set(connection.execute(
                select(_members.c.id).where(_members.c.club_id == club_id,
                                            _members.c.id.in_([m.id for m in members])))
                .scalars())
            for member in members:
                values = {"number": member.number, "name": member.name,
                          "name_key": member.name_key, "initials": member.initials,
                          "active": member.active, "joined_at": member.joined_at,
                          "merged_into": member.merged_into, "forgotten": member.forgotten,
                          "changed_version": member.changed_version}
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
    def _scrub(connection: Connection, club_id: str, member_id: str) -> None:
        """The forgotten member's names out of every earlier action of the club, and out of
        the first responses kept for its requests' Idempotency-Keys (a retry of one is then
        run again: a member added twice is the duplicate's 422)."""
        connection.execute(delete(_keys).where(_keys.c.scope == club_id))
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
        connection.execute(insert(_actions), {
            "club_id": club_id, "club_version": version, "action": action, "data": data,
            "created_at": now})
