"""Random self-play: complete games where every move is drawn uniformly from `legal_actions`.

    python -m brass.engine.selfplay --players 4 --games 20 --seed 1

prints each game's final scores, rounds per era and action count, then the throughput.
Game `i` (from 0) is dealt with seed `seed + i`, and its moves are drawn from a generator
seeded from the same number, so every game is reproducible on its own.

>>> from brass.engine import replay
>>> result = play_random_game(players=2, seed=3)
>>> result.rounds
{'canal': 10, 'rail': 10}
>>> result.final == replay(2, 3, None, result.log)
True
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from .actions import Action
from .legal import legal_actions
from .rules import apply_action
from .setup import new_game
from .state import Game


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


def play_random_game(players: int, seed: int) -> SelfPlayResult:
    """Deal a game with `seed` and play it to the end, choosing each move uniformly among
    the full `legal_actions`."""
    start = time.perf_counter()
    rng = random.Random(f"selfplay:{seed}")
    game = new_game(players, seed)
    log: list[Action] = []
    rounds: dict[str, int] = {}
    while not game.is_over:
        rounds[game.era] = game.round
        action = rng.choice(legal_actions(game))
        game = apply_action(game, action)
        log.append(action)
    return SelfPlayResult(players, seed, game, tuple(log), rounds, time.perf_counter() - start)


def describe(index: int, result: SelfPlayResult) -> str:
    scores = " ".join(f"{vp:3d}" for vp in result.scores)
    rounds = " ".join(f"{era} {n}" for era, n in result.rounds.items())
    winners = ",".join(str(s) for s in result.final.winner_order)
    return (f"game {index + 1:3d}  seed {result.seed}  scores {scores}  (order {winners})  "
            f"rounds {rounds}  actions {len(result.log)}  {result.seconds:.2f} s")


def run(players: int, games: int, seed: int, out: TextIO | None = None) -> list[SelfPlayResult]:
    """Play `games` games with seeds `seed`, `seed + 1`, ...; print a line for each and the
    throughput to `out` (default: standard output)."""
    stream = out if out is not None else sys.stdout
    results: list[SelfPlayResult] = []
    start = time.perf_counter()
    for i in range(games):
        result = play_random_game(players, seed + i)
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
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    run(args.players, args.games, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
