"""event door: entrants checking in at the door, late arrivals and withdrawals. An event says
whether it takes check-ins (``checkin``), what a late arrival's missed rounds are worth
(``late_rounds``: zero or bye) and keeps the hash of its door's token; each round's table
keeps its seated entrants' player links, sealed for each entrant's own link (``sealed``).
The entrants' own state (first round, withdrawal, removal, their token's hash) lives in the
event's ``entrants`` JSON. The events made before take no check-ins.

Revision ID: 0020_event_door
Revises: 0019_event_clock_prizes
Create Date: 2026-11-28 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0020_event_door"
down_revision: str | None = "0019_event_clock_prizes"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("checkin", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("late_rounds", sa.String(8), nullable=False,
                                   server_default="zero"))
        batch.add_column(sa.Column("door_token_hash", sa.String(64), nullable=True))
        batch.create_index("ix_events_door_token_hash", ["door_token_hash"])
    with op.batch_alter_table("event_tables") as batch:
        batch.add_column(sa.Column(
            "sealed",
            sa.JSON(none_as_null=True).with_variant(postgresql.JSONB(none_as_null=True),
                                                    "postgresql"),
            nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("event_tables") as batch:
        batch.drop_column("sealed")
    with op.batch_alter_table("events") as batch:
        batch.drop_index("ix_events_door_token_hash")
        batch.drop_column("door_token_hash")
        batch.drop_column("late_rounds")
        batch.drop_column("checkin")
