"""club ratings: each member's rating in a family after each of their rated games
(``club_rating_steps``) and as it stands (``club_ratings``), kept as games finish and
replayed from a game on when an older result moves, so that reading the ratings is one
row per member rather than every game rated again. A club's families start empty here
and are rated whole by the next write that moves one of their results (and read from
their results until then).

Revision ID: 0016_club_ratings
Revises: 0015_board_refusals
Create Date: 2026-11-28 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016_club_ratings"
down_revision: str | None = "0015_board_refusals"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "club_rating_steps",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("member_id", sa.String(length=32), nullable=False),
        sa.Column("club_id", sa.String(length=32), nullable=False),
        sa.Column("family", sa.String(length=32), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("change", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"],
                                name=op.f("fk_club_rating_steps_club_id_clubs"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "member_id", name=op.f("pk_club_rating_steps")),
    )
    op.create_index("ix_club_rating_steps_club_id_family_finished_at_game_id",
                    "club_rating_steps", ["club_id", "family", "finished_at", "game_id"])
    op.create_index("ix_club_rating_steps_club_id_family_member_id_number",
                    "club_rating_steps", ["club_id", "family", "member_id", "number"])
    op.create_index("ix_club_rating_steps_club_id_family_number",
                    "club_rating_steps", ["club_id", "family", "number"])
    op.create_table(
        "club_ratings",
        sa.Column("club_id", sa.String(length=32), nullable=False),
        sa.Column("family", sa.String(length=32), nullable=False),
        sa.Column("member_id", sa.String(length=32), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("change", sa.Float(), nullable=False),
        sa.Column("last_game", sa.String(length=32), nullable=False),
        sa.Column("last_played", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"],
                                name=op.f("fk_club_ratings_club_id_clubs"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("club_id", "family", "member_id", name=op.f("pk_club_ratings")),
    )


def downgrade() -> None:
    op.drop_table("club_ratings")
    op.drop_index("ix_club_rating_steps_club_id_family_number", table_name="club_rating_steps")
    op.drop_index("ix_club_rating_steps_club_id_family_member_id_number",
                  table_name="club_rating_steps")
    op.drop_index("ix_club_rating_steps_club_id_family_finished_at_game_id",
                  table_name="club_rating_steps")
    op.drop_table("club_rating_steps")
