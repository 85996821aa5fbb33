"""games.ranks: a finished game's places by seat as the rules give them (points, then income,
then money: the engine's ranks), written with its scores by the move that ends it, so the desk
says "place 1" of one player only when two tie on points. Older games: null (the desk then
ranks by points alone, as before).

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("ranks", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("ranks")
