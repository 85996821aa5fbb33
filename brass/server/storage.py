"""Storage: four tables behind a small interface (SQLAlchemy 2 Core; Postgres or SQLite).

The state of record of a game is its setup, seed and append-only action log; everything else is
derived. Each log row also keeps the public effect of its action (`effects`: what everyone
saw happen, the engine's events with nobody's cards), and `snapshots` keeps the whole engine
state at the start, after every round end and at the end of the game, so that no replay ever
has to start further back than one round (and a finished game is shown from its final state,
even by a server whose engine no longer replays its log).

The one write that matters, `append_action`, is a versioned write: in one transaction the game's
version moves from `expected` to `expected + 1` (or nothing happens) and the action row (with
its snapshot, if it ended a round) is inserted with `seq = expected + 1`. The unique constraints
on `(game_id, seq)` and `(game_id, action_id)` are the backstop if two writers ever race past
that check.

Undo marks action rows `undone` (they stay in the table as history, with the version of the
undo in `undone_at`) and moves the version on; the game is the replay of the rows that are not
undone. Undo never reaches back past a round end (the end of a turn draws cards), so a snapshot
is never undone. The version only ever grows, so a client can always ignore a state older than
the one it holds.

Every method is synchronous (one short transaction each); the game service calls them in a
worker thread so the event loop never waits on the database.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
    and_,
    create_engine,
    delete,
    event,
    func,
    insert,
    literal,
    or_,
    select,
    text,
    true,
    update,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import NullPool

from brass.bots import LEVELS, LevelName
from brass.engine import Game

from . import jsontext
from .clocks import Clock, reserve_after, turn_deadline
from .notice import CHANNEL, Notice

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


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class StaleVersion(Exception):
    """The game's version is no longer the one the write expected."""


class DuplicateActionId(Exception):
    """The action_id was used before in this game."""


class BrowserSeated(Exception):
    """This browser already holds a seat of the game (and it allows no shared screen)."""


@dataclass
class SeatRecord:
    seat: int
    name: str | None = None
    token_hash: str | None = None
    bot: bool = False
    reserve: float | None = None  # a live clock's seconds left at the start of its turn
    stand_in: str | None = None  # why a bot plays for this player (None: they play)
    browser_hash: str | None = None
    bot_level: LevelName | None = None  # None for a bot seat stored before levels: "easy"

    @property
    def level(self) -> LevelName:
        """The level a bot plays this seat at (brass.bots.LEVELS)."""
        return self.bot_level or "easy"

    @property
    def taken(self) -> bool:
        return self.bot or self.token_hash is not None

    @property
    def played_by_bot(self) -> bool:
        """A bot moves for this seat: a bot seat, or a player's seat a bot stands in for."""
        return self.bot or self.stand_in is not None


@dataclass
class GameRecord:
    id: str
    name: str
    players: int
    status: str
    seed: int
    setup: dict[str, Any] | None
    version: int
    engine_version: str
    host_token_hash: str
    created_at: dt.datetime
    updated_at: dt.datetime
    finished_at: dt.datetime | None = None
    scores: list[int] | None = None
    seats: list[SeatRecord] = field(default_factory=list)
    listed: bool = False
    settings: dict[str, Any] | None = None  # {"clock": Clock.to_json(), "shared_screen": bool}
    invite_hash: str | None = None
    deadline: dt.datetime | None = None
    turn_started_at: dt.datetime | None = None

    @property
    def clock(self) -> Clock:
        return Clock.from_json((self.settings or {}).get("clock"))

    @property
    def shared_screen(self) -> bool:
        return bool((self.settings or {}).get("shared_screen", False))


@dataclass(frozen=True)
class ListQuery:
    """One page of the public listing: newest first, after the `before` (created_at, id)
    cursor; or, with `changed_after`, the listed games updated since then (oldest change
    first), for a client that already holds a page. Finished games older than
    `finished_since` are left out (they stay reachable by id)."""

    limit: int
    status: str | None = None
    before: tuple[dt.datetime, str] | None = None
    changed_after: dt.datetime | None = None
    finished_since: dt.datetime | None = None


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """A log row, kept small (slots, and JSON text where it would otherwise be a tree of
    dicts: about 1.2 KB so, 0.9 KB as text): `action_text` is the action, `action` parses it
    on demand; `effects` is its public events, None for a row stored before effects were."""

    seq: int
    seat: int
    action_text: str
    action_id: str
    created_at: dt.datetime
    undone: bool = False
    effects: str | None = None
    undone_at: int | None = None
    stand_in: str | None = None  # a bot played it for the seat's player (why)

    @property
    def action(self) -> dict[str, Any]:
        parsed: dict[str, Any] = jsontext.loads(self.action_text)
        return parsed


@dataclass(frozen=True)
class SeatChange:
    """Who plays a seat changed at `version`: `change` is timeout, resigned or handover (a bot
    plays for the seat from then) or returned (its player took it back)."""

    version: int
    seat: int
    change: str
    created_at: dt.datetime


