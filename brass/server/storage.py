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

import datetime as dt
import json
from collections.abc import Iterator
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
    ForeignKey,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Table,
    UniqueConstraint,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import NullPool

metadata = MetaData()
DOCUMENT = JSON().with_variant(JSONB(), "postgresql")  # jsonb on Postgres

games = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("players", SmallInteger, nullable=False),
    Column("status", String(16), nullable=False, index=True),  # waiting | running | finished
    Column("seed", BigInteger, nullable=False),
    Column("setup", JSON, nullable=True),
    Column("version", Integer, nullable=False, default=0),
    Column("engine_version", String(32), nullable=False),
    Column("host_token_hash", String(64), nullable=False),
    Column("scores", JSON, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
)

seats = Table(
    "seats", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", SmallInteger, primary_key=True),
    Column("name", String(80), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("bot", Boolean, nullable=False, default=False),
    Column("joined_at", DateTime(timezone=True), nullable=True),
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
    UniqueConstraint("game_id", "seq", name="uq_actions_game_seq"),
    UniqueConstraint("game_id", "action_id", name="uq_actions_game_action_id"),
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


@dataclass
class SeatRecord:
    seat: int
    name: str | None = None
    token_hash: str | None = None
    bot: bool = False

    @property
    def taken(self) -> bool:
        return self.bot or self.token_hash is not None


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


@dataclass(frozen=True)
class ActionRecord:
    """A log row. `effects` is its public events as JSON text (kept as text in memory: a live
    game holds every row), None for a row stored before effects were."""

    seq: int
    seat: int
    action: dict[str, Any]
    action_id: str
    created_at: dt.datetime
    undone: bool = False
    effects: str | None = None
    undone_at: int | None = None


@dataclass(frozen=True)
class Snapshot:
    """The whole engine state (`Game.to_json()`) after the first `actions` actions of the log
    (the last of them made version `seq`; 0 for the start)."""

    seq: int
    actions: int
    state: dict[str, Any]


def make_engine(url: str) -> Engine:
    """An SQLAlchemy engine for `url`; creates the SQLite file's folder if needed."""
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                               poolclass=NullPool)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA synchronous=FULL")
            cur.close()

        return engine
    return create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)


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
        scores=row.scores,
        seats=[SeatRecord(seat=s.seat, name=s.name, token_hash=s.token_hash, bot=s.bot)
               for s in sorted(seat_rows, key=lambda s: s.seat)])


def _text(document: Any) -> str | None:
    return None if document is None else json.dumps(document, separators=(",", ":"))


def _action_record(row: Any) -> ActionRecord:
    return ActionRecord(seq=row.seq, seat=row.seat, action=row.action, action_id=row.action_id,
                        created_at=_utc(row.created_at), undone=row.undone,
                        effects=_text(row.effects), undone_at=row.undone_at)


class Storage:
    """Games, seats and action logs in one SQL database."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)

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
                created_at=record.created_at, updated_at=record.updated_at))
            conn.execute(insert(seats), [
                {"game_id": record.id, "seat": s.seat, "name": s.name,
                 "token_hash": s.token_hash, "bot": s.bot} for s in record.seats])

    def load_game(self, game_id: str) -> GameRecord | None:
        with self._tx() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).first()
            if row is None:
                return None
            seat_rows = conn.execute(select(seats).where(seats.c.game_id == game_id)).all()
        return _game_record(row, list(seat_rows))

    def list_games(self, status: str | None = None) -> list[GameRecord]:
        with self._tx() as conn:
            query = select(games).order_by(games.c.created_at.desc())
            if status is not None:
                query = query.where(games.c.status == status)
            rows = conn.execute(query).all()
            seat_query = select(seats)
            if status is not None:
                seat_query = seat_query.join(games).where(games.c.status == status)
            seat_rows = conn.execute(seat_query).all()
        by_game: dict[str, list[Any]] = {}
        for s in seat_rows:
            by_game.setdefault(s.game_id, []).append(s)
        return [_game_record(r, by_game.get(r.id, [])) for r in rows]

    def claim_seat(self, game_id: str, seat: int, name: str, token_hash: str | None,
                   bot: bool, start: dict[str, Any] | None) -> bool:
        """Take a free seat of a waiting game; with `start` (the first state), the game starts
        in the same transaction. False if the seat was taken or the game is no longer
        waiting."""
        try:
            with self._tx() as conn:
                done = conn.execute(
                    update(seats)
                    .where(seats.c.game_id == game_id, seats.c.seat == seat,
                           seats.c.token_hash.is_(None), seats.c.bot.is_(False))
                    .values(name=name, token_hash=token_hash, bot=bot, joined_at=now()))
                values: dict[str, Any] = {"updated_at": now()}
                if start is not None:
                    values["status"] = "running"
                moved = conn.execute(
                    update(games).where(games.c.id == game_id, games.c.status == "waiting")
                    .values(**values))
                if done.rowcount != 1 or moved.rowcount != 1:
                    raise StaleVersion(game_id)  # rolls the transaction back
                if start is not None:
                    _insert_snapshot(conn, game_id, Snapshot(seq=0, actions=0, state=start))
        except StaleVersion:
            return False
        return True

    # -- the action log ------------------------------------------------------------------------
    def load_actions(self, game_id: str, include_undone: bool = False) -> list[ActionRecord]:
        with self._tx() as conn:
            query = select(actions).where(actions.c.game_id == game_id).order_by(actions.c.seq)
            if not include_undone:
                query = query.where(actions.c.undone.is_(False))
            return [_action_record(r) for r in conn.execute(query)]

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
        record = ActionRecord(seq=expected_version + 1, seat=seat, action=action,
                              action_id=action_id, created_at=now(), effects=_text(effects))
        values: dict[str, Any] = {"version": record.seq, "updated_at": record.created_at}
        if scores is not None:
            values.update(status="finished", scores=scores, finished_at=record.created_at)
        try:
            with self._tx() as conn:
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
                    effects=effects))
                if snapshot is not None:
                    _insert_snapshot(conn, game_id, Snapshot(
                        seq=record.seq, actions=snapshot[0], state=snapshot[1]))
        except IntegrityError as exc:
            if self.find_action(game_id, action_id) is not None:
                raise DuplicateActionId(action_id) from exc
            raise StaleVersion(game_id) from exc
        return record

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
        return expected_version + 1

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


def _insert_snapshot(conn: Connection, game_id: str, snapshot: Snapshot) -> None:
    conn.execute(insert(snapshots).values(
        game_id=game_id, seq=snapshot.seq, actions=snapshot.actions, state=snapshot.state,
        created_at=now()))
