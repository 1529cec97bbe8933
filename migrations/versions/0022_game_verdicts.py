"""game verdicts: how many of a game's versions were players' verdicts. An event's screens
compare their tables' games' versions less their verdicts, so a verdict, which changes
nothing an event says, no longer tells every board and spectator that the event moved.
Counted from the verdicts kept.

Revision ID: 0022_game_verdicts
Revises: 0021_event_field
Create Date: 2026-11-29 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022_game_verdicts"
down_revision: str | None = "0021_event_field"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("verdicts", sa.Integer(), nullable=False, server_default="0"))
    op.execute("UPDATE games SET verdicts = (SELECT count(*) FROM confirmations"
               " WHERE confirmations.game_id = games.id)")


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("verdicts")
