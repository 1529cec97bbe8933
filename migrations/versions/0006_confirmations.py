"""confirmations: each player's verdict on a version of a hand.

A player confirms a hand as recorded or disputes it with a reason, from their own link. Rows
are only inserted: the current verdict of a seat is its latest row for the hand's current
version, and the history keeps the rest.

Revision ID: 0006_confirmations
Revises: 0005_player_tokens
Create Date: 2026-11-25 14:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_confirmations"
down_revision: str | None = "0005_player_tokens"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "confirmations",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("hand_version", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("verdict", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("game_version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("verdict IN ('confirm', 'dispute')",
                           name=op.f("ck_confirmations_verdict_known")),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name=op.f("fk_confirmations_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_confirmations")),
    )
    op.create_index("ix_confirmations_game_id_number_hand_version", "confirmations",
                    ["game_id", "number", "hand_version"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_confirmations_game_id_number_hand_version", table_name="confirmations")
    op.drop_table("confirmations")
