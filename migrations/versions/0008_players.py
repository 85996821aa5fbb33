"""players: a player above seats (guest first, an optional account), their devices, passkeys,
sign-in links, ratings, rematches, the server's settings, push subscriptions and notification
preferences; seats.player_id; games.to_move (docs/PLAYERS.md is the agreed model)

Revision ID: 0008
Revises: 0004 (the chain runs 0003, 0005, 0006, 0007, 0004)
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0004"
branch_labels = None
depends_on = None

TIME = sa.DateTime(timezone=True)


def _player_fk() -> sa.ForeignKey:
    return sa.ForeignKey("players.id", ondelete="CASCADE")


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(80), nullable=True),
        sa.Column("email", sa.String(254), nullable=True, unique=True),
        sa.Column("email_verified_at", TIME, nullable=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("listed", sa.Boolean, nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("deleted_at", TIME, nullable=True),
    )
    op.create_table(
        "devices",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), _player_fk(), nullable=False),
        sa.Column("secret_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("label", sa.String(120), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("last_used_at", TIME, nullable=False),
    )
    op.create_index("ix_devices_player", "devices", ["player_id"])
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.LargeBinary(1024), primary_key=True),
        sa.Column("player_id", sa.String(32), _player_fk(), nullable=False),
        sa.Column("public_key", sa.LargeBinary(4096), nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("transports", sa.JSON, nullable=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("last_used_at", TIME, nullable=True),
    )
    op.create_index("ix_passkeys_player", "passkeys", ["player_id"])
    op.create_table(
        "signin_links",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("player_id", sa.String(32), _player_fk(), nullable=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("expires_at", TIME, nullable=False),
        sa.Column("used_at", TIME, nullable=True),
    )
    op.create_index("ix_signin_links_email", "signin_links", ["email", "created_at"])
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(32), _player_fk(), primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("ordinal", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("created_at", TIME, nullable=False),
    )
    op.create_index("ix_ratings_player_time", "ratings", ["player_id", "created_at"])
    op.create_table(
        "rematches",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("offered_by", sa.SmallInteger, nullable=False),
        sa.Column("answers", sa.JSON, nullable=False),
        sa.Column("empty_seats", sa.String(8), nullable=False),
        sa.Column("new_game_id", sa.String(32), nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", TIME, nullable=False),
    )
    op.create_table(
        "server_settings",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.JSON, nullable=False),
        sa.Column("updated_at", TIME, nullable=False),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), _player_fk(), nullable=False),
        sa.Column("device_id", sa.String(32), sa.ForeignKey("devices.id", ondelete="CASCADE"),
                  nullable=True),
        sa.Column("endpoint", sa.String(1024), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(256), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
    )
    op.create_index("ix_push_player", "push_subscriptions", ["player_id"])
    op.create_table(
        "notify_prefs",
        sa.Column("player_id", sa.String(32), _player_fk(), primary_key=True),
        sa.Column("prefs", sa.JSON, nullable=False),
        sa.Column("updated_at", TIME, nullable=False),
    )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("player_id", sa.String(32), nullable=True))
        batch.create_foreign_key("fk_seats_player", "players", ["player_id"], ["id"])
        batch.create_index("ix_seats_player", ["player_id", "game_id"])
    with op.batch_alter_table("games") as batch:  # the seat to move, for the desk
        batch.add_column(sa.Column("to_move", sa.SmallInteger, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("to_move")
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_player")
        batch.drop_constraint("fk_seats_player", type_="foreignkey")
        batch.drop_column("player_id")
    for table in ("notify_prefs", "push_subscriptions", "server_settings", "rematches",
                  "ratings", "signin_links", "passkeys", "devices", "players"):
        op.drop_table(table)
