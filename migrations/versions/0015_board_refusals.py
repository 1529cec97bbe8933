"""board refusals: each duplicate table's refused records of each board, counted (and how
many the organiser released), so that probing a board's deal by refused records stops at a
limit, across restarts and processes.

Revision ID: 0015_board_refusals
Revises: 0014_admin_tokens
Create Date: 2026-11-28 12:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015_board_refusals"
down_revision: str | None = "0014_admin_tokens"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "board_refusals",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("refused", sa.Integer(), nullable=False),
        sa.Column("released", sa.Integer(), nullable=False),
        sa.Column("last_refused_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("released <= refused",
                           name=op.f("ck_board_refusals_released_counted")),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE",
                                name=op.f("fk_board_refusals_game_id_games")),
        sa.PrimaryKeyConstraint("game_id", "board", name=op.f("pk_board_refusals")),
    )


def downgrade() -> None:
    op.drop_table("board_refusals")
