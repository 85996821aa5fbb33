"""The undo rule, stated once: the seat to move may take back its last action while the turn
it was made in goes on. The state message tells every client so (`undoable`); `POST /undo`
asks the same question before it takes anything back.

Whether the turn goes on, the engine's events of that action say: an action that leaves its
seat's turn going brings its `move` event alone, and one that ends it brings the end of the
turn after it (`draw`, `round_end`...). A `draw` alone is not the sign: with an empty deck (late
in the rail era) a turn ends with no card drawn, after the move alone; but then another seat
is to move (a seat's next turn is in the next round, which a `round_end` event starts).
"""

from __future__ import annotations

from collections.abc import Sequence

from brass.engine import Event, Game


def takes_back(seat: int | None, last_seat: int | None,
               last_events: Sequence[Event] | None) -> bool:
    """May `seat`, the seat to move, take back the log's newest action (made by `last_seat`,
    with the public events `last_events`; None: no action, or stored before events were)?
    Only its own, made in the turn it still plays."""
    return (seat is not None and last_seat == seat and last_events is not None
            and all(event["type"] == "move" for event in last_events))


def undoable(game: Game | None, running: bool, played_by_bot: bool, last_seat: int | None,
             last_events: Sequence[Event] | None) -> bool:
    """Would `POST /undo` by the seat to move succeed now? The game runs, a player (not a bot,
    nor a bot standing in for them) plays that seat, and its last action `takes_back`."""
    seat = None if game is None or not running else game.current_seat
    return not played_by_bot and takes_back(seat, last_seat, last_events)
