"""Public player pages: `GET /api/players/{id}` (a listed player's profile: rating and its
history, games, wins, average VP, favourite industries, recent games) and
`GET /api/games/{id}/ratings` (a finished game's rating changes, for its end screen).

Only reads, and only what is public: finished games' results (a finished game has no
secrets), never a running game, an e-mail, a device or a hand. An unlisted player is a 404
(the same answer as no player at all, so listing cannot be probed); their rating change shows
on a game's end screen only to the seat that holds it. A recent game is linked (its id) only
when the game itself is listed: an unlisted game's id is its invitation to watch."""

from __future__ import annotations

import collections
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field
from sqlalchemy import and_, select
from sqlalchemy.engine import Connection

from . import ratings
from .deps import OPTIONAL_TOKEN, GameAt, Service, Viewer
from .errors import ApiError
from .schemas import ERRORS
from .storebase import StoreBase
from .tables import actions, games, players, seats
from .tables import ratings as ratings_table

router = APIRouter(prefix="/api", responses=ERRORS)


class RatingInfo(BaseModel):
    mu: float
    sigma: float
    ordinal: float = Field(description="the shown rating: mu - 3 sigma")
    games: int = Field(description="rated games played")
    provisional: bool = Field(description=f"fewer than {ratings.PROVISIONAL} rated games")


class RatingChange(BaseModel):
    seat: int
    name: str
    player_id: str | None = Field(description="set when the player's profile is listed")
    before: RatingInfo
    after: RatingInfo


class GameRatings(BaseModel):
    changes: list[RatingChange] = Field(description="empty: the game is not rated (yet)")


class RatingPoint(BaseModel):
    game_id: str | None = Field(description="null: the game is not listed")
    ordinal: float
    at: str


class RecentGame(BaseModel):
    id: str
    name: str
    finished_at: str
    players: int
    place: int | None = Field(description="1: won; null: not known (no final ranking)")
    vp: int


class Profile(BaseModel):
    id: str
    name: str
    rating: RatingInfo | None = Field(description="null: never rated (no rated game yet)")
    history: list[RatingPoint] = Field(description="the rating after each rated game, oldest "
                                                   "first (the last 200)")
    games: int = Field(description="finished games played")
    wins: int
    average_vp: float | None
    favourite_industries: list[str] = Field(description="most built first (at most 3)")
    recent: list[RecentGame] = Field(description="the latest listed finished games (10)")


def info(r: ratings.Rating) -> RatingInfo:
    return RatingInfo(mu=r.mu, sigma=r.sigma, ordinal=r.ordinal, games=r.games,
                      provisional=r.provisional)


def game_ratings(store: StoreBase, game_id: str, viewer: int | None) -> GameRatings:
    with store.engine.connect() as conn:
        changes = ratings.of_game(conn, game_id)
        if not changes:
            return GameRatings(changes=[])
        rows = {r.player_id: r for r in conn.execute(
            select(seats.c.seat, seats.c.name, seats.c.player_id, players.c.listed)
            .join(players, players.c.id == seats.c.player_id)
            .where(seats.c.game_id == game_id))}
    out = []
    for player_id, before, after in changes:
        row = rows.get(player_id)  # None: the seat no longer names them (never so today)
        if row is not None and (row.listed or row.seat == viewer):
            out.append(RatingChange(seat=row.seat, name=row.name or "",
                                    player_id=player_id if row.listed else None,
                                    before=info(before), after=info(after)))
    return GameRatings(changes=sorted(out, key=lambda c: c.seat))


