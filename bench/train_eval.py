"""The learned evaluation against play-out estimates, on positions of held-out games.

    python bench/train_eval.py --corpus var/corpus.jsonl --games 1200 --positions 120 \
        --budget 0.5

Takes `--positions` positions spread over the games `brass.bots.train fit` held out (the last
tenth of the first `--games` of the corpus) and estimates each seat's win chance there:
- `learned`: `brass.bots.evaluation.estimate` (the shipped weights);
- `today`: today's analysis (bench/reference: the hard search with its play-outs, `--budget`
  CPU seconds), each seat's share of play-outs it led at the end;
- `playout`: easy-bot play-outs to the game's end from fresh determinisations of the mover's
  observation within `--budget` CPU seconds: how often each seat won, and its mean final VP.
Prints each estimate's log-loss and Brier score of the winner, its final-VP error where it
has one, and the CPU it took per position.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference.levels import SEARCHES
from reference.search import Clock, evaluate

from brass.bots.determinize import determinize
from brass.bots.easy import choose_action
from brass.bots.evaluation import estimate
from brass.bots.observe import Observation, observe
from brass.bots.train import read_corpus, targets
from brass.engine import Game, apply_action, new_game, parse_action, play, public_events


def held_out_positions(games: list[dict[str, Any]], count: int, rng: random.Random
                       ) -> list[tuple[Game, Observation, dict[str, Any]]]:
    """`count` positions drawn from the held-out games (a game, its mover's observation)."""
    held = games[-max(1, len(games) // 10):]
    picks = sorted((rng.randrange(len(held)), rng.random()) for _ in range(count))
    out = []
    for g, where in picks:
        log_entry = held[g]
        stop = int(where * len(log_entry["actions"]))
        game, log = new_game(log_entry["players"], log_entry["seed"]), []
        for entry in log_entry["actions"][:stop]:
            game, events = play(game, parse_action(entry))
            log.extend(public_events(list(events), None))
        seat = game.current_seat
        assert seat is not None
        out.append((game, observe(game, seat, log), log_entry))
    return out


def playout(observation: Observation, budget: float, rng: random.Random
            ) -> tuple[list[float], list[float]]:
    """Win frequencies (smoothed toward even) and mean final VP of easy play-outs."""
    n = observation["view"]["num_players"]
    wins, vps, count = [0.0] * n, [0.0] * n, 0
    deadline = time.process_time() + budget
    while time.process_time() < deadline:
        game = determinize(observation, rng)
        while not game.is_over and time.process_time() < deadline:
            game = apply_action(game, choose_action(game, rng))
        if not game.is_over:
            break
        firsts = [r == 1 for r in game.ranks()]
        for s in range(n):
            wins[s] += firsts[s] / sum(firsts)
            vps[s] += game.scores[s]
        count += 1
    return ([(w + 1 / n) / (count + 1) for w in wins],
            [v / count for v in vps] if count else [math.nan] * n)


def today(observation: Observation, budget: float, rng: random.Random) -> list[float]:
    found = evaluate(observation, SEARCHES["hard"], Clock(budget, cpu=True), rng)
    return found.win_chances(found.best()) if any(found.counts) else [
        1 / len(found.tops[0])] * len(found.tops[0])


def score(name: str, rows: list[tuple[list[float], list[float] | None, dict[str, Any]]],
          cpu: float) -> str:
    log_loss = brier = vp_error = 0.0
    seats = vp_seats = 0
    for win, vp, log_entry in rows:
        share, final = targets(log_entry)
        log_loss -= sum(t * math.log(max(p, 1e-9)) for t, p in zip(share, win, strict=True))
        brier += sum((p - t) ** 2 for p, t in zip(win, share, strict=True))
        seats += len(win)
        if vp is not None and not any(math.isnan(v) for v in vp):
            vp_error += sum(abs(v - f) for v, f in zip(vp, final, strict=True))
            vp_seats += len(vp)
    vp_text = f"{vp_error / vp_seats:5.1f}" if vp_seats else "    -"
    return (f"{name:8} log-loss {log_loss / len(rows):.3f}  Brier {brier / seats:.3f}  "
            f"final-VP error {vp_text}  cpu {cpu / len(rows):.3f} s/position")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=Path("var/corpus.jsonl"))
    parser.add_argument("--games", type=int, default=1200, help="the corpus' first n games")
    parser.add_argument("--positions", type=int, default=120)
    parser.add_argument("--budget", type=float, default=0.5, help="CPU s per play-out estimate")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    positions = held_out_positions(read_corpus(args.corpus)[:args.games], args.positions, rng)
    results: dict[str, list[tuple[list[float], list[float] | None, dict[str, Any]]]] = {
        "learned": [], "today": [], "playout": []}
    cpu = dict.fromkeys(results, 0.0)
    for game, observation, log_entry in positions:
        start = time.process_time()
        found = estimate(game)
        cpu["learned"] += time.process_time() - start
        results["learned"].append((found.win, found.vp, log_entry))
        start = time.process_time()
        results["today"].append((today(observation, args.budget, rng), None, log_entry))
        cpu["today"] += time.process_time() - start
        start = time.process_time()
        win, vp = playout(observation, args.budget, rng)
        cpu["playout"] += time.process_time() - start
        results["playout"].append((win, vp, log_entry))
    print(f"{len(positions)} held-out positions of {args.corpus} (first {args.games} games), "
          f"play-outs at {args.budget} s of CPU")
    for name, rows in results.items():
        print(score(name, rows, cpu[name]))
    both = [i for i, (_, vp, _) in enumerate(results["playout"])
            if vp is not None and not any(math.isnan(v) for v in vp)]
    print(f"on the {len(both)} positions where the play-outs reached the end:")
    for name in ("learned", "playout"):
        print(score(name, [results[name][i] for i in both], cpu[name] * len(both)
                    / len(positions)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
