"""Where the analysis ranks planted blunders (the issue's planted-blunder measure).

    python bench/blunders.py --budget 0.5

Analyses `planted_game` (tests/engine/test_analysis.py: from each era's third round seat 0
takes loans it does not need, seat 1 passes with £15+ while builds are offered, seat 2
passes when it could sell) at `--budget` CPU seconds a move and prints each blunder's rank
among all moves by loss, per era and kind, and how many fall in the top N mistakes (N: the
number of blunders).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "engine"))

from test_analysis import analysed, planted_game

from brass.engine import apply_action, new_game, parse_action


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=0.5)
    args = parser.parse_args(argv)
    actions, planted = planted_game()
    start = time.process_time()
    moves = analysed(actions, args.budget)
    cpu = time.process_time() - start
    ranked = [m["seq"] for m in sorted(moves, key=lambda m: -(m["loss"] or 0.0))]
    game, eras = new_game(3, 8), {}
    for i, entry in enumerate(actions):
        eras[i + 1] = game.era
        game = apply_action(game, parse_action(entry))
    top = len(planted)
    print(f"{len(actions)} moves, {len(planted)} blunders, analysed in {cpu:.1f} s of CPU; "
          f"unjudged moves: {sum(not m['judged'] for m in moves)}")
    kinds = {0: "loans", 1: "passes with builds", 2: "passes with sales"}
    for era in ("canal", "rail"):
        for seat, kind in kinds.items():
            ranks = sorted(ranked.index(s) + 1 for s in planted
                           if eras[s] == era and moves[s - 1]["seat"] == seat)
            if ranks:
                print(f"{era} {kind}: ranks {ranks}; in the top {top}: "
                      f"{sum(r <= top for r in ranks)}/{len(ranks)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
