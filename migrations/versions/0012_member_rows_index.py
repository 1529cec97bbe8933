"""member rows index: the index of a member's rows of the club's results carries the results
version that wrote each row (club, member counted for, written version), so a member's
statistics read only the rows written since they last read them, and count the others,
from the index alone. It replaces the index of (club, member
counted for), which its first two columns still serve.

Revision ID: 0012_member_rows_index
Revises: 0011_club_facts
Create Date: 2026-11-28 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0012_member_rows_index"
down_revision: str | None = "0011_club_facts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_club_results_club_id_counted_for_written_version", "club_results",
                    ["club_id", "counted_for", "written_version"])
    op.drop_index("ix_club_results_club_id_counted_for", table_name="club_results")


def downgrade() -> None:
    op.create_index("ix_club_results_club_id_counted_for", "club_results",
                    ["club_id", "counted_for"])
    op.drop_index("ix_club_results_club_id_counted_for_written_version",
                  table_name="club_results")
