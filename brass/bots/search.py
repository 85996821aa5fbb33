"""The search bots: determinised Monte Carlo search over what the seat cannot see.

The seat's own moves depend only on what it sees (its hand, the board, money), so the
candidates are the easy bot's best few (`valued_moves`) on any determinisation. Each round
of the search deals one new determinisation (`determinize`: other hands, face-down cards,
deck order and the rail shuffle at random) and plays every surviving candidate out in it:
the move, then every seat (this one included) moving as the easy bot would, until `seat`
is about to start its next turn (`Level.horizon` turns later) or the game ends; the end
position is scored relative to the best opponent (`outcome`). All candidates of a round see
the same cards and the same noise (common random numbers), so their differences are not
luck of the deal. Sequential halving keeps the better half after rounds 2, 4, 8, ...; the
best mean wins. The clock is checked before every move of every playout: the search stops
at `budget_s` (only whole rounds count), and with no whole round the easy bot's own best
is played.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from brass.engine import DATA, Game, apply_action
from brass.engine.actions import Action

from .determinize import determinize
from .easy import choose_action, position_value, valued_moves
from .observe import Observation, knowledge


@dataclass(frozen=True)
class Level:
    """How a search bot searches: `candidates` moves kept from the easy bot's list, playouts
    until the seat's `horizon`-th next turn (0: to the end of its own turn), and the share
    of the time budget it uses."""

    candidates: int
    horizon: int
    share: float


class Clock:
    """A deadline on the monotonic wall clock (what a waiting player feels; or, with `cpu`,
    on this process's CPU time, for benches on a shared machine) and an optional cap on
    whole rounds (tests use it to make a search repeatable)."""

    def __init__(self, budget_s: float, rounds: int | None = None, cpu: bool = False) -> None:
        self.now = time.process_time if cpu else time.monotonic
        self.deadline = self.now() + budget_s
        self.rounds = rounds

    def out(self) -> bool:
        return self.now() >= self.deadline


class OutOfTime(Exception):
    pass


def search(observation: Observation, level: Level, clock: Clock, rng: random.Random) -> Action:
    """The move the search prefers for the observing seat (which must be the one to move)."""
    known = knowledge(observation)
    seat = observation["view"]["viewer"]
    world = determinize(observation, rng, known)
    if world.current_seat != seat:
        raise ValueError("the observing seat is not the one to move")
    ranked = sorted(valued_moves(world, rng), key=lambda option: -option[0])
    moves = [action for _, action in ranked[:level.candidates]]
    if len(moves) == 1:
        return moves[0]
    totals = [0.0] * len(moves)
    alive = list(range(len(moves)))
    rounds = 0
    while len(alive) > 1 and not clock.out() and (clock.rounds is None
                                                   or rounds < clock.rounds):
        world = determinize(observation, rng, known)
        noise = rng.getrandbits(64)
        try:
            results = {i: playout(world, moves[i], seat, level.horizon, random.Random(noise),
                                  clock) for i in alive}
        except OutOfTime:
            break
        for i, value in results.items():
            totals[i] += value
        rounds += 1
        if rounds & (rounds - 1) == 0 and rounds >= 2 and len(alive) > 2:
            alive.sort(key=lambda i: -totals[i])
            alive = alive[:max(2, len(alive) // 2)]
    if rounds == 0:
        return moves[0]
    return moves[max(alive, key=lambda i: totals[i])]


def playout(game: Game, move: Action, seat: int, horizon: int, rng: random.Random,
            clock: Clock) -> float:
    """`outcome` for `seat` after `move` and easy play until `seat` starts its
    `horizon`-th next turn (or the game ends)."""
    game = apply_action(game, move)
    turns = 0
    while not game.is_over:
        mover = game.current_seat
        if mover == seat and _turn_starts(game):
            if turns >= horizon:
                break
            turns += 1
        elif mover != seat and horizon == 0:
            break
        if clock.out():
            raise OutOfTime
        game = apply_action(game, choose_action(game, rng))
    return outcome(game, seat)


def _turn_starts(game: Game) -> bool:
    """No action of the turn taken yet (RULES.md §3: one action in the first round)."""
    first = (game.era, game.round) == ("canal", 1)
    return game.actions_left == int(DATA.rules["first_round_actions" if first
                                                 else "actions_per_turn"])


def outcome(game: Game, seat: int) -> float:
    """How good `game` is for `seat`, in VP: its final VP (or its position's value) less
    the best opponent's."""
    if game.is_over:
        values = [float(p.vp) + 0.01 * p.income_level for p in game.players]
    else:
        values = [position_value(game, s) for s in range(game.num_players)]
    return values[seat] - max(v for s, v in enumerate(values) if s != seat)
