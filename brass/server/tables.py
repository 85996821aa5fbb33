"""The tables (SQLAlchemy Core), one place for the schema; migrations/ change it. Each
table has one writer: storage.py (games, seats, seat_changes, analyses), chatlog.py (chat,
chat_mutes), movelog.py (actions, snapshots), leases.py (leases), analysisjobs.py
(analysis_jobs), mailstore.py (email_notices, digests_sent, game_webhooks), watching.py
(watching), nudges.py (nudges), clockwatch.py (clock_reminders), vacations.py (vacations);
the players' tables (0008, docs/PLAYERS.md) each have the one storage module that
docs/PLAYERS.md names. storage.py's bases (movelog.py, quicklobby.py, chatlog.py) are part of
its `Storage`."""

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
    LargeBinary,
    MetaData,
    SmallInteger,
    String,
    Table,
    UniqueConstraint,
    false,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.sql.elements import ColumnElement

from .vocab import GameStatus

metadata = MetaData()
DOCUMENT = JSON().with_variant(JSONB(), "postgresql")  # jsonb on Postgres

games = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("players", SmallInteger, nullable=False),
    # waiting, running, finished; or expired, cancelled (by its host while waiting, or by the
    # admin page at any time before it finished)
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
    # 0008: the seat to move (None: not running, or not known: a game from before 0008),
    # written with the turn's times; the desk sorts "your turn" first by it
    Column("to_move", SmallInteger, nullable=True),
    # 0017: who called a cancelled game off, "host" or "admin" (None: not cancelled, or
    # cancelled before 0017)
    Column("called_off_by", String(8), nullable=True),
    # 0019: the player whose browser created the game (or offered its rematch): they host it
    # on each of their devices, by their cookie (None: made before 0019, or without a player)
    Column("host_player_id", String(32), ForeignKey("players.id"), nullable=True),
    # 0020: a finished game's places by seat, the rules' (points, then income, then money:
    # the engine's ranks), written with `scores` (None: not finished, or finished before 0020)
    Column("ranks", JSON, nullable=True),
    Index("ix_games_host_player", "host_player_id"),
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
    # 0008: the player whose device took the seat (None: a seat from before players, or a bot)
    Column("player_id", String(32), ForeignKey("players.id"), nullable=True),
    Index("ix_seats_player", "player_id", "game_id"),
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
    # 0018: the id the sender's page gave the line: a line sent again (after a dropped
    # connection) is stored once (chatlog.py)
    Column("line", String(40), nullable=True),
    Index("ux_chat_line", "game_id", "line", unique=True),
)

# 0008: players and what hangs off them (docs/PLAYERS.md is the agreed model). Secrets are
# stored as hashes (auth.token_hash); a deleted account keeps its row, anonymised.
players = Table(
    "players", metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=True),  # None: a guest who never chose a name
    Column("email", String(254), nullable=True, unique=True),  # lower-cased; None: no account
    Column("email_verified_at", DateTime(timezone=True), nullable=True),
    Column("role", String(16), nullable=False, default="player"),  # player, admin
    Column("listed", Boolean, nullable=False, default=False),  # profile public
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("deleted_at", DateTime(timezone=True), nullable=True),
)

devices = Table(
    # a browser signed in as a player; the guest secret is the first device
    "devices", metadata,
    Column("id", String(32), primary_key=True),
    Column("player_id", String(32), ForeignKey("players.id", ondelete="CASCADE"),
           nullable=False),
    Column("secret_hash", String(64), nullable=False, unique=True),
    Column("label", String(120), nullable=False, default=""),  # browser and OS
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("last_used_at", DateTime(timezone=True), nullable=False),
    Index("ix_devices_player", "player_id"),
)

passkeys = Table(
    # WebAuthn credentials (py_webauthn)
    "passkeys", metadata,
    Column("credential_id", LargeBinary(1024), primary_key=True),
    Column("player_id", String(32), ForeignKey("players.id", ondelete="CASCADE"),
           nullable=False),
    Column("public_key", LargeBinary(4096), nullable=False),
    Column("sign_count", BigInteger, nullable=False, default=0),
    Column("transports", JSON, nullable=True),
    Column("name", String(80), nullable=False, default=""),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("last_used_at", DateTime(timezone=True), nullable=True),
    Index("ix_passkeys_player", "player_id"),
)

signin_links = Table(
    # a single-use, short-lived e-mail sign-in link (or `brass admin link`)
    "signin_links", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("email", String(254), nullable=True),
    Column("player_id", String(32), ForeignKey("players.id", ondelete="CASCADE"),
           nullable=True),  # None: the link makes a new account for `email`
    Column("purpose", String(16), nullable=False, default="signin"),  # signin, admin
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("used_at", DateTime(timezone=True), nullable=True),
    Index("ix_signin_links_email", "email", "created_at"),
)

ratings = Table(
    # OpenSkill (Plackett-Luce) history: a player's last row is their rating
    "ratings", metadata,
    Column("player_id", String(32), ForeignKey("players.id", ondelete="CASCADE"),
           primary_key=True),
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("ordinal", Float, nullable=False),
    Column("games", Integer, nullable=False),  # rated games counted so far, this one included
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_ratings_player_time", "player_id", "created_at"),
)

