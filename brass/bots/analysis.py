"""Analysis of a finished game: the hard bot's judgement of every move.

Each move is judged from what its player could see then (the observation before it: the
seat's view and the public log so far), by the hard bot's search with the move made kept
among the candidates (`evaluate(keep=...)`): the move the search prefers, how much better
it judged it (`loss`, VP of the search's outcome: its worth less the best opponent's), and
each seat's estimated chance of winning after the move made (how often each seat led at the
end of its play-outs). The budget is CPU time: analysis runs in the server's workers beside
bot moves and must not starve them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from brass.engine import new_game, parse_action, play, public_events
from brass.engine.actions import Action

from .levels import SEARCHES
from .observe import Observation, observe
from .search import Clock, evaluate


class MoveAnalysis(TypedDict):
    seq: int  # the move's place in the log, from 1
    seat: int
    played: dict[str, Any]
    preferred: dict[str, Any]
    loss: float  # how much better the search judged `preferred` (0: the move made is it)
    win: list[float]  # each seat's estimated chance of winning after the move made


def analyse(observation: Observation, played: Action, budget_s: float,
            rng: random.Random, rounds: int | None = None) -> MoveAnalysis:
    """The hard bot's judgement of `played`, the move the observing seat made."""
    found = evaluate(observation, SEARCHES["hard"], Clock(budget_s, rounds, cpu=True), rng,
                     keep=played)
    best, made = found.best(), found.moves.index(played)
    if found.counts[made] and found.mean(made) >= found.mean(best):
        best = made  # a tie goes to the move made
    loss = max(0.0, found.mean(best) - found.mean(made)) if found.counts[made] else 0.0
    return {"seq": observation["view"]["action_count"] + 1,
            "seat": observation["view"]["viewer"], "played": played.to_json(),
            "preferred": found.moves[best].to_json(), "loss": round(loss, 2),
            "win": [round(p, 3) for p in found.win_chances(made if found.counts[made]
                                                           else best)]}


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
