"""Analysis of a finished game: the search's judgement of every move, saying how sure it is.

Each move is judged from what its player could see then (the observation before it: the
seat's view and the public log so far), by the search over the player's whole turn with
the learned evaluation at its ends (`ANALYSIS`: the hard level's width, without the reply
stage, whose dealt cards would make two analyses of a game disagree), the move made judged
first: the move the search prefers, how much better it judged it (`loss`, in VP of the
search's `utility`: the seat's expected lead in final VP, a whole win chance worth 20, and
its lead in the easy bot's `position_value`), how many positions it valued for the move
made (`positions`; 0: not judged, and then `loss` is None, never 0), and each seat's
chance of winning after the move
made (the learned evaluation of that position: it reads only what every seat sees, so it is
the same for the real game and for any deal of its hidden cards). The budget is CPU time:
analysis runs in the server's workers beside bot moves and must not starve them; what it
could not reach is marked unjudged.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from brass.engine import apply_action, new_game, parse_action, play, public_events
from brass.engine.actions import Action

from .determinize import determinize
from .evaluation import estimate
from .observe import Observation, observe
from .search import Clock, Level, evaluate

ANALYSIS = Level(first=10, second=5, replies=0, share=1.0)


class MoveAnalysis(TypedDict):
    seq: int  # the move's place in the log, from 1
    seat: int
    played: dict[str, Any]
    preferred: dict[str, Any]
    judged: bool  # False: the budget ran out before the move made was valued
    positions: int  # positions the search valued for the move made
    loss: float | None  # how much better it judged `preferred` (0: the move made is it)
    win: list[float]  # each seat's estimated chance of winning after the move made
    win_preferred: list[float] | None  # the same after the preferred move's best turn


def analyse(observation: Observation, played: Action, budget_s: float,
            rng: random.Random, rounds: int | None = None) -> MoveAnalysis:
    """The search's judgement of `played`, the move the observing seat made."""
    world = determinize(observation, rng)
    after = estimate(apply_action(world, played))
    found = evaluate(observation, ANALYSIS, Clock(budget_s, rounds, cpu=True), rng,
                     keep=played)
    made = found.moves.index(played)
    best = found.best()
    judged = found.judged(made)
    if judged and found.values[made] >= found.values[best]:
        best = made  # a tie goes to the move made
    preferred = found.estimates[best]
    return {"seq": observation["view"]["action_count"] + 1,
            "seat": observation["view"]["viewer"], "played": played.to_json(),
            "preferred": found.moves[best].to_json(), "judged": judged,
            "positions": found.positions[made],
            "loss": round(max(0.0, found.values[best] - found.values[made]), 2) if judged
            else None,
            "win": [round(p, 3) for p in after.win],
            "win_preferred": None if preferred is None
            else [round(p, 3) for p in preferred.win]}


def analyse_log(players: int, seed: int, setup: dict[str, Any] | None,
                actions: Sequence[Mapping[str, Any]], start: int, stop: int,
                budget_s: float, salt: str) -> list[MoveAnalysis]:
    """Moves `start` to `stop` (0-based, `stop` excluded) of a game's log, each judged within
    `budget_s` seconds of CPU; the game is replayed from its deal to get there."""
    game = new_game(players, seed, setup)
    log: list[Any] = []
    out: list[MoveAnalysis] = []
    for i, entry in enumerate(actions[:stop]):
        action = parse_action(dict(entry))
        seat = game.current_seat
        if seat is None:
            raise ValueError(f"the log goes on after the game's end (move {i + 1})")
        if i >= start:
            out.append(analyse(observe(game, seat, log), action, budget_s,
                               random.Random(f"{salt}:{i}")))
        game, events = play(game, action)
        log.extend(public_events(list(events), None))
    return out
