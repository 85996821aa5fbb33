"""Rematch (docs/PLAYERS.md "Rematch"): the one writer of the `rematches` table.

At a game's end any seated player offers a rematch (`empty_seats`: what a seat whose player
declines or never answers becomes, an open seat or a bot); each other human seat accepts or
declines; the offerer may also start with those who accepted so far. The write that records
the last answer (or the start) creates the new game, in one transaction: the rematch row's
versioned update (`version`; of two instances only one lands, the other reads again) and the
new game, its seats taken by the accepting players (their `player_id` kept), the same bot
levels, the same settings, the seat order shuffled; it starts at once when no seat is open.

The new game's seat links reach each accepting browser whichever instance made the game:
a seat's new token is derived from the secret its player answered with (their old seat token,
or their device cookie) by HMAC, and only its hash is stored (in `answers`); asking again with
the same secret (`GET .../rematch`) works it out anew. The offerer's secret gives the new
game's host token the same way. A device cookie's player acts for their seats without any
link (deps.py), so another device of theirs needs none."""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import re
import secrets
from dataclasses import dataclass, field
from typing import Any, Literal

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field
from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from brass.engine import ENGINE_VERSION, new_game

from . import clocks
from .auth import new_token, token_hash, token_matches
from .deps import OPTIONAL_TOKEN, GameAt, Seat, Service, Token, Viewer
from .errors import ApiError
from .identity import COOKIE
from .lobby import new_game_id
from .records import GameRecord, SeatRecord, now
from .schemas import ERRORS
from .storage import Storage
from .tables import rematches

log = logging.getLogger("brass.server")
router = APIRouter(prefix="/api", tags=["rematch"], responses=ERRORS)
EmptySeats = Literal["open", "bot"]
DECLINED_BOT = "medium"  # the level of a bot that takes a declined seat (the lobby's default)


