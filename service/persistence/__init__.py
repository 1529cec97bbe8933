"""Persistence: SQLAlchemy models, the store and its SQL repositories, and Alembic migrations.

The only package of the service that imports SQLAlchemy or Alembic (docs/architecture.md, principle 7).
"""

from .base import Base, default_database_url, make_engine, normalise_url
from .events import SqlEventRepository
from .idempotency import SqlIdempotencyRepository
from .migrate import downgrade, upgrade
from .repository import SqlGameRepository
from .store import SqlStore

__all__ = [
    "Base",
    "SqlEventRepository",
    "SqlGameRepository",
    "SqlIdempotencyRepository",
    "SqlStore",
    "default_database_url",
    "downgrade",
    "make_engine",
    "normalise_url",
    "upgrade",
]
