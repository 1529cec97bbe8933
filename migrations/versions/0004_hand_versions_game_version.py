"""hand_versions.game_version: the version of the game each change made.

Every change to a game's hands bumps the game's version by one and logs one hand version, so
"what changed since version v" is the log's entries after v. A worker whose copy of a game
is a few versions old reads those entries instead of the whole game. Existing entries are
numbered in the order they were logged: a game starts at version 1, its n-th change made
version n + 1.

Revision ID: 0004_hand_versions_game_version
Revises: 0003_idempotency_keys
Create Date: 2026-11-24 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_hand_versions_game_version"
down_revision: str | None = "0003_idempotency_keys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("hand_versions", sa.Column("game_version", sa.Integer(), nullable=True))
    op.execute(
        "UPDATE hand_versions SET game_version = numbered.game_version "
        "FROM (SELECT id, 1 + row_number() OVER (PARTITION BY game_id ORDER BY id) "
        "AS game_version FROM hand_versions) AS numbered "
        "WHERE hand_versions.id = numbered.id"
    )
    with op.batch_alter_table("hand_versions") as batch:
        batch.alter_column("game_version", existing_type=sa.Integer(), nullable=False)
    op.create_index(
        op.f("ix_hand_versions_game_id_game_version"), "hand_versions",
        ["game_id", "game_version"], unique=True,
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_hand_versions_game_id_game_version"), table_name="hand_versions")
    with op.batch_alter_table("hand_versions") as batch:
        batch.drop_column("game_version")
