"""Vacations (docs/REACH.md): a player takes whole days off in advance, from the desk; while
away, their seats' correspondence clocks stand still (clocks.paused_deadline, which the
steward's time-outs and reminders use). Each player has `vacation_days` (a server setting)
per calendar year, a day counted in the year it falls in. Days are UTC days, midnight to
midnight, the first tomorrow at the earliest (so a vacation never starts in the past, and a
clock already running is never stopped after the fact). A vacation not yet begun may be
cancelled; one under way stays. `/api/me/vacations`: the signed-in player's (any player
with a device cookie: no account needed)."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Annotated

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Connection

from . import clocks
from .deps import GameAt, Service
from .errors import ApiError
from .identity import CurrentPlayer
from .records import _utc, now
from .schemas import ERRORS
from .storebase import StoreBase
from .tables import players, vacations
from .timing import _db_now

router = APIRouter(prefix="/api/me/vacations", tags=["players"], responses=ERRORS)
paused = APIRouter(prefix="/api/games", tags=["games"], responses=ERRORS)
DAY = dt.timedelta(days=1)
AHEAD = dt.timedelta(days=366)  # the latest first day, from today


class Vacation(BaseModel):
    id: int
    start: dt.date = Field(description="the first day away (UTC, from midnight)")
    days: int
    back: dt.date = Field(description="the first day back (UTC, from midnight)")
    started: bool = Field(description="under way (it can no longer be cancelled)")


class YearLeft(BaseModel):
    year: int
    days: int = Field(description="vacation days still free in that year")


class Vacations(BaseModel):
    days_per_year: int = Field(description="the server's allowance (0: no vacations)")
    left: list[YearLeft] = Field(description="this year's and next year's free days")
    vacations: list[Vacation] = Field(description="those under way or to come, soonest first")


class ClockPause(BaseModel):
    """The mover's clock with their vacations taken out (epoch seconds, the server's clock)."""

    deadline: float | None = Field(description="when the mover's time runs out, pushed back "
                                               "by their vacations (null: no clock runs)")
    away_until: float | None = Field(description="the mover is on vacation until then: their "
                                                 "clock stands still (null: not away)")
    server_time: float


class TakeVacation(BaseModel):
    start: dt.date = Field(description="the first day away (UTC); tomorrow at the earliest")
    days: Annotated[int, Field(ge=1, le=366)]


def _midnight(day: dt.date) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC)


def days_in(start: dt.date, days: int, year: int) -> int:
    """How many of the days from `start` fall in `year`."""
    first, end = max(start, dt.date(year, 1, 1)), min(start + days * DAY, dt.date(year + 1, 1, 1))
    return max(0, (end - first).days)


class VacationStore:
    """The one writer of `vacations` (blocking: in a worker thread)."""

    def __init__(self, base: StoreBase) -> None:
        self.base = base

    def _rows(self, conn: Connection, player_id: str) -> list[tuple[int, dt.date, int]]:
        return [(r.id, _utc(r.starts_at).date(), (_utc(r.ends_at) - _utc(r.starts_at)).days)
                for r in conn.execute(select(vacations).where(
                    vacations.c.player_id == player_id).order_by(vacations.c.starts_at))]

    def listing(self, player_id: str, allowance: int) -> Vacations:
        with self.base._tx() as conn:
            today = _db_now(conn).date()
            rows = self._rows(conn, player_id)
        left = [YearLeft(year=y, days=allowance - sum(days_in(s, n, y) for _, s, n in rows))
                for y in (today.year, today.year + 1)]
        return Vacations(days_per_year=allowance, left=left, vacations=[
            Vacation(id=i, start=s, days=n, back=s + n * DAY, started=s <= today)
            for i, s, n in rows if s + n * DAY > today])

    def take(self, player_id: str, allowance: int, start: dt.date, days: int) -> Vacation:
        """Refused: `vacation_off`, `vacation_in_past`, `vacation_overlaps`,
        `vacation_too_long` (more days than the year has left, for each year it touches)."""
        if allowance <= 0:
            raise ApiError("vacation_off", "This server has no vacations")
        with self.base._tx() as conn:
            # one writer per player at a time: two requests cannot both spend the last days
            conn.execute(select(players.c.id).where(players.c.id == player_id)
                         .with_for_update())
            today = _db_now(conn).date()
            if start <= today:
                raise ApiError("vacation_in_past", "A vacation starts tomorrow at the earliest",
                               reason="vacation_in_past",
                               params={"earliest": (today + DAY).isoformat()})
            if start > today + AHEAD:
                raise ApiError("malformed", "A vacation is booked at most a year ahead")
            rows = self._rows(conn, player_id)
            back = start + days * DAY
            if any(s < back and start < s + n * DAY for _, s, n in rows):
                raise ApiError("vacation_overlaps", "You are already away on some of those days")
            for year in range(start.year, (back - DAY).year + 1):
                left = allowance - sum(days_in(s, n, year) for _, s, n in rows)
                if days_in(start, days, year) > left:
                    raise ApiError("vacation_too_long", f"You have {max(0, left)} vacation "
                                   f"days left in {year}",
                                   reason="vacation_too_long",
                                   params={"year": year, "left": max(0, left)})
            made = conn.execute(insert(vacations).values(
                player_id=player_id, starts_at=_midnight(start), ends_at=_midnight(back),
                created_at=_db_now(conn))).inserted_primary_key
            assert made is not None
        return Vacation(id=made[0], start=start, days=days, back=back, started=False)

    def cancel(self, player_id: str, vacation_id: int) -> None:
        """Refused: `not_found` (not the player's), `vacation_started`."""
        with self.base._tx() as conn:
            row = conn.execute(select(vacations.c.starts_at).where(
                vacations.c.id == vacation_id, vacations.c.player_id == player_id)).first()
            if row is None:
                raise ApiError("not_found", "You have no such vacation")
            if _utc(row.starts_at) <= _db_now(conn):
                raise ApiError("vacation_started", "A vacation under way cannot be cancelled")
            conn.execute(delete(vacations).where(vacations.c.id == vacation_id))


def _store(request: Request) -> tuple[VacationStore, int]:
    return VacationStore(request.app.state.service.storage), request.app.state.vacation_days


@router.get("", response_model=Vacations)
async def list_vacations(request: Request, player: CurrentPlayer) -> Vacations:
    """The player's allowance, what is left of it, and their vacations to come."""
    store, allowance = _store(request)
    return await asyncio.to_thread(store.listing, player.id, allowance)


@router.post("", response_model=Vacation, status_code=201)
async def take_vacation(body: TakeVacation, request: Request,
                        player: CurrentPlayer) -> Vacation:
    """Take `days` whole days from `start`: the player's correspondence clocks stand still
    then. Refused with `vacation_off`, `vacation_in_past`, `vacation_overlaps` or
    `vacation_too_long` (`params`: the year and the days it has left)."""
    store, allowance = _store(request)
    return await asyncio.to_thread(store.take, player.id, allowance, body.start, body.days)


@router.delete("/{vacation_id}", status_code=204, response_class=Response)
async def cancel_vacation(vacation_id: int, request: Request,
                          player: CurrentPlayer) -> Response:
    """Cancel a vacation not yet begun (`vacation_started` if it has)."""
    store, _ = _store(request)
    await asyncio.to_thread(store.cancel, player.id, vacation_id)
    return Response(status_code=204)


@paused.get("/{game_id}/pause", response_model=ClockPause)
async def clock_pause(rt: GameAt, service: Service) -> ClockPause:
    """The running clock as the steward times it (clocks.paused_deadline): a correspondence
    game's client asks for it when the turn changes, to show a mover on vacation (anyone
    who may watch the game: vacations are shown to the table)."""
    record, game, at = rt.record, rt.game, now()
    if (record.deadline is None or game is None or record.status != "running"
            or not clocks.pauses(record.clock)):
        deadline = None if record.deadline is None else record.deadline.timestamp()
        return ClockPause(deadline=deadline, away_until=None, server_time=at.timestamp())
    plan = await service.core.db(service.steward.watch.plan, rt, game.current_seat,
                                 record.deadline, at)
    return ClockPause(deadline=plan.deadline.timestamp(),
                      away_until=None if plan.away is None else plan.away.timestamp(),
                      server_time=at.timestamp())
