"""Where the analysis ranks planted blunders (the issue's planted-blunder measure).

    python bench/blunders.py --budget 0.5                     # among sound play (the test's)
    python bench/blunders.py --budget 0.5 --among easy        # among the easy bot's moves

`--among sound` (default): `planted_among_sound_play` of tests/engine/test_analysis.py, a
3-player game of medium bots where from each era's second round, at the last action of a
turn, up to twice an era, seat 0 takes a loan with £40 or more, seat 1 passes while a build
is worth 3 VP more than passing and seat 2 passes while a sale is (by the easy bot's measure).
`--among easy`: `planted_game`, the easy bots' game where from each era's third round seat 0
takes loans with £25 or more, seat 1 passes with £15+ while builds are offered and seat 2
passes when it could sell, at any action. Analyses it at `--budget` CPU seconds a move and
prints each blunder's rank among all moves by loss, per era and kind, and how many fall in
the top N and 2N mistakes (N: the number of blunders).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "engine"))

from test_analysis import analysed, planted_among_sound_play, planted_game

from brass.engine import apply_action, new_game, parse_action


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=0.5)
    parser.add_argument("--among", choices=("sound", "easy"), default="sound")
    parser.add_argument("--seed", type=int, default=8)
    args = parser.parse_args(argv)
    if args.among == "sound":
        actions, planted = planted_among_sound_play(args.seed)
    else:
        actions, places = planted_game(seed=args.seed)
        kinds = {0: "loan", 1: "pass with builds offered", 2: "pass with a sale offered"}
        game, planted = new_game(3, args.seed), {}
        for i, entry in enumerate(actions):
            if i + 1 in places:
                planted[i + 1] = f"{game.era} {kinds[game.current_seat or 0]}"
            game = apply_action(game, parse_action(entry))
    start = time.process_time()
    moves = analysed(actions, args.budget, seed=args.seed)
    cpu = time.process_time() - start
    ranked = [m["seq"] for m in sorted(moves, key=lambda m: -(m["loss"] or 0.0))]
    top = len(planted)
    print(f"{len(actions)} moves, {top} blunders, analysed in {cpu:.1f} s of CPU; "
          f"unjudged moves: {sum(not m['judged'] for m in moves)}")
    for kind in sorted(set(planted.values())):
        ranks = sorted(ranked.index(s) + 1 for s, k in planted.items() if k == kind)
        print(f"{kind}: ranks {ranks}; in the top {top}: {sum(r <= top for r in ranks)}"
              f"/{len(ranks)}, in the top {2 * top}: {sum(r <= 2 * top for r in ranks)}"
              f"/{len(ranks)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