@dataclass(frozen=True)
class TurnStart:
    """A write that may end the turn of `ended` (its deadline was `deadline`) and start the
    turn of `next_seat` (None: the game ended); the storage works out, with the database's
    clock, the ended seat's reserve and the new deadline."""

    clock: Clock
    ended: int | None
    ended_reserve: float | None
    deadline: dt.datetime | None
    next_seat: int | None
    next_reserve: float | None
    next_bot: bool


@dataclass(frozen=True)
class Timing:
    """The times a write stored: the deadline and start of the turn it began, and the reserve
    it gave the seat whose turn ended."""

    deadline: dt.datetime | None
    turn_started_at: dt.datetime | None
    reserves: dict[int, float | None] = field(default_factory=dict)


@dataclass(frozen=True)
class Snapshot:
    """The whole engine state (`Game.to_json()`) after the first `actions` actions of the log
    (the last of them made version `seq`; 0 for the start)."""

    seq: int
    actions: int
    state: dict[str, Any]


# the JSON and jsonb columns (effects, snapshots, settings) go through jsontext too
JSON_CODEC: dict[str, Any] = {"json_serializer": jsontext.dumps,
                              "json_deserializer": jsontext.loads}


def make_engine(url: str) -> Engine:
    """An SQLAlchemy engine for `url`; creates the SQLite file's folder if needed."""
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                               poolclass=NullPool, **JSON_CODEC)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA synchronous=FULL")
            cur.close()

        return engine
    # as many kept connections as the server's database threads (core.py: 16): a pool
    # smaller than its users opens and closes a connection (a Postgres process) per
    # overflowing write under load. With the move writer's 4 and the listener, an instance
    # uses at most 25 (HOSTING.md)
    return create_engine(url, pool_size=16, max_overflow=4, pool_pre_ping=True, **JSON_CODEC)


def _utc(stamp: dt.datetime) -> dt.datetime:
    """SQLite gives back naive datetimes: every time stored here is UTC."""
    return stamp.replace(tzinfo=dt.UTC) if stamp.tzinfo is None else stamp


def _game_record(row: Any, seat_rows: list[Any]) -> GameRecord:
    return GameRecord(
        id=row.id, name=row.name, players=row.players, status=row.status, seed=row.seed,
        setup=row.setup, version=row.version, engine_version=row.engine_version,
        host_token_hash=row.host_token_hash, created_at=_utc(row.created_at),
        updated_at=_utc(row.updated_at),
        finished_at=None if row.finished_at is None else _utc(row.finished_at),
        scores=row.scores, listed=row.listed, settings=row.settings,
        invite_hash=row.invite_hash, deadline=_maybe_utc(row.deadline),
        turn_started_at=_maybe_utc(row.turn_started_at),
        seats=[SeatRecord(seat=s.seat, name=s.name, token_hash=s.token_hash, bot=s.bot,
                          reserve=s.reserve, stand_in=s.stand_in, browser_hash=s.browser_hash,
                          bot_level=_level(s.bot_level))
               for s in sorted(seat_rows, key=lambda s: s.seat)])


def _maybe_utc(stamp: dt.datetime | None) -> dt.datetime | None:
    return None if stamp is None else _utc(stamp)


def _level(stored: str | None) -> LevelName | None:
    return stored if stored in LEVELS else None


def _seat_change(row: Any) -> SeatChange:
    return SeatChange(version=row.version, seat=row.seat, change=row.change,
                      created_at=_utc(row.created_at))


def _text(document: Any) -> str | None:
    return None if document is None else jsontext.dumps(document)


def _action_record(row: Any) -> ActionRecord:
    return ActionRecord(seq=row.seq, seat=row.seat, action_text=jsontext.dumps(row.action),
                        action_id=row.action_id,
                        created_at=_utc(row.created_at), undone=row.undone,
                        effects=_text(row.effects), undone_at=row.undone_at,
                        stand_in=row.stand_in)


@dataclass(frozen=True)
class Claimed:
    """A seat taken by `claim_seat`: which, the game as the database holds it after, and
    whether this claim started the game."""

    seat: int
    record: GameRecord
    started: bool


@dataclass(frozen=True)
class Changes:
    """A game's record now and the log rows an instance at an older version lacks (`rows`:
    those made or undone after it, in order; `marks`: every snapshot's action count, None
    when the version did not move)."""

    record: GameRecord
    rows: list[ActionRecord]
    marks: list[int] | None
    seat_changes: list[SeatChange] = field(default_factory=list)  # made after the version


@dataclass(frozen=True)
class QuickAppend:
    """A move's write as one statement (`Storage.plan_append`): the statement and its
    parameters (it returns a row if it wrote), the log row and the times it stores."""

    sql: str
    params: dict[str, Any]
    record: ActionRecord
    timing: Timing | None




