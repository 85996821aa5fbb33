"""chat_mutes.by: who muted the seat (or the spectators), "host" or "admin". A game's host may
lift only a mute of their own: a mute by the server's admin stays until the admin lifts it
(the player it silences often hosts their own game). Older mutes: the host's.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("chat_mutes") as batch:
        batch.add_column(sa.Column("by", sa.String(8), nullable=False, server_default="host"))


def downgrade() -> None:
    with op.batch_alter_table("chat_mutes") as batch:
        batch.drop_column("by")
