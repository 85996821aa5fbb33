"""e-mail notices (a player's switches, the daily digest's claims) and game webhooks

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "email_notices",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("turn", sa.Boolean, nullable=False),
        sa.Column("digest", sa.Boolean, nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "digests_sent",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "game_webhooks",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("url", sa.String(1024), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("game_webhooks")
    op.drop_table("digests_sent")
    op.drop_table("email_notices")
