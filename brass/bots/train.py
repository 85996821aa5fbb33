"""The learned evaluation's corpus and training (numpy; a dev tool, not needed to play).

    python -m brass.bots.train corpus --games 1200 --seed 1 --out var/corpus.jsonl
    python -m brass.bots.train fit --corpus var/corpus.jsonl --seed 1 \
        --out brass/bots/weights/evaluation.json

`corpus`: self-play games of the easy bot with noise (a fifth of its moves drawn from its
five best, so the corpus sees more than one line of play), 2, 3 and 4 players in turn; game
`i` is dealt from `seed * 100003 + i` and its moves drawn from a generator seeded from the
same numbers, so the corpus is the seed's. Each line is a game's log and final scores.

`fit`: replays every game, takes `features` of each position and trains the small network
of `evaluation.py` (shared by every seat: features -> hidden tanh layer -> win score and
final VP) on the game's outcome: cross-entropy of the winner (a shared first place splits
it) over a softmax of the seats' scores, plus the squared error of each seat's final VP.
Full-batch Adam from a seeded start: the same corpus and seed give the same weights. The
last tenth of the games (by index) is held out and reported.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from brass.engine import apply_action, new_game, parse_action

from .easy import valued_moves
from .evaluation import HIDDEN, Evaluator
from .features import NAMES, features

Array = npt.NDArray[np.float64]
PLAYER_COUNTS = (2, 3, 4)
NOISE = 0.2
VP_SCALE = 100.0
VP_WEIGHT = 1.0
DECAY = 1e-4  # L2 on the weights: similar positions get similar estimates


def corpus_game(players: int, seed: int) -> dict[str, Any]:
    """One noisy self-play game of the easy bot: its deal, log and final scores."""
    game, rng = new_game(players, seed), random.Random(seed)
    actions = []
    while not game.is_over:
        ranked = sorted(valued_moves(game, rng), key=lambda option: -option[0])
        action = (rng.choice(ranked[:5]) if rng.random() < NOISE else ranked[0])[1]
        actions.append(action.to_json())
        game = apply_action(game, action)
    return {"players": players, "seed": seed, "actions": actions,
            "scores": list(game.scores), "ranks": game.ranks()}


def make_corpus(games: int, seed: int, out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    start = time.process_time()
    with out.open("w") as f:
        for i in range(games):
            f.write(json.dumps(corpus_game(PLAYER_COUNTS[i % 3], seed * 100003 + i)) + "\n")
            f.flush()
    print(f"{games} games in {time.process_time() - start:.0f} s of CPU -> {out}")


def read_corpus(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def positions(game_log: dict[str, Any], every: int = 1) -> Iterator[list[list[float]]]:
    """`features` of every `every`-th position of a logged game, from the deal to the end."""
    game = new_game(game_log["players"], game_log["seed"])
    for i, entry in enumerate(game_log["actions"]):
        if i % every == 0:
            yield features(game)
        game = apply_action(game, parse_action(entry))


def targets(game_log: dict[str, Any]) -> tuple[list[float], list[float]]:
    """Each seat's share of the win (a shared first place splits it) and final VP."""
    firsts = [r == 1 for r in game_log["ranks"]]
    return ([f / sum(firsts) for f in firsts],
            [float(s) for s in game_log["scores"]])


def dataset(games: Sequence[dict[str, Any]], every: int = 1
            ) -> tuple[Array, Array, Array, Array]:
    """Padded to 4 seats: features (N, 4, F), seat mask (N, 4), win share and final VP."""
    xs, masks, wins, vps = [], [], [], []
    width = len(NAMES)
    for log in games:
        win, vp = targets(log)
        n = log["players"]
        pad = 4 - n
        for rows in positions(log, every):
            xs.append(rows + [[0.0] * width] * pad)
            masks.append([1.0] * n + [0.0] * pad)
            wins.append(win + [0.0] * pad)
            vps.append(vp + [0.0] * pad)
    return (np.array(xs), np.array(masks), np.array(wins), np.array(vps))


def forward(params: dict[str, Array], x: Array, mask: Array
            ) -> tuple[Array, Array, Array, Array]:
    """Hidden activations, win probabilities (softmax over the seats present) and VP."""
    h = np.tanh(x @ params["w1"] + params["b1"])
    out = h @ params["w2"] + params["b2"]
    score = np.where(mask > 0, out[..., 0], -1e9)
    score = score - score.max(axis=1, keepdims=True)
    e = np.exp(score) * mask
    p = e / e.sum(axis=1, keepdims=True)
    return h, p, out[..., 1], out


