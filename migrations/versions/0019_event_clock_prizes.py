"""event clock and prizes: an event's settings beyond its setup, as one JSON object (the round
clock: ``round_minutes``, ``auto_close``, ``grace_minutes``; the prize list and its
``currency``). NULL for the events made before: no clock, no prizes, euros.

Revision ID: 0019_event_clock_prizes
Revises: 0018_public_results
Create Date: 2026-11-28 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0019_event_clock_prizes"
down_revision: str | None = "0018_public_results"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column(
            "settings",
            sa.JSON(none_as_null=True).with_variant(postgresql.JSONB(none_as_null=True),
                                                    "postgresql"),
            nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("settings")
