"""The desk (`GET /api/desk`): every game of the signed-in player, on any device, in the order
a player looks for them: those where it is their turn (soonest deadline first, with the
clock's time left), then the others running, those waiting for players, the rematches offered
to them (the only invitations the model has: docs/PLAYERS.md), and the finished ones with
their results. Paged (`offset`, `limit`); read in one statement (the page, by
`ix_seats_player` with the count as a window, joined to its games' seats by primary key) and,
on the first page, the rematch offers and the games they host without a seat (a host who
seats nobody but bots, or runs a game for others: `ix_games_host_player`); measured by
bench/desk.py.

Live: the client polls it (every few seconds while the page is visible) with `If-None-Match`;
an unchanged desk is a 304 without a body. A poll is one small indexed read on any instance,
where a pushed desk would need every instance to know which players each game's change
concerns. Nothing hidden is in it: names, seats, whose turn, scores once finished."""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy import Integer, Select, String, and_, bindparam, case, exists, func, select
from sqlalchemy.engine import Engine

from . import clocks
from .clockwatch import away_of
from .identity import CurrentPlayer
from .records import now
from .schemas import ERRORS, ClockSettings
from .storebase import autocommit
from .tables import games, rematches, seats

router = APIRouter(prefix="/api", tags=["players"], responses=ERRORS)
Section = Literal["turn", "running", "waiting", "finished"]
SHOWN = ("running", "waiting", "finished")  # expired and cancelled games were never played
HOSTED = 20  # the most games hosted without a seat a desk lists


class DeskSeat(BaseModel):
    seat: int
    name: str | None
    bot: bool
    taken: bool = Field(description="someone (or a bot) sits there: false while it is free")
    you: bool = Field(description="this seat is the player's")


class DeskGame(BaseModel):
    id: str
    name: str
    section: Section = Field(description="turn: the player is to move; running: another seat "
                                         "is; waiting: for players; finished")
    seat: int = Field(description="the player's seat (the first, on a shared screen)")
    players: int
    seats: list[DeskSeat]
    to_move: int | None = Field(description="the seat to move (null: not known or not running)")
    deadline: str | None = Field(description="when the mover's time runs out (ISO time), "
                                             "pushed back by their vacations")
    time_left: float | None = Field(description="seconds until the deadline, when this answer "
                                                "was made (null: no clock); while the mover is "
                                                "on vacation, the time they will have left on "
                                                "their return: it does not run down")
    away_until: str | None = Field(description="the mover is on vacation until then (ISO "
                                              "time): their clock stands still (null: not "
                                              "away)")
    scores: list[int] | None = Field(description="a finished game's points, by seat")
    place: int | None = Field(description="a finished game: the player's place (1: won), "
                              "as the rules rank (points, then income, then money)")
    clock: ClockSettings = Field(description="the game's turn clock")
    updated_at: str


class Invitation(BaseModel):
    """A rematch of a finished game of the player's, waiting for their answer."""

    game_id: str = Field(description="the finished game the rematch is offered after")
    name: str
    offered_by: int = Field(description="the seat that offered it")
    seat: int = Field(description="the player's seat in the finished game")
    clock: ClockSettings = Field(description="the rematch's turn clock (the finished game's)")


class HostedGame(BaseModel):
    """A game the player hosts (their browser created it) without a seat of theirs in it:
    they add bots, cancel it or moderate its chat from any of their devices."""

    id: str
    name: str
    status: Literal["waiting", "running"]
    free: int = Field(description="seats nobody has taken yet")
    clock: ClockSettings = Field(description="the game's turn clock")


class Desk(BaseModel):
    games: list[DeskGame]
    invitations: list[Invitation] = Field(description="rematches offered to the player (on "
                                                      "the first page only)")
    hosting: list[HostedGame] = Field(description="waiting and running games the player "
                                                  "hosts without a seat in them, newest "
                                                  f"first, at most {HOSTED} (on the first "
                                                  "page only)")
    next: int | None = Field(description="the next page's offset (null: the last page)")
    total: int


def _rank() -> Any:
    """SQL: the section of a game row (0 turn, 1 running, 2 waiting, 3 finished)."""
    g = games.c
    return case((and_(g.status == "running", g.to_move == seats.c.seat,
                      seats.c.stand_in.is_(None)), 0),
                (g.status == "running", 1), (g.status == "waiting", 2), else_=3)


def _order(rank: Any, deadline: Any, finished_at: Any, updated_at: Any, game: Any,
           seat: Any) -> list[Any]:
    """SQL: the desk's order (turn by soonest deadline, then running, waiting, and finished
    newest first), over the columns given (the games' or the page's)."""
    return [rank, case((rank == 0, deadline), else_=None).asc().nulls_last(),
            case((rank == 3, finished_at), else_=updated_at).desc(), game, seat]