class Storage:
    """Games, seats and action logs in one SQL database. On Postgres every write notifies
    `CHANNEL` in its own transaction (delivered at commit, in commit order), so that the other
    instances catch up (fanout.py); `instance` tells them who wrote."""

    def __init__(self, url: str, instance: str = "") -> None:
        self.url = url
        self.engine = make_engine(url)
        self.instance = instance
        self.postgres = self.engine.dialect.name == "postgresql"

    def _notify(self, conn: Connection, game_id: str, version: int | None) -> None:
        """Tell the other instances (at commit) that `game_id` changed: its new `version`, or
        -1 for a change that keeps the version (seats, status, listing)."""
        if self.postgres:
            notice = Notice(game_id, self.instance, -1 if version is None else version)
            conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                         {"channel": CHANNEL, "payload": notice.text()})

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        with self.engine.begin() as conn:
            yield conn

    # -- games and seats -----------------------------------------------------------------------
    def create_game(self, record: GameRecord) -> None:
        with self._tx() as conn:
            conn.execute(insert(games).values(
                id=record.id, name=record.name, players=record.players, status=record.status,
                seed=record.seed, setup=record.setup, version=record.version,
                engine_version=record.engine_version, host_token_hash=record.host_token_hash,
                created_at=record.created_at, updated_at=record.updated_at,
                listed=record.listed, settings=record.settings,
                invite_hash=record.invite_hash))
            conn.execute(insert(seats), [
                {"game_id": record.id, "seat": s.seat, "name": s.name,
                 "token_hash": s.token_hash, "bot": s.bot, "reserve": s.reserve,
                 "bot_level": s.bot_level}
                for s in record.seats])

    def save_analysis(self, game_id: str, moves: Sequence[Mapping[str, Any]]) -> None:
        """Store a finished game's analysis once (a second one for the game is ignored)."""
        try:
            with self._tx() as conn:
                conn.execute(insert(analyses).values(game_id=game_id, moves=list(moves),
                                                     created_at=now()))
        except IntegrityError:
            pass  # computed twice (two instances): the first one stays

    def load_analysis(self, game_id: str) -> list[dict[str, Any]] | None:
        with self._tx() as conn:
            row = conn.execute(select(analyses.c.moves).where(
                analyses.c.game_id == game_id)).first()
        return None if row is None else list(row.moves)

    def load_game(self, game_id: str) -> GameRecord | None:
        with self._tx() as conn:
            return self._record(conn, game_id)

    @staticmethod
    def _record(conn: Connection, game_id: str) -> GameRecord | None:
        row = conn.execute(select(games).where(games.c.id == game_id)).first()
        if row is None:
            return None
        seat_rows = conn.execute(select(seats).where(seats.c.game_id == game_id)).all()
        return _game_record(row, list(seat_rows))

    def changes(self, game_id: str, since: int) -> Changes | None:
        """What an instance holding the game at version `since` needs to catch up: the game
        and its seats now, the log rows made after `since` (undone or not) and those undone
        after it, and the snapshot marks. None if the game is gone."""
        with self._tx() as conn:
            record = self._record(conn, game_id)
            if record is None:
                return None
            if record.version == since:
                return Changes(record=record, rows=[], marks=None)
            # each statement may see later commits (read committed): everything is cut at
            # the version read first, so that the rows agree with the record
            at = record.version
            rows = [_action_record(r) for r in conn.execute(
                select(actions).where(actions.c.game_id == game_id, actions.c.seq <= at,
                                      or_(actions.c.seq > since, and_(
                                          actions.c.undone_at > since,
                                          actions.c.undone_at <= at)))
                .order_by(actions.c.seq))]
            rows = [r if r.undone_at is None or r.undone_at <= at else
                    dataclasses.replace(r, undone=False, undone_at=None) for r in rows]
            marks = list(conn.execute(
                select(snapshots.c.actions).where(snapshots.c.game_id == game_id,
                                                  snapshots.c.seq <= at)
                .order_by(snapshots.c.seq)).scalars())
            changed = [_seat_change(r) for r in conn.execute(
                select(seat_changes).where(seat_changes.c.game_id == game_id,
                                           seat_changes.c.version > since,
                                           seat_changes.c.version <= at)
                .order_by(seat_changes.c.version))]
        return Changes(record=record, rows=rows, marks=marks, seat_changes=changed)

    def needing_work(self) -> list[str]:
        """The ids of the games that have background work (steward.py)."""
        with self._tx() as conn:
            return list(conn.execute(select(games.c.id).where(_needs_work())).scalars())

    def list_games(self, query: ListQuery) -> list[GameRecord]:
        """A page of listed games, filtered and ordered in SQL (indexes `ix_games_*`), and
        their seats (by primary key: a join would repeat every game row once per seat)."""
        c = games.c
        sql = select(games).where(c.listed == true()).limit(query.limit)  # "= true": indexed
        if query.status is not None:
            sql = sql.where(c.status == query.status)
        elif query.changed_after is None:  # a page shows open games; changes tell of closed ones
            sql = sql.where(c.status.not_in(("expired", "cancelled")))
        if query.finished_since is not None:
            sql = sql.where(or_(c.status != "finished", c.finished_at >= query.finished_since))
        if query.changed_after is not None:
            sql = sql.where(c.updated_at > query.changed_after)
        elif query.before is not None:
            created, game_id = query.before
            sql = sql.where(or_(c.created_at < created,
                                and_(c.created_at == created, c.id < game_id)))
        if query.changed_after is not None:
            sql = sql.order_by(c.updated_at, c.id)  # oldest change first
        else:
            sql = sql.order_by(c.created_at.desc(), c.id.desc())  # newest first
        with self._tx() as conn:
            return self._with_seats(conn, conn.execute(sql).all())

    @staticmethod
    def _with_seats(conn: Connection, rows: Sequence[Any]) -> list[GameRecord]:
        by_game: dict[str, list[Any]] = {r.id: [] for r in rows}
        if by_game:
            for s in conn.execute(select(seats).where(seats.c.game_id.in_(list(by_game)))):
                by_game[s.game_id].append(s)
        return [_game_record(r, by_game[r.id]) for r in rows]

    def set_listed(self, game_id: str, listed: bool) -> None:
        with self._tx() as conn:
            conn.execute(update(games).where(games.c.id == game_id)
                         .values(listed=listed, updated_at=now()))
            self._notify(conn, game_id, None)

    def expire_waiting(self, idle_since: dt.datetime) -> list[str]:
        """Waiting games with no activity since `idle_since` become `expired`; their ids."""
        with self._tx() as conn:
            ids = [r.id for r in conn.execute(select(games.c.id).where(
                games.c.status == "waiting", games.c.updated_at < idle_since))]
            if ids:
                conn.execute(update(games).where(games.c.id.in_(ids),
                                                 games.c.status == "waiting")
                             .values(status="expired", updated_at=now()))
                for game_id in ids:
                    self._notify(conn, game_id, None)
        return ids

    def renew_token(self, game_id: str, seat: int | None, old_hash: str, new_hash: str) -> bool:
        """Replace a seat's token hash (`seat` None: the host's), only if it is still `old_hash`:
        of two renewals racing with the same link, one wins."""
        with self._tx() as conn:
            if seat is None:
                sql = update(games).where(games.c.id == game_id,
                                          games.c.host_token_hash == old_hash
                                          ).values(host_token_hash=new_hash)
            else:
                sql = update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat,
                                          seats.c.token_hash == old_hash
                                          ).values(token_hash=new_hash)
            done = conn.execute(sql).rowcount == 1
            if done:
                self._notify(conn, game_id, None)
            return done

    def free_seat(self, game_id: str, seat: int) -> bool:
        """Empty a taken seat of a waiting game (the host removed its player or bot)."""
        try:
            with self._tx() as conn:
                moved = conn.execute(
                    update(games).where(games.c.id == game_id, games.c.status == "waiting")
                    .values(updated_at=now())).rowcount
                freed = conn.execute(
                    update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat)
                    .values(name=None, token_hash=None, bot=False, joined_at=None,
                            browser_hash=None, bot_level=None)).rowcount
                if moved != 1 or freed != 1:
                    raise StaleVersion(game_id)  # rolls the transaction back
                self._notify(conn, game_id, None)
        except StaleVersion:
            return False
        return True

    def cancel_game(self, game_id: str) -> bool:
        """A waiting game is called off by its host; False if it is no longer waiting."""
        with self._tx() as conn:
            done = conn.execute(
                update(games).where(games.c.id == game_id, games.c.status == "waiting")
                .values(status="cancelled", updated_at=now())).rowcount == 1
            if done:
                self._notify(conn, game_id, None)
            return done

    def claim_seat(self, game_id: str, seat: int | None, name: str | None,
                   token_hash: str | None, bot: bool,
                   first_state: Callable[[], Game], browser_hash: str | None = None,
                   one_per_browser: bool = False,
                   bot_level: str | None = None) -> Claimed | None:
        """Take a free seat of a waiting game (`seat` None: the lowest free one); when it was
        the last free seat, the game starts in the same transaction (`first_state()` is its
        first state, snapshot 0, and its first turn gets its deadline). The database decides
        both: the game row is locked first, so of two instances claiming the last two seats,
        the second sees the first's seat and starts the game. With `one_per_browser`, a
        browser that holds a seat of the game cannot take another (`BrowserSeated`). None if
        the seat was taken or the game is no longer waiting."""
        try:
            with self._tx() as conn:
                claimed = self._claim(conn, game_id, seat, name, token_hash, bot, first_state,
                                      browser_hash, one_per_browser, bot_level)
        except StaleVersion:
            return None
        return claimed

    def _claim(self, conn: Connection, game_id: str, seat: int | None, name: str | None,
               token_hash: str | None, bot: bool, first_state: Callable[[], Game],
               browser_hash: str | None, one_per_browser: bool,
               bot_level: str | None) -> Claimed:
        locked = conn.execute(  # the row lock orders every claim of this game
            update(games).where(games.c.id == game_id, games.c.status == "waiting")
            .values(updated_at=now())).rowcount
        if locked != 1:
            raise StaleVersion(game_id)
        if one_per_browser and browser_hash is not None and conn.execute(
                select(seats.c.seat).where(seats.c.game_id == game_id,
                                           seats.c.browser_hash == browser_hash)
        ).first() is not None:
            raise BrowserSeated(game_id)
        free = [r.seat for r in conn.execute(
            select(seats.c.seat).where(seats.c.game_id == game_id,
                                       seats.c.token_hash.is_(None),
                                       seats.c.bot.is_(False)).order_by(seats.c.seat))]
        if seat is None and free:
            seat = free[0]
        if seat is None or seat not in free:
            raise StaleVersion(game_id)  # rolls the transaction back
        conn.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat)
                     .values(name=name or f"Bot {seat + 1}", token_hash=token_hash,
                             bot=bot, joined_at=now(), browser_hash=browser_hash,
                             bot_level=bot_level))
        started = len(free) == 1
        if started:
            first = first_state()
            values: dict[str, Any] = {"status": "running"}
            record = self._record(conn, game_id)  # the seats as they are now, this one taken
            assert record is not None
            mover = first.current_seat
            if mover is not None:
                turn = TurnStart(record.clock, None, None, None, mover,
                                 record.seats[mover].reserve, record.seats[mover].played_by_bot)
                timing = _turn_timing(turn, _db_now(conn) if _timed(turn.clock) else now())
                values.update(deadline=timing.deadline, turn_started_at=timing.turn_started_at)
            conn.execute(update(games).where(games.c.id == game_id).values(**values))
            _insert_snapshot(conn, game_id, Snapshot(seq=0, actions=0, state=first.to_json()))
        self._notify(conn, game_id, None)
        record = self._record(conn, game_id)
        assert record is not None
        return Claimed(seat=seat, record=record, started=started)

    def renew_invite(self, game_id: str, new_hash: str) -> None:
        """A new invite secret for the game (the old invite link stops working)."""
        with self._tx() as conn:
            conn.execute(update(games).where(games.c.id == game_id)
                         .values(invite_hash=new_hash, updated_at=now()))
            self._notify(conn, game_id, None)

    def db_now(self) -> dt.datetime:
        """The database's clock (the one every deadline is compared with)."""
        with self._tx() as conn:
            return _db_now(conn)

    def change_seat(self, game_id: str, expected_version: int, seat: int, change: str,
                    clock: Clock, mover: bool, reserve: float | None,
                    require: str | None = None) -> Timing:
        """The versioned write of a change of who plays `seat`: `change` timeout, resigned or
        handover (a bot plays for it from now), or returned (its player plays again). The
        database refuses it (`StaleVersion`) if the version moved, and, by `require`,
        unless the deadline passed ("deadline") or the seat to move has been idle for the
        clock's `handoff_after` ("idle"), both by the database's clock. `mover`: the seat is
        to move (its turn's deadline is cleared, or set anew when its player returns);
        `reserve`: the seat's live reserve from now on."""
        with self._tx() as conn:
            at = _db_now(conn)
            c = games.c
            sql = update(games).where(c.id == game_id, c.version == expected_version,
                                      c.status == "running")
            if require == "deadline":
                sql = sql.where(c.deadline.is_not(None), c.deadline <= at)
            elif require == "idle":
                sql = sql.where(c.turn_started_at.is_not(None), c.turn_started_at <= at
                                - dt.timedelta(seconds=clock.handoff_after))
            values: dict[str, Any] = {"version": expected_version + 1, "updated_at": at}
            timing = Timing(None, None, {seat: reserve})
            if mover:
                returned = change == "returned"
                deadline = turn_deadline(clock, reserve, not returned, at)
                values["deadline"] = deadline
                if returned:
                    values["turn_started_at"] = at
                timing = Timing(deadline, at if returned else None, {seat: reserve})
            if conn.execute(sql.values(**values)).rowcount != 1:
                raise StaleVersion(game_id)
            conn.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat)
                         .values(stand_in=None if change == "returned" else change,
                                 reserve=reserve))
            conn.execute(insert(seat_changes).values(
                game_id=game_id, version=expected_version + 1, seat=seat, change=change,
                created_at=at))
            self._notify(conn, game_id, expected_version + 1)
        return timing

    def load_seat_changes(self, game_id: str) -> list[SeatChange]:
        with self._tx() as conn:
            return [_seat_change(r) for r in conn.execute(select(seat_changes).where(
                        seat_changes.c.game_id == game_id).order_by(seat_changes.c.version))]

    # -- the action log ------------------------------------------------------------------------
    def load_actions(self, game_id: str, include_undone: bool = False) -> list[ActionRecord]:
        with self._tx() as conn:
            query = select(actions).where(actions.c.game_id == game_id).order_by(actions.c.seq)
            if not include_undone:
                query = query.where(actions.c.undone.is_(False))
            return [_action_record(r) for r in conn.execute(query)]

    def actions_as_of(self, game_id: str, at: int) -> list[ActionRecord]:
        """Every log row, undone ones included, as it stood at version `at` (another instance
        may have written since): rows after it left out, rows undone after it live again."""
        return [a if a.undone_at is None or a.undone_at <= at else
                dataclasses.replace(a, undone=False, undone_at=None)
                for a in self.load_actions(game_id, True) if a.seq <= at]

    def find_action(self, game_id: str, action_id: str) -> ActionRecord | None:
        with self._tx() as conn:
            row = conn.execute(select(actions).where(
                actions.c.game_id == game_id, actions.c.action_id == action_id)).first()
        return None if row is None else _action_record(row)

    def append_action(self, game_id: str, expected_version: int, seat: int,
                      action: dict[str, Any], action_id: str,
                      effects: list[Any] | None = None, scores: list[int] | None = None,
                      snapshot: tuple[int, dict[str, Any]] | None = None) -> ActionRecord:
        """The versioned write of one log row with its public `effects`. `scores` set means
        the action ended the game; `snapshot` (the number of actions in the log with this
        one, and the state after it) is stored in the same transaction."""
        return self.append_turn(game_id, expected_version, seat, action, action_id, effects,
                                scores, snapshot)[0]

    def append_turn(self, game_id: str, expected_version: int, seat: int,
                    action: dict[str, Any], action_id: str,
                    effects: list[Any] | None = None, scores: list[int] | None = None,
                    snapshot: tuple[int, dict[str, Any]] | None = None,
                    turn: TurnStart | None = None,
                    stand_in: str | None = None) -> tuple[ActionRecord, Timing | None]:
        """`append_action`, and, when the action ends a turn (`turn`), the ended seat's
        reserve and the next turn's deadline, in the same transaction (so deadlines survive a
        restart). `stand_in`: a bot played the action for the seat's player."""
        record, values = _row_and_game(expected_version, seat, action, action_id, effects,
                                       scores, stand_in)
        timing = None
        try:
            with self._tx() as conn:
                if turn is not None:
                    timing = _turn_timing(turn, _db_now(conn) if _timed(turn.clock) else now())
                    values.update(deadline=None if scores is not None else timing.deadline,
                                  turn_started_at=timing.turn_started_at)
                moved = conn.execute(
                    update(games).where(games.c.id == game_id,
                                        games.c.version == expected_version,
                                        games.c.status == "running")
                    .values(**values)).rowcount
                if moved != 1:
                    raise StaleVersion(game_id)
                conn.execute(insert(actions).values(
                    game_id=game_id, seq=record.seq, seat=seat, action=action,
                    action_id=action_id, undone=False, created_at=record.created_at,
                    effects=effects, stand_in=stand_in))
                if timing is not None:
                    for s, reserve in timing.reserves.items():
                        conn.execute(update(seats).where(seats.c.game_id == game_id,
                                                         seats.c.seat == s)
                                     .values(reserve=reserve))
                if snapshot is not None:
                    _insert_snapshot(conn, game_id, Snapshot(
                        seq=record.seq, actions=snapshot[0], state=snapshot[1]))
                self._notify(conn, game_id, record.seq)
        except IntegrityError as exc:
            raise self.refused(game_id, action_id) from exc
        return record, timing

    def plan_append(self, game_id: str, expected_version: int, seat: int,
                    action: dict[str, Any], action_id: str, effects: list[Any] | None,
                    scores: list[int] | None, snapshot: tuple[int, dict[str, Any]] | None,
                    turn: TurnStart | None, stand_in: str | None) -> QuickAppend | None:
        """`append_turn` with these arguments as one statement in its own transaction, for
        movewrite.py to run on the event loop: the versioned update of the game, the log row
        and the notification, in one round trip instead of five (most of a move's database
        cost); a round's last move stores its snapshot in the same statement. None if the
        write does not fit one: not Postgres, a reserve to store or a deadline by the
        database's clock (`append_turn` writes those)."""
        if not self.postgres or (turn is not None and _timed(turn.clock)):
            return None
        record, values = _row_and_game(expected_version, seat, action, action_id, effects,
                                       scores, stand_in)
        timing = None
        if turn is not None:
            timing = _turn_timing(turn, now())
            if timing.reserves:
                return None
            values.update(deadline=None if scores is not None else timing.deadline,
                          turn_started_at=timing.turn_started_at)
        shape = (tuple(values), snapshot is not None)
        sql = _APPEND_SQL.get(shape)
        if sql is None:
            sql = _APPEND_SQL[shape] = _append_sql(*shape)
        params = {**{f"v_{c}": (jsontext.dumps(v) if c == "scores" else v)
                     for c, v in values.items()},
                  "id": game_id, "expected": expected_version, "seq": record.seq,
                  "seat": record.seat, "action": record.action_text,
                  "action_id": record.action_id, "at": record.created_at,
                  "effects": record.effects, "stand_in": record.stand_in,
                  "channel": CHANNEL,
                  "payload": Notice(game_id, self.instance, record.seq).text()}
        if snapshot is not None:
            params.update(snap_actions=snapshot[0], snap_state=jsontext.dumps(snapshot[1]))
        return QuickAppend(sql, params, record, timing)

    def refused(self, game_id: str, action_id: str) -> DuplicateActionId | StaleVersion:
        """Why a write of `action_id` broke a unique constraint: that id is in the log
        already, or another write took the version first."""
        if self.find_action(game_id, action_id) is not None:
            return DuplicateActionId(action_id)
        return StaleVersion(game_id)

    def undo_actions(self, game_id: str, expected_version: int, seqs: list[int]) -> int:
        """Mark the given action rows undone and move the version on; returns the version."""
        with self._tx() as conn:
            moved = conn.execute(
                update(games).where(games.c.id == game_id, games.c.version == expected_version,
                                    games.c.status == "running")
                .values(version=expected_version + 1, updated_at=now())).rowcount
            if moved != 1:
                raise StaleVersion(game_id)
            marked = conn.execute(
                update(actions).where(actions.c.game_id == game_id, actions.c.seq.in_(seqs),
                                      actions.c.undone.is_(False))
                .values(undone=True, undone_at=expected_version + 1)).rowcount
            if marked != len(seqs):
                raise StaleVersion(game_id)  # rolls the whole transaction back
            self._notify(conn, game_id, expected_version + 1)
        return expected_version + 1

    def fill_log(self, game_id: str, effects: Sequence[tuple[int, list[Any]]],
                 kept: Sequence[Snapshot]) -> None:
        """Give a game stored before migration 0003 what its log lacks: the effects of the
        rows that have none (`effects`: seq, public events) and the snapshots (`kept`). Done
        once: another instance that filled it first wins, and nothing else is touched."""
        try:
            with self._tx() as conn:
                for seq, events in effects:
                    conn.execute(update(actions).where(
                        actions.c.game_id == game_id, actions.c.seq == seq,
                        actions.c.effects.is_(None)).values(effects=events))
                have = set(conn.execute(select(snapshots.c.seq).where(
                    snapshots.c.game_id == game_id)).scalars())
                for snapshot in kept:
                    if snapshot.seq not in have:
                        _insert_snapshot(conn, game_id, snapshot)
        except IntegrityError:
            pass  # filled meanwhile by another instance

    # -- snapshots -----------------------------------------------------------------------------
    def load_snapshot(self, game_id: str, actions_at_most: int | None = None) -> Snapshot | None:
        """The latest snapshot (with at most `actions_at_most` actions), or None."""
        with self._tx() as conn:
            query = (select(snapshots).where(snapshots.c.game_id == game_id)
                     .order_by(snapshots.c.seq.desc()).limit(1))
            if actions_at_most is not None:
                query = query.where(snapshots.c.actions <= actions_at_most)
            row = conn.execute(query).first()
        return None if row is None else Snapshot(seq=row.seq, actions=row.actions,
                                                 state=row.state)

    def snapshot_marks(self, game_id: str) -> list[int]:
        """How many actions each snapshot of the game includes, in order."""
        with self._tx() as conn:
            return list(conn.execute(
                select(snapshots.c.actions).where(snapshots.c.game_id == game_id)
                .order_by(snapshots.c.seq)).scalars())


