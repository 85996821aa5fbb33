"""instances: each instance's figures for the admin page (instancelist.py), written by the
instance every few seconds and deleted when it stops; the admin page lists them all.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "instances",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("figures", sa.JSON(), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("instances")
