"""Bot strength: seeded games between levels, seats rotated, win rates with 95% intervals.

    python bench/bots.py                      # the ladder: 2-player matches, see LADDER
    python bench/bots.py --games 20 --budget 0.3 --match hard:easy --players 4

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


def play_game(match: Match, seed: int, budget: float, cpu: bool) -> None:
    game = new_game(match.players, seed)
    tested = seed % match.players
    log: list[Any] = []
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        level = match.level if seat == tested else match.against
        start = time.process_time()
        action = bot(observe(game, seat, log), level, budget, rng, cpu)
        if seat == tested:
            match.cpu += time.process_time() - start
            match.moves += 1
        game, events = play(game, action)
        log.extend(public_events(list(events), None))
    match.games += 1
    match.wins += game.ranks()[tested] == 1
    match.vp.append(game.scores[tested])
    others = [vp for s, vp in enumerate(game.scores) if s != tested]
    match.others_vp.append(sum(others) / len(others))


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
    args = parser.parse_args(argv)
    pairs = [tuple(m.split(":")) for m in args.match or LADDER]
    for level, against in pairs:
        if level not in ALL_LEVELS or against not in ALL_LEVELS:
            parser.error(f"levels are {', '.join(ALL_LEVELS)}")
    print(f"budget {args.budget} s ({args.clock}) per move, {args.games} games per match, "
          f"seeds from {args.seed}", flush=True)
    for players in args.players or [2]:
        for level, against in pairs:
            match = Match(level, against, players)
            for i in range(args.games):
                play_game(match, args.seed + i, args.budget, args.clock == "cpu")
                print(f"  game {i + 1}: {report(match)}", file=sys.stderr, flush=True)
            print(report(match), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
