"""Who plays a seat: clocks that run out (the steward times a seat out), resign, hand-over
and take-over. Each change is a versioned write, logged (`seat_changes`) and published; a bot
then plays for the seat (the steward is poked), or stops."""

from __future__ import annotations

import dataclasses
import logging

from . import clocks, seatrules
from .core import GameCore
from .errors import ApiError
from .runtime import Runtime
from .storage import SeatChange, StaleVersion, now
from .vocab import SeatChangeKind

log = logging.getLogger("brass.server")


class Seats:
    def __init__(self, core: GameCore) -> None:
        self.core = core

    async def time_out(self, rt: Runtime, seat: int, version: int, grace: float = 0.0) -> int:
        """The seat to move ran out of time: a bot plays for it from now (a versioned write the
        database refuses unless the deadline, pushed back `grace` seconds by the player's
        vacations, has passed by its clock). The new version."""
        clock = rt.record.clock
        reserve = 0.0 if clock.kind == "live" else rt.record.seats[seat].reserve
        return await self._change(rt, seat, version, "timeout", reserve, "deadline", grace)

    async def resign(self, rt: Runtime, seat: int, expected_version: int | None) -> int:
        """The seat's player gives up: a bot plays their seat to the end (for good)."""
        _refuse(seatrules.resign_refusal(rt.record, rt.game, seat))
        return await self._change(rt, seat, expected_version, "resigned",
                                  rt.record.seats[seat].reserve)

    async def hand_over(self, rt: Runtime, asking: int, seat: int,
                        expected_version: int | None) -> int:
        """Another player (seat `asking`) hands the seat to move to a bot, once it has been
        idle for the game's `handoff_after` (a game with no clock that allows it)."""
        _refuse(seatrules.hand_over_refusal(rt.record, rt.game, asking, seat))
        return await self._change(rt, seat, expected_version, "handover",
                                  rt.record.seats[seat].reserve, "idle")

    async def take_over(self, rt: Runtime, seat: int, expected_version: int | None) -> int:
        """The player is back (with their seat link): they play their seat again."""
        _refuse(seatrules.take_over_refusal(rt.record, rt.game, seat))
        reserve = clocks.reserve_on_return(rt.record.clock, rt.record.seats[seat].reserve)
        return await self._change(rt, seat, expected_version, "returned", reserve)

    async def _change(self, rt: Runtime, seat: int, version: int | None, change: SeatChangeKind,
                      reserve: float | None, require: str | None = None,
                      grace: float = 0.0) -> int:
        """The versioned write of a change of who plays `seat`, logged (`seat_changes`) and
        published; a bot then plays for it, or stops."""
        core = self.core
        async with rt.lock:
            game = rt.running_game()
            if version is None:
                version = rt.record.version
            if version != rt.record.version:
                raise ApiError("stale_version", f"The game is at version {rt.record.version}, "
                               f"not {version}")
            mover = game.current_seat == seat
            if require == "deadline" and (not mover or rt.record.deadline is None):
                raise ApiError("not_yet", f"Seat {seat} has no running clock")
            try:
                timing = await core.written(rt, core.db(
                    core.storage.change_seat, rt.id, version, seat, change, rt.record.clock,
                    mover, reserve, require, grace))
            except StaleVersion:
                fresh = await core.db(core.storage.load_game, rt.id)
                if fresh is not None and fresh.version == version and require is not None:
                    raise ApiError("not_yet", "The deadline has not passed yet"
                                   if require == "deadline" else
                                   f"Seat {seat} has not been idle for "
                                   f"{rt.record.clock.handoff_after:g} seconds yet") from None
                await core.caught_up(rt)
                raise ApiError("stale_version", "The game moved on; fetch the new state") from None
            rt.seat_changed(SeatChange(version + 1, seat, change, now()))
            deadline = timing.deadline if mover else rt.record.deadline
            rt.timed(dataclasses.replace(timing, deadline=deadline))
            log.info("game %s seat %s: %s", rt.id, seat, change)
            core.publish(rt)
            if change in ("timeout", "handover"):
                core.reach.seat_replaced(rt, seat, change)
        core.tending.poke(rt.id)  # a bot plays for the seat now: its steward moves it
        return version + 1


def _refuse(refusal: ApiError | None) -> None:
    """Raise a rule's refusal (seatrules.py), if it gave one."""
    if refusal is not None:
        raise refusal
