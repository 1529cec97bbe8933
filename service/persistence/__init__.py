"""Persistence: SQLAlchemy models, the SQL repository and Alembic migrations.

The only package of the service that imports SQLAlchemy or Alembic (ARCHITECTURE §7).
"""

from .base import Base, default_database_url, make_engine, normalise_url
from .events import SqlEventRepository
from .migrate import downgrade, upgrade
from .repository import SqlGameRepository

__all__ = [
    "Base",
    "SqlEventRepository",
    "SqlGameRepository",
    "default_database_url",
    "downgrade",
    "make_engine",
    "normalise_url",
    "upgrade",
]
