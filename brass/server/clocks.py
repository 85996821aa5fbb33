"""Turn clocks: pure functions from a game's clock settings, the times stored with it and "now"
(always the database's clock, read in the transaction that writes) to the next deadline and
reserves. Nothing here reads a clock or touches the database, so the steward (or any loop that
enforces deadlines) and the storage share one meaning of time.

Kinds (chosen at creation, stored in `games.settings`):
- `none`: no deadline. Optionally `handoff_after`: once the seat to move has been idle that long,
  the other players may hand it to a bot.
- `live`: each seat has a reserve (`seats.reserve`, seconds at the start of its turn); the
  turn's deadline is its start plus that reserve; at the end of the turn what is left of it,
  plus `increment`, is the seat's new reserve.
- `correspondence`: every turn has `per_turn` seconds.

A seat a bot plays (a bot seat, or a stand-in after a time-out, resign or hand-over) has no
deadline: the bot moves at once.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Literal

ClockKind = Literal["none", "live", "correspondence"]
# at most 30 days a turn or a reserve, 1 day an increment
MAX_SECONDS = 30 * 86_400.0
MAX_INCREMENT = 86_400.0


@dataclass(frozen=True)
class Clock:
    """A game's clock settings (seconds)."""

    kind: ClockKind = "none"
    reserve: float = 0.0  # live: each seat's reserve at the start
    increment: float = 0.0  # live: added to the reserve after each turn
    per_turn: float = 0.0  # correspondence: every turn's time
    handoff_after: float = 0.0  # none: idle time after which others may hand a seat over

    @property
    def timed(self) -> bool:
        return self.kind != "none"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "reserve": self.reserve, "increment": self.increment,
                "per_turn": self.per_turn, "handoff_after": self.handoff_after}

    @staticmethod
    def from_json(data: dict[str, Any] | None) -> Clock:
        if not data:
            return Clock()
        return Clock(kind=data.get("kind", "none"), reserve=float(data.get("reserve", 0)),
                     increment=float(data.get("increment", 0)),
                     per_turn=float(data.get("per_turn", 0)),
                     handoff_after=float(data.get("handoff_after", 0)))


def _spans(clock: Clock, minimum: float) -> list[tuple[str, float, float, float]]:
    """Each setting this kind of clock uses, with its range: (name, value, least, most), in
    seconds; `minimum` is the server's shortest allowed turn, reserve or hand-over time."""
    if clock.kind == "live":
        return [("reserve", clock.reserve, minimum, MAX_SECONDS),
                ("increment", clock.increment, 0.0, MAX_INCREMENT)]
    if clock.kind == "correspondence":
        return [("per_turn", clock.per_turn, minimum, MAX_SECONDS)]
    return [("handoff_after", clock.handoff_after, minimum, MAX_SECONDS)] if clock.handoff_after \
        else []


def out_of_range(clock: Clock, minimum: float) -> tuple[str, float, float, float] | None:
    """The first setting outside its range, as (name, value, least, most) in seconds: what a
    page says in its own words and unit (None: each is within its range)."""
    return next(((name, value, low, high) for name, value, low, high in _spans(clock, minimum)
                 if not low <= value <= high), None)


def problems(clock: Clock, minimum: float) -> list[str]:
    """What is wrong with these settings (empty: valid); `minimum` is the server's shortest
    allowed turn, reserve or hand-over time (`BRASS_CLOCK_MINIMUM`)."""
    out = [f"{name} must be between {low:g} and {high:g} seconds, not {value:g}"
           for name, value, low, high in _spans(clock, minimum) if not low <= value <= high]
    if clock.kind != "none" and clock.handoff_after:
        out.append("handoff_after is for games without a clock (a clock hands an idle seat "
                   "to a bot when it runs out)")
    if clock.kind != "live" and (clock.reserve or clock.increment):
        out.append("reserve and increment are for a live clock")
    if clock.kind != "correspondence" and clock.per_turn:
        out.append("per_turn is for a correspondence clock")
    return out


