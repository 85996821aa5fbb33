"""What background work a game needs now (docs/OWNERSHIP.md): one function of the game in
memory, asked by its steward after every change. No client request drives this work."""

from __future__ import annotations

from dataclasses import dataclass

from .runtime import Runtime


@dataclass(frozen=True)
class Due:
    """`bot`: the seat a bot plays that is to move now (None: no bot move is due). `live`:
    the game may still need background work (False once it is over: the steward stops)."""

    bot: int | None
    live: bool


def due(rt: Runtime) -> Due:
    game = rt.game
    if rt.record.status != "running" or game is None or game.is_over:
        return Due(bot=None, live=False)
    seat = game.current_seat
    return Due(bot=seat if rt.is_bot(seat) else None, live=True)
