"""The learned evaluation: each seat's chance of winning and final VP from a position.

A small network (pure Python, no numpy at play time) shared by every seat: the seat's row of
`features` (public facts only) -> a hidden tanh layer -> a win score and a final-VP
estimate; the seats' win chances are the softmax of their scores. Its weights ship in
`weights/evaluation.json`, made by `brass.bots.train` from a self-play corpus with a seed
(the file records the corpus, seed and held-out figures). It reads no hidden card, so the
estimate of a determinisation is the estimate of the real game.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from brass.engine import Game

from .features import NAMES, features

HIDDEN = 16
WEIGHTS = Path(__file__).parent / "weights" / "evaluation.json"


@dataclass(frozen=True)
class Estimate:
    """Each seat's chance of winning (summing to 1) and expected final VP."""

    win: list[float]
    vp: list[float]

    def share(self, seat: int) -> float:
        """The seat's share of the final VP of all seats."""
        total = sum(max(v, 1.0) for v in self.vp)
        return max(self.vp[seat], 1.0) / total


class Evaluator:
    """The network of a weights file (`brass.bots.train.to_weights`)."""

    def __init__(self, weights: dict[str, Any]) -> None:
        if list(weights["names"]) != list(NAMES):
            raise ValueError("the weights were trained on other features: retrain them")
        self.w1 = [list(col) for col in zip(*weights["w1"], strict=True)]  # by hidden unit
        self.b1 = list(weights["b1"])
        self.w2 = [list(col) for col in zip(*weights["w2"], strict=True)]  # score, vp
        self.b2 = list(weights["b2"])
        self.vp_scale = float(weights["vp_scale"])
        self.trained: dict[str, Any] = weights.get("trained", {})

    def rows(self, rows: list[list[float]]) -> Estimate:
        scores, vps = [], []
        for x in rows:
            h = [math.tanh(b + sum(w * v for w, v in zip(ws, x, strict=True)))
                 for ws, b in zip(self.w1, self.b1, strict=True)]
            scores.append(self.b2[0] + sum(w * v for w, v in zip(self.w2[0], h, strict=True)))
            vps.append((self.b2[1] + sum(w * v for w, v in zip(self.w2[1], h, strict=True)))
                       * self.vp_scale)
        top = max(scores)
        e = [math.exp(s - top) for s in scores]
        total = sum(e)
        return Estimate([v / total for v in e], vps)

    def __call__(self, game: Game) -> Estimate:
        """The estimate of `game`; a finished game is its result (a shared first place
        splits the win)."""
        if game.is_over:
            firsts = [r == 1 for r in game.ranks()]
            return Estimate([f / sum(firsts) for f in firsts],
                            [float(s) for s in game.scores])
        return self.rows(features(game))


@cache
def evaluator() -> Evaluator:
    """The shipped evaluation."""
    return Evaluator(json.loads(WEIGHTS.read_text()))


def estimate(game: Game) -> Estimate:
    """The shipped evaluation of `game` (reads only what every seat sees)."""
    return evaluator()(game)
