"""Bot strength: seeded games between levels, seats rotated, win rates with 95% intervals.

    python bench/bots.py                      # the ladder: 2-player matches, see LADDER
    python bench/bots.py --games 20 --budget 0.3 --match hard:easy --players 4
    python bench/bots.py --full --jobs 4      # FULL: 200 2-player games a match, 3-4 players

The levels are `brass.bots`' (easy, medium, hard) and today's bots before the learned
evaluation, kept unchanged in `bench/reference/` (ref-easy, ref-medium, ref-hard).

Game `i` of a match is dealt from seed `seed + i` and the tested bot sits at seat
`(seed + i) % players` (the deal shuffles the turn order too), the others play `--against`. Every
bot moves through `brass.bots.choose` from its own observation (view + public log), with
`--budget` seconds per move (a search level uses its share of it) of CPU time by
default (`--clock wall`: the wall clock, as the server counts). A win is
rank 1 (a shared first place counts). Prints per match: wins/games, the win rate with its
Wilson 95% interval, the average VP of the tested bot and of the others, the CPU seconds
per tested-bot move, and the goal where the issue sets one.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference.levels import choose as reference_choose

from brass.bots import LEVELS, Observation, choose, observe
from brass.engine import new_game, play, public_events
from brass.engine.actions import Action

REFERENCE = tuple(f"ref-{level}" for level in LEVELS)
ALL_LEVELS = (*LEVELS, *REFERENCE)
# The goals: the new levels beat today's in >= 60% of 2-player games (the interval's
# lower end above 50%), and each level beats the one below it (lower end above 50%).
GOALS = {("hard", "ref-hard", 2): 0.60, ("medium", "ref-medium", 2): 0.60,
         ("hard", "medium", 2): 0.50, ("medium", "easy", 2): 0.50}
LADDER = ["medium:easy", "hard:medium", "medium:ref-medium", "hard:ref-hard"]
# The full run (`--full`): (level, against, players, budget s a move, games). Reduced budgets
# (the medium level needs about 0.01 s of its quarter; hard uses all of its budget), enough
# 2-player games for the intervals to decide, and the 3- and 4-player tables (a seat wins by
# chance 1/3 and 1/4 there: no goal, the interval says how far above chance).
FULL = [("medium", "easy", 2, 0.1, 200), ("medium", "ref-medium", 2, 0.1, 200),
        ("hard", "medium", 2, 0.05, 200), ("hard", "ref-hard", 2, 0.03, 200),
        ("hard", "ref-hard", 3, 0.03, 60), ("hard", "ref-hard", 4, 0.03, 60)]


def bot(observation: Observation, level: str, budget: float, rng: random.Random,
        cpu: bool) -> Action:
    """`level`'s move: a new level through `brass.bots.choose`, a reference one through
    today's copy."""
    if level.startswith("ref-"):
        return reference_choose(observation, level[4:],  # type: ignore[arg-type]
                                budget, rng, cpu=cpu)
    return choose(observation, level, budget, rng, cpu=cpu)  # type: ignore[arg-type]


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% for z = 1.96)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Match:
    level: str
    against: str
    players: int
    wins: int = 0
    games: int = 0
    vp: list[int] = field(default_factory=list)
    others_vp: list[float] = field(default_factory=list)
    cpu: float = 0.0
    moves: int = 0

    def add(self, result: Result) -> None:
        self.games += 1
        self.wins += result.win
        self.vp.append(result.vp)
        self.others_vp.append(result.others_vp)
        self.cpu += result.cpu
        self.moves += result.moves


@dataclass
class Result:
    """One game's result for the tested bot."""

    win: bool
    vp: int
    others_vp: float
    cpu: float
    moves: int


def play_game(match: Match, seed: int, budget: float, cpu: bool) -> None:
    match.add(game_result(match.level, match.against, match.players, seed, budget, cpu))


