"""A bot game's pace under an analysis flood (issue 25's "unchanged within noise"), run by
hand, not in the tests:

    python bench/flood.py [--rounds 4]

Two `brass serve` instances on a fresh Postgres database (as `tests/server/test_analysis_
jobs.py` starts them: one bot worker, one analysis worker, 0.5 s a judged move). Each round
measures the pace of two 4-bot games followed to their end (`bot_pace`: moves per second)
twice without an analysis, then makes a new finished game, floods its analysis (60 starts
with the host's token, half through each instance, and 20 without one, all at once) and
measures the pace twice more while one start more arrives every 0.1 s. The rounds' quiet
paces give the noise (the spread between two quiet runs); the flood's effect is the ratio of
the median paces. The flood's clients reuse one pooled connection per instance: an attacker's
own CPU is spent elsewhere, not on the two cores the server has here.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.server.test_analysis_jobs import (  # noqa: E402
    METRICS_TOKEN,
    analysis,
    bot_pace,
    finished_game,
    flooded,
)
from tests.server.test_instances import Instance, cluster  # noqa: E402


def flooded_pace(a: Instance, b: Instance) -> tuple[float, str]:
    """The pace (the better of two runs) while a new finished game's analysis is flooded; and
    how far the analysis got."""
    game, host, _ = finished_game(a.http)
    with flooded(a, b, game, host):
        pace = max(bot_pace(a), bot_pace(a))
    state = analysis(b.http, game)
    return pace, f"{state['status']} {state['done']}/{state['total']}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    extra = {"BRASS_WORKERS": "1", "BRASS_ANALYSIS_WORKERS": "1",
             "BRASS_ANALYSIS_BUDGET": "0.5", "BRASS_METRICS_TOKEN": METRICS_TOKEN}
    quiet: list[float] = []
    flooded: list[float] = []
    with tempfile.TemporaryDirectory() as folder, \
            cluster(Path(folder), 2, bot_delay=0.0, extra=extra) as found:
        a, b = found.instances
        for n in range(args.rounds):
            calm = [bot_pace(a), bot_pace(a)]
            quiet.append(max(calm))
            pace, state = flooded_pace(a, b)
            flooded.append(pace)
            print(f"round {n + 1}: quiet {calm[0]:.1f} and {calm[1]:.1f} moves/s; "
                  f"flooded {pace:.1f} (analysis {state})", flush=True)
    spread = [min(x, y) / max(x, y) for x, y in itertools.pairwise(quiet)]
    print(f"quiet paces: median {statistics.median(quiet):.1f} moves/s, one round against "
          f"the next {min(spread):.2f}-{max(spread):.2f} (the noise)")
    print(f"flooded: median {statistics.median(flooded):.1f} moves/s; ratio of medians "
          f"{statistics.median(flooded) / statistics.median(quiet):.2f} "
          f"(rounds: {', '.join(f'{f / q:.2f}' for f, q in zip(flooded, quiet, strict=True))})")


if __name__ == "__main__":
    main()
