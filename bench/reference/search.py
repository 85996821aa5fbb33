"""Reference copy of today's bots (brass/bots at dd020df) for bench/bots.py.

The search bots: determinised Monte Carlo search over what the seat cannot see.

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

from brass.bots.determinize import determinize
from brass.bots.observe import Observation, knowledge
from brass.engine import DATA, Game, apply_action
from brass.engine.actions import Action

from .easy import choose_action, position_value, valued_moves


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


@dataclass
class Evaluation:
    """What a search found: its candidate moves, the sum of their play-outs' outcomes, how
    many play-outs each had, and per move how often each seat came out on top."""

    moves: list[Action]
    totals: list[float]
    counts: list[int]
    tops: list[list[int]]
    alive: list[int]

    def mean(self, i: int) -> float:
        return self.totals[i] / self.counts[i] if self.counts[i] else float("-inf")

    def best(self) -> int:
        """The preferred move: the best mean among those kept to the end (the easy bot's
        best when no round was played)."""
        if not any(self.counts):
            return 0
        return max(self.alive, key=self.mean)

    def win_chances(self, i: int) -> list[float]:
        """Each seat's estimated chance of winning after move `i`: how often it led at the
        end of a play-out (smoothed toward even)."""
        seats = len(self.tops[i])
        return [(top + 1 / seats) / (self.counts[i] + 1) for top in self.tops[i]]


def search(observation: Observation, level: Level, clock: Clock, rng: random.Random) -> Action:
    """The move the search prefers for the observing seat (which must be the one to move)."""
    found = evaluate(observation, level, clock, rng)
    return found.moves[found.best()]


def evaluate(observation: Observation, level: Level, clock: Clock, rng: random.Random,
             keep: Action | None = None) -> Evaluation:
    """The search (see the module's docstring); `keep` (a legal move, e.g. the one a player
    made) is among the candidates and never dropped, so it is judged with the best."""
    known = knowledge(observation)
    seat = observation["view"]["viewer"]
    world = determinize(observation, rng, known)
    if world.current_seat != seat:
        raise ValueError("the observing seat is not the one to move")
    ranked = sorted(valued_moves(world, rng), key=lambda option: -option[0])
    moves = [action for _, action in ranked[:level.candidates]]
    if keep is not None and keep not in moves:
        moves.append(keep)
    kept = moves.index(keep) if keep is not None else None
    found = Evaluation(moves, [0.0] * len(moves), [0] * len(moves),
                       [[0] * world.num_players for _ in moves], list(range(len(moves))))
    alive = found.alive
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
        for i, values in results.items():
            found.totals[i] += outcome(values, seat)
            found.counts[i] += 1
            found.tops[i][max(range(len(values)), key=values.__getitem__)] += 1
        rounds += 1
        if rounds & (rounds - 1) == 0 and rounds >= 2 and len(alive) > 2:
            alive.sort(key=lambda i: -found.totals[i])
            keep_n = max(2, len(alive) // 2)
            alive[:] = alive[:keep_n] + [i for i in alive[keep_n:] if i == kept]
    return found


def playout(game: Game, move: Action, seat: int, horizon: int, rng: random.Random,
            clock: Clock) -> list[float]:
    """`values` after `move` and easy play until `seat` starts its `horizon`-th next turn
    (or the game ends)."""
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
    return values(game)


def _turn_starts(game: Game) -> bool:
    """No action of the turn taken yet (RULES.md §3: one action in the first round)."""
    first = (game.era, game.round) == ("canal", 1)
    return game.actions_left == int(DATA.rules["first_round_actions" if first
                                                 else "actions_per_turn"])


def values(game: Game) -> list[float]:
    """Each seat's worth in VP: final VP once the game is over (income breaks ties), else
    the easy bot's `position_value`."""
    if game.is_over:
        return [float(p.vp) + 0.01 * p.income_level for p in game.players]
    return [position_value(game, s) for s in range(game.num_players)]


def outcome(values: list[float], seat: int) -> float:
    """How good `values` are for `seat`: its worth less the best opponent's."""
    return values[seat] - max(v for s, v in enumerate(values) if s != seat)
