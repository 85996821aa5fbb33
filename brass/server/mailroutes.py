"""The e-mail notices' routes (docs/REACH.md): the signed-in player's switches
(`GET`/`PUT /api/me/email-notices`) and the mails' unsubscribe link, which needs no sign-in:
`GET /api/mail/unsubscribe/{token}` shows a small page that asks, and its button (or a mail
client's one-click `POST`, RFC 8058) turns that kind of mail off."""

from __future__ import annotations

import asyncio
import base64
import hashlib
from html import escape
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from .errors import ApiError
from .identity import CurrentPlayer
from .mailnotices import MailNotices
from .mailstore import LANGS
from .mailwords import words
from .schemas import ERRORS

router = APIRouter(prefix="/api", tags=["players"], responses=ERRORS)
Lang = Literal["en", "fa", "pl", "th", "ko"]
assert set(LANGS) == {"en", "fa", "pl", "th", "ko"}


class EmailNotices(BaseModel):
    """The player's e-mail switches (both off until they turn one on)."""

    turn: bool = Field(description="a mail when it is their turn in a correspondence game "
                                   "(a turn or reserve of a day or more)")
    digest: bool = Field(description="a daily digest of the games where it is their turn")
    lang: Lang = Field(description="the language of their mails")
    offered: bool = Field(description="this server sends e-mail (the host set up SMTP)")
    email: str | None = Field(description="the verified address mails go to (null: none: "
                                          "sign in by e-mail first)")


class EmailNoticesIn(BaseModel):
    turn: bool | None = None
    digest: bool | None = None
    lang: Lang | None = Field(default=None, description="the client's language now")


def notices(request: Request) -> MailNotices:
    found: MailNotices = request.app.state.mail_notices
    return found


Notices = Annotated[MailNotices, Depends(notices)]


@router.get("/me/email-notices", response_model=EmailNotices)
async def get_switches(player: CurrentPlayer, mail: Notices) -> EmailNotices:
    got = await asyncio.to_thread(mail.store.switches, player.id)
    return EmailNotices(turn=got.turn, digest=got.digest, lang=got.lang,  # type: ignore[arg-type]
                        offered=mail.offered, email=player.email)


@router.put("/me/email-notices", response_model=EmailNotices)
async def put_switches(body: EmailNoticesIn, player: CurrentPlayer,
                       mail: Notices) -> EmailNotices:
    """Turn the switches given on or off. Turning one on is refused where the server sends
    no mail (`not_offered`) or the player has no verified address (`forbidden`, reason
    `email_unverified`)."""
    if body.turn or body.digest:
        if not mail.offered:
            raise ApiError("not_offered", "This server does not send e-mail")
        if not player.email:
            raise ApiError("forbidden", "Add an e-mail address to your account first (sign "
                           "in by e-mail)", reason="email_unverified")
    got = await asyncio.to_thread(mail.store.set_switches, player.id, body.turn, body.digest,
                                  body.lang)
    return EmailNotices(turn=got.turn, digest=got.digest, lang=got.lang,  # type: ignore[arg-type]
                        offered=mail.offered, email=player.email)


async def _page(mail: MailNotices, token: str, done: bool, request: Request) -> HTMLResponse:
    found = mail.read_token(token)
    if found is None:
        lang = _asked_lang(request.headers.get("accept-language", ""))
        return HTMLResponse(_html(lang, words(lang)["page_title"],
                                  f"<p>{escape(words(lang)['page_bad'])}</p>"), status_code=404,
                            headers={"Content-Security-Policy": POLICY})
    player_id, kind = found
    switches = await asyncio.to_thread(mail.store.switches, player_id)
    w = words(switches.lang)
    what = w[f"kind_{kind}"]
    to = None if done else await asyncio.to_thread(mail.store.recipient, player_id, kind)
    if done:
        await asyncio.to_thread(mail.store.unsubscribe, player_id, kind)
        body = f"<p>{escape(w['page_done'].format(kind=what))}</p>"
    elif to is None:  # that kind is off already (or the address is gone): nothing to ask
        body = f"<p>{escape(w['page_already'].format(kind=what))}</p>"
    else:
        body = (f"<p>{escape(w['page_ask'].format(kind=what, email=to.email))}</p>"
                '<form method="post"><input type="hidden" name="List-Unsubscribe" '
                f'value="One-Click"><button type="submit">{escape(w["page_button"])}'
                "</button></form>")
    body += f'<p><a href="/#/account">{escape(w["page_account"])}</a></p>'
    return HTMLResponse(_html(switches.lang, w["page_title"], body),
                        headers={"Content-Security-Policy": POLICY})


def _asked_lang(header: str) -> str:
    """The first of the mails' languages that an Accept-Language header names (by its
    primary tag, in the header's order; weights are not weighed), else English."""
    for part in header.split(","):
        tag = part.split(";")[0].strip().split("-")[0].lower()
        if tag in LANGS:
            return tag
    return "en"


_STYLE = ("body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;"
          "padding:0 1rem;line-height:1.5;color:#222}button{font:inherit;padding:.4rem 1rem}")
# the page's own policy (guard.py's would refuse its inline style): that style, its form
POLICY = ("default-src 'none'; style-src 'sha256-"
          + base64.b64encode(hashlib.sha256(_STYLE.encode()).digest()).decode()
          + "'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")


def _html(lang: str, title: str, body: str) -> str:
    direction = "rtl" if lang == "fa" else "ltr"
    return (f'<!doctype html><html lang="{lang}" dir="{direction}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width"><meta name="robots" '
            f'content="noindex"><title>{escape(title)}</title><style>{_STYLE}</style></head>'
            f"<body><h1>Brass · {escape(title)}</h1>{body}</body></html>")


@router.get("/mail/unsubscribe/{token}", response_class=HTMLResponse,
            responses={404: {"description": "not a link this server made"}})
async def unsubscribe_page(token: str, mail: Notices, request: Request) -> Response:
    """The mail's link: a page that asks (a mail scanner that fetches links unsubscribes
    nobody); its button posts."""
    return await _page(mail, token, done=False, request=request)


@router.post("/mail/unsubscribe/{token}", response_class=HTMLResponse,
             responses={404: {"description": "not a link this server made"}})
async def unsubscribe(token: str, mail: Notices, request: Request) -> Response:
    """Unsubscribe from the link's kind of mail, without a sign-in (the page's button, or a
    mail client's one-click `List-Unsubscribe=One-Click` POST)."""
    return await _page(mail, token, done=True, request=request)
