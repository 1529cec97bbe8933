"""events: club nights and tournaments, their rounds, tables and the organiser's actions;
each table an ordinary game, linked to its event and closable with its round.

Revision ID: 0007_events
Revises: 0006_confirmations
Create Date: 2026-11-25 15:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0007_events"
down_revision: str | None = "0006_confirmations"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _json() -> sa.types.TypeEngine[object]:
    return sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("variant", sa.String(length=64), nullable=False),
        sa.Column("options", _json(), nullable=False),
        sa.Column("format", sa.String(length=16), nullable=False),
        sa.Column("pairing", sa.String(length=16), nullable=True),
        sa.Column("scoring", sa.String(length=16), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("entrants", _json(), nullable=False),
        sa.Column("edit_token_hash", sa.String(length=64), nullable=False),
        sa.Column("read_token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_events")),
    )
    op.create_index(op.f("ix_events_edit_token_hash"), "events", ["edit_token_hash"])
    op.create_index(op.f("ix_events_read_token_hash"), "events", ["read_token_hash"])
    op.create_table(
        "event_rounds",
        sa.Column("event_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=8), nullable=False),
        sa.Column("byes", _json(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("state IN ('open', 'closed')",
                           name=op.f("ck_event_rounds_state_known")),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"],
                                name=op.f("fk_event_rounds_event_id_events"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("event_id", "number", name=op.f("pk_event_rounds")),
    )
    op.create_table(
        "event_tables",
        sa.Column("event_id", sa.String(length=32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("entrants", _json(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"],
                                name=op.f("fk_event_tables_event_id_events"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name=op.f("fk_event_tables_game_id_games")),
        sa.PrimaryKeyConstraint("event_id", "round", "number", name=op.f("pk_event_tables")),
        sa.UniqueConstraint("game_id", name=op.f("uq_event_tables_game_id")),
    )
    op.create_table(
        "event_actions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("event_id", sa.String(length=32), nullable=False),
        sa.Column("event_version", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("data", _json(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"],
                                name=op.f("fk_event_actions_event_id_events"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_event_actions")),
        sa.UniqueConstraint("event_id", "event_version",
                            name=op.f("uq_event_actions_event_id_event_version")),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("event_id", sa.String(length=32), nullable=True))
        batch.add_column(sa.Column("event_round", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("event_table", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True))
        batch.create_index(batch.f("ix_games_event_id"), ["event_id"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index(batch.f("ix_games_event_id"))
        batch.drop_column("closed_at")
        batch.drop_column("event_table")
        batch.drop_column("event_round")
        batch.drop_column("event_id")
    op.drop_table("event_actions")
    op.drop_table("event_tables")
    op.drop_table("event_rounds")
    op.drop_index(op.f("ix_events_read_token_hash"), table_name="events")
    op.drop_index(op.f("ix_events_edit_token_hash"), table_name="events")
    op.drop_table("events")
