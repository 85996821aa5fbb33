"""The tables (SQLAlchemy Core), one place for the schema; migrations/ change it. Each
table has one writer: storage.py (games, seats, seat_changes, analyses), chatlog.py (chat,
chat_mutes), movelog.py (actions, snapshots), leases.py (leases), analysisjobs.py
(analysis_jobs)."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Table,
    UniqueConstraint,
    false,
)
from sqlalchemy.dialects.postgresql import JSONB

metadata = MetaData()
DOCUMENT = JSON().with_variant(JSONB(), "postgresql")  # jsonb on Postgres

games = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("players", SmallInteger, nullable=False),
    # waiting, running, finished; or expired, cancelled (never played)
    Column("status", String(16), nullable=False, index=True),
    Column("seed", BigInteger, nullable=False),
    Column("setup", JSON, nullable=True),
    Column("version", Integer, nullable=False, default=0),
    Column("engine_version", String(32), nullable=False),
    Column("host_token_hash", String(64), nullable=False),
    Column("scores", JSON, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    Column("listed", Boolean, nullable=False, default=False),  # shown in GET /api/games
    # 0005: clock and seating settings (clocks.Clock.to_json() and shared_screen), the invite
    # secret's hash (None: a game made before invitations, joined by its id), when the current
    # mover's time runs out (None: no clock, or a bot moves) and when its turn started
    Column("settings", JSON, nullable=True),
    Column("invite_hash", String(64), nullable=True),
    Column("deadline", DateTime(timezone=True), nullable=True),
    Column("turn_started_at", DateTime(timezone=True), nullable=True),
    Index("ix_games_listing", "listed", "created_at", "id"),
    Index("ix_games_listing_status", "listed", "status", "created_at", "id"),
    Index("ix_games_updated", "listed", "updated_at"),
    Index("ix_games_waiting", "status", "updated_at"),
    Index("ix_games_deadline", "status", "deadline"),
)

seats = Table(
    "seats", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", SmallInteger, primary_key=True),
    Column("name", String(80), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("bot", Boolean, nullable=False, default=False),
    Column("bot_level", String(8), nullable=True),  # a bot seat's level (brass.bots.LEVELS)
    Column("joined_at", DateTime(timezone=True), nullable=True),
    # 0005: a live clock's reserve (seconds at the start of the seat's turn); why a bot plays
    # for this player's seat (timeout, resigned, handover; None: they play); the hash of the
    # browser id that joined (one seat per browser unless the game allows a shared screen)
    Column("reserve", Float, nullable=True),
    Column("stand_in", String(16), nullable=True),
    Column("browser_hash", String(64), nullable=True),
)

actions = Table(
    "actions", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("seat", SmallInteger, nullable=False),
    Column("action", JSON, nullable=False),
    Column("action_id", String(64), nullable=False),
    Column("undone", Boolean, nullable=False, default=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("effects", DOCUMENT, nullable=True),  # public events; null for rows older than 0002
    Column("undone_at", Integer, nullable=True),  # the version of the undo that took it back
    Column("stand_in", String(16), nullable=True),  # 0005: a bot played it for the seat (why)
    UniqueConstraint("game_id", "seq", name="uq_actions_game_seq"),
    UniqueConstraint("game_id", "action_id", name="uq_actions_game_action_id"),
)

# 0005: who plays a seat changed (a time-out, a resign, a hand-over, the player taking back
# their seat): one row per such versioned write, shown in the log
seat_changes = Table(
    "seat_changes", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("version", Integer, primary_key=True),  # the version this change made
    Column("seat", SmallInteger, nullable=False),
    Column("change", String(16), nullable=False),  # timeout, resigned, handover, returned
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# 0006: a finished game's analysis by the hard bot, stored once computed
analyses = Table(
    "analyses", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("moves", DOCUMENT, nullable=False),  # brass.bots.analysis.MoveAnalysis per move
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# 0009: an analysis under way (analysisjobs.py): one per game across instances, held by the
# instance computing it until `expires_at`, with the moves judged so far
analysis_jobs = Table(
    "analysis_jobs", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("owner", String(64), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("address", String(64), nullable=False),  # the client address that started it
    Column("total", Integer, nullable=False),  # the moves to judge
    Column("moves", DOCUMENT, nullable=False),  # judged so far (MoveAnalysis each)
    Column("failed", Boolean, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

leases = Table(
    # which instance runs a game's background work (steward.py), until `expires_at`
    "leases", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("owner", String(64), nullable=False),
    Column("epoch", Integer, nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Index("ix_leases_owner", "owner"),
)

snapshots = Table(
    "snapshots", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),  # the version of the last action it includes
    Column("actions", Integer, nullable=False),  # how many (not undone) actions it includes
    Column("state", DOCUMENT, nullable=False),  # Game.to_json(): secrets included
    Column("created_at", DateTime(timezone=True), nullable=False),
)

CHAT_CHARS = 300  # a chat message's characters, at most (chat.py)

chat = Table(
    "chat", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seat", SmallInteger, nullable=True),  # null: a spectator
    Column("name", String(80), nullable=False),
    Column("text", String(CHAT_CHARS * 4), nullable=False),
    Column("actions", Integer, nullable=False),  # actions played when it was sent
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("spectator", Boolean, nullable=False),
    # 0010: the sender's client address (limits across sockets and instances: chatlog.py),
    # and deleted by the host (its text emptied; left out of the history and replays)
    Column("address", String(64), nullable=True),
    Column("deleted", Boolean, nullable=False, default=False, server_default=false()),
    Index("ix_chat_game", "game_id", "id"),
)

# 0010: whom the host muted in a game's chat: a seat, or -1 for the spectators
chat_mutes = Table(
    "chat_mutes", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", SmallInteger, primary_key=True),
)