def desk_query(player_id: Any) -> Select[Any]:
    """SQL: the player's games in the desk's order, each with its section and the count
    (`player_id`: an id, or a bound parameter)."""
    g, rank = games.c, _rank()
    mine = (select(g.id, g.name, g.players, g.status, g.to_move, g.deadline, g.scores, g.ranks,
                   g.finished_at, g.updated_at, g.settings, g.turn_started_at,
                   seats.c.seat.label("my_seat"),
                   rank.label("rank"), func.count().over().label("total"))
            .join(seats, seats.c.game_id == g.id)
            .where(seats.c.player_id == player_id, g.status.in_(SHOWN)))
    return mine.order_by(*_order(rank, g.deadline, g.finished_at, g.updated_at, g.id,
                                 seats.c.seat))


def page_query() -> Select[Any]:
    """SQL: one page of the desk (`limit` + 1 games, to know if more follow) with every seat
    of each game, a row per seat, in the desk's order: one round trip for the page. Its
    parameters are bound at execution (`player`, `offset`, `limit`): it is built once."""
    page = (desk_query(bindparam("player", type_=String))
            .offset(bindparam("offset", type_=Integer))
            .limit(bindparam("limit", type_=Integer)).cte("page"))
    p, s = page.c, seats.c
    return (select(page, s.seat.label("s_seat"), s.name.label("s_name"),
                   s.bot.label("s_bot"), s.player_id.label("s_player"),
                   s.joined_at.label("s_joined"))
            .join(seats, s.game_id == p.id)
            .order_by(*_order(p.rank, p.deadline, p.finished_at, p.updated_at, p.id,
                              p.my_seat), s.seat))


def invitations_query() -> Select[Any]:
    """SQL: the rematches offered after the finished games of `player` (bound)."""
    return (select(rematches.c.game_id, rematches.c.offered_by, rematches.c.answers,
                   seats.c.seat, games.c.name, games.c.settings)
            .join(seats, seats.c.game_id == rematches.c.game_id)
            .join(games, games.c.id == rematches.c.game_id)
            .where(seats.c.player_id == bindparam("player", type_=String),
                   rematches.c.new_game_id.is_(None)))


def hosting_query() -> Select[Any]:
    """SQL: the waiting and running games `player` (bound) hosts and holds no seat in, with
    their free seats (by `ix_games_host_player`)."""
    g, s = games.c, seats.c
    player = bindparam("player", type_=String)
    free = (select(func.count()).where(s.game_id == g.id, s.bot.is_(False),
                                       s.joined_at.is_(None)).scalar_subquery())
    seated = exists().where(s.game_id == g.id, s.player_id == player)
    return (select(g.id, g.name, g.status, g.settings, free.label("free"))
            .where(g.host_player_id == player, g.status.in_(("waiting", "running")), ~seated)
            .order_by(g.created_at.desc(), g.id).limit(HOSTED))


PAGE, INVITATIONS, HOSTING = page_query(), invitations_query(), hosting_query()  # built once


def read_desk(engine: Engine, player_id: str, offset: int, limit: int) -> Desk:
    """One page of the player's desk (blocking: called in a worker thread). Its reads need no
    transaction (autocommit: no BEGIN and ROLLBACK round trips): an offer answered between
    them shows at the next poll."""
    with autocommit(engine) as conn:
        rows = conn.execute(PAGE, {"player": player_id, "offset": offset,
                                   "limit": limit + 1}).all()
        invitations = _invitations(conn, player_id) if offset == 0 else []
        hosting = [HostedGame(id=r.id, name=r.name, status=r.status, free=r.free,
                              clock=_clock(r.settings))
                   for r in conn.execute(HOSTING, {"player": player_id})] if offset == 0 else []
    pages: dict[tuple[str, int], list[Any]] = {}  # (game, my seat): its rows, a row a seat
    for r in rows:
        pages.setdefault((r.id, r.my_seat), []).append(r)
    entries = list(pages.values())  # in the desk's order
    at = now()
    away = _vacations(engine, entries[:limit], at)
    out, seen = [], set()
    for group in entries[:limit]:
        if group[0].id in seen:  # a shared screen: the game once, at its best section
            continue
        seen.add(group[0].id)
        out.append(_entry(group[0], group, player_id, at, away))
    more = len(entries) > limit
    total = entries[0][0].total if entries else 0  # a page past the end: nothing, and no count
    return Desk(games=out, invitations=invitations, hosting=hosting,
                next=offset + limit if more else None, total=total)


