"""club links: games and events of a club, its results and its seasons.

Revision ID: 0009_club_links
Revises: 0008_clubs
Create Date: 2026-11-26 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0009_club_links"
down_revision: str | None = "0008_clubs"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ACTIONS = "action IN ('create', 'correct', 'delete', 'end', 'reopen')"
_HAND_ACTIONS = "action IN ('create', 'correct', 'delete')"


def _json() -> sa.types.TypeEngine[object]:
    return sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def _nullable_json() -> sa.types.TypeEngine[object]:
    return sa.JSON(none_as_null=True).with_variant(postgresql.JSONB(none_as_null=True),
                                                   "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("club_id", sa.String(length=32), nullable=True))
        batch.add_column(sa.Column("seat_members", _nullable_json(), nullable=True))
        batch.add_column(sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True))
        batch.create_index(batch.f("ix_games_club_id"), ["club_id"])
    with op.batch_alter_table("hand_versions") as batch:
        batch.drop_constraint(op.f("ck_hand_versions_action_known"), type_="check")
        batch.create_check_constraint("action_known", _ACTIONS)
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("club_id", sa.String(length=32), nullable=True))
        batch.create_index(batch.f("ix_events_club_id"), ["club_id"])
    with op.batch_alter_table("clubs") as batch:
        batch.add_column(sa.Column("results_version", sa.Integer(), nullable=False,
                                   server_default="0"))
    op.create_table(
        "club_results",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.String(length=32), nullable=False),
        sa.Column("member_id", sa.String(length=32), nullable=False),
        sa.Column("counted_for", sa.String(length=32), nullable=False),
        sa.Column("event_id", sa.String(length=32), nullable=True),
        sa.Column("event_round", sa.Integer(), nullable=True),
        sa.Column("event_table", sa.Integer(), nullable=True),
        sa.Column("family", sa.String(length=32), nullable=False),
        sa.Column("variant", sa.String(length=64), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("column", sa.String(length=16), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("shared", sa.Integer(), nullable=False),
        sa.Column("partners", _json(), nullable=False),
        sa.Column("opponents", _json(), nullable=False),
        sa.Column("totals", _json(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("marca", sa.String(length=32), nullable=True),
        sa.Column("state", sa.String(length=8), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name=op.f("fk_club_results_game_id_games"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"],
                                name=op.f("fk_club_results_club_id_clubs"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_club_results")),
    )
    op.create_index("ix_club_results_club_id_finished_at", "club_results",
                    ["club_id", "finished_at"])
    op.create_index("ix_club_results_club_id_counted_for", "club_results",
                    ["club_id", "counted_for"])
    op.create_table(
        "club_seasons",
        sa.Column("club_id", sa.String(length=32), nullable=False),
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("date_from", sa.Date(), nullable=False),
        sa.Column("date_to", sa.Date(), nullable=False),
        sa.Column("families", _json(), nullable=False),
        sa.Column("counting", sa.String(length=16), nullable=False),
        sa.Column("best_n", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"],
                                name=op.f("fk_club_seasons_club_id_clubs"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("club_id", "id", name=op.f("pk_club_seasons")),
    )


def downgrade() -> None:
    op.drop_table("club_seasons")
    op.drop_index("ix_club_results_club_id_counted_for", table_name="club_results")
    op.drop_index("ix_club_results_club_id_finished_at", table_name="club_results")
    op.drop_table("club_results")
    with op.batch_alter_table("clubs") as batch:
        batch.drop_column("results_version")
    with op.batch_alter_table("events") as batch:
        batch.drop_index(batch.f("ix_events_club_id"))
        batch.drop_column("club_id")
    op.execute("DELETE FROM hand_versions WHERE action IN ('end', 'reopen')")
    with op.batch_alter_table("hand_versions") as batch:
        batch.drop_constraint(op.f("ck_hand_versions_action_known"), type_="check")
        batch.create_check_constraint("action_known", _HAND_ACTIONS)
    with op.batch_alter_table("games") as batch:
        batch.drop_index(batch.f("ix_games_club_id"))
        batch.drop_column("ended_at")
        batch.drop_column("seat_members")
        batch.drop_column("club_id")