def _db_now(conn: Connection) -> dt.datetime:
    """The database's clock: Postgres's `now()` (every instance compares with it, so their own
    clocks may differ); SQLite is one process, whose clock it is."""
    if conn.dialect.name == "postgresql":
        return _utc(conn.execute(select(func.now())).scalar_one())
    return now()


def _row_and_game(expected_version: int, seat: int, action: dict[str, Any], action_id: str,
                  effects: list[Any] | None, scores: list[int] | None,
                  stand_in: str | None) -> tuple[ActionRecord, dict[str, Any]]:
    """A move's log row, and the game's columns it sets (without the turn's times)."""
    record = ActionRecord(seq=expected_version + 1, seat=seat,
                          action_text=jsontext.dumps(action),
                          action_id=action_id, created_at=now(), effects=_text(effects),
                          stand_in=stand_in)
    values: dict[str, Any] = {"version": record.seq, "updated_at": record.created_at}
    if scores is not None:
        values.update(status="finished", scores=scores, finished_at=record.created_at,
                      deadline=None)
    return record, values


_APPEND_SQL: dict[tuple[tuple[str, ...], bool], str] = {}  # by the game columns set, snapshot


def _append_sql(columns: tuple[str, ...], snapshot: bool) -> str:
    """The one statement of `Storage.plan_append` for a move that sets `columns` of its
    game, and with `snapshot` stores one (its data-modifying parts always run to completion,
    in the statement's transaction, and only if the game was at the expected version; it
    returns one row then, none otherwise)."""
    cast = {"scores": "::json"}
    sets = ", ".join(f"{c} = %(v_{c})s{cast.get(c, '')}" for c in columns)
    snap = ("kept AS (INSERT INTO snapshots (game_id, seq, actions, state, created_at) "
            "SELECT id, %(seq)s, %(snap_actions)s, %(snap_state)s::jsonb, %(at)s FROM moved), "
            if snapshot else "")
    return (f"WITH moved AS (UPDATE games SET {sets} WHERE id = %(id)s AND "
            "version = %(expected)s AND status = 'running' RETURNING id), "
            f"{snap}"
            "added AS (INSERT INTO actions (game_id, seq, seat, action, action_id, undone, "
            "created_at, effects, stand_in) SELECT id, %(seq)s, %(seat)s, %(action)s::json, "
            "%(action_id)s, false, %(at)s, %(effects)s::jsonb, %(stand_in)s FROM moved "
            "RETURNING game_id) SELECT pg_notify(%(channel)s, %(payload)s) FROM added")


