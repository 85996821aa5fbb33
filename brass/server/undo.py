"""The undo rule, stated once: the seat to move may take back its last action while the turn
it was made in goes on. The state message tells every client so (`undoable`); `POST /undo`
asks the same question before it takes anything back.

Whether the turn goes on, the engine's events of that action say: an action that leaves its
seat's turn going brings its `move` event alone, and one that ends it brings `turn_end` (with
`draw`, `round_end`... as they happen). Rows stored by engine 1, which had no `turn_end`, say it
as well: there a turn that ended brought a `draw` or a `round_end`, or, with the deck empty,
the move alone, but then another seat is to move. So the rule is "the move alone", not "no
`turn_end`".
"""

from __future__ import annotations

from typing import Protocol

from brass.engine import Game

from . import jsontext


class Logged(Protocol):
    """A log row (`storage.ActionRecord`): who made the action, and its public events as JSON
    text (None: stored before events were)."""

    @property
    def seat(self) -> int: ...

    @property
    def effects(self) -> str | None: ...


def takes_back(seat: int | None, last: Logged | None) -> bool:
    """May `seat`, the seat to move, take back `last`, the log's newest action (undone ones
    left out)? Only its own, made in the turn it still plays."""
    if seat is None or last is None or last.seat != seat or last.effects is None:
        return False
    return all(event["type"] == "move" for event in jsontext.loads(last.effects))


def undoable(game: Game | None, running: bool, played_by_bot: bool,
             last: Logged | None) -> bool:
    """Would `POST /undo` by the seat to move succeed now? The game runs, a player (not a bot,
    nor a bot standing in for them) plays that seat, and its last action `takes_back`."""
    seat = None if game is None or not running else game.current_seat
    return not played_by_bot and takes_back(seat, last)
