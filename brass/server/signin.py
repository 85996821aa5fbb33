"""Signing a browser in as a player (docs/PLAYERS.md): the e-mail link (`POST
/api/signin/email`, then `POST /api/signin/link` from the page the link opens), what the server
offers (`GET /api/signin/options`), and `sign_in_browser`, which passkeys.py shares.

- **No enumeration**: every well-formed address gets the same answer and the same mail, a link
  that signs in to its account or, for an address without one, makes one; the mail is sent
  after the answer, so its time tells nothing either.
- **A link proves its address only**: it names the account the address had when it was sent,
  and opening it checks that the account still has that address, so a link can never sign in
  to an account of another address.
- **Single use, 15 minutes**: spent by one conditional `UPDATE` (accountstore.py); a wrong,
  expired or reused link is refused with its own code and changes nothing.
- **Rate limited** per address and per account (counted in the database, so across
  instances) and per client address (in memory).
- The link's address is the configured public URL, never the request's `Host` (a forged Host
  would put another site's address, with a live token, in the victim's mail); the token
  travels in the fragment (`#/signin/...`), which no server or proxy log sees, and is spent by
  the page's `POST`, so a mail scanner that fetches links spends nothing.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import ipaddress
import logging
import re
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from . import identity
from .accountstore import AccountStore, Link, Spent
from .auth import new_token, token_hash
from .errors import ApiError
from .identity import MaybePlayer, Me, check_origin, device_label, set_device_cookie
from .mailer import Mailer
from .playerstore import Player
from .ratelimit import RateLimiter
from .records import now
from .schemas import ERRORS  # every refusal, documented
from .settings import Settings

log = logging.getLogger("brass.server.signin")
LINK_TTL = dt.timedelta(minutes=15)
RATE_WINDOW = dt.timedelta(hours=1)
LINKS_PER_ADDRESS = 5  # per RATE_WINDOW
LINKS_PER_ACCOUNT = 10  # per RATE_WINDOW (an account's links, whatever address they went to)
EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]+\.[^@\s]+$")
router = APIRouter(prefix="/api/signin", tags=["accounts"], responses=ERRORS)


@dataclass
class Accounts:
    """What the account routes share: settings, the mailer, the per-client limiter, and the
    store (made from the game storage's engine once the server has started)."""

    settings: Settings
    mailer: Mailer
    limiter: RateLimiter
    store: AccountStore | None = None

    @property
    def public_url(self) -> str | None:
        url = self.settings.public_url
        return url.rstrip("/") if url else None

    @property
    def email_offered(self) -> bool:
        return self.mailer.offered and self.public_url is not None


def accounts(request: Request) -> Accounts:
    state: Accounts = request.app.state.accounts
    if state.store is None:
        state.store = AccountStore(request.app.state.service.storage)
    return state


AccountsDep = Annotated[Accounts, Depends(accounts)]


def limit_client(request: Request, state: Accounts) -> None:
    """Sign-in requests are unauthenticated: a limit per client address too."""
    try:
        state.limiter.check(request.client.host if request.client else "unknown")
    except ApiError as exc:
        raise ApiError("rate_limited", f"Too many sign-in requests from here: try again in "
                       f"{exc.retry_after} s", retry_after=exc.retry_after) from None


async def sign_in_browser(request: Request, response: Response, player_id: str | None,
                          current: Player | None) -> Player:
    """This browser is `player_id`'s from now on (None: a new player's): a new device and
    its cookie. The device it was (another player's) is removed: its cookie is overwritten,
    nobody could use it again. A guest signing in to an account brings its games along
    (playerstore's `merge_guest`: seats, hosted games, pushes and switches, in one
    transaction)."""
    players = identity.store(request)
    if current is not None and current.id == player_id:
        return current
    secret = new_token()
    label = device_label(request.headers.get("user-agent", ""))
    if player_id is None:
        await asyncio.to_thread(players.create_guest, token_hash(secret), label)
    elif current is not None and not current.account:
        moved = await asyncio.to_thread(players.merge_guest, current.id, player_id,
                                        token_hash(secret), label)
        held = request.app.state.service.games  # this instance's copies (others are notified)
        for game_id, seat in moved:
            if game_id in held:
                held[game_id].record.seats[seat].player_id = player_id
        for rt in held.values():  # the games the guest hosts are the account's now too
            if rt.record.host_player_id == current.id:
                rt.record.host_player_id = player_id
        if moved:
            log.info("guest %s signed in to %s: %d seat(s) moved", current.id, player_id,
                     len(moved))
        current = None  # its device went with the guest
    else:
        await asyncio.to_thread(players.add_device, player_id, token_hash(secret), label)
    if current is not None:
        await asyncio.to_thread(players.remove_device, current.device_id, current.id)
    set_device_cookie(request, response, secret)
    player = await asyncio.to_thread(players.by_device, token_hash(secret))
    assert player is not None
    return player


def require_site(request: Request) -> None:
    """A sign-in is a write that sets the cookie: it must come from the site itself (a
    forged sign-in would sign a victim in as the attacker)."""
    check_origin(request.headers, request.url.scheme,
                 request.app.state.accounts.settings.public_url)


class SigninOptions(BaseModel):
    """The ways of signing in this server offers."""

    passkey: bool = Field(description="passkeys (the site's name and origin are configured)")
    email: bool = Field(description="e-mail sign-in links (a mail server and the public URL "
                                    "are configured)")


class EmailRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: str = Field(min_length=3, max_length=254)


class EmailSent(BaseModel):
    sent: bool = Field(description="always true: the same answer for every address")
    minutes: int = Field(description="how long the link works")


class OpenLink(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=10, max_length=200)


def relying_party(settings: Settings) -> tuple[str, str] | None:
    """The site's name and origin for passkeys (None: not offered). Not configured, or a site
    no browser makes a passkey for: its name an IP address (WebAuthn takes a host name only),
    or its page neither HTTPS nor on localhost (not a secure context)."""
    origin = settings.public_url
    if not origin:
        return None
    origin = origin.rstrip("/")
    parts = urlsplit(origin)
    host = parts.hostname or ""
    rp_id = settings.rp_id or host
    local = host == "localhost" or host.endswith(".localhost")
    if not rp_id or _is_address(rp_id) or not (parts.scheme == "https" or local):
        return None
    return rp_id, origin


def passkeys_refused(settings: Settings) -> str | None:
    """Why passkeys are not offered although the public URL is set (logged at start)."""
    if not settings.public_url or relying_party(settings) is not None:
        return None
    return (f"passkeys are not offered: a browser makes them only for a host name served over "
            f"HTTPS (or localhost), and the site is {settings.public_url}"
            + (f" with the name {settings.rp_id}" if settings.rp_id else ""))


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


@router.get("/options", response_model=SigninOptions)
async def options(state: AccountsDep) -> SigninOptions:
    return SigninOptions(passkey=relying_party(state.settings) is not None,
                         email=state.email_offered)


@router.post("/email", response_model=EmailSent, status_code=202)
async def email_link(body: EmailRequest, request: Request, state: AccountsDep) -> EmailSent:
    """Mail a sign-in link to `email`. The answer is the same whether or not the address
    has an account; over the limit for the address, a 429 (which says nothing of accounts)."""
    if not state.email_offered:
        raise ApiError("not_offered", "E-mail sign-in is not enabled on this server")
    limit_client(request, state)
    address = body.email.strip().lower()
    if not EMAIL.fullmatch(address):
        raise ApiError("malformed", "That is not an e-mail address")
    store, players = state.store, identity.store(request)
    assert store is not None
    since = now() - RATE_WINDOW
    if await asyncio.to_thread(store.links_since, since, email=address) >= LINKS_PER_ADDRESS:
        raise ApiError("rate_limited", "Too many sign-in links for this address: try again "
                       "in an hour", retry_after=int(RATE_WINDOW.total_seconds()))
    owner = await asyncio.to_thread(players.by_email, address)
    if owner is not None and await asyncio.to_thread(
            store.links_since, since, player_id=owner.id) >= LINKS_PER_ACCOUNT:
        log.warning("sign-in link not sent: account %s over its limit", owner.id)
        return EmailSent(sent=True, minutes=_minutes())  # the same answer: nothing told
    token = new_token()
    await asyncio.to_thread(store.add_secret, token_hash(token), "signin", LINK_TTL,
                            email=address, player_id=owner.id if owner else None)
    link = f"{state.public_url}/#/signin/{token}"
    mail = asyncio.create_task(state.mailer.send(address, "Sign in to Brass", _letter(link)))
    _sending.add(mail)
    mail.add_done_callback(_sending.discard)
    return EmailSent(sent=True, minutes=_minutes())


_sending: set[asyncio.Task[Any]] = set()  # mails on their way (a task needs a reference)


def _minutes() -> int:
    return int(LINK_TTL.total_seconds() // 60)


def _letter(link: str) -> str:
    return (f"Open this link to sign in to Brass: Birmingham on this browser:\n\n{link}\n\n"
            f"It works once, for {_minutes()} minutes. If you did not ask for it, ignore "
            "this mail: nobody can sign in without it.\n")


@router.post("/link", response_model=Me)
async def open_link(body: OpenLink, request: Request, response: Response, state: AccountsDep,
                    current: MaybePlayer) -> Me:
    """Spend a sign-in link (from the page it opens) and sign this browser in: to the
    link's account, or to a new account for its address (a guest browser's own player
    becomes it, keeping its games). An admin link (`brass admin link`) makes this browser's
    player an admin."""
    require_site(request)
    store = state.store
    assert store is not None
    spent = await asyncio.to_thread(store.spend, token_hash(body.token.strip()),
                                    ("signin", "admin"))
    link = refuse_spent(spent)
    players = identity.store(request)
    if link.purpose == "admin":
        player = current or await sign_in_browser(request, response, None, None)
        await asyncio.to_thread(players.set_role, player.id, "admin")
        log.info("player %s made an admin by a one-time admin link", player.id)
    else:
        player = await _signin_by_email(request, response, link, current)
    fresh = await asyncio.to_thread(players.get, player.id)
    assert fresh is not None
    return identity.me(fresh)


def refuse_spent(spent: Link | Spent) -> Link:
    if spent == "unknown":
        raise ApiError("link_invalid", "This sign-in link is not valid: ask for a new one")
    if spent == "used":
        raise ApiError("link_used", "This sign-in link was used already: ask for a new one")
    if spent == "expired":
        raise ApiError("link_expired", "This sign-in link has expired: ask for a new one")
    assert isinstance(spent, Link)
    return spent


async def _signin_by_email(request: Request, response: Response, link: Link,
                           current: Player | None) -> Player:
    players = identity.store(request)
    address = link.email or ""
    owner = await asyncio.to_thread(players.by_email, address)
    if link.player_id is not None and (owner is None or owner.id != link.player_id):
        # the account changed its address (or was deleted) since the link was sent
        raise ApiError("link_invalid", "This sign-in link is for an address its account no "
                       "longer has: ask for a new one")
    if owner is not None:
        return await sign_in_browser(request, response, owner.id, current)
    if current is not None and not current.account and await asyncio.to_thread(
            players.set_email, current.id, address):
        return current
    player = await sign_in_browser(request, response, None, current)
    if not await asyncio.to_thread(players.set_email, player.id, address):
        raise ApiError("link_invalid", "This address was given to another account meanwhile: "
                       "ask for a new link")
    return player
