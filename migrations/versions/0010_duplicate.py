"""duplicate: an event's deals and a round's boards, and each table's boards.

Revision ID: 0010_duplicate
Revises: 0008_clubs
Create Date: 2026-11-26 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0010_duplicate"
down_revision: str | None = "0009_club_links"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _json() -> sa.types.TypeEngine[object]:
    return sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("deals", sa.String(length=16), server_default="free",
                                   nullable=False))
        batch.add_column(sa.Column("boards_per_round", sa.Integer(), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("boards", _json(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("boards")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("boards_per_round")
        batch.drop_column("deals")