def _clock(settings: dict[str, Any] | None) -> ClockSettings:
    """A game's clock, from its `settings` column (none stored: an older game, no clock)."""
    return ClockSettings(**clocks.Clock.from_json((settings or {}).get("clock")).to_json())


def _mover(group: list[Any]) -> str | None:
    """The player to move in a running game whose clock their vacations stop (None: none,
    or no such clock)."""
    r = group[0]
    settings = r.settings or {}
    if (r.status != "running" or r.deadline is None
            or not clocks.pauses(clocks.Clock.from_json(settings.get("clock")))):
        return None
    return next((s.s_player for s in group if s.s_seat == r.to_move), None)


def _vacations(engine: Engine, groups: list[list[Any]],
               at: dt.datetime) -> dict[str, list[clocks.Away]]:
    """The vacations of the page's movers whose clocks they stop (clocks.paused_deadline):
    one more read, only for a page with such a game."""
    movers = {m for m in map(_mover, groups) if m is not None}
    if not movers:
        return {}
    starts = [_utc(g[0].turn_started_at) or at for g in groups if _mover(g) is not None]
    with autocommit(engine) as conn:
        return away_of(conn, movers, min(starts))


def _invitations(conn: Any, player_id: str) -> list[Invitation]:
    found = conn.execute(INVITATIONS, {"player": player_id}).all()
    return [Invitation(game_id=r.game_id, name=r.name, offered_by=r.offered_by, seat=r.seat,
                       clock=_clock(r.settings))
            for r in found
            if str(r.seat) not in (r.answers or {}) and r.seat != r.offered_by]


def _utc(stamp: dt.datetime | None) -> dt.datetime | None:
    if stamp is None:
        return None
    return stamp.replace(tzinfo=dt.UTC) if stamp.tzinfo is None else stamp


def _entry(r: Any, seat_rows: list[Any], player_id: str, at: dt.datetime,
           away: dict[str, list[clocks.Away]]) -> DeskGame:
    sections: tuple[Section, ...] = ("turn", "running", "waiting", "finished")
    deadline = _utc(r.deadline) if r.status == "running" else None
    mover, back = _mover(seat_rows), None
    if deadline is not None and mover in away:  # the clock the steward times
        deadline = clocks.paused_deadline(deadline, _utc(r.turn_started_at), away[mover])
        back = clocks.away_until(away[mover], at)
    counted_from = at if back is None else back  # away: the time left stands still
    scores = list(r.scores) if r.status == "finished" and r.scores else None
    place = None
    if scores is not None and 0 <= r.my_seat < len(scores):  # the rules' places (0020), else
        place = (int(r.ranks[r.my_seat]) if r.ranks  # by points alone, for an older game
                 else 1 + sum(1 for s in scores if s > scores[r.my_seat]))
    updated = _utc(r.updated_at)
    assert updated is not None
    return DeskGame(
        id=r.id, name=r.name, section=sections[r.rank], seat=r.my_seat, players=r.players,
        seats=[DeskSeat(seat=s.s_seat, name=s.s_name, bot=s.s_bot,
                        taken=s.s_bot or s.s_joined is not None,
                        you=s.s_player == player_id) for s in seat_rows],
        to_move=r.to_move if r.status == "running" else None,
        deadline=None if deadline is None else deadline.isoformat(),
        time_left=None if deadline is None else max(0.0, (deadline - counted_from)
                                                    .total_seconds()),
        away_until=None if back is None else back.isoformat(),
        scores=scores, place=place, clock=_clock(r.settings), updated_at=updated.isoformat())


@router.get("/desk", response_model=Desk, responses={304: {"description": "unchanged"}})
async def desk(request: Request, player: CurrentPlayer,
               offset: Annotated[int, Query(ge=0, le=100_000)] = 0,
               limit: Annotated[int, Query(ge=1, le=100)] = 20) -> Response:
    """Every game of the player's, their turn first; `If-None-Match` with the last answer's
    `ETag` gets a 304 while nothing on this page changed."""
    engine: Engine = request.app.state.service.storage.engine
    page = await asyncio.to_thread(read_desk, engine, player.id, offset, limit)
    # the time left changes by itself: the tag leaves it out (the client counts down)
    tag = '"' + hashlib.sha256(page.model_dump_json(
        exclude={"games": {"__all__": {"time_left"}}}).encode()).hexdigest()[:32] + '"'
    headers = {"ETag": tag, "Cache-Control": "no-cache"}
    if request.headers.get("if-none-match") == tag:
        return Response(status_code=304, headers=headers)
    return Response(page.model_dump_json(), media_type="application/json", headers=headers)
