"""Reference copy of today's bots (brass/bots at dd020df) for bench/bots.py.

`choose`: a bot's move at a level, from an observation only.

- easy: the one-move look-ahead (`easy.choose_action`), played on a determinisation (it
  reads nothing hidden, so the deal drawn does not change its choice);
- medium: a search over its own turn only (4 candidates, a quarter of the budget);
- hard: a search over its turn and every opponent's next one (8 candidates, all of the
  budget), the hidden cards dealt anew each round (`search`).
"""

from __future__ import annotations

import random
from typing import Literal, get_args

from brass.bots.determinize import determinize
from brass.bots.observe import Observation
from brass.engine.actions import Action

from .easy import choose_action
from .search import Clock, Level, search

LevelName = Literal["easy", "medium", "hard"]
LEVELS: tuple[LevelName, ...] = get_args(LevelName)
SEARCHES: dict[str, Level] = {
    "medium": Level(candidates=4, horizon=0, share=0.25),
    "hard": Level(candidates=8, horizon=1, share=1.0),
}


def choose(observation: Observation, level: LevelName, budget_s: float,
           rng: random.Random, rounds: int | None = None, cpu: bool = False) -> Action:
    """The bot's move for the observing seat, which must be the one to move. The search
    levels stop within `budget_s` seconds of wall clock (less one move's play-out), and
    after `rounds` rounds when given (repeatable whatever the machine's speed); `cpu`
    counts this process's CPU time instead of the wall clock (benches). Raises
    `ValueError` if the seat has no move or `level` is unknown."""
    if not isinstance(observation, dict) or set(observation) != {"view", "log"}:
        raise TypeError("a bot takes an Observation (brass.bots.observe), never a Game")
    if level == "easy":
        return choose_action(determinize(observation, rng), rng)
    if level not in SEARCHES:
        raise ValueError(f"Unknown bot level {level!r}: one of {', '.join(LEVELS)}")
    config = SEARCHES[level]
    return search(observation, config, Clock(budget_s * config.share, rounds, cpu), rng)
