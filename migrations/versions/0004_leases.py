"""leases: which server instance runs a game's background work (bots, clocks)

Revision ID: 0004
Revises: 0007

(Written beside 0005, 0006 and 0007 on other branches; it follows them so that the chain
stays linear: databases at 0007 have no leases table yet; the id "0004" is only a name.)
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("epoch", sa.Integer, nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_leases_owner", "leases", ["owner"])


def downgrade() -> None:
    op.drop_index("ix_leases_owner", table_name="leases")
    op.drop_table("leases")