def _timed(clock: Clock) -> bool:
    """Are this game's turn times compared (a deadline, or a hand-over after idle time)? Then
    they are the database's; otherwise the turn's start is only shown, and this process's
    clock saves a round trip."""
    return clock.timed or clock.handoff_after > 0


def _turn_timing(turn: TurnStart, at: dt.datetime) -> Timing:
    """The times stored when `turn.ended`'s turn ends and `turn.next_seat`'s starts, `at`."""
    reserves: dict[int, float | None] = {}
    if turn.ended is not None and turn.clock.kind == "live":
        reserves[turn.ended] = reserve_after(turn.clock, turn.deadline, turn.ended_reserve, at)
    if turn.next_seat is None:
        return Timing(None, None, reserves)
    reserve = reserves.get(turn.next_seat, turn.next_reserve)
    return Timing(turn_deadline(turn.clock, reserve, turn.next_bot, at), at, reserves)


def _insert_snapshot(conn: Connection, game_id: str, snapshot: Snapshot) -> None:
    conn.execute(insert(snapshots).values(
        game_id=game_id, seq=snapshot.seq, actions=snapshot.actions, state=snapshot.state,
        created_at=now()))


def _needs_work() -> Any:
    """The games that have background work (steward.py, due.py): running, and with a turn
    clock's deadline, a bot seat or a seat a bot plays for its player (`stand_in`)."""
    return and_(games.c.status == "running", or_(
        games.c.deadline.is_not(None),
        select(seats.c.seat).where(seats.c.game_id == games.c.id,
                                   or_(seats.c.bot.is_(True),
                                       seats.c.stand_in.is_not(None))).exists()))


