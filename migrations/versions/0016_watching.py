"""watching: a player's visible socket of a game, by the instance that holds it, until a
time (notices.py holds the game's notices back while one is there, on any instance)

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "watching",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("instance", sa.String(64), primary_key=True),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_watching_instance", "watching", ["instance"])


def downgrade() -> None:
    op.drop_index("ix_watching_instance", "watching")
    op.drop_table("watching")
