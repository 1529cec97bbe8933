"""admin tokens: a game's history may say that the service's administrator issued it new
tokens (hand 0, action ``new_tokens``, token kind ``admin``), as it says the scorekeeper's
"the evening is over".

Revision ID: 0014_admin_tokens
Revises: 0013_idempotency_subject
Create Date: 2026-11-28 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0014_admin_tokens"
down_revision: str | None = "0013_idempotency_subject"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ACTIONS = "action IN ('create', 'correct', 'delete', 'end', 'reopen', 'new_tokens')"
_OLD_ACTIONS = "action IN ('create', 'correct', 'delete', 'end', 'reopen')"
_KINDS = "token_kind IN ('edit', 'read', 'admin')"
_OLD_KINDS = "token_kind IN ('edit', 'read')"


def _constraints(actions: str, kinds: str) -> None:
    with op.batch_alter_table("hand_versions") as batch:
        batch.drop_constraint(op.f("ck_hand_versions_action_known"), type_="check")
        batch.drop_constraint(op.f("ck_hand_versions_token_kind_known"), type_="check")
        batch.create_check_constraint("action_known", actions)
        batch.create_check_constraint("token_kind_known", kinds)


def upgrade() -> None:
    _constraints(_ACTIONS, _KINDS)


def downgrade() -> None:
    op.execute("DELETE FROM hand_versions WHERE action = 'new_tokens'")
    _constraints(_OLD_ACTIONS, _OLD_KINDS)
