"""The analysis' stability and cost: sawtooth, agreement of two analyses, time of a 4-player game.

    python bench/analysis_check.py --budget 0.5

- Sawtooth: a 3-player game where seat 0 plays random legal moves against a medium and a
  hard bot (`--play-budget` s a move) is analysed at `--budget` and at a third of it; a
  sawtooth is a move after which a seat's win chance jumps by more than 25 points and
  straight back (by more than 25 the other way) on the next move. The issue's goal: at
  most 5 % of moves.
- Agreement: the same game analysed twice (other salts: other deals of the hidden cards);
  the share of moves whose win chances are all within 10 points (goal: 90 %).
- Time: analysis of a 124-move 4-player game of easy bots, wall and CPU seconds (the server
  judges a game's moves one worker call after another, so this is its wall time on one
  idle worker).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from brass.bots import choose, observe
from brass.bots.analysis import MoveAnalysis, analyse_log
from brass.bots.easy import choose_action
from brass.engine import legal_moves, new_game, play, public_events


def weak_game(seed: int, budget: float) -> list[dict[str, Any]]:
    """Seat 0 random, seat 1 medium, seat 2 hard."""
    game, rng, log, actions = new_game(3, seed), random.Random(seed), [], []
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        if seat == 0:
            action = rng.choice(legal_moves(game)).action
        else:
            action = choose(observe(game, seat, log), "medium" if seat == 1 else "hard",
                            budget, rng, cpu=True)
        actions.append(action.to_json())
        game, events = play(game, action)
        log.extend(public_events(list(events), None))
    return actions


def sawtooth(moves: list[MoveAnalysis]) -> float:
    teeth = 0
    for a, b, c in zip(moves, moves[1:], moves[2:], strict=False):
        if any(abs(y - x) > 0.25 and abs(z - y) > 0.25 and (y - x) * (z - y) < 0
               for x, y, z in zip(a["win"], b["win"], c["win"], strict=True)):
            teeth += 1
    return teeth / max(1, len(moves) - 2)


def agree(one: list[MoveAnalysis], two: list[MoveAnalysis]) -> float:
    close = sum(max(abs(x - y) for x, y in zip(a["win"], b["win"], strict=True)) <= 0.10
                for a, b in zip(one, two, strict=True))
    return close / len(one)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=0.5, help="analysis CPU s a move")
    parser.add_argument("--play-budget", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)
    actions = weak_game(args.seed, args.play_budget)
    runs = {}
    for budget, salt in ((args.budget, "one"), (args.budget, "two"), (args.budget / 3, "one")):
        runs[(budget, salt)] = analyse_log(3, args.seed, None, actions, 0, len(actions),
                                           budget, salt)
    for (budget, salt), moves in runs.items():
        unjudged = sum(not m["judged"] for m in moves)
        print(f"weak-player game ({len(actions)} moves), budget {budget:.3f} s, salt {salt}: "
              f"sawtooth {sawtooth(moves):.1%} of moves, unjudged {unjudged}")
    one, two = runs[(args.budget, "one")], runs[(args.budget, "two")]
    print(f"analysed twice: {agree(one, two):.0%} of moves within 10 points "
          f"(a third of the budget against the full one: "
          f"{agree(one, runs[(args.budget / 3, 'one')]):.0%})")
    game, rng, easy = new_game(4, args.seed), random.Random(args.seed), []
    while not game.is_over:
        action = choose_action(game, rng)
        easy.append(action.to_json())
        game, _ = play(game, action)
    wall, cpu = time.monotonic(), time.process_time()
    analyse_log(4, args.seed, None, easy, 0, len(easy), args.budget, "time")
    print(f"4-player game of {len(easy)} moves analysed in {time.monotonic() - wall:.1f} s "
          f"wall, {time.process_time() - cpu:.1f} s CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
