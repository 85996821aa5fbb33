"""The lobby's two common writes on Postgres as plans for movewrite.py to run on the event
loop: creating a game (one statement) and taking a seat (the game's lock and one statement,
in one transaction, sent with its commit in one round trip). Through SQLAlchemy in a database
thread they cost most of the server's CPU to open a game (the thread hop and the layers above
psycopg, not Postgres): bench/server.py, "CPU to open a game".

Each plan is the same write as `Storage.create_game` / `Storage.claim_seat` (which SQLite,
and every case a plan leaves out, still use), and keeps their order of locks: the game's row
first, so that of two instances claiming the last two seats the second sees the first's
seat. A seat claim reads the seats only after that lock, in a statement of its own (a
statement sees the database as it was when it began)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from brass.engine import Game

from . import jsontext
from .notice import Notice, channel
from .records import BrowserSeated, Claimed, GameRecord, _game_record, _utc, now
from .storebase import StoreBase
from .tables import games, seats
from .timing import _timed

_GAME_COLUMNS = ", ".join(c.name for c in games.c)
_SEAT_COLUMNS = ", ".join(c.name for c in seats.c)

_CREATE = (
    "WITH g AS (INSERT INTO games (id, name, players, status, seed, setup, version, "
    "engine_version, host_token_hash, created_at, updated_at, listed, settings, invite_hash, "
    "host_player_id) "
    "VALUES (%(id)s, %(name)s, %(players)s, %(status)s, %(seed)s, %(setup)s::json, "
    "%(version)s, %(engine_version)s, %(host)s, %(at)s, %(at)s, %(listed)s, "
    "%(settings)s::json, %(invite)s, %(host_player)s) RETURNING id) "
    "INSERT INTO seats (game_id, seat, name, token_hash, bot, reserve, bot_level) "
    "SELECT g.id, u.seat, u.name, u.token_hash, u.bot, u.reserve, u.bot_level FROM g, "
    "unnest(%(seats)s::smallint[], %(names)s::text[], %(tokens)s::text[], %(bots)s::bool[], "
    "%(reserves)s::float8[], %(levels)s::text[]) AS u(seat, name, token_hash, bot, reserve, "
    "bot_level)")

# the lock, and the game as it is (the claim's own statement reads the seats after it); it
# writes nothing, so a claim refused commits nothing
_LOCK = (f"SELECT {_GAME_COLUMNS} FROM games WHERE id = %(g)s AND status = 'waiting' "
         "FOR UPDATE")

# `free` and `clash` as the database holds them once the lock is ours; a seat is taken only
# if the game still waits (the lock found it), and if it does not leave the game full unless
# this claim starts it (`start_seat`: the one seat the claimer saw free, with the first state
# and its mover); the game's row, the started game's first snapshot and the notification in
# the same statement. Returns every seat, this one taken.
_CLAIM = (
    "WITH free AS (SELECT seat FROM seats WHERE game_id = %(g)s AND token_hash IS NULL "
    "AND NOT bot), "
    "clash AS (SELECT 1 FROM seats WHERE game_id = %(g)s AND %(one_per_browser)s "
    "AND browser_hash = %(browser)s), "
    "pick AS (SELECT min(seat) AS seat FROM free WHERE %(seat)s::smallint IS NULL "
    "OR seat = %(seat)s::smallint HAVING NOT EXISTS (SELECT 1 FROM clash) AND EXISTS "
    "(SELECT 1 FROM games WHERE id = %(g)s AND status = 'waiting') AND "
    "((SELECT count(*) FROM free) > 1 OR (SELECT min(seat) FROM free) = "
    "%(start_seat)s::smallint)), "
    "took AS (UPDATE seats SET name = coalesce(%(name)s, 'Bot ' || (pick.seat + 1)), "
    "token_hash = %(token)s, bot = %(bot)s, "
    "joined_at = %(at)s, browser_hash = %(browser)s, bot_level = %(level)s, "
    "player_id = %(player)s FROM pick WHERE seats.game_id = %(g)s AND seats.seat = pick.seat "
    f"RETURNING {', '.join(f'seats.{c.name}' for c in seats.c)}), "
    "starts AS (SELECT (SELECT count(*) FROM free) = 1 AS yes), "
    "game AS (UPDATE games SET updated_at = %(at)s, "
    "status = CASE WHEN starts.yes THEN 'running' ELSE status END, "
    "deadline = CASE WHEN starts.yes THEN NULL ELSE deadline END, "
    "turn_started_at = CASE WHEN starts.yes THEN %(at)s ELSE turn_started_at END, "
    "to_move = CASE WHEN starts.yes THEN %(mover)s::smallint ELSE to_move END "
    "FROM starts WHERE id = %(g)s AND EXISTS (SELECT 1 FROM took) RETURNING status), "
    "kept AS (INSERT INTO snapshots (game_id, seq, actions, state, created_at) "
    "SELECT %(g)s, 0, 0, %(state)s::jsonb, %(at)s FROM game WHERE status = 'running' "
    "RETURNING game_id), "
    "told AS (SELECT pg_notify(%(channel)s, %(payload)s) FROM took) "
    f"SELECT {_SEAT_COLUMNS}, (SELECT seat FROM took) AS took, "
    "(SELECT count(*) FROM kept) AS started, EXISTS (SELECT 1 FROM clash) AS clash, "
    "(SELECT count(*) FROM told) AS told "
    f"FROM (SELECT {_SEAT_COLUMNS} FROM took UNION ALL SELECT {_SEAT_COLUMNS} FROM seats "
    "WHERE game_id = %(g)s AND seat NOT IN (SELECT seat FROM took)) AS s")


@dataclass(frozen=True)
class QuickWrite:
    """A write as one statement in autocommit (`sql` with its `params`)."""

    sql: str
    params: dict[str, Any]


@dataclass(frozen=True)
class QuickClaim:
    """A seat claim as two statements in one transaction: the game's lock (no row back: the
    game no longer waits), then the claim; `outcome(game_row, seat_rows)` says what it did
    (None: refused; `BrowserSeated`: refused so; either way the claim wrote nothing)."""

    lock_sql: str
    claim_sql: str
    params: dict[str, Any]
    outcome: Callable[[Any, Sequence[Any]], Claimed | None]


class QuickLobby(StoreBase):
    """Storage's plans of the lobby's writes (None where a plan does not fit: not Postgres,
    or a game start whose first deadline is by the database's clock)."""

    def plan_create(self, record: GameRecord) -> QuickWrite | None:
        """`Storage.create_game(record)` as one statement."""
        if not self.postgres:
            return None
        return QuickWrite(_CREATE, {
            "id": record.id, "name": record.name, "players": record.players,
            "status": record.status, "seed": record.seed,
            "setup": None if record.setup is None else jsontext.dumps(record.setup),
            "version": record.version, "engine_version": record.engine_version,
            "host": record.host_token_hash, "at": record.created_at, "listed": record.listed,
            "settings": None if record.settings is None else jsontext.dumps(record.settings),
            "invite": record.invite_hash, "host_player": record.host_player_id,
            "seats": [s.seat for s in record.seats],
            "names": [s.name for s in record.seats],
            "tokens": [s.token_hash for s in record.seats],
            "bots": [s.bot for s in record.seats],
            "reserves": [s.reserve for s in record.seats],
            "levels": [s.bot_level for s in record.seats]})

    def plan_claim(self, record: GameRecord, seat: int | None, name: str | None,
                   token_hash: str | None, bot: bool, first: Game | None,
                   browser_hash: str | None, one_per_browser: bool, bot_level: str | None,
                   player_id: str | None) -> QuickClaim | None:
        """`Storage.claim_seat` as a plan, for a claimer that knows the game as `record`:
        with `first` (the game's first state), the claim of the one seat `record` has free
        starts the game; without it, a claim that would fill the game is refused (the
        claimer catches up and tries again). Timed clocks start through `claim_seat`."""
        free = [s.seat for s in record.seats if not s.taken]
        if not self.postgres or (first is not None and (
                len(free) != 1 or _timed(record.clock) or first.current_seat is None)):
            return None
        at = now()
        params = {
            "g": record.id, "at": at, "seat": seat, "name": name,
            "token": token_hash, "bot": bot, "browser": browser_hash,
            "one_per_browser": one_per_browser and browser_hash is not None,
            "level": bot_level, "player": player_id,
            "start_seat": free[0] if first is not None else None,
            "mover": None if first is None else first.current_seat,
            "state": None if first is None else jsontext.dumps(first.to_json()),
            "channel": channel(record.id),
            "payload": Notice(record.id, self.instance, -1).text()}

        def outcome(game_row: Any, seat_rows: Sequence[Any]) -> Claimed | None:
            head = seat_rows[0]
            if head.clash:
                raise BrowserSeated(record.id)
            if head.took is None:
                return None
            claimed = _game_record(game_row, list(seat_rows))
            claimed.updated_at = at
            if head.started:
                claimed = dataclasses.replace(claimed, status="running",
                                              turn_started_at=_utc(at), deadline=None)
            return Claimed(seat=head.took, record=claimed, started=bool(head.started))

        return QuickClaim(_LOCK, _CLAIM, params, outcome)
