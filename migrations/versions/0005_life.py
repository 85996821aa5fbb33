"""seat life cycle: invitations, one seat per browser, turn clocks, bots standing in for players

Revision ID: 0005
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Games stored before have no invite (joined by their id, as before) and no clock.
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("settings", sa.JSON, nullable=True))
        batch.add_column(sa.Column("invite_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("turn_started_at", sa.DateTime(timezone=True),
                                   nullable=True))
    op.create_index("ix_games_deadline", "games", ["status", "deadline"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("reserve", sa.Float, nullable=True))
        batch.add_column(sa.Column("stand_in", sa.String(16), nullable=True))
        batch.add_column(sa.Column("browser_hash", sa.String(64), nullable=True))
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("stand_in", sa.String(16), nullable=True))
    op.create_table(
        "seat_changes",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("seat", sa.SmallInteger, nullable=False),
        sa.Column("change", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("seat_changes")
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("stand_in")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("browser_hash")
        batch.drop_column("stand_in")
        batch.drop_column("reserve")
    op.drop_index("ix_games_deadline", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("turn_started_at")
        batch.drop_column("deadline")
        batch.drop_column("invite_hash")
        batch.drop_column("settings")
