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


def seat_holding(rt: Runtime, token: str | None,
                 refusal: str = "A valid seat token is needed") -> int:
    """The seat whose token this is; `unauthorized` (saying `refusal`) if none."""
    seat = rt.seat_of(token)
    if seat is None:
        raise ApiError("unauthorized", refusal)
    return seat


def hello_seat(rt: Runtime, token: str | None) -> int | None:
    """The websocket's hello: a seat token's seat, None (a spectator) without a token."""
    return None if token is None else seat_holding(rt, token, "Unknown seat token")


def is_host(rt: Runtime, token: str | None) -> bool:
    return token_matches(token, rt.record.host_token_hash)


def _seat(refusal: str) -> Callable[[Runtime, str | None], Awaitable[int]]:
    async def seat(rt: GameAt, token: Token) -> int:
        return seat_holding(rt, token, refusal)
    return seat


def _host(what: str) -> Callable[[Runtime, str | None], Awaitable[Runtime]]:
    async def hosted(rt: GameAt, token: Token) -> Runtime:
        if not is_host(rt, token):
            raise ApiError("unauthorized", f"Only the host (with the host token) can {what}")
        return rt
    return hosted


async def viewer(rt: GameAt, token: Token) -> int | None:
    """The seat of the token sent, or None (a spectator) when none is sent."""
    return hello_seat(rt, token)


async def holder(rt: GameAt, token: Token) -> tuple[int | None, str]:
    """The seat (None: the host) whose token was sent, and that token."""
    seat = rt.seat_of(token)
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


def client_address(request: Request) -> str:
    """The client's address (the proxy's forwarded one where `proxy_headers` is set)."""
    return request.client.host if request.client else "unknown"


async def join_limit(request: Request) -> None:
    """Creating and joining games are unauthenticated writes: limited per client address."""
    limiter: RateLimiter = request.app.state.join_limiter
    limiter.check(client_address(request))


JoinLimited = Depends(join_limit)
