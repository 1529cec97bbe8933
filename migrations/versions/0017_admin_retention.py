"""admin and retention: a game's history may say that the service's administrator revoked
some of its tokens (hand 0, action ``revoke_tokens``, token kind ``admin``), and the purges
of anonymous games left untouched (``RETENTION_DAYS``) are kept in ``purges`` (what the
metrics count, and the daily purge's guard: one row a day, unique).

Revision ID: 0017_admin_retention
Revises: 0016_club_ratings
Create Date: 2026-11-28 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017_admin_retention"
down_revision: str | None = "0016_club_ratings"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ACTIONS = ("action IN ('create', 'correct', 'delete', 'end', 'reopen', 'new_tokens', "
            "'revoke_tokens')")
_OLD_ACTIONS = "action IN ('create', 'correct', 'delete', 'end', 'reopen', 'new_tokens')"


def _actions(actions: str) -> None:
    with op.batch_alter_table("hand_versions") as batch:
        batch.drop_constraint(op.f("ck_hand_versions_action_known"), type_="check")
        batch.create_check_constraint("action_known", actions)


def upgrade() -> None:
    _actions(_ACTIONS)
    op.create_table(
        "purges",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("day", sa.Date(), nullable=True),
        sa.Column("by", sa.String(length=16), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("games", sa.Integer(), server_default="0", nullable=False),
        sa.Column("oldest_activity", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_purges")),
        sa.UniqueConstraint("day", name=op.f("uq_purges_day")),
    )


def downgrade() -> None:
    op.drop_table("purges")
    op.execute("DELETE FROM hand_versions WHERE action = 'revoke_tokens'")
    _actions(_OLD_ACTIONS)
