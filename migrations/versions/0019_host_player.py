"""games.host_player_id: the player whose browser created the game (or offered its rematch),
so the host's powers follow them to their other devices by their player cookie, as their
seats do, and their desk lists a game they host without a seat in it. Older games: null
(their host link alone hosts them).

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("host_player_id", sa.String(32), nullable=True))
        batch.create_foreign_key("fk_games_host_player", "players", ["host_player_id"], ["id"])
        batch.create_index("ix_games_host_player", ["host_player_id"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_host_player")
        batch.drop_constraint("fk_games_host_player", type_="foreignkey")
        batch.drop_column("host_player_id")
