"""Who is asking, resolved once: FastAPI dependencies that give a route its service, its game,
the seat whose token was sent, or the game's host (as the FastAPI full-stack template's
`CurrentUser`), and `hello_seat` for the websocket's hello. The bearer scheme is declared in
the OpenAPI schema. A route states what it needs in its signature (`seat: Seat`,
`rt: Hosted`); a token that does not fit gets `unauthorized` before any work starts."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from .auth import token_matches
from .errors import ApiError
from .identity import COOKIE, maybe_player
from .identity import CurrentPlayer as CurrentPlayer  # the player dependencies, re-exported
from .identity import MaybePlayer as MaybePlayer
from .playerstore import Player
from .ratelimit import RateLimiter
from .runtime import Runtime
from .service import GameService

_BEARER = HTTPBearer(auto_error=False, description="A seat's or the host's secret token "
                     "(`Authorization: Bearer TOKEN`), given out once by create, join or renew")


async def get_service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


async def bearer_token(credentials: Annotated[HTTPAuthorizationCredentials | None,
                                              Depends(_BEARER)]) -> str | None:
    """The token of an `Authorization: Bearer` header; None without one (or another scheme)."""
    return None if credentials is None else credentials.credentials.strip() or None


Service = Annotated[GameService, Depends(get_service)]
Token = Annotated[str | None, Depends(bearer_token)]


async def get_game(game_id: str, service: Service) -> Runtime:
    """The game the path names (`not_found` if there is none)."""
    return await service.runtime(game_id)


GameAt = Annotated[Runtime, Depends(get_game)]


async def seat_holding(service: GameService, rt: Runtime, token: str | None,
                       refusal: str = "A valid seat token is needed") -> int:
    """The seat whose token this is; `unauthorized` (saying `refusal`) if none."""
    seat = await checked_seat(service, rt, token)
    if seat is None:
        raise ApiError("unauthorized", refusal)
    return seat


async def checked_seat(service: GameService, rt: Runtime, token: str | None) -> int | None:
    """The seat of `token`, else None. On Postgres a token this instance does not know is
    checked against the database before it is refused: a join (or a renewed link) on another
    instance reaches this one by notification only a moment after its reply, and the client
    may bring its new token here first (the hello race, issue 26). A token that fits no seat
    costs one read of the game's row and seats; it is the game's catch-up, so it waits its
    turn behind a move in progress."""
    seat = rt.seat_of(token)
    if seat is None and token is not None and service.storage.postgres:
        rt.behind = True
        await service.core.catch_up(rt)
        seat = rt.seat_of(token)
    return seat


async def hello_seat(service: GameService, rt: Runtime, token: str | None) -> int | None:
    """The websocket's hello: a seat token's seat, None (a spectator) without a token."""
    if token is None:
        return None
    return await seat_holding(service, rt, token, "Unknown seat token")


def is_host(rt: Runtime, token: str | None) -> bool:
    return token_matches(token, rt.record.host_token_hash)


async def hosts(request: Request, rt: Runtime, token: str | None) -> bool:
    """Whether the asker hosts the game: by the host token, or, sending none, by the cookie
    of the player whose browser created it (`host_player_id`), so their other devices host
    it too without its link, as a player's seats follow them (`players_seat`)."""
    if token is not None:
        return is_host(rt, token)
    owner = rt.record.host_player_id
    if owner is None or not _cookie_sent(request):
        return False
    player = await maybe_player(request)
    return player is not None and player.id == owner


def players_seat(rt: Runtime, player: Player | None, asked: str | None) -> int | None:
    """The seat of the game its player's device took (the `X-Seat` header picks one of
    several, on a shared screen); None if the player took none. A device never gets a seat
    its player did not take."""
    mine = [s.seat for s in rt.record.seats if player is not None and s.player_id == player.id]
    if asked is not None and asked.strip().isdigit():
        return int(asked) if int(asked) in mine else None
    return mine[0] if mine else None


async def seat_by_token_or_player(request: Request, service: GameService, rt: Runtime,
                                  token: str | None, refusal: str) -> int:
    """A seat token's seat; without a token, the seat the cookie's player took."""
    if token is None and _cookie_sent(request):
        seat = players_seat(rt, await maybe_player(request), request.headers.get("x-seat"))
        if seat is not None:
            return seat
    return await seat_holding(service, rt, token, refusal)


def _cookie_sent(request: Request) -> bool:
    return COOKIE in request.cookies


def _seat(refusal: str) -> Callable[..., Awaitable[int]]:
    async def seat(request: Request, rt: GameAt, token: Token, service: Service) -> int:
        return await seat_by_token_or_player(request, service, rt, token, refusal)
    return seat


def _host(what: str) -> Callable[[Request, Runtime, str | None], Awaitable[Runtime]]:
    async def hosted(request: Request, rt: GameAt, token: Token) -> Runtime:
        if not await hosts(request, rt, token):
            raise ApiError("unauthorized", f"Only the host (with the host token, or the "
                           f"cookie of the player who created the game) can {what}")
        return rt
    return hosted


async def viewer(request: Request, rt: GameAt, token: Token,
                 service: Service) -> int | None:
    """The seat of the token sent (or of the cookie's player), or None (a spectator) when
    neither is sent."""
    if token is None and _cookie_sent(request):
        return players_seat(rt, await maybe_player(request), request.headers.get("x-seat"))
    return await hello_seat(service, rt, token)


async def holder(rt: GameAt, token: Token, service: Service) -> tuple[int | None, str]:
    """The seat (None: the host) whose token was sent, and that token."""
    seat = None if is_host(rt, token) else await checked_seat(service, rt, token)
    if token is None or (seat is None and not is_host(rt, token)):
        raise ApiError("unauthorized", "A valid seat or host token is needed")
    return seat, token


# a route a spectator may call without a token too (OpenAPI: "or no security at all")
OPTIONAL_TOKEN: dict[str, Any] = {"security": [{}]}
Seat = Annotated[int, Depends(_seat("A valid seat token is needed"))]
SeatToAct = Annotated[int, Depends(_seat("A valid seat token is needed to act"))]
SeatToUndo = Annotated[int, Depends(_seat("A valid seat token is needed to undo"))]
Viewer = Annotated[int | None, Depends(viewer)]
Holder = Annotated[tuple[int | None, str], Depends(holder)]
HostToList = Annotated[Runtime, Depends(_host("list a game"))]
HostToAddBots = Annotated[Runtime, Depends(_host("add bots"))]
HostToInvite = Annotated[Runtime, Depends(_host("renew the invite link"))]
HostToRemove = Annotated[Runtime, Depends(_host("remove a player"))]
HostToCancel = Annotated[Runtime, Depends(_host("cancel the game"))]
HostToModerate = Annotated[Runtime, Depends(_host("moderate the chat"))]
HostToSetWebhook = Annotated[Runtime, Depends(_host("set the game's webhook"))]


def client_address(request: Request) -> str:
    """The client's address (the proxy's forwarded one where `proxy_headers` is set)."""
    return request.client.host if request.client else "unknown"


async def join_limit(request: Request) -> None:
    """Creating and joining games are unauthenticated writes: limited per client address."""
    limiter: RateLimiter = request.app.state.join_limiter
    limiter.check(client_address(request))


JoinLimited = Depends(join_limit)


async def admin(player: CurrentPlayer) -> Player:
    """The signed-in player, if an admin (`brass admin grant` or `brass admin link` made
    them one): the admin page, moderation and the create-games policy ask for this."""
    if player.role != "admin":
        raise ApiError("forbidden", "Only an admin of this server can do this")
    return player


Admin = Annotated[Player, Depends(admin)]
