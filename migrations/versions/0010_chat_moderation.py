"""chat moderation: each message's client address and deleted mark; the host's mutes

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("chat") as batch:
        batch.add_column(sa.Column("address", sa.String(64), nullable=True))
        batch.add_column(sa.Column("deleted", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    op.create_table(
        "chat_mutes",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seat", sa.SmallInteger, primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("chat_mutes")
    with op.batch_alter_table("chat") as batch:
        batch.drop_column("deleted")
        batch.drop_column("address")
