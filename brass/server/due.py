"""What background work a game needs now (docs/OWNERSHIP.md): one function of the game in
memory, asked by its steward after every change. No client request drives this work."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from .runtime import Runtime


@dataclass(frozen=True)
class Due:
    """`bot`: the seat a bot plays that is to move now (None: no bot move is due).
    `deadline`: when the seat to move (`mover`, a player) runs out of time at `version` (None:
    no clock runs). `live`: the game may still need background work (False once it is over:
    the steward stops)."""

    bot: int | None
    live: bool
    mover: int | None = None
    deadline: dt.datetime | None = None
    version: int = 0


def due(rt: Runtime) -> Due:
    game = rt.game
    if rt.record.status != "running" or game is None or game.is_over:
        return Due(bot=None, live=False)
    seat = game.current_seat
    if rt.is_bot(seat):
        return Due(bot=seat, live=True)
    return Due(bot=None, live=True, mover=seat, deadline=rt.record.deadline,
               version=rt.record.version)
