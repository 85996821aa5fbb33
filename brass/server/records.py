"""What storage reads and writes, as values: a game's record and seats, log rows, seat
changes, snapshots, a catch-up's changes, the times a write stores, and the refusals of a
versioned write."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from brass.bots import LEVELS, LevelName
from brass.engine import REPLAYS_VERSIONS

from . import jsontext, vocab
from .clocks import Clock
from .vocab import GameStatus, SeatChangeKind, StandIn


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
    stand_in: StandIn | None = None  # why a bot plays for this player (None: they play)
    browser_hash: str | None = None
    bot_level: LevelName | None = None  # None for a bot seat stored before levels: "easy"
    player_id: str | None = None  # the player whose device took it (never sent to clients)

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
    status: GameStatus
    seed: int
    setup: dict[str, Any] | None
    version: int
    engine_version: str
    host_token_hash: str
    created_at: dt.datetime
    updated_at: dt.datetime
    finished_at: dt.datetime | None = None
    scores: list[int] | None = None
    ranks: list[int] | None = None  # a finished game's places by seat (the engine's ranks)
    seats: list[SeatRecord] = field(default_factory=list)
    listed: bool = False
    settings: dict[str, Any] | None = None  # {"clock": Clock.to_json(), "shared_screen": bool}
    invite_hash: str | None = None
    deadline: dt.datetime | None = None
    turn_started_at: dt.datetime | None = None
    called_off_by: vocab.CalledOffBy | None = None  # a cancelled game's: its host or the admin
    host_player_id: str | None = None  # who hosts it by their player cookie (deps.hosts)

    # the clock read from `settings` (set once, at creation), with the settings it was read
    # from: every state message reads it, for each seat
    _clock: tuple[object, Clock] | None = field(default=None, repr=False, compare=False)

    @property
    def clock(self) -> Clock:
        held = self._clock
        if held is None or held[0] is not self.settings:
            held = self._clock = (self.settings, Clock.from_json(
                (self.settings or {}).get("clock")))
        return held[1]

    @property
    def older_engine(self) -> bool:
        """Stored by a server whose engine's logs this one may not replay alike (a version
        that only added events replays alike: `REPLAYS_VERSIONS`)."""
        return self.engine_version not in REPLAYS_VERSIONS

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
    status: GameStatus | None = None
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
    stand_in: StandIn | None = None  # a bot played it for the seat's player (why)

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
    change: SeatChangeKind
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


def _utc(stamp: dt.datetime) -> dt.datetime:
    """SQLite gives back naive datetimes: every time stored here is UTC."""
    return stamp.replace(tzinfo=dt.UTC) if stamp.tzinfo is None else stamp


def _game_record(row: Any, seat_rows: list[Any]) -> GameRecord:
    return GameRecord(
        id=row.id, name=row.name, players=row.players, status=vocab.status(row.status),
        seed=row.seed, setup=row.setup, version=row.version, engine_version=row.engine_version,
        host_token_hash=row.host_token_hash, created_at=_utc(row.created_at),
        updated_at=_utc(row.updated_at),
        finished_at=None if row.finished_at is None else _utc(row.finished_at),
        scores=row.scores, ranks=row.ranks, listed=row.listed, settings=row.settings,
        invite_hash=row.invite_hash, deadline=_maybe_utc(row.deadline),
        turn_started_at=_maybe_utc(row.turn_started_at),
        called_off_by=vocab.called_off_by(row.called_off_by),
        host_player_id=row.host_player_id,
        seats=[SeatRecord(seat=s.seat, name=s.name, token_hash=s.token_hash, bot=s.bot,
                          reserve=s.reserve, stand_in=vocab.stand_in(s.stand_in),
                          browser_hash=s.browser_hash, bot_level=_level(s.bot_level),
                          player_id=s.player_id)
               for s in sorted(seat_rows, key=lambda s: s.seat)])


def _maybe_utc(stamp: dt.datetime | None) -> dt.datetime | None:
    return None if stamp is None else _utc(stamp)


def _level(stored: str | None) -> LevelName | None:
    return stored if stored in LEVELS else None


def _seat_change(row: Any) -> SeatChange:
    return SeatChange(version=row.version, seat=row.seat, change=vocab.seat_change(row.change),
                      created_at=_utc(row.created_at))


def _text(document: Any) -> str | None:
    return None if document is None else jsontext.dumps(document)


def _action_record(row: Any) -> ActionRecord:
    return ActionRecord(seq=row.seq, seat=row.seat, action_text=jsontext.dumps(row.action),
                        action_id=row.action_id,
                        created_at=_utc(row.created_at), undone=row.undone,
                        effects=_text(row.effects), undone_at=row.undone_at,
                        stand_in=vocab.stand_in(row.stand_in))


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
    quiet_sql: str = ""  # the same write without its notification (sent after the commit)
