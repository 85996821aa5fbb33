"""The server's own vocabularies as `Literal` unions (the engine's are `Era`, `Industry`,
`MerchantBuys`, `ActionKind`; the clock's kinds are clocks.ClockKind, the error codes
errors.ErrorCode): the stored values, the API models and so the generated client types use
them, and mypy (strict_equality) refuses a comparison with a word that is not one of them.
What the database gives back is checked into them once, as it is read (`status`, `stand_in`,
`seat_change`, `called_off_by`)."""

from __future__ import annotations

from typing import Literal, get_args

GameStatus = Literal["waiting", "running", "finished", "expired", "cancelled"]
StandIn = Literal["timeout", "resigned", "handover"]  # why a bot plays for a seat's player
SeatChangeKind = Literal[StandIn, "returned"]  # a bot stands in from then, or it came back
Moderator = Literal["host", "admin"]  # who called a game off, or muted a seat in its chat
CalledOffBy = Moderator  # who made a game `cancelled`

STATUSES: frozenset[str] = frozenset(get_args(GameStatus))
STAND_INS: frozenset[str] = frozenset(get_args(StandIn))
CALLERS: frozenset[str] = frozenset(get_args(CalledOffBy))
SEAT_CHANGES: frozenset[str] = frozenset((*STAND_INS, "returned"))


def status(text: str) -> GameStatus:
    """A game status read from the database."""
    if text not in STATUSES:
        raise ValueError(f"unknown game status {text!r}")
    return text  # type: ignore[return-value]


def stand_in(text: str | None) -> StandIn | None:
    """Why a bot plays a seat, as read from the database (None: its player does)."""
    if text is not None and text not in STAND_INS:
        raise ValueError(f"unknown stand-in reason {text!r}")
    return text  # type: ignore[return-value]


def seat_change(text: str) -> SeatChangeKind:
    """A seat change's kind, as read from the database."""
    if text not in SEAT_CHANGES:
        raise ValueError(f"unknown seat change {text!r}")
    return text  # type: ignore[return-value]


def called_off_by(text: str | None) -> CalledOffBy | None:
    """Who called a cancelled game off, as read from the database (None: not cancelled, or
    cancelled before the server kept it)."""
    if text is not None and text not in CALLERS:
        raise ValueError(f"unknown caller {text!r}")
    return text  # type: ignore[return-value]