def losses(params: dict[str, Array], data: tuple[Array, Array, Array, Array]
           ) -> dict[str, float]:
    """Log-loss and Brier of the win chance, and the mean absolute final-VP error."""
    x, mask, win, vp = data
    _, p, v, _ = forward(params, x, mask)
    seats = mask.sum()
    log_loss = -(win * np.log(np.clip(p, 1e-9, 1))).sum() / len(x)
    brier = (((p - win) ** 2) * mask).sum() / seats
    vp_error = (np.abs(v * VP_SCALE - vp) * mask).sum() / seats
    return {"log_loss": float(log_loss), "brier": float(brier), "vp_mae": float(vp_error)}


def even_odds(data: tuple[Array, Array, Array, Array]) -> float:
    """The log-loss of giving every seat the same chance (what an estimate must beat)."""
    _, mask, win, _ = data
    p = mask / mask.sum(axis=1, keepdims=True)
    return float(-(win * np.log(np.clip(p, 1e-9, 1))).sum() / len(mask))


def fit(data: tuple[Array, Array, Array, Array], seed: int, steps: int = 800,
        rate: float = 0.01) -> dict[str, Array]:
    """Full-batch Adam on cross-entropy of the winner plus VP squared error (and `DECAY`)."""
    x, mask, win, vp = data
    rng = np.random.default_rng(seed)
    width = x.shape[-1]
    params = {"w1": rng.normal(0, 1 / np.sqrt(width), (width, HIDDEN)),
              "b1": np.zeros(HIDDEN), "w2": rng.normal(0, 1 / np.sqrt(HIDDEN), (HIDDEN, 2)),
              "b2": np.zeros(2)}
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    n, seats = len(x), mask.sum()
    for step in range(1, steps + 1):
        h, p, v, _ = forward(params, x, mask)
        d_score = (p - win) * mask / n
        d_vp = 2 * VP_WEIGHT * (v - vp / VP_SCALE) * mask / seats
        d_out = np.stack([d_score, d_vp], axis=-1)
        grads = {"w2": np.einsum("nsh,nso->ho", h, d_out), "b2": d_out.sum(axis=(0, 1))}
        d_h = (d_out @ params["w2"].T) * (1 - h * h)
        grads["w1"] = np.einsum("nsf,nsh->fh", x, d_h)
        grads["b1"] = d_h.sum(axis=(0, 1))
        grads["w1"] += DECAY * params["w1"]
        grads["w2"] += DECAY * params["w2"]
        for k, g in grads.items():
            m, s = moments[k]
            m[:] = 0.9 * m + 0.1 * g
            s[:] = 0.999 * s + 0.001 * g * g
            params[k] = params[k] - rate * (m / (1 - 0.9 ** step)) / (
                np.sqrt(s / (1 - 0.999 ** step)) + 1e-8)
    return params


def to_weights(params: dict[str, Array], meta: dict[str, Any]) -> dict[str, Any]:
    return {"names": list(NAMES), "hidden": HIDDEN, "vp_scale": VP_SCALE, **meta,
            **{k: np.round(v, 6).tolist() for k, v in params.items()}}


def train(corpus: Path, seed: int, out: Path, steps: int, every: int) -> dict[str, Any]:
    games = read_corpus(corpus)
    held = max(1, len(games) // 10)
    start = time.process_time()
    train_set, test_set = dataset(games[:-held], every), dataset(games[-held:], every)
    built = time.process_time() - start
    params = fit(train_set, seed, steps)
    trained = time.process_time() - start - built
    report = {"corpus": corpus.name, "games": len(games) - held, "held_out_games": held,
              "positions": len(train_set[0]), "held_out_positions": len(test_set[0]),
              "seed": seed, "steps": steps, "every": every,
              "cpu_s": {"features": round(built), "fit": round(trained)},
              "train": losses(params, train_set), "held_out": losses(params, test_set),
              "baseline_log_loss": even_odds(test_set)}
    weights = to_weights(params, {"trained": report})
    Evaluator(weights)  # the play-time side reads it back
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(weights, separators=(",", ":")) + "\n")
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("corpus", help="self-play games")
    c.add_argument("--games", type=int, default=1200)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--out", type=Path, default=Path("var/corpus.jsonl"))
    f = sub.add_parser("fit", help="train the evaluation on a corpus")
    f.add_argument("--corpus", type=Path, default=Path("var/corpus.jsonl"))
    f.add_argument("--seed", type=int, default=1)
    f.add_argument("--steps", type=int, default=800)
    f.add_argument("--every", type=int, default=2, help="take every n-th position")
    f.add_argument("--out", type=Path, default=Path(__file__).parent / "weights"
                   / "evaluation.json")
    args = parser.parse_args(argv)
    if args.command == "corpus":
        make_corpus(args.games, args.seed, args.out)
    else:
        print(json.dumps(train(args.corpus, args.seed, args.out, args.steps, args.every),
                         indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