def profile(store: StoreBase, player_id: str, recent: int = 10) -> Profile:
    with store.engine.connect() as conn:
        player = conn.execute(select(players).where(
            players.c.id == player_id, players.c.listed.is_(True),
            players.c.deleted_at.is_(None))).first()
        if player is None:
            raise ApiError("not_found", "No such player (or their profile is not listed)")
        history = conn.execute(
            select(ratings_table, games.c.listed).join(games, games.c.id == ratings_table.c.game_id)
            .where(ratings_table.c.player_id == player_id)
            .order_by(ratings_table.c.games.desc()).limit(200)).all()[::-1]
        played = conn.execute(
            select(games.c.id, games.c.name, games.c.finished_at, games.c.players,
                   games.c.scores, games.c.listed, seats.c.seat, actions.c.effects)
            .join(seats, seats.c.game_id == games.c.id)
            .outerjoin(actions, and_(actions.c.game_id == games.c.id,
                                     actions.c.seq == games.c.version))
            .where(seats.c.player_id == player_id, games.c.status == "finished")
            .order_by(games.c.finished_at.desc())).all()
        built = _industries(conn, player_id)
        stand_ins = _stand_ins(conn, [r.id for r in played])
    last = history[-1] if history else None
    places = [_place(r.effects, r.seat, stand_ins.get(r.id, {})) for r in played]
    vps = [int(r.scores[r.seat]) for r in played if r.scores]
    return Profile(
        id=player.id, name=player.name or "", history=[
            RatingPoint(game_id=r.game_id if r.listed else None, ordinal=r.ordinal,
                        at=r.created_at.isoformat()) for r in history],
        rating=None if last is None else info(ratings.Rating(last.mu, last.sigma, last.games)),
        games=len(played), wins=places.count(1),
        average_vp=sum(vps) / len(vps) if vps else None,
        favourite_industries=[name for name, _ in built.most_common(3)],
        recent=[RecentGame(id=r.id, name=r.name, finished_at=r.finished_at.isoformat(),
                           players=r.players, place=place, vp=int(r.scores[r.seat]))
                for r, place in zip(played, places, strict=True)
                if r.listed and r.scores][:recent])


def _place(effects: Any, seat: int, stand_ins: dict[int, str | None]) -> int | None:
    """The seat's place as rating counts it (ratings.places: a seat a bot played for at the
    end is last), from the game's final ranking (the last move's `game_end` event)."""
    for event in effects or ():
        if event.get("type") == "game_end":
            return ratings.places(event["ranking"], stand_ins).get(seat)
    return None


def _stand_ins(conn: Connection, game_ids: list[str]) -> dict[str, dict[int, str | None]]:
    out: dict[str, dict[int, str | None]] = collections.defaultdict(dict)
    if game_ids:
        for r in conn.execute(select(seats.c.game_id, seats.c.seat, seats.c.stand_in)
                              .where(seats.c.game_id.in_(game_ids))):
            out[r.game_id][r.seat] = r.stand_in
    return out


def _industries(conn: Connection, player_id: str) -> collections.Counter[str]:
    """How often the player built each industry, in their finished games (undone builds left
    out: they were never played)."""
    counter: collections.Counter[str] = collections.Counter()
    rows = conn.execute(
        select(actions.c.action).join(seats, and_(seats.c.game_id == actions.c.game_id,
                                                  seats.c.seat == actions.c.seat))
        .join(games, games.c.id == actions.c.game_id)
        .where(seats.c.player_id == player_id, games.c.status == "finished",
               actions.c.undone.is_(False), actions.c.stand_in.is_(None)))
    for (action,) in rows:
        if action.get("kind") == "build":
            counter[action["industry"]] += 1
    return counter


@router.get("/games/{game_id}/ratings", response_model=GameRatings,
            openapi_extra=OPTIONAL_TOKEN)
async def rating_changes(game_id: str, service: Service, rt: GameAt,
                         seat: Viewer) -> GameRatings:
    """A finished game's rating changes (its end screen): listed players', and the asking
    seat's own (a seat token); empty while it runs or when it was not rated."""
    if rt.record.status != "finished":
        return GameRatings(changes=[])
    return await service.core.db(game_ratings, service.core.storage, game_id, seat)


@router.get("/players/{player_id}", response_model=Profile)
async def player_profile(player_id: str, service: Service) -> Profile:
    """A listed player's public profile; 404 for an unlisted (or unknown) player."""
    return await service.core.db(profile, service.core.storage, player_id)
