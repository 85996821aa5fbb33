"""The times a move or a seat change stores: the database's clock, the next turn's
deadline and the ended seat's reserve (pure rules in clocks.py)."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import (
    func,
    select,
)
from sqlalchemy.engine import Connection

from .clocks import Clock, reserve_after, turn_deadline
from .records import Timing, TurnStart, _utc, now


def _db_now(conn: Connection) -> dt.datetime:
    """The database's clock: Postgres's `now()` (every instance compares with it, so their own
    clocks may differ); SQLite is one process, whose clock it is."""
    if conn.dialect.name == "postgresql":
        return _utc(conn.execute(select(func.now())).scalar_one())
    return now()


def _timed(clock: Clock) -> bool:
    """Are this game's turn times compared (a deadline, or a hand-over after idle time)? Then
    they are the database's; otherwise the turn's start is only shown, and this process's
    clock saves a round trip."""
    return clock.timed or clock.handoff_after > 0


def _turn_timing(turn: TurnStart, at: dt.datetime) -> Timing:
    """The times stored when `turn.ended`'s turn ends and `turn.next_seat`'s starts, `at`."""
    reserves: dict[int, float | None] = {}
    if turn.ended is not None and turn.clock.kind == "live":
        reserves[turn.ended] = reserve_after(turn.clock, turn.deadline, turn.ended_reserve, at)
    if turn.next_seat is None:
        return Timing(None, None, reserves)
    reserve = reserves.get(turn.next_seat, turn.next_reserve)
    return Timing(turn_deadline(turn.clock, reserve, turn.next_bot, at), at, reserves)
