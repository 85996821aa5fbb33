"""games, seats and the action log

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("players", sa.SmallInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("setup", sa.JSON, nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("engine_version", sa.String(32), nullable=False),
        sa.Column("host_token_hash", sa.String(64), nullable=False),
        sa.Column("scores", sa.JSON, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seat", sa.SmallInteger, primary_key=True),
        sa.Column("name", sa.String(80), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("bot", sa.Boolean, nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "actions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("seat", sa.SmallInteger, nullable=False),
        sa.Column("action", sa.JSON, nullable=False),
        sa.Column("action_id", sa.String(64), nullable=False),
        sa.Column("undone", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "seq", name="uq_actions_game_seq"),
        sa.UniqueConstraint("game_id", "action_id", name="uq_actions_game_action_id"),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_index("ix_games_status", table_name="games")
    op.drop_table("games")
