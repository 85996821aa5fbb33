"""Who may change who plays a seat, stated once: each rule is one function that gives the
refusal of `POST /resign`, `/takeover` or `/handover` (None: accepted). `Seats` raises what
they give; the state message tells each seat what it may do now (`may`, from the same
functions), so the client shows a button when the server would accept it and decides nothing.

A hand-over also needs the seat to have been idle for the game's `handoff_after`, which the
database checks by its clock: the state message says from when (`hand_over`: the seat and
that time, epoch seconds), and the client shows the button from then."""

from __future__ import annotations

from typing import Any

from brass.engine import Game

from .errors import ApiError
from .records import GameRecord


def _running(record: GameRecord, game: Game | None) -> ApiError | None:
    if record.status != "running" or game is None or game.is_over:
        return ApiError("game_not_running", f"Game {record.id} is {record.status}")
    return None


def resign_refusal(record: GameRecord, game: Game | None, seat: int) -> ApiError | None:
    """Why the seat's player may not resign now (None: they may)."""
    refused = _running(record, game)
    if refused is None and record.seats[seat].stand_in == "resigned":
        refused = ApiError("illegal", "You have resigned already")
    return refused


def take_over_refusal(record: GameRecord, game: Game | None, seat: int) -> ApiError | None:
    """Why the seat's player may not take their seat back from a bot now (None: they may)."""
    refused = _running(record, game)
    standing = record.seats[seat].stand_in
    if refused is not None:
        return refused
    if standing is None:
        return ApiError("illegal", "You are playing this seat already")
    if standing == "resigned":
        return ApiError("illegal", "You resigned this game: a bot plays your seat to the end")
    return None


def hand_over_refusal(record: GameRecord, game: Game | None, asking: int,
                      seat: int) -> ApiError | None:
    """Why seat `asking` may not hand seat `seat` to a bot (None: it may, once the seat has
    been idle for `handoff_after`, which the database checks)."""
    clock = record.clock
    refused = _running(record, game)
    if refused is not None:
        return refused
    assert game is not None
    if clock.kind != "none" or clock.handoff_after <= 0:
        return ApiError("illegal", "This game does not allow handing a seat to a bot"
                        if clock.kind == "none" else
                        "This game has a clock: a seat goes to a bot when its time runs out")
    if not 0 <= seat < record.players:
        return ApiError("not_found", f"No seat {seat}")
    if seat == asking:
        return ApiError("illegal", "To let a bot play your seat, resign")
    if seat != game.current_seat:
        return ApiError("not_your_turn", "Only the seat to move can be handed to a bot")
    if record.seats[seat].played_by_bot:
        return ApiError("illegal", "A bot plays this seat already")
    return None


def permissions(record: GameRecord, game: Game | None, seat: int) -> dict[str, Any]:
    """What the player of `seat` may do now, by the rules above: a `SeatPermissions` as the
    dict its `model_dump` is (every state message has one per seat: the model cost several
    times as much; tests/server/test_schema_view.py checks the two agree)."""
    hand_over = []
    mover = None if game is None else game.current_seat
    started = record.turn_started_at
    if (mover is not None and started is not None
            and hand_over_refusal(record, game, seat, mover) is None):
        hand_over.append({"seat": mover, "since": round(
            started.timestamp() + record.clock.handoff_after, 3)})
    return {"resign": resign_refusal(record, game, seat) is None,
            "take_over": take_over_refusal(record, game, seat) is None,
            "hand_over": hand_over}
