"""player_tokens: one link per player, by seat.

Each player of a game gets a token of their own that reads the game as that seat; only its
hash is kept, like the edit and read tokens'. Games from before have none until their edit
token asks for them.

Revision ID: 0005_player_tokens
Revises: 0004_hand_versions_game_version
Create Date: 2026-11-25 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_player_tokens"
down_revision: str | None = "0004_hand_versions_game_version"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "player_tokens",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_player_tokens_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_player_tokens")),
    )
    op.create_index(op.f("ix_player_tokens_token_hash"), "player_tokens", ["token_hash"],
                    unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_player_tokens_token_hash"), table_name="player_tokens")
    op.drop_table("player_tokens")
