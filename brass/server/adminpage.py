"""The admin page's API (`/api/admin/...`, issue 25), for a signed-in player whose role is
admin (`deps.Admin`: `brass admin grant` or `brass admin link`; anyone else gets `forbidden`,
without a player `unauthorized`).

- every game, filtered and paged, newest first; end one (a waiting or running game becomes
  `cancelled`, as the host's cancel: its clients hear it through the game's normal publish, on
  this instance at once and on the others by the write's notification) or delete one (a game
  still waiting or running is ended first, so its players see it end, then its rows go);
- the chat of every game, newest first, paged; a line deleted and a seat or the spectators
  muted (or let speak again) exactly as the game's host does (chat.py: gone for every
  spectator and in replays); the games whose chat has muted someone, and whom;
- the create policy (policy.py: the same setting `brass settings create-policy` writes);
- the banner every page shows (banner.py);
- the newest backup, this instance's figures (hostfacts.py) and every instance's as each
  last wrote them (instancelist.py)."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from . import banner, chat, identity, policy
from .adminstore import DEEPEST, PAGE, AdminStore, GameFilter
from .deps import Admin, Service
from .errors import ApiError
from .hostfacts import Backup, Figures, Rate, figures, last_backup
from .instancelist import EVERY, InstanceList, InstanceStore, listing
from .playerstore import Player
from .policy import MAX_CODE, MIN_CODE, Policy
from .records import now
from .schemas import ERRORS, BannerText, ChatMute, ChatMutes
from .service import GameService
from .vocab import GameStatus

log = logging.getLogger("brass.server.admin")
router = APIRouter(prefix="/api/admin", tags=["admin"], responses=ERRORS)
_REQUEST = ConfigDict(extra="forbid")


class AdminSeat(BaseModel):
    seat: int
    name: str | None
    bot: bool
    taken: bool
    player_id: str | None


class AdminGame(BaseModel):
    id: str
    name: str
    status: GameStatus
    players: int
    listed: bool
    created_at: dt.datetime
    updated_at: dt.datetime
    version: int
    seats: list[AdminSeat]


class AdminGames(BaseModel):
    games: list[AdminGame]
    next_offset: int | None = Field(description="the `offset` of the next page (null: none)")


class AdminChatLine(BaseModel):
    id: int
    game_id: str
    game_name: str
    seat: int | None
    name: str
    text: str
    spectator: bool
    time: dt.datetime


class AdminChat(BaseModel):
    lines: list[AdminChatLine] = Field(description="newest first")
    next: int | None = Field(description="the `before` of the page of older lines (null: none)")


class MutedSeat(BaseModel):
    seat: int
    name: str | None = Field(description="the seat's player's name (null: none)")
    bot: bool


class AdminGameMutes(BaseModel):
    game_id: str
    game_name: str
    seats: list[MutedSeat] = Field(description="the muted seats")
    spectators: bool = Field(description="the game's spectators are muted")


class AdminMuted(BaseModel):
    games: list[AdminGameMutes] = Field(description="newest game first")
    next_offset: int | None = Field(description="the `offset` of the next page (null: none)")


class PolicyView(BaseModel):
    policy: Policy


class PolicyChange(BaseModel):
    model_config = _REQUEST
    policy: Policy
    code: str | None = Field(default=None, min_length=MIN_CODE,
                             max_length=MAX_CODE,
                             description="invite only: the code to hand out (default: a new "
                                         "random one)")


class PolicySet(BaseModel):
    policy: Policy
    code: str | None = Field(description="the invite code, shown this once (only its hash "
                                         "is kept); null for the other policies")


class BannerChange(BaseModel):
    model_config = _REQUEST
    text: BannerText | None = Field(description="the message (null: no banner)")


def did(admin: Player, what: str) -> None:
    """One log line per change an admin makes, naming the admin and what changed (several
    admins share a server: the access log says only the path)."""
    log.info("admin %s (%r) %s", admin.id, admin.name, what)


def _store(service: GameService) -> AdminStore:
    return AdminStore(service.storage)


@router.get("/games", response_model=AdminGames)
async def games(
        _admin: Admin, service: Service, status: GameStatus | None = None,
        name: Annotated[str | None, Query(max_length=80)] = None,
        since: dt.datetime | None = None, humans: bool | None = None, bots: bool | None = None,
        limit: Annotated[int, Query(ge=1, le=PAGE)] = PAGE,
        offset: Annotated[int, Query(ge=0, le=DEEPEST)] = 0) -> AdminGames:
    """Every game (listed or not), newest first: `status`; `name` contains (any case);
    created at or after `since`; with (or without) a seat a person took (`humans`), a bot
    seat (`bots`). `limit` per page from `offset`."""
    found = GameFilter(status=status, name=(name or "").strip() or None, since=since,
                       humans=humans, bots=bots)
    rows = await service.core.db(_store(service).games, found, limit + 1, offset)
    return AdminGames(games=[AdminGame.model_validate(r) for r in rows[:limit]],
                      next_offset=offset + limit if len(rows) > limit else None)


async def end_game(service: GameService, game_id: str) -> None:
    """Call the game off (`cancelled`); this instance's clients of it hear it now."""
    if not await service.core.db(service.storage.cancel_game, game_id, "admin"):
        if await service.core.db(_store(service).status, game_id) is None:
            raise ApiError("not_found", f"No game {game_id}")
        raise ApiError("game_not_running", "The game is not waiting or running")
    rt = service.core.games.get(game_id)
    if rt is not None:  # held here: catch up (reads the new status) and publish it
        rt.behind = True
        await service.core.catch_up(rt)


