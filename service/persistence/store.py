"""The store: one database, its repositories (games, events, idempotency keys) on shared
connections, so that one unit of work's writes to any of them commit together."""

from __future__ import annotations

from contextlib import AbstractContextManager

from sqlalchemy import Engine

from .connections import SqlConnections
from .events import SqlEventRepository
from .idempotency import SqlIdempotencyRepository
from .repository import SqlGameRepository


class SqlStore:
    """The application's ``Store`` port over SQLAlchemy."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.connections = SqlConnections(engine)
        self.games = SqlGameRepository(engine, self.connections)
        self.events = SqlEventRepository(self.connections, self.games)
        self.idempotency = SqlIdempotencyRepository(self.connections)

    def atomic(self) -> AbstractContextManager[None]:
        """Open the unit of work's transaction: every repository's writes inside join it."""
        return self.connections.atomic()
