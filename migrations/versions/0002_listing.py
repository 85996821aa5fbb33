"""the public listing: a `listed` flag and indexes for paging and filters in SQL

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Games stored before this migration were all listed: they stay so.
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("listed", sa.Boolean, nullable=False,
                                   server_default=sa.true()))
    with op.batch_alter_table("games") as batch:
        batch.alter_column("listed", server_default=None)
    op.create_index("ix_games_listing", "games", ["listed", "created_at", "id"])
    op.create_index("ix_games_listing_status", "games", ["listed", "status", "created_at", "id"])
    op.create_index("ix_games_updated", "games", ["listed", "updated_at"])
    op.create_index("ix_games_waiting", "games", ["status", "updated_at"])


def downgrade() -> None:
    for name in ("ix_games_waiting", "ix_games_updated", "ix_games_listing_status",
                 "ix_games_listing"):
        op.drop_index(name, table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("listed")
