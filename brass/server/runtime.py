"""A game in memory (`Runtime`) and the pure helpers that rebuild it from its log."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Protocol

from brass.engine import Game, apply_action, new_game, parse_action

from .auth import token_matches
from .errors import ApiError
from .storage import ActionRecord, GameRecord


class Subscriber(Protocol):
    """A connected client: `seat` None is a spectator; `send` must not block."""

    seat: int | None

    def send(self, text: str) -> None: ...


@dataclass(eq=False)
class Runtime:
    """A game in memory: its record, its log without undone rows (`actions`), the current
    engine state and the one before the last action (for undo). Older states are not kept:
    a replay frame is rebuilt from the log when asked for."""

    record: GameRecord
    current: Game | None = None
    previous: Game | None = None
    actions: list[ActionRecord] = field(default_factory=list)
    action_ids: dict[str, ActionRecord] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    rendered: dict[int | None, str] = field(default_factory=dict)  # state text by seat
    legal_cache: tuple[int, int, str] | None = None  # version, seat, legal actions text

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def game(self) -> Game | None:
        return self.current

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
        return seat is not None and self.record.seats[seat].bot


def replay_tail(record: GameRecord, entries: list[ActionRecord]) -> tuple[Game | None, Game]:
    """Replay the log: the state before its last action (None for an empty log) and after."""
    previous, game = None, new_game(record.players, record.seed, record.setup)
    for entry in entries:
        previous, game = game, apply_action(game, parse_action(entry.action))
    return previous, game


def same_turn(before: Game, after: Game, seat: int) -> bool:
    """Did the action from `before` to `after` leave `seat` in the middle of its turn
    (no cards drawn, so the action can be taken back)?"""
    return (before.current_seat == seat and after.current_seat == seat
            and before.era == after.era and before.round == after.round
            and before.turn_index == after.turn_index
            and after.actions_left == before.actions_left - 1)
