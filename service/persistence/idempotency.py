"""The SQL implementation of the application's ``IdempotencyRepository`` port: the stored
first responses of keyed requests, written in the transaction of the request's effect."""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime

from sqlalchemy import Table, delete, insert, select
from sqlalchemy.exc import IntegrityError

from service.application.ports import IdempotencyEntry, IdempotencyKeyTaken

from .base import Base
from .connections import SqlConnections, aware

_keys: Table = Base.metadata.tables["idempotency_keys"]


class SqlIdempotencyRepository:
    def __init__(self, connections: SqlConnections) -> None:
        self.connections = connections

    def find_idempotency(self, scope: str, key_hash: str) -> IdempotencyEntry | None:
        with self.connections.connect() as connection:
            row = connection.execute(
                select(_keys).where(_keys.c.scope == scope, _keys.c.key_hash == key_hash)
            ).first()
            if row is None:
                return None
            # The table's columns are the entry's fields.
            return IdempotencyEntry(**{**row._mapping, "headers": dict(row.headers),
                                       "created_at": aware(row.created_at)})

    def save_idempotency(self, entry: IdempotencyEntry) -> None:
        try:
            with self.connections.write() as connection:
                connection.execute(insert(_keys), asdict(entry))
        except IntegrityError as error:
            raise IdempotencyKeyTaken(entry.scope) from error

    def forget_idempotency(self, scope: str, key_hash: str) -> None:
        with self.connections.write() as connection:
            connection.execute(
                delete(_keys).where(_keys.c.scope == scope, _keys.c.key_hash == key_hash)
            )

    def purge_idempotency(self, before: datetime) -> int:
        # A transaction of its own, never the unit's: a purge is no part of any request.
        with self.connections.gated(), self.connections.begin() as connection:
            purged = connection.execute(delete(_keys).where(_keys.c.created_at < before))
            return int(purged.rowcount)
