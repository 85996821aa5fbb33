"""chat: each game's messages, with the number of actions played when each was sent

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("seat", sa.SmallInteger, nullable=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("text", sa.String(1200), nullable=False),
        sa.Column("actions", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("spectator", sa.Boolean, nullable=False),
    )
    op.create_index("ix_chat_game", "chat", ["game_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_chat_game", table_name="chat")
    op.drop_table("chat")
