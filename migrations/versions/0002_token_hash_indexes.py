"""Indexes on the token hashes: telling a token that opens no game (401) from the token of
another game (404) looks a token up across games.

Revision ID: 0002_token_hash_indexes
Revises: 0001_initial
Create Date: 2026-11-22 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0002_token_hash_indexes"
down_revision: str | None = "0001_initial"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(op.f("ix_games_edit_token_hash"), "games", ["edit_token_hash"])
    op.create_index(op.f("ix_games_read_token_hash"), "games", ["read_token_hash"])


def downgrade() -> None:
    op.drop_index(op.f("ix_games_read_token_hash"), table_name="games")
    op.drop_index(op.f("ix_games_edit_token_hash"), table_name="games")