class Leases:
    """Which instance runs each game's background work: a row per game in `leases`, held by
    `owner` until `expires_at`. Only the database clock (`now()`) is compared, so instances
    with skewed clocks agree. Postgres only (SQLite is one process: steward.LocalLeases)."""

    def __init__(self, storage: Storage, owner: str, ttl: float) -> None:
        self.storage, self.owner, self.ttl = storage, owner, dt.timedelta(seconds=ttl)

    def renew(self) -> set[str]:
        """Extend every lease this instance still holds; the games they are for."""
        with self.storage._tx() as conn:
            return set(conn.execute(
                update(leases).where(leases.c.owner == self.owner)
                .values(expires_at=func.now() + self.ttl).returning(leases.c.game_id)
            ).scalars())

    def census(self) -> tuple[int, int]:
        """(games that need background work, other instances holding a live lease)."""
        with self.storage._tx() as conn:
            needing = conn.execute(select(func.count()).select_from(games)
                                   .where(_needs_work())).scalar_one()
            others = conn.execute(select(func.count(func.distinct(leases.c.owner))).where(
                leases.c.expires_at >= func.now(), leases.c.owner != self.owner)).scalar_one()
        return int(needing), int(others)

    def claim(self, limit: int, game_id: str | None = None) -> dict[str, int]:
        """Take up to `limit` games that need work and whose lease is free or expired (just
        `game_id`, if given): {game id: epoch}. Of two instances claiming one game, one wins
        (the conflict is decided on the row)."""
        free = select(games.c.id, literal(self.owner), literal(1),
                      func.now() + self.ttl).where(
            _needs_work(),
            ~select(leases.c.game_id).where(leases.c.game_id == games.c.id,
                                            leases.c.expires_at >= func.now()).exists(),
        ).limit(limit)
        if game_id is not None:
            free = free.where(games.c.id == game_id)
        new = pg_insert(leases).from_select(["game_id", "owner", "epoch", "expires_at"], free)
        sql = new.on_conflict_do_update(
            index_elements=[leases.c.game_id],
            set_={"owner": new.excluded.owner, "epoch": leases.c.epoch + 1,
                  "expires_at": new.excluded.expires_at},
            where=leases.c.expires_at < func.now(),
        ).returning(leases.c.game_id, leases.c.epoch)
        with self.storage._tx() as conn:
            return {row.game_id: row.epoch for row in conn.execute(sql)}

    def drop(self, game_ids: Sequence[str]) -> None:
        """Give up the leases of these games (no work left, or this instance stops)."""
        if game_ids:
            with self.storage._tx() as conn:
                conn.execute(delete(leases).where(leases.c.owner == self.owner,
                                                  leases.c.game_id.in_(list(game_ids))))
