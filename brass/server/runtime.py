"""A game in memory (`Runtime`) and the pure helpers that rebuild engine states from a snapshot
and the log after it (they run in a worker process, never on the event loop)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from brass.engine import (
    Event,
    Game,
    apply_action,
    new_game,
    parse_action,
    play,
    public_events,
)

from .auth import token_matches
from .errors import ApiError
from .storage import ActionRecord, GameRecord, SeatChange, Snapshot, Timing, TurnStart
from .vocab import StandIn


class Subscriber(Protocol):
    """A connected client: `seat` None is a spectator; `send` must not block."""

    seat: int | None

    def send(self, text: str) -> None: ...


RECENT = 4  # log rows a game keeps in memory: a turn has at most two, and undo reaches no further
IDS_KEPT = 8  # action ids answered from memory when resent (older ones: from the database)


@dataclass(eq=False)
class Runtime:
    """A game in memory: its record, the end of its log and the engine states of the current
    turn (`turn`: the state the seat to move started its turn from, then the state after each
    of its actions so far; the last is the current state, and undo steps back along it). Older
    states are not kept: a replay frame is rebuilt from the nearest snapshot (`snapshots`: how
    many actions each stored snapshot includes). Nor is the whole log: `count` actions (undone
    ones left out), of which the last `RECENT` rows are held (`recent`: undo, the state
    message's newest entry) and the ids of the last written (`action_ids`: a resent action);
    the log itself is read from the database when asked for (`Replays.log_rows`), so a
    live game's memory does not grow with its length (about 0.9 KB a move otherwise)."""

    record: GameRecord
    turn: list[Game] = field(default_factory=list)
    count: int = 0
    recent: list[ActionRecord] = field(default_factory=list)
    action_ids: dict[str, ActionRecord] = field(default_factory=dict)
    snapshots: list[int] = field(default_factory=list)
    undone: tuple[int, list[int]] = (0, [])  # the last undo: its version, the seqs it took back
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = field(default_factory=set)
    seat_changes: list[SeatChange] = field(default_factory=list)  # who plays whom, by version
    # set at every publish (a local commit or a catch-up): the game's steward waits on it
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    behind: bool = False  # another instance wrote this game: catch up before the next read
    untold: bool = False  # a write of ours committed after its task was cancelled (core.written)
    rendered: dict[int | None, str] = field(default_factory=dict)  # state text by seat
    parts: tuple[str, str] | None = None  # outbound.state_parts, until the next publish
    # the legal moves of the seat to move at a version, computed once (a worker's future)
    legal_cache: tuple[int, int, asyncio.Future[str]] | None = None
    # the ids of the latest chat lines sent to this instance's clients (None: none yet): when
    # the fan-out begins to listen to the game, chat.heard_late sends the others again
    chat_told: set[int] | None = None

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def game(self) -> Game | None:
        return self.turn[-1] if self.turn else None

    @property
    def older_engine(self) -> bool:
        """Stored by a server with another engine (its log may not replay here)."""
        return self.record.older_engine

    @property
    def mover(self) -> int | None:
        """The seat to move of a running game if its player chooses the move: its state
        message carries its legal moves (`legal.text`). None while a bot plays that seat (a
        bot seat, or a player's seat a bot stands in for: their moves are refused with
        `stand_in_playing`, so none is offered)."""
        game = self.game
        if self.record.status != "running" or game is None:
            return None
        seat = game.current_seat
        return None if seat is None or self.record.seats[seat].played_by_bot else seat

    def running_game(self) -> Game:
        game = self.game
        if self.record.status != "running" or game is None or game.is_over:
            raise ApiError("game_not_running", f"Game {self.id} is {self.record.status}")
        return game

    def seat_of(self, token: str | None) -> int | None:
        """The seat whose token this is (checked in constant time), else None."""
        found = None
        for s in self.record.seats:
            if token_matches(token, s.token_hash):
                found = s.seat
        return found

    def is_bot(self, seat: int | None) -> bool:
        """A bot plays this seat now: a bot seat, or a player's seat a bot stands in for
        (timed out, resigned, handed over)."""
        return seat is not None and self.record.seats[seat].played_by_bot

    def bot_level(self, seat: int) -> str:
        """The level the bot playing `seat` plays at."""
        return self.record.seats[seat].level

    # -- transitions: the one way each change reaches the game in memory, whether this instance
    # -- committed it or caught up with another instance's commit
    def played(self, row: ActionRecord, turn: list[Game]) -> None:
        """The log's row `row` was played; `turn`: the states of the current turn after it."""
        self.count += 1
        self.recent = [*self.recent[1 - RECENT:], row]
        self.hold([row])
        self.turn = turn
        self.record.version = row.seq

    def took_back(self, version: int, seqs: list[int], turn: list[Game]) -> None:
        """The last `len(seqs)` rows held were taken back at `version` (undo reaches only the
        current turn); `turn`: the states after."""
        taken = self.recent[-len(seqs):]
        del self.recent[-len(seqs):]
        self.count -= len(seqs)
        self.hold(dataclasses.replace(a, undone=True, undone_at=version) for a in taken)
        self.turn = turn
        self.record.version = version
        self.undone = (version, seqs)

    def seat_changed(self, change: SeatChange) -> None:
        """Who plays a seat changed (a time-out, resign, hand-over or return) at its version."""
        seats = self.record.seats
        seats[change.seat] = dataclasses.replace(  # a new record: a catch-up's copies share them
            seats[change.seat], stand_in=None if change.change == "returned" else change.change)
        self.seat_changes.append(change)
        self.record.version = change.version

    def reloaded(self, fresh: Runtime) -> None:
        """Everything but the connections and the lock from `fresh` (a full reload)."""
        self.record, self.count, self.recent = fresh.record, fresh.count, fresh.recent
        self.turn, self.action_ids, self.snapshots = fresh.turn, fresh.action_ids, fresh.snapshots
        self.undone, self.seat_changes = fresh.undone, fresh.seat_changes

    def timed(self, timing: Timing) -> None:
        """Keep in memory the times a write stored."""
        self.record.deadline = timing.deadline
        if timing.turn_started_at is not None:
            self.record.turn_started_at = timing.turn_started_at
        for seat, reserve in timing.reserves.items():
            self.record.seats[seat].reserve = reserve

    def turn_start(self, seat: int, after: Game) -> TurnStart:
        """The turn of `seat` ends with this action; `after.current_seat`'s begins."""
        seats, nxt = self.record.seats, after.current_seat
        if after.is_over:
            nxt = None
        return TurnStart(self.record.clock, seat, seats[seat].reserve, self.record.deadline,
                         nxt, None if nxt is None else seats[nxt].reserve,
                         nxt is not None and seats[nxt].played_by_bot)

    def player_plays(self, seat: int, stand_in: StandIn | None) -> None:
        """A player's own move (`stand_in` None) is refused while a bot stands in for them:
        the two would race."""
        if stand_in is None and self.record.seats[seat].stand_in is not None:
            raise ApiError("stand_in_playing", "A bot plays this seat for you now: take "
                           "your seat back to play")

    def hold(self, rows: Iterable[ActionRecord]) -> None:
        """Note rows written or changed (an undo): their ids, the newest `IDS_KEPT` kept."""
        for row in rows:
            self.action_ids.pop(row.action_id, None)
            self.action_ids[row.action_id] = row
        for old in list(self.action_ids)[:-IDS_KEPT]:
            del self.action_ids[old]



def rebuild(players: int, seed: int, setup: dict[str, Any] | None,
            snapshot: dict[str, Any] | None, actions: list[dict[str, Any]]) -> list[Game]:
    """The states of the current turn after replaying `actions` from `snapshot` (a
    `Game.to_json()`; None: from the start). Pure: runs in a worker process."""
    turn = [new_game(players, seed, setup) if snapshot is None else Game.from_json(snapshot)]
    for action in actions:
        turn = step(turn, *play(turn[-1], parse_action(action)))
    return turn


StepKind = Literal["play", "undo", "seat"]  # what a catch-up's step of the log is


def advance(turn: list[Game], steps: list[tuple[StepKind, Any]]) -> list[list[Game]]:
    """The states of the current turn after each of the log's new steps, in version order:
    ("play", action JSON), ("undo", how many actions it took back) or ("seat", None: who plays
    a seat changed, the states stay). Pure: the server runs it itself for a few steps, in a
    worker process for more (`GameCore._advance`). ValueError if an undo
    reaches past the turn held (the caller reloads the game)."""
    out = []
    for kind, arg in steps:
        if kind == "play":
            turn = step(turn, *play(turn[-1], parse_action(arg)))
        elif kind == "seat":
            pass
        elif len(turn) <= arg:
            raise ValueError("an undo reaches past the states held")
        else:
            turn = turn[:-arg]
        out.append(turn)
    return out


def restore(players: int, seed: int, setup: dict[str, Any] | None,
            actions: list[tuple[int, dict[str, Any]]]
            ) -> tuple[list[Game], list[list[Any]], list[Snapshot]]:
    """A game stored before its log kept effects and snapshots (before migration 0003),
    replayed once from the start (`actions`: (seq, action JSON)): the states of its current
    turn, each action's public effects (as `Play.submit_as` stores them) and the
    snapshots a game played now has (its start, each round's end). Pure: runs in a worker."""
    game = new_game(players, seed, setup)
    turn, effects, kept = [game], [], [Snapshot(seq=0, actions=0, state=game.to_json())]
    for count, (seq, action) in enumerate(actions, start=1):
        before = turn[-1]
        after, events = play(before, parse_action(action))
        effects.append(list(public_events(events, None)))
        if ends_round(events):
            kept.append(Snapshot(seq=seq, actions=count, state=after.to_json()))
        turn = step(turn, after, events)
    return turn, effects, kept


def replayed(players: int, seed: int, setup: dict[str, Any] | None,
             snapshot: dict[str, Any] | None, actions: list[dict[str, Any]]) -> Game:
    """The state after `actions` from `snapshot` (None: from the start), no turn kept (a
    replay frame). Pure: runs in a worker process."""
    game = new_game(players, seed, setup) if snapshot is None else Game.from_json(snapshot)
    for action in actions:
        game = apply_action(game, parse_action(action))
    return game


def step(turn: list[Game], after: Game, events: Iterable[Event]) -> list[Game]:
    """The states of the current turn once `after` (with `events`, `play`'s) follows the last
    of `turn`: the turn goes on, or the engine's `turn_end` says it ended and a new one starts
    (the one that ended cannot be taken back)."""
    if any(e["type"] == "turn_end" for e in events):
        return [after]
    return [*turn, after]


def ends_round(events: Iterable[Event]) -> bool:
    """Did the action whose events (`play`'s) these are end a round (the last one ends the
    game)? Then its state is kept as a snapshot."""
    return any(e["type"] == "round_end" for e in events)
