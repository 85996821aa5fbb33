"""chat.line: the id the sender's page gave a chat line, so that a line sent again on the next
connection (the first dropped before the answer came) is stored once (unique per game). Older
lines: null.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("chat") as batch:
        batch.add_column(sa.Column("line", sa.String(40), nullable=True))
        batch.create_index("ux_chat_line", ["game_id", "line"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("chat") as batch:
        batch.drop_index("ux_chat_line")
        batch.drop_column("line")