def derive(secret: str, game_id: str, purpose: str) -> str:
    """The token of the rematch of `game_id` for whoever answered with `secret` (`purpose`
    "seat" or "host"): 256 bits only the holder of `secret` can work out again."""
    mac = hmac.new(secret.encode(), f"rematch:{game_id}:{purpose}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode()


@dataclass
class Offer:
    """A rematches row: `answers` by seat, each {"yes": bool, "seat": the hash of the new
    seat's token, "host": the hash of the new host token (the offerer's)}."""

    game_id: str
    offered_by: int
    empty_seats: EmptySeats
    answers: dict[int, dict[str, Any]] = field(default_factory=dict)
    new_game_id: str | None = None
    version: int = 0

    def public(self) -> dict[int, bool]:
        return {seat: bool(a["yes"]) for seat, a in sorted(self.answers.items())}


class _Raced(Exception):
    """Another write changed the offer first: read it again."""


def load(storage: Storage, game_id: str) -> Offer | None:
    with storage.engine.connect() as conn:
        return _read(conn, game_id)


def loads(storage: Storage, game_ids: list[str]) -> dict[str, Offer]:
    """The offers of these games (the desk shows those waiting for an answer)."""
    with storage.engine.connect() as conn:
        rows = conn.execute(select(rematches).where(rematches.c.game_id.in_(game_ids)))
        return {r.game_id: _offer(r) for r in rows}


def _read(conn: Connection, game_id: str) -> Offer | None:
    row = conn.execute(select(rematches).where(rematches.c.game_id == game_id)).first()
    return None if row is None else _offer(row)


def _offer(row: Any) -> Offer:
    return Offer(row.game_id, row.offered_by, row.empty_seats,
                 {int(s): a for s, a in (row.answers or {}).items()}, row.new_game_id,
                 row.version)


def humans(record: GameRecord) -> list[int]:
    """The seats whose answer is waited for: every seat a player took (resigned ones too)."""
    return [s.seat for s in record.seats if not s.bot]


def answer(storage: Storage, game_id: str, seat: int, yes: bool, secret: str,
           offering: EmptySeats | None = None, start: bool = False) -> tuple[Offer, bool]:
    """Record `seat`'s answer (`offering`: it offers the rematch, with that choice for empty
    seats; an offer made meanwhile by another seat makes it an acceptance); `start`: the
    offerer starts with whoever accepted. The offer, and whether the new game started."""
    for _attempt in range(8):
        try:
            with storage.engine.begin() as conn:
                return _answer(storage, conn, game_id, seat, yes, secret, offering, start)
        except (_Raced, IntegrityError):
            continue
    raise ApiError("stale_version", "The rematch changed meanwhile: try again")


def _answer(storage: Storage, conn: Connection, game_id: str, seat: int, yes: bool,
            secret: str, offering: EmptySeats | None, start: bool) -> tuple[Offer, bool]:
    old = Storage._record(conn, game_id)
    if old is None or old.status != "finished":
        raise ApiError("game_not_running", "A rematch is offered once the game is over")
    if old.seats[seat].bot:
        raise ApiError("illegal", "A bot's seat has no say in a rematch")
    mine = {"yes": yes, "seat": token_hash(derive(secret, game_id, f"seat{seat}"))}
    offer = _read(conn, game_id)
    if offer is None:
        if offering is None:
            raise ApiError("not_found", "No rematch was offered for this game")
        offer = Offer(game_id, seat, offering, {seat: {
            **mine, "yes": True, "host": token_hash(derive(secret, game_id, "host"))}})
        conn.execute(insert(rematches).values(
            game_id=game_id, offered_by=seat, answers=_json(offer), empty_seats=offering,
            version=0, created_at=now()))  # a racing offer breaks the primary key: retried
    else:
        if offer.new_game_id is not None:
            raise ApiError("illegal", "The rematch has started already")
        if start and seat != offer.offered_by:
            raise ApiError("unauthorized", "Only the player who offered the rematch starts it")
        if offering is not None or start:
            mine["yes"] = True
        offer.answers[seat] = {**offer.answers.get(seat, {}), **mine}
        offer.version += 1
    started = False
    if start or all(s in offer.answers for s in humans(old)):
        offer.new_game_id, started = _create(storage, conn, old, offer)
    if offer.version > 0:
        moved = conn.execute(update(rematches).where(
            rematches.c.game_id == game_id, rematches.c.version == offer.version - 1,
            rematches.c.new_game_id.is_(None)).values(
            answers=_json(offer), version=offer.version, new_game_id=offer.new_game_id))
        if moved.rowcount != 1:
            raise _Raced(game_id)  # rolls back the new game with it
    elif offer.new_game_id is not None:
        conn.execute(update(rematches).where(rematches.c.game_id == game_id)
                     .values(new_game_id=offer.new_game_id))
    storage._notify(conn, game_id, None)  # other instances: the old game's offer changed
    if offer.new_game_id is not None:
        log.info("game %s: rematch %s made (%s)", game_id, offer.new_game_id,
                 "started" if started else "waiting for players")
    return offer, started


def _json(offer: Offer) -> dict[str, Any]:
    return {str(s): a for s, a in offer.answers.items()}


NAME_MOST = 40  # a game's name, as the create form's (schemas.PlayerName)
_NUMBERED = re.compile(r"^(.*) \((\d{1,4})\)$")


def rematch_name(name: str) -> str:
    """The rematch's name: the game's with its number in the series ("Friday" then "Friday
    (2)", "Friday (3)"), so the lists tell them apart; within the name's length."""
    found = _NUMBERED.match(name)
    base, n = (found.group(1), int(found.group(2)) + 1) if found else (name, 2)
    tail = f" ({n})"
    return base[:NAME_MOST - len(tail)].rstrip() + tail


def _create(storage: Storage, conn: Connection, old: GameRecord,
            offer: Offer) -> tuple[str, bool]:
    """The new game, in the rematch's transaction: its id, and whether it started."""
    players, stamp = old.players, now()
    order = list(range(players))
    secrets.SystemRandom().shuffle(order)  # old seat s sits at order[s]
    reserves = clocks.start_reserves(old.clock, players)
    host = offer.answers[offer.offered_by]["host"]
    record = GameRecord(
        id=new_game_id(), name=rematch_name(old.name), players=players, status="waiting",
        seed=secrets.randbits(62), setup=None, version=0, engine_version=ENGINE_VERSION,
        host_token_hash=host, created_at=stamp, updated_at=stamp,
        seats=[SeatRecord(seat=s, reserve=reserves[s]) for s in range(players)],
        listed=old.listed, invite_hash=token_hash(new_token()), settings=old.settings,
        host_player_id=old.seats[offer.offered_by].player_id)  # the offerer's, as the token
    Storage.insert_game(conn, record)
    fills: list[tuple[int, str | None, str | None, bool, str | None, str | None]] = []
    for seat in old.seats:
        said = offer.answers.get(seat.seat)
        if seat.bot:
            fills.append((order[seat.seat], None, None, True, seat.level, None))
        elif said is not None and said["yes"]:
            fills.append((order[seat.seat], seat.name, said["seat"], False, None,
                          seat.player_id))
        elif offer.empty_seats == "bot":
            fills.append((order[seat.seat], None, None, True, DECLINED_BOT, None))
    started = False
    for new_seat, name, hashed, bot, level, player_id in sorted(fills):
        claimed = storage._claim(conn, record.id, new_seat, name, hashed, bot,
                                 lambda: new_game(players, record.seed, None), None, False,
                                 level, player_id)
        started = claimed.started
    return record.id, started


# -- the routes -------------------------------------------------------------------------------
class OfferRematch(BaseModel):
    empty_seats: EmptySeats = Field(default="open", description="what the seat of a player "
                                    "who declines (or never answers) becomes: open, or a bot")


class AnswerRematch(BaseModel):
    accept: bool = Field(strict=True)


class RematchInfo(BaseModel):
    offered_by: int | None = Field(description="the seat that offered; null: no offer")
    empty_seats: EmptySeats | None
    answers: dict[int, bool] = Field(description="by seat: accepted or declined")
    waiting_for: list[int] = Field(description="the human seats that have not answered")
    new_game_id: str | None = Field(description="the rematch, once made")
    seat: int | None = Field(description="the asking seat (a seat token or the cookie's)")
    token: str | None = Field(description="the asking seat's token in the rematch, when it "
                                          "accepted with this same token or device")
    host_token: str | None = Field(description="the rematch's host token, for its offerer")


def secret_of(request: Request, token: Token) -> str | None:
    """What the asking browser answers with: its seat token, else its device cookie."""
    return token or request.cookies.get(COOKIE)


Secret = Depends(secret_of)


def info(record: GameRecord, offer: Offer | None, seat: int | None,
         secret: str | None) -> RematchInfo:
    if offer is None:
        return RematchInfo(offered_by=None, empty_seats=None, answers={}, waiting_for=[],
                           new_game_id=None, seat=seat, token=None, host_token=None)
    token = host = None
    said = offer.answers.get(seat) if seat is not None else None
    if offer.new_game_id is not None and said is not None and secret is not None:
        mine = derive(secret, offer.game_id, f"seat{seat}")
        token = mine if said["yes"] and token_matches(mine, said["seat"]) else None
        theirs = derive(secret, offer.game_id, "host")
        host = theirs if token_matches(theirs, said.get("host")) else None
    return RematchInfo(
        offered_by=offer.offered_by, empty_seats=offer.empty_seats, answers=offer.public(),
        new_game_id=offer.new_game_id, seat=seat, token=token, host_token=host,
        waiting_for=[s for s in humans(record) if s not in offer.answers])


async def _act(service: Service, rt: GameAt, seat: int, secret: str | None, yes: bool,
               offering: EmptySeats | None = None, start: bool = False) -> RematchInfo:
    if secret is None:
        raise ApiError("unauthorized", "A seat token (or this browser's seat) is needed")
    offer, started = await service.core.db(answer, service.core.storage, rt.id, seat, yes,
                                           secret, offering, start)
    reach = service.core.reach  # this instance committed it: it tells (notices.py)
    if offering is not None and offer.offered_by == seat and offer.version == 0:
        reach.rematch_offered(rt, seat)
    if started and offer.new_game_id is not None:
        service.core.tending.poke(offer.new_game_id)  # its bots move, its clock runs
        try:
            new = await service.core.runtime(offer.new_game_id)
        except ApiError as exc:  # made and committed: only its notices are lost
            log.warning("rematch %s: no notices (%s)", offer.new_game_id, exc.message)
        else:
            reach.game_started(new)
            reach.turn_began(new)
    return info(rt.record, offer, seat, secret)


@router.post("/games/{game_id}/rematch", response_model=RematchInfo)
async def offer_rematch(game_id: str, body: OfferRematch, service: Service, rt: GameAt,
                        seat: Seat, secret: str | None = Secret) -> RematchInfo:
    """A seated player offers a rematch of the finished game (an offer made first by another
    seat is accepted instead)."""
    return await _act(service, rt, seat, secret, True, body.empty_seats)


@router.post("/games/{game_id}/rematch/answer", response_model=RematchInfo)
async def answer_rematch(game_id: str, body: AnswerRematch, service: Service, rt: GameAt,
                         seat: Seat, secret: str | None = Secret) -> RematchInfo:
    """Accept or decline the rematch offered; the last answer makes the new game."""
    return await _act(service, rt, seat, secret, body.accept)


@router.post("/games/{game_id}/rematch/start", response_model=RematchInfo)
async def start_rematch(game_id: str, service: Service, rt: GameAt, seat: Seat,
                        secret: str | None = Secret) -> RematchInfo:
    """The offerer starts the rematch with those who accepted so far (the others' seats
    become what the offer said)."""
    return await _act(service, rt, seat, secret, True, start=True)


@router.get("/games/{game_id}/rematch", response_model=RematchInfo,
            openapi_extra=OPTIONAL_TOKEN)
async def rematch_state(game_id: str, service: Service, rt: GameAt, seat: Viewer,
                        secret: str | None = Secret) -> RematchInfo:
    """The offer and its answers (anyone); with a seat token (or the cookie of the seat's
    device), that seat's link to the rematch once it is made."""
    offer = await service.core.db(load, service.core.storage, rt.id)
    return info(rt.record, offer, seat, secret)
