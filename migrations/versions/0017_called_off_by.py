"""games.called_off_by: who called a cancelled game off, its host (while it waited) or the
server's admin (the admin page, waiting or running): the lobby says which (before, a waiting
game the admin ended read as called off by its host). Older cancelled games: null.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("called_off_by", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("called_off_by")