def game_result(level: str, against: str, players: int, seed: int, budget: float,
                cpu: bool) -> Result:
    """Game `seed` of a match (a top-level function: `--jobs` plays it in another process)."""
    game = new_game(players, seed)
    tested = seed % players
    log: list[Any] = []
    rng = random.Random(seed)
    spent, moves = 0.0, 0
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        start = time.process_time()
        action = bot(observe(game, seat, log), level if seat == tested else against, budget,
                     rng, cpu)
        if seat == tested:
            spent += time.process_time() - start
            moves += 1
        game, events = play(game, action)
        log.extend(public_events(list(events), None))
    others = [vp for s, vp in enumerate(game.scores) if s != tested]
    return Result(game.ranks()[tested] == 1, game.scores[tested], sum(others) / len(others),
                  spent, moves)


def report(match: Match) -> str:
    low, high = wilson(match.wins, match.games)
    rate = match.wins / match.games if match.games else 0.0
    goal = GOALS.get((match.level, match.against, match.players))
    met = goal is not None and rate >= goal and low > 0.5
    verdict = ("" if goal is None else
               f"  goal >= {goal:.0%}, lower end > 50%: {'met' if met else 'NOT met'}")
    vp = sum(match.vp) / max(1, len(match.vp))
    others = sum(match.others_vp) / max(1, len(match.others_vp))
    cpu = match.cpu / max(1, match.moves)
    return (f"{match.level} vs {match.players - 1} {match.against} ({match.players}p): "
            f"{match.wins}/{match.games} wins = {rate:.0%} [95% {low:.0%}-{high:.0%}]  "
            f"VP {vp:.1f} vs {others:.1f}  cpu {cpu:.2f} s/move{verdict}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=12, help="games per match")
    parser.add_argument("--budget", type=float, default=1.0, help="seconds per move")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="what the budget counts: this process's CPU time (default: the "
                        "machine may be shared) or the wall clock (as the server does)")
    parser.add_argument("--match", action="append", metavar="LEVEL:AGAINST",
                        help=f"e.g. hard:ref-hard (repeatable); default {' '.join(LADDER)}")
    parser.add_argument("--players", type=int, action="append", choices=(2, 3, 4),
                        help="repeatable; default 2")
    parser.add_argument("--full", action="store_true",
                        help="the full run (FULL: each match at its own budget and number "
                        "of games; --games, --budget, --match and --players are ignored)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="games played at once, each in its own process (a CPU budget "
                        "stays fair however many run; a wall-clock one does not)")
    args = parser.parse_args(argv)
    pairs = [tuple(m.split(":")) for m in args.match or LADDER]
    for level, against in pairs:
        if level not in ALL_LEVELS or against not in ALL_LEVELS:
            parser.error(f"levels are {', '.join(ALL_LEVELS)}")
    runs = FULL if args.full else [(level, against, players, args.budget, args.games)
                                   for players in args.players or [2]
                                   for level, against in pairs]
    print(f"{'full run' if args.full else f'budget {args.budget} s'} ({args.clock}) per move, "
          f"seeds from {args.seed}, {args.jobs} at once", flush=True)
    cpu = args.clock == "cpu"
    with multiprocessing.get_context("spawn").Pool(args.jobs) if args.jobs > 1 else \
            _InProcess() as pool:
        for level, against, players, budget, games in runs:
            match = Match(level, against, players)
            results = pool.imap(_played, [(level, against, players, args.seed + i, budget, cpu)
                                          for i in range(games)])
            for i, result in enumerate(results):
                match.add(result)
                print(f"  game {i + 1}: {report(match)}", file=sys.stderr, flush=True)
            print(f"{report(match)}  budget {budget} s", flush=True)
    return 0


def _played(args: tuple[str, str, int, int, float, bool]) -> Result:
    return game_result(*args)


class _InProcess:
    """A pool of one: the games in this process, one after another."""

    def __enter__(self) -> _InProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap(self, fn: Any, items: list[Any]) -> Any:
        return map(fn, items)


if __name__ == "__main__":
    raise SystemExit(main())