@router.post("/games/{game_id}/end", response_model=AdminGame)
async def end(game_id: str, admin: Admin, service: Service) -> AdminGame:
    """End a waiting or running game: it becomes `cancelled` for everyone watching it, on
    every instance; nobody can move or join any more. `game_not_running` if it is over."""
    await end_game(service, game_id)
    did(admin, f"ended game {game_id}")
    rows = await service.core.db(_store(service).games, GameFilter(game_id=game_id), 1, 0)
    return AdminGame.model_validate(rows[0])


@router.delete("/games/{game_id}", status_code=204, response_class=Response)
async def delete(game_id: str, admin: Admin, service: Service) -> Response:
    """Delete a game and everything of it (seats, log, chat, analysis). A game still waiting
    or running is ended first, so that its players see it end."""
    store = _store(service)
    status = await service.core.db(store.status, game_id)
    if status is None:
        raise ApiError("not_found", f"No game {game_id}")
    if status in chat.OPEN:
        try:
            await end_game(service, game_id)
        except ApiError as exc:
            if exc.code != "game_not_running":  # it ended meanwhile: delete it all the same
                raise
    if not await service.core.db(service.storage.delete_game, game_id):
        raise ApiError("not_found", f"No game {game_id}")
    service.core.forget(game_id)
    did(admin, f"deleted game {game_id} ({status} until then)")
    return Response(status_code=204)


@router.get("/chat", response_model=AdminChat)
async def chat_lines(_admin: Admin, service: Service,
                     limit: Annotated[int, Query(ge=1, le=PAGE)] = PAGE,
                     before: Annotated[int | None, Query(ge=1)] = None,
                     game: Annotated[str | None, Query(max_length=32)] = None) -> AdminChat:
    """The chat lines of every game (or of `game`), newest first, a page at a time (`before`:
    the previous page's `next`); deleted lines are left out."""
    rows = await service.core.db(_store(service).chat_lines, limit + 1, before, game)
    page = rows[:limit]
    return AdminChat(lines=[AdminChatLine.model_validate(r) for r in page],
                     next=page[-1]["id"] if len(rows) > limit else None)


@router.get("/chat/muted", response_model=AdminMuted)
async def muted(_admin: Admin, service: Service,
                limit: Annotated[int, Query(ge=1, le=PAGE)] = PAGE,
                offset: Annotated[int, Query(ge=0, le=DEEPEST)] = 0) -> AdminMuted:
    """The games whose chat has muted a seat or the spectators, newest game first, and whom:
    what the page offers to let speak again (`POST .../chat/mute` with `muted` false)."""
    rows = await service.core.db(_store(service).muted, limit + 1, offset)
    return AdminMuted(games=[AdminGameMutes.model_validate(r) for r in rows[:limit]],
                      next_offset=offset + limit if len(rows) > limit else None)


