"""public results: an event or a club may be published (``public``), readable then without a
token; a club may also publish its ratings (``public_ratings``); a member may be left out of
the public pages by name (``club_members.public`` false: their initials instead).

Revision ID: 0018_public_results
Revises: 0017_admin_retention
Create Date: 2026-11-28 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018_public_results"
down_revision: str | None = "0017_admin_retention"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("public", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    with op.batch_alter_table("clubs") as batch:
        batch.add_column(sa.Column("public", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("public_ratings", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    with op.batch_alter_table("club_members") as batch:
        batch.add_column(sa.Column("public", sa.Boolean(), nullable=False,
                                   server_default=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table("club_members") as batch:
        batch.drop_column("public")
    with op.batch_alter_table("clubs") as batch:
        batch.drop_column("public_ratings")
        batch.drop_column("public")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("public")
