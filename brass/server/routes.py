"""The HTTP API (DESIGN.md "Server"). Each route reads like prose: dependencies (deps.py) give
the service, the game, and the seat or host the bearer token belongs to; the service does the
work; `outbound` builds the answer."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, BackgroundTasks, Query, Request, Response

from brass.engine import DATA

from . import chat, deps, identity, listing, lobby, outbound, policy
from .clocks import Clock
from .deps import (
    GameAt,
    Holder,
    HostToAddBots,
    HostToCancel,
    HostToInvite,
    HostToList,
    HostToModerate,
    HostToRemove,
    JoinLimited,
    MaybePlayer,
    Seat,
    SeatToAct,
    SeatToUndo,
    Service,
    Token,
    Viewer,
)
from .errors import ApiError
from .schemas import (
    ERRORS,
    AddBot,
    Analysis,
    BotAdded,
    ChatHistory,
    ChatMute,
    ChatMutes,
    Claimed,
    Created,
    CreateGame,
    ExtendRequest,
    Extensions,
    GameInfo,
    GameList,
    GameLog,
    HandOver,
    Hosting,
    InviteCheck,
    InviteRenewed,
    InviteValid,
    Join,
    Joined,
    LegalEntry,
    Preview,
    PreviewRequest,
    Renewed,
    ReplayFrame,
    Rules,
    SeatRequest,
    SetListed,
    StateMessage,
    SubmitAction,
    UndoRequest,
    Version,
)
from .vocab import GameStatus

router = APIRouter(prefix="/api", responses=ERRORS)


@router.post("/games", response_model=Created, status_code=201, dependencies=[JoinLimited])
async def create_game(body: CreateGame, request: Request, service: Service,
                      player: MaybePlayer) -> Created:
    """A new waiting game, if the host's create policy lets this creator make one (policy.py:
    `create_refused` says what is missing). With the player cookie, the creator's player
    hosts it on every device of theirs too (`GET .../hosting`), as the host token does."""
    await policy.check_create(identity.store(request), player, body.invite_code)
    game_id, host_token, invite = await service.lobby.create_game(
        body.players, body.name, body.listed, Clock(**body.clock.model_dump()),
        body.shared_screen, None if player is None else player.id)
    return Created(id=game_id, host_token=host_token, invite=invite)


@router.get("/games", response_model=GameList)
async def list_games(
        service: Service, status: GameStatus | None = None,
        limit: Annotated[int, Query(ge=1, le=100)] = 50,
        cursor: Annotated[str | None, Query(max_length=200)] = None,
        changed_after: Annotated[str | None, Query(max_length=200)] = None) -> GameList:
    """The listed games, newest first, a page at a time (`cursor` from the previous page's
    `next`); with `changed_after` (a page's `changes`), only the listed games that changed
    since, oldest change first. Finished games leave the listing after a while (they stay
    reachable by id); unlisted games are never listed."""
    page = listing.query(limit, status, cursor, changed_after)
    rows = await service.lobby.list_games(page.query)
    return GameList(games=[outbound.game_info(record, game) for record, game in rows],
                    next=listing.next_cursor(page, rows), changes=listing.changes(page, rows))


# the engine's own numbers (data/rules.json), checked against the schema once, at import
RULES = Rules.model_validate({k: v for k, v in DATA.rules.items() if k != "about"})


@router.get("/rules", response_model=Rules)
async def rules() -> Rules:
    """The fixed numbers of the rules the engine plays by (start money, hand size, the loan,
    the links' costs...): a client shows these, never numbers of its own."""
    return RULES


@router.post("/games/{game_id}/listed", response_model=GameInfo)
async def set_listed(game_id: str, body: SetListed, service: Service,
                     rt: HostToList) -> GameInfo:
    """Host only: show the game in the listing, or take it out."""
    await service.lobby.set_listed(rt, body.listed)
    rt = await service.runtime(game_id)
    return outbound.game_info(rt.record, rt.game)


@router.get("/games/{game_id}", response_model=GameInfo)
async def game_info(game_id: str, rt: GameAt) -> GameInfo:
    return outbound.game_info(rt.record, rt.game)


@router.get("/games/{game_id}/state", response_model=StateMessage,
            openapi_extra=deps.OPTIONAL_TOKEN)
async def state(game_id: str, service: Service, rt: GameAt, seat: Viewer) -> Response:
    """The same state the websocket sends: the seat's view with a seat token (and its legal
    moves if it is to move), else the spectator's."""
    return _json(await service.core.publisher.state_text(rt, seat))


@router.get("/games/{game_id}/hosting", response_model=Hosting,
            openapi_extra=deps.OPTIONAL_TOKEN)
async def hosting(game_id: str, request: Request, rt: GameAt, token: deps.Token) -> Hosting:
    """Whether the asker may use the host's powers: a device of the player who created the
    game asks, holding no host link (the link stays in the browser that made it)."""
    return Hosting(host=await deps.hosts(request, rt, token))


@router.post("/games/{game_id}/join", response_model=Joined, status_code=201,
             dependencies=[JoinLimited])
async def join(game_id: str, body: Join, request: Request, service: Service,
               player: MaybePlayer, after: BackgroundTasks) -> Joined:
    """Take a free seat: an unlisted game needs its `invite` secret; `browser` (an id the
    browser keeps) limits a browser to one seat unless the game allows a shared screen. With
    the player cookie, the seat is that player's (on their desk, on every device), and a
    player with no display name yet takes the name they joined with."""
    seat, token = await service.lobby.join(game_id, body.name, body.invite, body.browser,
                                           None if player is None else player.id)
    if player is not None and not player.name:  # their first name at a table is theirs,
        # written once the answer has left, so as not to hold it back: the last seat's join
        # starts the game, and its page waits for the answer to play its seat
        after.add_task(asyncio.to_thread, identity.store(request).name_if_none, player.id,
                       body.name)
    return Joined(seat=seat, token=token)


@router.post("/games/{game_id}/claim", response_model=Claimed)
async def claim(game_id: str, request: Request, rt: GameAt, seat: Seat,
                player: deps.CurrentPlayer) -> Claimed:
    """Opening a seat link in a browser with a player: a seat from before players (nobody's)
    becomes this player's. `mine` says whether the seat is theirs now; a seat another player
    took stays theirs, and who that is is never said."""
    mine = await asyncio.to_thread(identity.store(request).claim_seat, rt.id, seat, player.id)
    if mine:
        rt.record.seats[seat].player_id = player.id  # other instances hear it (notified)
    return Claimed(seat=seat, mine=mine)


@router.post("/games/{game_id}/invite/check", response_model=InviteValid)
async def check_invite(game_id: str, body: InviteCheck, rt: GameAt) -> InviteValid:
    """Whether an invite link opened still lets its holder join, asked before they type a
    name: a renewed link's lobby says so at once, where the join was refused only after."""
    return InviteValid(valid=lobby.invite_refusal(rt.record, body.invite) is None)


@router.post("/games/{game_id}/invite", response_model=InviteRenewed)
async def renew_invite(game_id: str, service: Service, rt: HostToInvite) -> InviteRenewed:
    """Host only, while the game waits: a new invite secret (the old link stops working)."""
    return InviteRenewed(invite=await service.lobby.renew_invite(rt))


@router.post("/games/{game_id}/resign", response_model=Version)
async def resign(game_id: str, service: Service, rt: GameAt, seat: Seat,
                 body: SeatRequest | None = None) -> Version:
    """The seat's player gives up: a bot plays their seat to the end."""
    return Version(version=await service.seats.resign(
        rt, seat, None if body is None else body.expected_version))


@router.post("/games/{game_id}/takeover", response_model=Version)
async def take_over(game_id: str, service: Service, rt: GameAt, seat: Seat,
                    body: SeatRequest | None = None) -> Version:
    """The player is back: they play their seat again instead of the bot that stood in
    (after a time-out or a hand-over; not after resigning)."""
    return Version(version=await service.seats.take_over(
        rt, seat, None if body is None else body.expected_version))


@router.post("/games/{game_id}/handover", response_model=Version)
async def hand_over(game_id: str, body: HandOver, service: Service, rt: GameAt,
                    seat: Seat) -> Version:
    """A seated player hands the seat to move to a bot, once it has been idle for the game's
    `handoff_after` seconds (a game without a clock that allows it)."""
    return Version(version=await service.seats.hand_over(rt, seat, body.seat,
                                                   body.expected_version))


@router.post("/games/{game_id}/renew", response_model=Renewed)
async def renew(game_id: str, service: Service, rt: GameAt, holder: Holder) -> Renewed:
    """A new secret for the seat (or host) link whose token is sent; the old one stops working.
    Sockets opened with the old seat token go on as spectators."""
    seat, fresh = await service.lobby.renew(rt, *holder)
    return Renewed(role="host" if seat is None else "seat", seat=seat, token=fresh)


@router.delete("/games/{game_id}/seats/{seat}", response_model=GameInfo)
async def remove_seat(game_id: str, seat: int, service: Service,
                      rt: HostToRemove) -> GameInfo:
    """Host only, while the game waits: empty a seat (its player's token stops working)."""
    await service.lobby.remove_seat(rt, seat)
    rt = await service.runtime(game_id)
    return outbound.game_info(rt.record, rt.game)


@router.post("/games/{game_id}/cancel", response_model=GameInfo)
async def cancel(game_id: str, service: Service, rt: HostToCancel) -> GameInfo:
    """Host only, while the game waits: call the game off."""
    await service.lobby.cancel(rt)
    rt = await service.runtime(game_id)
    return outbound.game_info(rt.record, rt.game)


@router.post("/games/{game_id}/bots", response_model=BotAdded, status_code=201)
async def add_bot(game_id: str, service: Service, rt: HostToAddBots,
                  body: AddBot | None = None) -> BotAdded:
    seat = await service.lobby.add_bot(rt, None if body is None else body.seat,
                                 "medium" if body is None else body.level)
    return BotAdded(seat=seat)


@router.post("/games/{game_id}/actions", response_model=Version)
async def submit_action(game_id: str, body: SubmitAction, service: Service, rt: GameAt,
                        seat: SeatToAct) -> Version:
    version = await service.play.submit_as(rt, seat, body.action, body.expected_version,
                                      body.action_id)
    return Version(version=version)


@router.get("/games/{game_id}/legal", response_model=list[LegalEntry])
async def legal(game_id: str, service: Service, rt: GameAt, seat: Seat) -> Response:
    """The seat's legal moves, each with its full price; empty if it is not its turn. A Sell
    has one sale and a Network one link here: `POST legal/extend` adds the next."""
    return _json(await service.play.legal(rt, seat))


@router.post("/games/{game_id}/legal/extend", response_model=Extensions)
async def extend(game_id: str, body: ExtendRequest, service: Service, rt: GameAt,
                 seat: Seat) -> Response:
    """The legal moves made of a legal Sell plus one more sale (or a Network plus its
    second link), each with its price."""
    return _json(await service.play.extensions(rt, seat, body.action, body.version))


@router.get("/games/{game_id}/chat", response_model=ChatHistory)
async def chat_history(game_id: str, service: Service, rt: GameAt,
                       limit: Annotated[int, Query(ge=1, le=chat.HISTORY)] = chat.HISTORY,
                       before: Annotated[int | None, Query(ge=1)] = None) -> ChatHistory:
    """A page of the game's chat, players' and spectators', oldest first: the latest `limit`
    messages (before the message id `before`: the previous page's `next`); whom the host
    muted."""
    return ChatHistory.model_validate(await chat.messages(service.core, rt, limit, before))


@router.delete("/games/{game_id}/chat/messages/{message_id}", status_code=204)
async def delete_chat(game_id: str, message_id: int, service: Service,
                      rt: HostToModerate) -> Response:
    """Host only: delete a message, for everyone (sockets get `chat_deleted`) and in
    replays."""
    await chat.delete(service.core, rt, message_id)
    return Response(status_code=204)


@router.post("/games/{game_id}/chat/mute", response_model=ChatMutes)
async def mute_chat(game_id: str, body: ChatMute, service: Service,
                    rt: HostToModerate) -> dict[str, Any]:
    """Host only: mute a seat or the spectators (`seat` null) in the chat, or not; whom the
    host has muted now."""
    return await chat.mute(service.core, rt, body.seat, body.muted)


@router.post("/games/{game_id}/legal/preview", response_model=Preview)
async def preview(game_id: str, body: PreviewRequest, service: Service, rt: GameAt,
                  seat: Seat) -> Response:
    """The whole effect of a legal move of the seat to move (the engine's `move` event for
    it), before it is confirmed."""
    return _json(await service.play.preview(rt, seat, body.action, body.version))


@router.post("/games/{game_id}/undo", response_model=Version)
async def undo(game_id: str, service: Service, rt: GameAt, seat: SeatToUndo,
               body: UndoRequest | None = None) -> Version:
    version = await service.play.undo_as(rt, seat, None if body is None else body.expected_version)
    return Version(version=version)


@router.get("/games/{game_id}/log", response_model=GameLog)
async def game_log(game_id: str, service: Service, rt: GameAt) -> Response:
    """Every action with its public effects (a running game: public parts only)."""
    return _json(await service.replays.log_text(rt))


@router.post("/games/{game_id}/analysis", response_model=Analysis, status_code=202)
async def start_analysis(game_id: str, service: Service, rt: GameAt, token: Token,
                         request: Request) -> dict[str, Any]:
    """A seat or the host of the finished game starts the hard bot's analysis of it (once on
    the whole server: it is stored); the progress. Analyses under way are capped on the
    server and per client address: past a cap, 429 with `Retry-After`."""
    return await service.analyses.start(rt, token, deps.client_address(request))


@router.get("/games/{game_id}/analysis", response_model=Analysis)
async def analysis(game_id: str, service: Service, rt: GameAt) -> dict[str, Any]:
    """A finished game's analysis: every move judged, once computed (`POST` starts it)."""
    return await service.analyses.status(rt)


@router.get("/games/{game_id}/replay/{n}", response_model=ReplayFrame)
async def replay(game_id: str, n: int, service: Service, rt: GameAt,
                 seat: int | None = None) -> ReplayFrame:
    """The view after `n` actions: the spectator's view, or any seat's once finished."""
    if seat is not None and rt.record.status != "finished":
        raise ApiError("unauthorized", "A seat's replay view is shown once the game is over")
    if seat is not None and not 0 <= seat < rt.record.players:
        raise ApiError("not_found", f"No seat {seat}")
    return await service.replays.replay_frame(rt, n, seat)


def _json(text: str) -> Response:
    """A body built as text by `outbound` (the engine's JSON, some of it from a worker):
    returning a Response skips FastAPI's response_model validation; the model documents it
    in the schema, and tests check the bodies against it."""
    return Response(content=text, media_type="application/json")
