"""event field: one duplicate field played by many clubs. An event that hosts a field, and
every event that joined it as a section, say the field's host (``field_host``: the host's
own id for the host, the host's id for a section, NULL for an event in no field); the host
keeps the hash of its join key (worked out from its edit token, as the door's is).

Revision ID: 0021_event_field
Revises: 0020_event_door
Create Date: 2026-11-28 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021_event_field"
down_revision: str | None = "0020_event_door"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("field_host", sa.String(32), nullable=True))
        batch.add_column(sa.Column("field_key_hash", sa.String(64), nullable=True))
        batch.create_index("ix_events_field_host", ["field_host"])


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_index("ix_events_field_host")
        batch.drop_column("field_key_hash")
        batch.drop_column("field_host")