def start_reserves(clock: Clock, seats: int) -> list[float | None]:
    """Each seat's reserve when the game is created."""
    return [clock.reserve if clock.kind == "live" else None] * seats


def turn_deadline(clock: Clock, reserve: float | None, bot: bool,
                  now: dt.datetime) -> dt.datetime | None:
    """The deadline of a turn starting `now` for a seat with this reserve."""
    if bot or not clock.timed:
        return None
    if clock.kind == "live":
        return now + dt.timedelta(seconds=max(0.0, reserve or 0.0))
    return now + dt.timedelta(seconds=clock.per_turn)


def reserve_after(clock: Clock, deadline: dt.datetime | None, reserve: float | None,
                  now: dt.datetime) -> float | None:
    """A live seat's reserve once its turn ends `now`: what was left, plus the increment. A
    turn played with no deadline (a bot played it) leaves the reserve as it was."""
    if clock.kind != "live":
        return None
    if deadline is None:
        return reserve
    left = max(0.0, (deadline - now).total_seconds())
    return round(left + clock.increment, 3)


RETURN_LEAST = 60.0  # a live seat's player who comes back has at least this long (seconds)


def reserve_on_return(clock: Clock, reserve: float | None) -> float | None:
    """A live seat that timed out has no time left; its player, back, gets a quarter of the
    starting reserve, at least a minute but never more than the starting reserve, or the
    increment if that is more (a tenth, 3 s of a 30 s reserve, timed them out again at once)."""
    if clock.kind != "live":
        return None
    least = min(clock.reserve, max(clock.reserve / 4, RETURN_LEAST))
    return max(reserve or 0.0, clock.increment, least)


def idle_enough(clock: Clock, turn_started: dt.datetime | None, now: dt.datetime) -> bool:
    """May the other players hand the seat to move to a bot (a game with no clock)?"""
    return (clock.kind == "none" and clock.handoff_after > 0 and turn_started is not None
            and (now - turn_started).total_seconds() >= clock.handoff_after)


# -- vacations and reminders (docs/REACH.md) ---------------------------------------------------
Away = tuple[dt.datetime, dt.datetime]  # a player's vacation: from its start to its end
REMIND_HOUR = 3600.0  # the second reminder: an hour left


def pauses(clock: Clock) -> bool:
    """Does a player's vacation stop this game's clock? A correspondence clock only: a live
    reserve is for one sitting, and a game with no clock has nothing to stop."""
    return clock.kind == "correspondence"


def paused_deadline(deadline: dt.datetime, turn_started: dt.datetime | None,
                    away: list[Away]) -> dt.datetime:
    """The deadline of the mover's turn with their vacations taken out: the clock stands
    still from a vacation's start (or the turn's, if later) to its end, so each such stretch
    that begins before the (so far pushed back) deadline pushes it back by its length. The
    one meaning of a paused clock: the steward's time-out and the shown clock both use it."""
    start = turn_started or deadline
    out = deadline
    for begins, ends in sorted(away):
        begins = max(begins, start)
        if begins < out and ends > begins:
            out += ends - begins
    return out


def away_until(away: list[Away], at: dt.datetime) -> dt.datetime | None:
    """The end of the vacation under way `at` (None: not away)."""
    return next((ends for begins, ends in away if begins <= at < ends), None)


def reminders(total: float, minimum: float) -> list[tuple[str, float]]:
    """The reminders of a turn of `total` seconds, as (name, seconds left when it is due):
    at a quarter of the turn left, and at an hour left when the turn is over four hours
    (shorter, the quarter comes at or after the hour). None for a turn under `minimum`
    seconds (a short live game: the player is at the table)."""
    if total <= 0 or total < minimum:
        return []
    out = [("quarter", total / 4)]
    if total > 4 * REMIND_HOUR:
        out.append(("hour", REMIND_HOUR))
    return out
