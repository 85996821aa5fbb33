"""The search bots: a search over the seat's whole turn, valued by the learned evaluation.

The seat's own turn depends only on what it sees (its hand, the board, money), so it is
searched exactly on one determinisation: the easy bot's `first` best actions, after each of
them (when the turn goes on) the easy bot's `second` best, and every position the turn can
end in valued by the learned evaluation (`evaluation.estimate`, which reads no hidden card):
the seat's `utility` is its expected final VP less the best opponent's, plus `WIN_VP` for
every unit of win chance. An action's value is the best turn it starts.

The hard level then looks one round further for its `replies` best turns: each round of
that stage deals a new determinisation (other hands, deck and rail shuffle at random), makes
the turn and lets every other seat reply as the easy bot would until the seat is about to
start its next turn, and values that position; the turns' means (the same cards and noise
for each: common random numbers) re-rank them, around their mean value before the replies
(so they stay comparable with the turns not looked at). The clock is read before each position, so
the search stops at its budget; what it has not reached is marked unjudged
(`Evaluation.judged`), never guessed.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from brass.engine import DATA, Game, apply_action
from brass.engine.actions import Action

from .determinize import determinize
from .easy import choose_action, position_value, valued_moves
from .evaluation import Estimate, estimate
from .observe import Knowledge, Observation, knowledge

WIN_VP = 20.0  # VP a whole win chance is worth in `utility`
PRIOR = 1.0  # weight of the easy bot's `position_value` lead in `utility`
MIN_ROUNDS = 2  # reply-stage rounds before they re-rank the turns (one deal is luck)


@dataclass(frozen=True)
class Level:
    """How a search bot searches: `first` and `second` candidate actions of its turn (from
    the easy bot's list), `replies` turns looked at through the opponents' replies (0:
    none), and the share of the time budget it uses."""

    first: int
    second: int
    replies: int
    share: float


class Clock:
    """A deadline on the monotonic wall clock (what a waiting player feels; or, with `cpu`,
    on this process's CPU time, for benches on a shared machine) and an optional cap on
    rounds of the reply stage (tests use it to make a search repeatable)."""

    def __init__(self, budget_s: float, rounds: int | None = None, cpu: bool = False) -> None:
        self.now = time.process_time if cpu else time.monotonic
        self.deadline = self.now() + budget_s
        self.rounds = rounds

    def out(self) -> bool:
        return self.now() >= self.deadline


class OutOfTime(Exception):
    pass


def utility(game: Game, found: Estimate, seat: int) -> float:
    """How good a position is for `seat`, in VP: its expected final VP less the best
    opponent's, plus `WIN_VP` per unit of win chance (the learned `found`), plus its lead in
    the easy bot's `position_value` (`PRIOR`: rules the corpus never shows, such as money
    being worth nothing once the game ends)."""
    lead = found.vp[seat] - max(v for s, v in enumerate(found.vp) if s != seat)
    worth = [position_value(game, s) for s in range(game.num_players)]
    prior = worth[seat] - max(v for s, v in enumerate(worth) if s != seat)
    return lead + WIN_VP * found.win[seat] + PRIOR * prior


@dataclass
class Evaluation:
    """What a search found, per candidate action: its value (`utility` of the best turn it
    starts, then the mean after the replies when that stage reached it), the estimate
    behind that value, and how many positions were valued for it (0: not judged)."""

    moves: list[Action]
    values: list[float]
    estimates: list[Estimate | None]
    positions: list[int]
    rounds: list[int] = field(default_factory=list)  # reply-stage rounds per move

    def judged(self, i: int) -> bool:
        return self.positions[i] > 0

    def best(self) -> int:
        """The preferred move: the best value among the judged (the easy bot's best when
        none is)."""
        judged = [i for i in range(len(self.moves)) if self.judged(i)]
        return max(judged, key=self.values.__getitem__) if judged else 0


def search(observation: Observation, level: Level, clock: Clock, rng: random.Random) -> Action:
    """The move the search prefers for the observing seat (which must be the one to move)."""
    found = evaluate(observation, level, clock, rng)
    return found.moves[found.best()]


def evaluate(observation: Observation, level: Level, clock: Clock, rng: random.Random,
             keep: Action | None = None) -> Evaluation:
    """The search (see the module's docstring); `keep` (a legal move, e.g. the one a player
    made) is the first candidate, judged like the others (and first)."""
    known = knowledge(observation)
    seat = observation["view"]["viewer"]
    world = determinize(observation, rng, known)
    if world.current_seat != seat:
        raise ValueError("the observing seat is not the one to move")
    moves = _candidates(world, level.first, rng, keep)
    found = Evaluation(moves, [float("-inf")] * len(moves), [None] * len(moves),
                       [0] * len(moves), [0] * len(moves))
    ends: list[tuple[float, int, tuple[Action, ...]]] = []  # (value, move, whole turn)
    try:
        for i, move in enumerate(moves):
            after = apply_action(world, move)
            turn: list[tuple[Game, tuple[Action, ...]]] = [(after, (move,))]
            if not after.is_over and after.current_seat == seat and not turn_starts(after):
                turn = [(apply_action(after, second), (move, second))
                        for second in _candidates(after, level.second, rng, None)] or turn
            for end, actions in turn:
                if clock.out():
                    raise OutOfTime
                found.positions[i] += 1
                value = estimate(end)
                u = utility(end, value, seat)
                ends.append((u, i, actions))
                if u > found.values[i]:
                    found.values[i], found.estimates[i] = u, value
    except OutOfTime:
        return found
    if level.replies:
        _replies(observation, known, seat, found, ends, level.replies, clock, rng)
    return found


def _candidates(game: Game, count: int, rng: random.Random, keep: Action | None
                ) -> list[Action]:
    """The easy bot's `count` best actions; `keep` first (valued first, so a budget that
    runs out judges it before the others)."""
    ranked = sorted(valued_moves(game, rng), key=lambda option: -option[0])
    moves = [action for _, action in ranked[:count]]
    return moves if keep is None else [keep, *(m for m in moves if m != keep)]


def _replies(observation: Observation, known: Knowledge, seat: int, found: Evaluation,
             ends: list[tuple[float, int, tuple[Action, ...]]], count: int, clock: Clock,
             rng: random.Random) -> None:
    """The reply stage: the best turn of each of the `count` best moves, played on fresh
    determinisations with the opponents' easy replies; after `MIN_ROUNDS` whole rounds or
    more, their mean utilities re-rank those moves."""
    best: dict[int, tuple[float, tuple[Action, ...]]] = {}
    for u, i, actions in ends:
        if i not in best or u > best[i][0]:
            best[i] = (u, actions)
    chosen = sorted(best, key=lambda i: -best[i][0])[:count]
    if len(chosen) < 2:
        return
    totals = dict.fromkeys(chosen, 0.0)
    rounds = 0
    while not clock.out() and (clock.rounds is None or rounds < clock.rounds):
        world = determinize(observation, rng, known)
        noise = rng.getrandbits(64)
        try:
            results = {i: _reply(world, best[i][1], seat, random.Random(noise), clock)
                       for i in chosen}
        except OutOfTime:
            break
        rounds += 1
        for i, (end, value) in results.items():
            totals[i] += utility(end, value, seat)
    if rounds >= MIN_ROUNDS:
        # The opponents have moved in these positions, so their utilities sit lower than
        # the turn's own: re-rank the chosen around their mean turn value, keeping them
        # comparable with the moves not looked at.
        means = {i: totals[i] / rounds for i in chosen}
        shift = (sum(found.values[i] for i in chosen) - sum(means.values())) / len(chosen)
        for i in chosen:
            found.values[i] = means[i] + shift
            found.rounds[i] = rounds
            found.positions[i] += rounds


def _reply(game: Game, turn: tuple[Action, ...], seat: int, rng: random.Random,
           clock: Clock) -> tuple[Game, Estimate]:
    """The estimate after `turn` and the other seats' easy replies, when `seat` is about
    to start its next turn (or the game ends)."""
    for action in turn:
        game = apply_action(game, action)
    while not game.is_over and not (game.current_seat == seat and turn_starts(game)):
        if clock.out():
            raise OutOfTime
        game = apply_action(game, choose_action(game, rng))
    return game, estimate(game)


def turn_starts(game: Game) -> bool:
    """No action of the turn taken yet (RULES.md §3: one action in the first round)."""
    first = (game.era, game.round) == ("canal", 1)
    return game.actions_left == int(DATA.rules["first_round_actions" if first
                                                 else "actions_per_turn"])
