"""The SQL implementation of the application's ``RefusalRepository`` port: each duplicate
table's refused records, board by board (``board_refusals``). A refusal is one statement, an
insert that adds one to the row when it is there already (``ON CONFLICT … DO UPDATE``, which
SQLite and PostgreSQL both have): two refusals at once both count, in any process."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.dialects import postgresql, sqlite

from service.application import ports

from .base import tables
from .connections import SqlConnections, aware

_refusals, _tables = tables("board_refusals", "event_tables")


class SqlRefusalRepository:
    """Refusals, on the connections of the store (a write inside a unit of work joins it)."""

    def __init__(self, connections: SqlConnections) -> None:
        self._connect = connections.connect
        self._write = connections.write
        self._insert: Any = (postgresql.insert if connections.engine.url.get_backend_name()
                             == "postgresql" else sqlite.insert)

    def counted_refusals(self, game_id: str, board: int) -> int:
        with self._connect() as connection:
            found = connection.execute(
                select(_refusals.c.refused - _refusals.c.released)
                .where(_refusals.c.game_id == game_id, _refusals.c.board == board)).first()
        return int(found[0]) if found else 0

    def add_refusal(self, game_id: str, board: int, now: datetime) -> None:
        statement = self._insert(_refusals).values(
            game_id=game_id, board=board, refused=1, released=0, last_refused_at=now)
        statement = statement.on_conflict_do_update(
            index_elements=[_refusals.c.game_id, _refusals.c.board],
            set_={"refused": _refusals.c.refused + 1, "last_refused_at": now})
        with self._write() as connection:
            connection.execute(statement)

    def event_refusals(self, event_id: str) -> list[tuple[int, int, ports.BoardRefusals]]:
        with self._connect() as connection:
            rows = connection.execute(
                select(_tables.c.round, _tables.c.number, _refusals)
                .join(_refusals, _refusals.c.game_id == _tables.c.game_id)
                .where(_tables.c.event_id == event_id)
                .order_by(_tables.c.round, _tables.c.number, _refusals.c.board)).all()
        return [(row.round, row.number, ports.BoardRefusals(
            row.game_id, row.board, row.refused, row.released, aware(row.last_refused_at)))
            for row in rows]

    def refusals_state(self, event_id: str) -> int:
        with self._connect() as connection:
            found = connection.execute(
                select(func.coalesce(func.sum(_refusals.c.refused + _refusals.c.released), 0))
                .select_from(_tables.join(_refusals, _refusals.c.game_id == _tables.c.game_id))
                .where(_tables.c.event_id == event_id)).scalar_one()
        return int(found)

    def release_refusals(self, game_id: str, board: int) -> bool:
        with self._write() as connection:
            released = connection.execute(
                update(_refusals)
                .where(_refusals.c.game_id == game_id, _refusals.c.board == board,
                       _refusals.c.released < _refusals.c.refused)
                .values(released=_refusals.c.refused))
        return released.rowcount == 1
