"""club facts: what a member's statistics count of a counted game's hands, kept with each
row of the club's results, and the results version that wrote the row;
an index for an event's last row (a season's evening).

Rows written before this revision have no facts (NULL) and version 0: a member's statistics
fill the facts the first time they are read (``ClubService.member_stats``,
docs/decisions.md).

Revision ID: 0011_club_facts
Revises: 0010_duplicate
Create Date: 2026-11-27 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0011_club_facts"
down_revision: str | None = "0010_duplicate"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _nullable_json() -> sa.types.TypeEngine[object]:
    return sa.JSON(none_as_null=True).with_variant(postgresql.JSONB(none_as_null=True),
                                                   "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("club_results") as batch:
        batch.add_column(sa.Column("facts", _nullable_json(), nullable=True))
        batch.add_column(sa.Column("written_version", sa.Integer(), nullable=False,
                                   server_default="0"))
    op.create_index("ix_club_results_event_id_finished_at", "club_results",
                    ["event_id", "finished_at"])


def downgrade() -> None:
    op.drop_index("ix_club_results_event_id_finished_at", table_name="club_results")
    with op.batch_alter_table("club_results") as batch:
        batch.drop_column("written_version")
        batch.drop_column("facts")