@router.delete("/games/{game_id}/chat/messages/{message_id}", status_code=204,
                response_class=Response)
async def delete_chat(game_id: str, message_id: int, admin: Admin,
                      service: Service) -> Response:
    """Delete a chat line, as the game's host would: gone for everyone, now and in replays."""
    await chat.delete(service.core, await service.runtime(game_id), message_id)
    did(admin, f"deleted chat line {message_id} of game {game_id}")
    return Response(status_code=204)


@router.post("/games/{game_id}/chat/mute", response_model=ChatMutes)
async def mute_chat(game_id: str, body: ChatMute, admin: Admin, service: Service) -> Any:
    """Mute a seat or the spectators (`seat` null) of a game, or let them speak again, as the
    game's host would, but the host cannot lift this mute; whom the chat has muted now."""
    now = await chat.mute(service.core, await service.runtime(game_id), body.seat, body.muted,
                          "admin")
    whom = "the spectators" if body.seat is None else f"seat {body.seat}"
    did(admin, f"{'muted' if body.muted else 'let speak'} {whom} in the chat of game {game_id}")
    return now


@router.get("/policy", response_model=PolicyView)
async def get_policy(_admin: Admin, request: Request) -> PolicyView:
    """Who may create games (`brass settings create-policy` shows and sets the same)."""
    found, _ = await asyncio.to_thread(policy.current, identity.store(request))
    return PolicyView(policy=found)


@router.put("/policy", response_model=PolicySet)
async def set_policy(body: PolicyChange, admin: Admin, request: Request) -> PolicySet:
    """Set who may create games; `invite` keeps only the code's hash and shows it this once."""
    if body.code is not None and body.policy != "invite":
        raise ApiError("malformed", "A code goes with the invite policy only")
    code = await asyncio.to_thread(policy.set_policy, identity.store(request), body.policy,
                                   body.code)
    did(admin, f"set the create policy to {body.policy}")  # never the code
    return PolicySet(policy=body.policy, code=code)


@router.put("/banner", response_model=banner.Banner)
async def set_banner(body: BannerChange, admin: Admin, request: Request) -> banner.Banner:
    """Set the banner every page shows (null: none); every instance shows it within 2 s."""
    shown = await banner.cache(request).set(body.text, now().isoformat())
    did(admin, "cleared the banner" if body.text is None else f"set the banner to {body.text!r}")
    return shown


@router.get("/backup", response_model=Backup)
async def backup(_admin: Admin, request: Request) -> Backup:
    """The newest dump in the backup folder (`BRASS_BACKUP_DIR`), if it is mounted here."""
    folder: Path = request.app.state.backup_dir
    return await asyncio.to_thread(last_backup, folder)


@router.get("/figures", response_model=Figures)
async def server_figures(_admin: Admin, request: Request, service: Service) -> Figures:
    """This instance's figures, as `/metrics` counts them, in words."""
    return own_figures(service, request.app.state.move_rate)


@router.get("/instances", response_model=InstanceList)
async def every_instance(_admin: Admin, request: Request, service: Service) -> InstanceList:
    """Every instance's figures: this one's counted now, the others' as each last wrote
    them (every `BRASS_INSTANCE_REPORT_EVERY` seconds); one silent for three reports is
    said to be (killed, or cut off from the database)."""
    rows = await asyncio.to_thread(InstanceStore(service.storage).rows)
    return listing(own_figures(service, request.app.state.move_rate), rows, now(),
                   request.app.state.report_every)


def own_figures(service: GameService, rate: Rate) -> Figures:
    """This instance's figures (`hostfacts.figures`), its running games counted here."""
    running = sum(1 for rt in list(service.games.values()) if rt.record.status == "running")
    return figures(service.storage.instance, running, rate)


def install(app: FastAPI, backup_dir: Path, report_every: float = EVERY) -> None:
    app.state.backup_dir = backup_dir
    app.state.report_every = report_every
    app.state.move_rate = Rate()
    app.include_router(banner.router)
    app.include_router(router)
