"""The account page's routes: what the signed-in player sees of its own account (devices and
passkeys: only they see them), signing out, removing a device or a passkey, and deleting the
account. `install` puts the sign-in, passkey and account routes on the app.

Deleting an account keeps its player row, renamed "Player N", with its e-mail address,
devices and passkeys erased: its seats stay in their games under that name (the other
players' records and replays still read right, anonymised), and nothing left can sign anyone
in as it."""

from __future__ import annotations

import asyncio
import datetime as dt

from fastapi import APIRouter, FastAPI, Request, Response
from pydantic import BaseModel, Field
from webauthn.helpers import base64url_to_bytes

from . import identity, passkeys, signin
from .errors import ApiError
from .identity import COOKIE, CurrentPlayer, Me, me
from .mailer import Mailer
from .passkeys import PasskeyInfo, info
from .ratelimit import RateLimiter
from .schemas import ERRORS  # every refusal, documented
from .settings import Settings
from .signin import Accounts, AccountsDep, require_site

router = APIRouter(prefix="/api/account", tags=["accounts"], responses=ERRORS)


def install(app: FastAPI, settings: Settings) -> None:
    """The account routes and what they share (the store comes once the server runs)."""
    app.state.accounts = Accounts(settings=settings, mailer=Mailer.from_settings(settings),
                                  limiter=RateLimiter(settings.signin_limit))
    refused = signin.passkeys_refused(settings)
    if refused is not None:
        signin.log.warning(refused)
    app.include_router(signin.router)
    app.include_router(passkeys.router)
    app.include_router(router)


class Device(BaseModel):
    id: str
    label: str = Field(description="browser and system, from its user agent")
    created_at: dt.datetime
    last_used_at: dt.datetime
    current: bool = Field(description="the browser asking")


class Account(BaseModel):
    """The signed-in player's account, as only they see it."""

    me: Me
    devices: list[Device]
    passkeys: list[PasskeyInfo]


@router.get("", response_model=Account)
async def account(request: Request, state: AccountsDep, player: CurrentPlayer) -> Account:
    players = identity.store(request)
    assert state.store is not None
    held = await asyncio.to_thread(players.devices_of, player.id)
    keys = await asyncio.to_thread(state.store.passkeys_of, player.id)
    return Account(me=me(player), passkeys=[info(k) for k in keys], devices=[
        Device(id=d.id, label=d.label, created_at=d.created_at, last_used_at=d.last_used_at,
               current=d.id == player.device_id) for d in held])


@router.post("/signout", status_code=204)
async def sign_out(request: Request, player: CurrentPlayer) -> Response:
    """This browser stops being the player's: its device goes, and its cookie."""
    require_site(request)
    await asyncio.to_thread(identity.store(request).remove_device, player.device_id, player.id)
    response = Response(status_code=204)
    response.delete_cookie(COOKIE, path="/")
    return response


@router.delete("/devices/{device_id}", status_code=204)
async def remove_device(device_id: str, request: Request, player: CurrentPlayer) -> Response:
    """Sign another browser out (this one: the same as signing out)."""
    require_site(request)
    if not await asyncio.to_thread(identity.store(request).remove_device, device_id,
                                   player.id):
        raise ApiError("not_found", "No such device of yours")
    response = Response(status_code=204)
    if device_id == player.device_id:
        response.delete_cookie(COOKIE, path="/")
    return response


@router.delete("/passkeys/{passkey_id}", status_code=204)
async def remove_passkey(passkey_id: str, request: Request, state: AccountsDep,
                         player: CurrentPlayer) -> Response:
    require_site(request)
    try:
        credential_id = base64url_to_bytes(passkey_id)
    except ValueError:
        raise ApiError("not_found", "No such passkey of yours") from None
    assert state.store is not None
    if not await asyncio.to_thread(state.store.remove_passkey, player.id, credential_id):
        raise ApiError("not_found", "No such passkey of yours")
    return Response(status_code=204)


@router.delete("", status_code=204)
async def delete_account(request: Request, state: AccountsDep,
                         player: CurrentPlayer) -> Response:
    """Delete the account: the name becomes "Player N", the e-mail address, devices and
    passkeys are erased; the seats stay in their games, renamed "Player N" too."""
    require_site(request)
    assert state.store is not None
    await asyncio.to_thread(state.store.erase, player.id)
    name, renamed = await asyncio.to_thread(identity.store(request).delete_account, player.id)
    held = request.app.state.service.games  # this instance's copies (others are notified)
    for game_id, seat in renamed:
        if game_id in held:
            held[game_id].record.seats[seat].name = name
    response = Response(status_code=204)
    response.delete_cookie(COOKIE, path="/")
    return response
