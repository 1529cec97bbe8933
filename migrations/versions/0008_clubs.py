"""clubs: a club's members and its history of changes.

Revision ID: 0008_clubs
Revises: 0007_events
Create Date: 2026-11-25 22:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0008_clubs"
down_revision: str | None = "0007_events"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _json() -> sa.types.TypeEngine[object]:
    return sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("edit_token_hash", sa.String(length=64), nullable=False),
        sa.Column("read_token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_clubs")),
    )
    op.create_index(op.f("ix_clubs_edit_token_hash"), "clubs", ["edit_token_hash"])
    op.create_index(op.f("ix_clubs_read_token_hash"), "clubs", ["read_token_hash"])
    op.create_table(
        "club_members",
        sa.Column("club_id", sa.String(length=32), nullable=False),
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("name_key", sa.String(length=400), nullable=False),
        sa.Column("initials", sa.String(length=16), nullable=True),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("merged_into", sa.String(length=32), nullable=True),
        sa.Column("forgotten", sa.Boolean(), nullable=False),
        sa.Column("changed_version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"],
                                name=op.f("fk_club_members_club_id_clubs"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("club_id", "id", name=op.f("pk_club_members")),
        sa.UniqueConstraint("club_id", "name_key",
                            name=op.f("uq_club_members_club_id_name_key")),
        sa.UniqueConstraint("club_id", "number", name=op.f("uq_club_members_club_id_number")),
    )
    op.create_table(
        "club_actions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("club_id", sa.String(length=32), nullable=False),
        sa.Column("club_version", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("data", _json(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"],
                                name=op.f("fk_club_actions_club_id_clubs"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club_actions")),
        sa.UniqueConstraint("club_id", "club_version",
                            name=op.f("uq_club_actions_club_id_club_version")),
    )


def downgrade() -> None:
    op.drop_table("club_actions")
    op.drop_table("club_members")
    op.drop_index(op.f("ix_clubs_read_token_hash"), table_name="clubs")
    op.drop_index(op.f("ix_clubs_edit_token_hash"), table_name="clubs")
    op.drop_table("clubs")
