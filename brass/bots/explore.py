"""The analysis board: from a position of a finished game, a line of other moves and what the
bots make of where it leads (the learned evaluation, the moves there, a bot's reply).

A finished game's log is public (its seed too), so the position is the real game, not a
determinisation; the reply is chosen from the observing seat's view and the public log all
the same (`choose` takes nothing else), so it is the move the bot would make in a game. The
line is never stored: the caller shows it and forgets it. Pure (no I/O; the clock only to
stop the reply's search), so the server runs it in its worker processes.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from brass.engine import new_game, parse_action, play, public_events, view

from .easy import valued_moves
from .evaluation import estimate
from .levels import LevelName, choose
from .observe import observe

MAX_LINE = 40  # moves a line may add to the game's position
REPLY_LEVEL: LevelName = "medium"  # the reply a player meets most (a new bot's level)


class Explored(TypedDict):
    to_move: int | None  # the seat to move at the line's end (None: the game is over)
    view: dict[str, Any]  # the position, as the seat to move sees it (the spectator's at the end)
    moves: list[dict[str, Any]]  # the distinct legal moves there, the easy bot's best first
    win: list[float]  # each seat's estimated chance of winning there
    vp: list[float]  # each seat's estimated final VP
    reply: dict[str, Any] | None  # the bot's move there (None: the game is over)


def explore(players: int, seed: int, setup: dict[str, Any] | None,
            actions: Sequence[Mapping[str, Any]], line: Sequence[Mapping[str, Any]],
            budget_s: float, salt: str) -> Explored:
    """The position after the game's `actions` and then `line` (each checked by the
    engine: `IllegalAction` or `MalformedAction` for one that is not a legal move there),
    with the evaluation, the legal moves and the `REPLY_LEVEL` bot's reply within `budget_s`
    seconds of CPU."""
    if len(line) > MAX_LINE:
        raise ValueError(f"a line of at most {MAX_LINE} moves")
    game = new_game(players, seed, setup)
    log: list[Any] = []
    for entry in [*actions, *line]:
        game, events = play(game, parse_action(dict(entry)))
        log.extend(public_events(list(events), None))
    found = estimate(game)
    seat = game.current_seat
    rng = random.Random(f"{salt}:{len(actions)}:{len(line)}")
    moves = [] if seat is None else [
        action.to_json() for _, action in sorted(valued_moves(game, rng),
                                                 key=lambda option: -option[0])]
    reply = None if seat is None else choose(observe(game, seat, log), REPLY_LEVEL, budget_s,
                                             rng, cpu=True).to_json()
    return {"to_move": seat, "view": view(game, seat), "moves": moves,
            "win": [round(p, 3) for p in found.win], "vp": [round(v, 1) for v in found.vp],
            "reply": reply}
