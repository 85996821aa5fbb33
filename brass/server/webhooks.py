"""A webhook per game (issue 27, docs/REACH.md): the game's host sets an incoming-webhook URL
(Discord's or Slack's, https) with `PUT /api/games/{id}/webhook`; each turn's start posts a
short line naming whose turn it is, with the game's link, and the game's end its result.
A bot's turn is not posted, except in a game of bots alone (a channel waits for its people).

Sent by the instance that committed the turn (`turn_began`, `game_ended`), in a background
task: a slow or dead URL never delays a move. At most one call per game every `GAP` seconds:
turns that come faster are coalesced, the latest wins. Each call has `TIMEOUT` seconds; one
that fails (a network error, a timeout, a 5xx or a 429) is tried again, `ATTEMPTS` calls in
all, each pause twice the one before from `GAP` on, unless a newer message replaces it. The
URL is checked by netguard.py when it is set (an address literal) and when it is called (the
name's resolved addresses): no private, loopback or link-local address unless
`webhook_private_addresses` allows them. The body has `content` (Discord) and `text` (Slack);
a URL of either service gets only its own key, another URL both; it mentions nobody
(`body_for`).

Every game's URL is read from the database at once, at most once per `FRESH` seconds (most
games have none: a read per game was a tenth of the server's CPU per move, and a read per
game every `FRESH` seconds still 4-6 %); while that read is fresh, a game with no URL costs
its turns nothing here. A set or a removal on this instance takes effect at once, one made
on another instance within `FRESH` seconds."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Annotated, Any
from urllib.parse import urlsplit

import aiohttp
from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field

from .deps import HostToSetWebhook
from .errors import ApiError
from .mailstore import MailStore
from .netguard import guarded_session, public_host
from .runtime import Runtime
from .schemas import ERRORS

log = logging.getLogger("brass.server.webhooks")
router = APIRouter(prefix="/api", tags=["games"], responses=ERRORS)
GAP = 3.0  # seconds between two calls of a game's webhook, at least
TIMEOUT = 5.0  # seconds for a receiver's answer
ATTEMPTS = 3  # calls of one message, at most (the pauses between: `_deliver`)
KEPT = 10_000  # games whose last call time is kept before the old ones are forgotten
FRESH = 30.0  # seconds a game's URL read from the database is used before it is read again


def body_for(url: str, text: str) -> dict[str, Any]:
    """The JSON body for `url`'s service. It mentions nobody: the text holds names that
    players chose, and a seat named "@everyone" (Discord, Mattermost) or "<!channel>" (Slack)
    would ping the whole channel at every turn. So every "@" is followed by a zero-width
    space, Slack's `<`, `>` and `&` are escaped as its format asks, and Discord is told to
    parse no mention at all."""
    text = text.replace("@", "@\u200b")
    host = (urlsplit(url).hostname or "").lower()
    slack = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    discord = {"content": text, "allowed_mentions": {"parse": []}}
    if host.endswith(("discord.com", "discordapp.com")):
        return discord
    if host.endswith("slack.com"):
        return {"text": slack}
    return {**discord, "text": slack}


class Webhooks:
    """Posts each game's turn and end to its webhook, coalesced per game."""

    def __init__(self, store: MailStore, public_url: str | None,
                 private_allowed: bool = False, gap: float = GAP) -> None:
        self.store, self.private_allowed, self.gap = store, private_allowed, gap
        self.public_url = public_url.rstrip("/") if public_url else None
        self._pending: dict[str, str] = {}  # game → the latest message not yet sent
        self._running: dict[str, asyncio.Task[None]] = {}
        self._last: dict[str, float] = {}  # game → when its webhook was last called
        self._urls: dict[str, str] = {}  # game → URL, of every game that has one
        self._urls_at = -FRESH  # when they were read (monotonic)
        self._reading: asyncio.Future[None] | None = None
        self._changed: dict[str, str | None] = {}  # set or dropped here during that read
        self._session: aiohttp.ClientSession | None = None
        self.delivered = 0  # messages a receiver accepted (tests)

    def check(self, url: str) -> None:
        """Refuse (`malformed`) a URL that is not https or is a refused address."""
        parts = urlsplit(url)
        schemes = ("https", "http") if self.private_allowed else ("https",)
        if parts.scheme not in schemes or not parts.hostname:
            raise ApiError("malformed", "A webhook is an https URL", reason="webhook_url")
        if not self.private_allowed and not public_host(parts.hostname):
            raise ApiError("malformed", "A webhook must be on the public internet (not a "
                           "private, loopback or link-local address)",
                           reason="webhook_address")

    def _link(self, rt: Runtime) -> str:
        return f" {self.public_url}/#/game/{rt.id}" if self.public_url else ""

    def _none(self, game_id: str) -> bool:
        """The game has no URL, as far as a fresh read says."""
        return game_id not in self._urls and time.monotonic() - self._urls_at < FRESH

    def turn_began(self, rt: Runtime) -> None:
        if self._none(rt.id):
            return
        game = rt.game  # whoever moves, a bot too (`rt.mover` is a person's seat only)
        seat = None if game is None or rt.record.status != "running" else game.current_seat
        if seat is None:
            return
        seats = rt.record.seats
        if seats[seat].played_by_bot and not all(s.played_by_bot for s in seats):
            return  # a channel waits for its people: a bot's turn is over in a moment
        who = _name(rt, seat)
        self._queue(rt.id, f"{rt.record.name}: {who}'s turn.{self._link(rt)}")

    def game_ended(self, rt: Runtime) -> None:
        if self._none(rt.id):
            return
        self._queue(rt.id, f"{rt.record.name} is over: {result_text(rt)}.{self._link(rt)}")

    def _queue(self, game_id: str, text: str) -> None:
        self._pending[game_id] = text  # a message not sent yet is replaced: the latest wins
        if len(self._last) > KEPT:  # forget the games called longer than a gap ago
            since = time.monotonic() - self.gap
            self._last = {g: at for g, at in self._last.items() if at > since}
        running = self._running.get(game_id)
        if running is None or running.done():
            task = asyncio.create_task(self._drain(game_id), name=f"webhook-{game_id}")
            self._running[game_id] = task

    async def _drain(self, game_id: str) -> None:
        """Send the game's latest message, `gap` seconds after its last call, until none is
        left."""
        try:
            while game_id in self._pending:
                wait = self._last.get(game_id, -1e9) + self.gap - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                text = self._pending.pop(game_id)
                url = await self.url(game_id)
                if url is not None:
                    await self._deliver(game_id, url, text)
        except Exception:
            log.exception("webhook of game %s failed", game_id)
        finally:
            if self._running.get(game_id) is asyncio.current_task():
                del self._running[game_id]

    async def url(self, game_id: str) -> str | None:
        """The game's webhook, every game's read from the database if not in the last
        `FRESH` s (one read at a time, shared by whoever asks meanwhile)."""
        if time.monotonic() - self._urls_at >= FRESH:
            if self._reading is None or self._reading.done():
                self._reading = asyncio.ensure_future(self._read())
            await asyncio.shield(self._reading)
        return self._urls.get(game_id)

    async def _read(self) -> None:
        read_at, self._changed = time.monotonic(), {}
        urls = await asyncio.to_thread(self.store.webhooks)
        for game_id, url in self._changed.items():  # set or dropped here during the read
            if url is None:
                urls.pop(game_id, None)
            else:
                urls[game_id] = url
        self._urls, self._urls_at = urls, read_at

    def _change(self, game_id: str, url: str | None) -> None:
        self._changed[game_id] = url
        if url is None:
            self._urls.pop(game_id, None)
        else:
            self._urls[game_id] = url

    async def set(self, game_id: str, url: str) -> None:
        await asyncio.to_thread(self.store.set_webhook, game_id, url)
        self._change(game_id, url)

    async def drop(self, game_id: str) -> bool:
        """False if the game had no webhook."""
        dropped = await asyncio.to_thread(self.store.drop_webhook, game_id)
        self._change(game_id, None)
        return dropped

    async def _deliver(self, game_id: str, url: str, text: str) -> None:
        """Call the webhook with `text`, tried again after a failure: the k-th try comes
        `gap` × 2^(k-1) after the start of the one before (3 s, then 6 s), so a retry keeps
        to one call per game per `gap` too."""
        host = urlsplit(url).hostname or ""
        for attempt in range(ATTEMPTS):
            if attempt:
                backoff = self.gap * 2 ** (attempt - 1)
                await asyncio.sleep(max(0.0, self._last[game_id] + backoff - time.monotonic()))
                if game_id in self._pending:  # a newer message replaces this one
                    return
            self._last[game_id] = time.monotonic()
            if not self.private_allowed and not public_host(host):
                return
            try:
                async with self._http().post(url, json=body_for(url, text),
                                             timeout=aiohttp.ClientTimeout(total=TIMEOUT)
                                             ) as answer:
                    status = answer.status
            except (aiohttp.ClientError, OSError, TimeoutError) as exc:
                log.info("webhook of game %s (%s) failed: %s", game_id, host,
                         type(exc).__name__)
                continue
            if status < 300:
                self.delivered += 1
                return
            log.info("webhook of game %s (%s) answered %s", game_id, host, status)
            if status < 500 and status != 429:
                return  # refused: trying again would not change it

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None:
            self._session = guarded_session(self.private_allowed, 32)
        return self._session

    async def idle(self) -> None:
        """Wait until every message queued so far was sent (or given up: tests)."""
        while self._running:
            await asyncio.gather(*list(self._running.values()), return_exceptions=True)

    async def close(self) -> None:
        tasks = list(self._running.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._session is not None:
            await self._session.close()


def result_text(rt: Runtime) -> str:
    """A finished game's seats by name with their points, best first in the rules' order
    (points, then income, then money: the engine's `winner_order`, which breaks a tie on
    points as the end screen does)."""
    scores = rt.record.scores or []
    game = rt.game
    order = (game.winner_order if game is not None and game.is_over
             else sorted(range(len(scores)), key=lambda s: -scores[s]))
    return ", ".join(f"{_name(rt, s)} {scores[s]}" for s in order if s < len(scores))


def _name(rt: Runtime, seat: int) -> str:
    taker = rt.record.seats[seat]
    return taker.name or f"Seat {seat + 1}"


class Webhook(BaseModel):
    url: str = Field(max_length=1024, description="an incoming-webhook URL (Discord, Slack), "
                                                  "https")


class WebhookOut(BaseModel):
    url: str | None = Field(description="the game's webhook (null: none)")


def webhooks(request: Request) -> Webhooks:
    found: Webhooks = request.app.state.webhooks
    return found


Hooks = Annotated[Webhooks, Depends(webhooks)]


@router.get("/games/{game_id}/webhook", response_model=WebhookOut)
async def get_webhook(game_id: str, rt: HostToSetWebhook, hooks: Hooks) -> WebhookOut:
    """Host only: the game's webhook."""
    return WebhookOut(url=await asyncio.to_thread(hooks.store.webhook, rt.id))


@router.put("/games/{game_id}/webhook", response_model=WebhookOut)
async def set_webhook(game_id: str, body: Webhook, rt: HostToSetWebhook,
                      hooks: Hooks) -> WebhookOut:
    """Host only: each turn's start and the game's end are posted to `url` from now on.
    Refused (`malformed`): not https (`reason: webhook_url`), or localhost or a private,
    loopback or link-local address (`reason: webhook_address`)."""
    hooks.check(body.url)
    await hooks.set(rt.id, body.url)
    return WebhookOut(url=body.url)


@router.delete("/games/{game_id}/webhook", status_code=204, response_class=Response)
async def drop_webhook(game_id: str, rt: HostToSetWebhook, hooks: Hooks) -> Response:
    """Host only: no more calls (`not_found` if the game had no webhook)."""
    if not await hooks.drop(rt.id):
        raise ApiError("not_found", "This game has no webhook")
    return Response(status_code=204)
