"""Nudges (docs/REACH.md): a seated player asks the person to move to play, which sends that
player a notice of kind "nudge" (notices.py). At most once per `EVERY` per game and nudged
seat, counted in the database (`nudges`, migration 0013; its one writer): of two instances
nudging at once, one wins. Only in a running game, to the seat to move when a person plays
it and can be reached (it has a player) and is not on vacation (their clock stands still),
never to oneself, and only once the turn has lasted `nudge_after` (a setting: an hour; a
player who just got the turn is thinking, not away). The server says when a nudge is allowed
(`GET`), and if not, why and from when: the client's button holds no rule of its own."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field
from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from . import clocks
from .clockwatch import away_of
from .deps import GameAt, Seat, Service
from .errors import ApiError
from .records import now
from .runtime import Runtime
from .schemas import ERRORS
from .storebase import StoreBase
from .tables import nudges

router = APIRouter(prefix="/api", tags=["games"], responses=ERRORS)
EVERY = dt.timedelta(hours=24)


class NudgeInfo(BaseModel):
    allowed: bool = Field(description="the asking seat may nudge the seat to move now")
    seat: int | None = Field(description="the seat a nudge would reach (the seat to move); "
                                         "null: none")
    again_at: dt.datetime | None = Field(description="when that seat may be nudged (again), "
                                                     "if not now")
    wait: Literal["nudged", "thinking"] | None = Field(
        default=None, description="why not before `again_at`: it was nudged in the last 24 h "
                                  "(\"nudged\"), or its turn began less than the server's "
                                  "nudge_after ago (\"thinking\")")


def _aware(at: dt.datetime) -> dt.datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=dt.UTC)  # SQLite drops it


def last_nudge(base: StoreBase, game_id: str, seat: int) -> dt.datetime | None:
    with base._tx() as conn:
        found = conn.execute(select(nudges.c.nudged_at).where(
            nudges.c.game_id == game_id, nudges.c.seat == seat)).scalar()
    return None if found is None else _aware(found)


def take(base: StoreBase, game_id: str, seat: int, at: dt.datetime) -> dt.datetime | None:
    """Record a nudge of the seat at `at` unless it was nudged less than `EVERY` before:
    None if recorded, else when it is allowed again. One conditional write: of two racing
    writers the database lets one through (the other's update matches nothing once the
    first commits, or its insert breaks the primary key and it looks again)."""
    for _attempt in range(3):
        try:
            with base._tx() as conn:
                if conn.execute(update(nudges).where(
                        nudges.c.game_id == game_id, nudges.c.seat == seat,
                        nudges.c.nudged_at <= at - EVERY).values(nudged_at=at)).rowcount == 1:
                    return None
                last = conn.execute(select(nudges.c.nudged_at).where(
                    nudges.c.game_id == game_id, nudges.c.seat == seat)).scalar()
                if last is not None:
                    return _aware(last) + EVERY
                conn.execute(insert(nudges).values(game_id=game_id, seat=seat, nudged_at=at))
                return None
        except IntegrityError:
            continue  # another writer inserted first: its row is read next time
    raise ApiError("stale_version", "The nudge changed meanwhile: try again")


def target(rt: Runtime, by: int) -> int:
    """The seat `by` may nudge (the seat to move), or a coded refusal saying why not."""
    if rt.record.status != "running":
        raise ApiError("nudge_not_allowed", "Only a running game's players are nudged",
                       reason="not_running")
    if rt.record.clock.kind == "live":  # one sitting: the reserve runs out within it
        raise ApiError("nudge_not_allowed", "A live game's clock tells the player to move",
                       reason="live_clock")
    seat = rt.mover
    if seat is None or seat == by:
        raise ApiError("nudge_not_allowed", "It is your turn: nobody to nudge",
                       reason="own_turn")
    if rt.is_bot(seat):
        raise ApiError("nudge_not_allowed", "A bot plays the seat to move", reason="bot")
    if rt.record.seats[seat].player_id is None:
        raise ApiError("nudge_not_allowed", "The player to move cannot be reached outside "
                       "the game", reason="unreachable")
    return seat


def on_vacation(base: StoreBase, player_id: str, at: dt.datetime) -> bool:
    """Whether the player is on a vacation under way `at`."""
    with base._tx() as conn:
        away = away_of(conn, [player_id], at).get(player_id, [])
    return clocks.away_until(away, at) is not None


async def reachable(service: Service, rt: Runtime, by: int) -> int:
    """`target`, and refused while the player to move is on vacation."""
    seat = target(rt, by)
    player = rt.record.seats[seat].player_id
    assert player is not None  # target() refused a seat without a player
    if await service.core.db(on_vacation, service.core.storage, player, now()):
        raise ApiError("nudge_not_allowed", "The player to move is on vacation: their clock "
                       "stands still", reason="on_vacation")
    return seat


def settled_at(rt: Runtime, after: dt.timedelta) -> dt.datetime | None:
    """When the turn to move will have lasted `after` (None: its start is not known)."""
    started = rt.record.turn_started_at
    return None if started is None else _aware(started) + after


@router.get("/games/{game_id}/nudge", response_model=NudgeInfo)
async def nudge_state(game_id: str, service: Service, rt: GameAt, seat: Seat,
                      request: Request) -> NudgeInfo:
    """Whether the asking seat (a seat token or the device's player) may nudge now; if not,
    from when and why."""
    try:
        mover = await reachable(service, rt, seat)
    except ApiError:
        return NudgeInfo(allowed=False, seat=None, again_at=None)
    at = now()
    last = await service.core.db(last_nudge, service.core.storage, rt.id, mover)
    if last is not None and last + EVERY > at:
        return NudgeInfo(allowed=False, seat=mover, again_at=last + EVERY, wait="nudged")
    settled = settled_at(rt, request.app.state.nudge_after)
    if settled is not None and settled > at:
        return NudgeInfo(allowed=False, seat=mover, again_at=settled, wait="thinking")
    return NudgeInfo(allowed=True, seat=mover, again_at=None)


@router.post("/games/{game_id}/nudge", response_model=NudgeInfo)
async def nudge(game_id: str, service: Service, rt: GameAt, seat: Seat,
                request: Request) -> NudgeInfo:
    """Nudge the seat to move: its player is sent a notice. Refused as `nudge_not_allowed`
    (no person to move but another, the game not running, the player to move on vacation:
    `reason`) or `nudge_too_soon` (that seat was nudged in the last 24 h, reason
    `nudged_recently`, or its turn is younger than the server's nudge_after, reason
    `turn_young`; `params.again_at`: when it may be)."""
    mover = await reachable(service, rt, seat)
    at = now()
    settled = settled_at(rt, request.app.state.nudge_after)
    if settled is not None and settled > at:
        raise ApiError("nudge_too_soon", "This player's turn has just begun: they may be "
                       "thinking", retry_after=max(1, int((settled - at).total_seconds())),
                       reason="turn_young", params={"again_at": settled.isoformat()})
    again = await service.core.db(take, service.core.storage, rt.id, mover, at)
    if again is not None:
        raise ApiError("nudge_too_soon", "This player was nudged less than 24 hours ago",
                       retry_after=max(1, int((again - at).total_seconds())),
                       reason="nudged_recently", params={"again_at": again.isoformat()})
    service.core.reach.nudged(rt, mover, seat)
    return NudgeInfo(allowed=False, seat=mover, again_at=at + EVERY, wait="nudged")
