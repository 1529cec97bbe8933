"""idempotency subject: each kept first answer says what it is about (the game, event or
member its request made or changed), so the answers that name a member of a club can be
found, and withdrawn, when that member is forgotten.

Revision ID: 0013_idempotency_subject
Revises: 0012_member_rows_index
Create Date: 2026-11-28 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013_idempotency_subject"
down_revision: str | None = "0012_member_rows_index"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.add_column(sa.Column("subject", sa.String(32), nullable=True))
    op.create_index("ix_idempotency_keys_subject", "idempotency_keys", ["subject"])


def downgrade() -> None:
    op.drop_index("ix_idempotency_keys_subject", table_name="idempotency_keys")
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.drop_column("subject")
