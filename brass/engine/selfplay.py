"""Random self-play: complete games where every move is drawn uniformly from `legal_actions`.

    python -m brass.engine.selfplay --players 4 --games 20 --seed 1

prints each game's final scores, rounds per era and action count, then the throughput.
Game `i` (from 0) is dealt with seed `seed + i`, and its moves are drawn from a generator
seeded from the same number, so every game is reproducible on its own.

`--policy rich` draws the kind of action first, mostly build, network and sell (then the
sale of the most tiles), so that boards fill up and tiles flip: uniform play mostly builds
and seldom sells, and scores stay near zero.

>>> from brass.engine import replay
>>> result = play_random_game(players=2, seed=3)
>>> result.rounds
{'canal': 10, 'rail': 10}
>>> result.final == replay(2, 3, None, result.log)
True
"""

from __future__ import annotations

import argparse
import operator
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import TextIO

from .actions import Action, Sell
from .legal import legal_actions
from .rules import apply_action
from .setup import new_game
from .state import Game

POLICIES = ("uniform", "rich")
_KIND = operator.attrgetter("kind")
# Weights by action kind for the "rich" policy.
RICH_WEIGHTS = {"build": 8.0, "network": 6.0, "sell": 10.0, "develop": 1.0, "loan": 1.0,
                "scout": 0.5, "pass": 0.3}


def choose(rng: random.Random, actions: list[Action], policy: str = "uniform") -> Action:
    """One of `actions`: uniformly, or (`rich`) by kind first, selling as much as possible."""
    if policy == "uniform":
        return rng.choice(actions)
    if policy != "rich":
        raise ValueError(f"Unknown policy {policy!r}: one of {', '.join(POLICIES)}")
    by_kind: dict[str, list[Action]] = {}
    for kind, group in groupby(actions, _KIND):  # listings keep each kind together
        by_kind.setdefault(kind, []).extend(group)
    kinds = sorted(by_kind)
    kind = rng.choices(kinds, [RICH_WEIGHTS[k] for k in kinds])[0]
    if kind == "sell":  # multi-tile sales are rare otherwise
        sells = [a for a in by_kind[kind] if isinstance(a, Sell)]
        most = max(len(a.sales) for a in sells)
        return rng.choice([a for a in sells if len(a.sales) == most])
    return rng.choice(by_kind[kind])


@dataclass(frozen=True, slots=True)
class SelfPlayResult:
    """One finished random game."""

    players: int
    seed: int
    final: Game
    log: tuple[Action, ...]
    rounds: dict[str, int]  # rounds played in each era
    seconds: float

    @property
    def scores(self) -> tuple[int, ...]:
        return self.final.scores


def play_random_game(players: int, seed: int, policy: str = "uniform") -> SelfPlayResult:
    """Deal a game with `seed` and play it to the end, choosing each move among the full
    `legal_actions` by `policy`."""
    start = time.perf_counter()
    rng = random.Random(f"selfplay:{seed}")
    game = new_game(players, seed)
    log: list[Action] = []
    rounds: dict[str, int] = {}
    while not game.is_over:
        rounds[game.era] = game.round
        action = choose(rng, legal_actions(game), policy)
        game = apply_action(game, action)
        log.append(action)
    return SelfPlayResult(players, seed, game, tuple(log), rounds, time.perf_counter() - start)


def describe(index: int, result: SelfPlayResult) -> str:
    scores = " ".join(f"{vp:3d}" for vp in result.scores)
    rounds = " ".join(f"{era} {n}" for era, n in result.rounds.items())
    winners = ",".join(str(s) for s in result.final.winner_order)
    return (f"game {index + 1:3d}  seed {result.seed}  scores {scores}  (order {winners})  "
            f"rounds {rounds}  actions {len(result.log)}  {result.seconds:.2f} s")


def run(players: int, games: int, seed: int, out: TextIO | None = None,
        policy: str = "uniform") -> list[SelfPlayResult]:
    """Play `games` games with seeds `seed`, `seed + 1`, ...; print a line for each and the
    throughput to `out` (default: standard output)."""
    stream = out if out is not None else sys.stdout
    results: list[SelfPlayResult] = []
    start = time.perf_counter()
    for i in range(games):
        result = play_random_game(players, seed + i, policy)
        results.append(result)
        print(describe(i, result), file=stream)
    elapsed = time.perf_counter() - start
    actions = sum(len(r.log) for r in results)
    print(f"{games} games of {players} players, {actions} actions in {elapsed:.2f} s: "
          f"{games / elapsed:.2f} games/s, {actions / elapsed:.0f} actions/s",
          file=stream)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m brass.engine.selfplay",
        description="Play random legal games of Brass: Birmingham to the end.")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", choices=POLICIES, default="uniform",
                        help="uniform over legal actions, or rich (mostly build/network/sell)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    run(args.players, args.games, args.seed, policy=args.policy)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