rematches = Table(
    # a rematch offered at the end of a game; the write of the last answer creates the new game
    "rematches", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("offered_by", SmallInteger, nullable=False),  # seat
    Column("answers", JSON, nullable=False),  # {"seat": true|false}
    Column("empty_seats", String(8), nullable=False, default="open"),  # open, bot
    Column("new_game_id", String(32), nullable=True),
    Column("version", Integer, nullable=False, default=0),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

server_settings = Table(
    # the host's settings kept in the database: create policy, banner, VAPID keys...
    "server_settings", metadata,
    Column("key", String(64), primary_key=True),
    Column("value", JSON, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

push_subscriptions = Table(
    # Web Push per device; a 404/410 from the push service deletes the row
    "push_subscriptions", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", String(32), ForeignKey("players.id", ondelete="CASCADE"),
           nullable=False),
    Column("device_id", String(32), ForeignKey("devices.id", ondelete="CASCADE"),
           nullable=True),
    Column("endpoint", String(1024), nullable=False, unique=True),
    Column("p256dh", String(256), nullable=False),
    Column("auth", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_push_player", "player_id"),
)

notify_prefs = Table(
    # what a player wants to be told of, and by which road (JSON of switches)
    "notify_prefs", metadata,
    Column("player_id", String(32), ForeignKey("players.id", ondelete="CASCADE"),
           primary_key=True),
    Column("prefs", JSON, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)


# 0010: whom the host muted in a game's chat: a seat, or -1 for the spectators
chat_mutes = Table(
    "chat_mutes", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", SmallInteger, primary_key=True),
    Column("by", String(8), nullable=False, server_default="host"),  # 0021: "host" or "admin"
)

# 0015 (issue 27, docs/REACH.md): e-mail notices and game webhooks; mailstore.py writes them
email_notices = Table(
    # a player's e-mail switches (off unless a row says on) and the language of their mails
    "email_notices", metadata,
    Column("player_id", String(32), ForeignKey("players.id", ondelete="CASCADE"),
           primary_key=True),
    Column("turn", Boolean, nullable=False, default=False),
    Column("digest", Boolean, nullable=False, default=False),
    Column("lang", String(8), nullable=False, default="en"),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

digests_sent = Table(
    # the day's digest claimed (one instance sends it): one row per player per UTC day
    "digests_sent", metadata,
    Column("player_id", String(32), ForeignKey("players.id", ondelete="CASCADE"),
           primary_key=True),
    Column("day", String(10), primary_key=True),  # YYYY-MM-DD, UTC
    Column("sent_at", DateTime(timezone=True), nullable=False),
)

game_webhooks = Table(
    # the incoming-webhook URL (Discord, Slack) a game's host set
    "game_webhooks", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("url", String(1024), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)


# 0013: when a seat of a game was last nudged to move (nudges.py: once per 24 h)
nudges = Table(
    "nudges", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", SmallInteger, primary_key=True),
    Column("nudged_at", DateTime(timezone=True), nullable=False),
)

# 0014: the clock reminders sent, one per turn (its start) and threshold (reminders.py)
clock_reminders = Table(
    "clock_reminders", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("turn_started_at", DateTime(timezone=True), primary_key=True),
    Column("threshold", String(16), primary_key=True),
    Column("sent_at", DateTime(timezone=True), nullable=False),
)

# 0014: the days a player is away: their correspondence clocks do not run (vacations.py)
vacations = Table(
    "vacations", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", String(32), ForeignKey("players.id", ondelete="CASCADE"),
           nullable=False),
    Column("starts_at", DateTime(timezone=True), nullable=False),
    Column("ends_at", DateTime(timezone=True), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_vacations_player", "player_id", "starts_at"),
)


# 0016: a player's socket that shows a game, by the instance holding it (watching.py), kept
# while it shows it and expiring by itself: notices of the game wait meanwhile (notices.py)
watching = Table(
    "watching", metadata,
    Column("player_id", String(32), ForeignKey("players.id", ondelete="CASCADE"),
           primary_key=True),
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("instance", String(64), primary_key=True),
    Column("until", DateTime(timezone=True), nullable=False),
    Index("ix_watching_instance", "instance"),
)


# 0022: each instance's figures for the admin page, written every few seconds by the instance
# itself and deleted when it stops (instancelist.py)
instances = Table(
    "instances", metadata,
    Column("id", String(64), primary_key=True),  # Storage.instance: host:pid:tag
    Column("figures", JSON, nullable=False),  # hostfacts.Figures
    Column("seen_at", DateTime(timezone=True), nullable=False),
)


def status_is(*statuses: GameStatus) -> ColumnElement[bool]:
    """The game's status is one of `statuses` (typed: a word outside `GameStatus` is a mypy
    error, where a plain string compared with the column would pass)."""
    column = games.c.status
    return column == statuses[0] if len(statuses) == 1 else column.in_(statuses)


def status_not(*statuses: GameStatus) -> ColumnElement[bool]:
    """The game's status is none of `statuses`."""
    column = games.c.status
    return column != statuses[0] if len(statuses) == 1 else column.not_in(statuses)

