"""analysis_jobs: the analyses under way, one per game across instances (analysisjobs.py)

Revision ID: 0009
Revises: 0004 (the head on main today: 0004 follows 0007; to be re-chained onto 0008, the
players' migration, when both are merged)
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analysis_jobs",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("moves", sa.JSON().with_variant(JSONB(), "postgresql"), nullable=False),
        sa.Column("failed", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analysis_jobs")
