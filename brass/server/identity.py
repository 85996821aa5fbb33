"""Who the browser is (docs/PLAYERS.md): the device secret in an HttpOnly, SameSite=Lax cookie
(Secure over HTTPS), a guest player made on the first visit (`POST /api/session`), the
`CurrentPlayer` / `MaybePlayer` dependencies (deps.py re-exports them) and `GET`/`PATCH
/api/me`. A write made with the cookie must come from the site itself (its `Origin`): a
cookie goes with requests another site makes, and the check is what stops forgery.
Seat and host tokens are untouched: a player is a layer above them."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response, WebSocket
from pydantic import BaseModel, ConfigDict, Field

from .auth import new_token, token_hash
from .errors import ApiError
from .playerstore import Player, PlayerStore
from .schemas import ERRORS, PlayerName

COOKIE = "brass_device"
COOKIE_AGE = 400 * 86_400  # the longest a browser keeps a cookie (Chrome caps it at 400 days)
SAFE = frozenset({"GET", "HEAD", "OPTIONS"})
# the cookie is not declared as a security scheme: a route that takes it works without it too
# (create, join, a seat's routes with a token), and the schema's schemes stay who must ask
router = APIRouter(prefix="/api", tags=["players"], responses=ERRORS)


def store(request: Request) -> PlayerStore:
    players: PlayerStore = request.app.state.players
    return players


def site_origin(headers: Mapping[str, str], scheme: str, public_url: str | None) -> str:
    """The site's own origin: the configured public URL, else the request's host and scheme
    (behind a proxy, uvicorn's proxy headers give the scheme)."""
    if public_url:
        return public_url.rstrip("/")
    return f"{scheme}://{headers.get('host', '')}"


def check_origin(headers: Mapping[str, str], scheme: str, public_url: str | None) -> None:
    """A cookie-authenticated write (or websocket) must come from the site: browsers send
    `Origin` with every such request, and another site cannot forge it."""
    origin = headers.get("origin")
    if origin != site_origin(headers, scheme, public_url):
        raise ApiError("forbidden", "This request came from another site (its Origin is "
                       f"{origin or 'missing'}): sign-in cookies work only on this site")


def _public_url(request: Request) -> str | None:
    return getattr(request.app.state, "public_url", None)


async def maybe_player(request: Request) -> Player | None:
    """The player whose device cookie came with the request (None: no cookie, or one that no
    longer signs anyone in). A write with the cookie from another site is refused."""
    secret = request.cookies.get(COOKIE)
    if not secret:
        return None
    if request.method not in SAFE:
        check_origin(request.headers, request.url.scheme, _public_url(request))
    return await asyncio.to_thread(store(request).by_device, token_hash(secret))


async def socket_player(ws: WebSocket) -> Player | None:
    """A websocket's player, by its cookie, checked as a write is (a socket acts): the
    handshake must come from the site, else `forbidden`."""
    secret = ws.cookies.get(COOKIE)
    if not secret:
        return None
    scheme = "https" if ws.url.scheme == "wss" else "http"
    check_origin(ws.headers, scheme, getattr(ws.app.state, "public_url", None))
    players: PlayerStore = ws.app.state.players
    return await asyncio.to_thread(players.by_device, token_hash(secret))


async def current_player(player: Annotated[Player | None, Depends(maybe_player)]) -> Player:
    if player is None:
        raise ApiError("unauthorized", "This browser is not signed in as a player: "
                       "POST /api/session first")
    return player


MaybePlayer = Annotated[Player | None, Depends(maybe_player)]
CurrentPlayer = Annotated[Player, Depends(current_player)]


def set_device_cookie(request: Request, response: Response, secret: str) -> None:
    """The device secret, for this site's pages and API only; Secure when the site is HTTPS
    (the public URL says so, or the request came over it)."""
    public = _public_url(request)
    secure = (public or f"{request.url.scheme}://").startswith("https://")
    response.set_cookie(COOKIE, secret, max_age=COOKIE_AGE, path="/", httponly=True,
                        samesite="lax", secure=secure)


def device_label(user_agent: str) -> str:
    """A short name for a browser, for the player's list of devices: its browser and OS."""
    browser = next((name for key, name in (("Edg/", "Edge"), ("Firefox/", "Firefox"),
                                           ("Chrome/", "Chrome"), ("Safari/", "Safari"))
                    if key in user_agent), "Browser")
    system = next((name for key, name in (("Android", "Android"), ("iPhone", "iOS"),
                                          ("iPad", "iPadOS"), ("Windows", "Windows"),
                                          ("Mac OS", "macOS"), ("Linux", "Linux"))
                   if key in user_agent), "")
    return f"{browser} on {system}" if system else browser


class Me(BaseModel):
    """The signed-in player, as only they see it."""

    id: str = Field(description="the player's id (public: a profile's address)")
    name: str | None = Field(description="the display name (null: a guest who chose none)")
    account: bool = Field(description="can sign in on another device (a verified e-mail or a "
                                      "passkey); false: a guest of this browser only")
    email: str | None
    listed: bool = Field(description="the profile is public")
    role: str


class UpdateMe(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: PlayerName | None = None
    listed: bool | None = Field(default=None, strict=True)


def me(player: Player) -> Me:
    return Me(id=player.id, name=player.name, account=player.account, email=player.email,
              listed=player.listed, role=player.role)


@router.post("/session", response_model=Me)
async def session(request: Request, response: Response, player: MaybePlayer) -> Me:
    """The browser's player: the one its cookie names, else a new guest (and its cookie).
    The client calls it when it starts; playing never needs more."""
    if player is None:
        check_origin(request.headers, request.url.scheme, _public_url(request))
        secret = new_token()
        player = await asyncio.to_thread(
            store(request).create_guest, token_hash(secret),
            device_label(request.headers.get("user-agent", "")))
        set_device_cookie(request, response, secret)
        response.status_code = 201
    return me(player)


@router.get("/me", response_model=Me)
async def get_me(player: CurrentPlayer) -> Me:
    return me(player)


@router.patch("/me", response_model=Me)
async def update_me(body: UpdateMe, request: Request, player: CurrentPlayer) -> Me:
    """Change the display name or whether the profile is listed."""
    players = store(request)
    await asyncio.to_thread(players.update, player.id, body.name, body.listed)
    fresh = await asyncio.to_thread(players.get, player.id)
    assert fresh is not None
    return me(fresh)
