"""Web Push (docs/REACH.md): a player's browsers are told "your turn" when a game's turn passes
to their seat, with the tab closed. The server's VAPID key pair is made once and kept in
`server_settings` (a new one would silently kill every subscription); `GET /api/push/key`
gives browsers its public half, `POST`/`DELETE /api/push/subscription` keep the signed-in
player's browser's subscription (pushstore.py writes them).

A notice leaves in a background task, after the move's commit and off its path: the
encryption (RFC 8291, pywebpush) and the VAPID signature run in a thread, the POST on the
event loop (aiohttp). Only the instance that committed the event tells the hub, so a
notice is sent once however many instances serve the game. The push service's 404 or 410
deletes the subscription. Endpoints are the browsers' push services, on the public internet:
one at a private, loopback or link-local address (or not https) is refused, when subscribed
and again when resolved to send (no request forgery into the host's network), unless the
`push_private_endpoints` setting allows them (tests, a push service stand-in on loopback):
netguard.py, which the game webhooks share."""

from __future__ import annotations

import asyncio
import base64
import logging
import time
from typing import Annotated, Any
from urllib.parse import urlsplit

import aiohttp
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from fastapi import APIRouter, Depends, Request, Response
from py_vapid import Vapid
from pydantic import BaseModel, ConfigDict, Field
from pywebpush import WebPusher

from . import jsontext
from .errors import ApiError
from .identity import CurrentPlayer
from .netguard import guarded_session, public_host
from .playerstore import PlayerStore
from .pushstore import PushStore, Subscription
from .schemas import ERRORS
from .settings import Settings

log = logging.getLogger("brass.server")
router = APIRouter(prefix="/api/push", tags=["players"], responses=ERRORS)
SETTING = "vapid"  # server_settings key: {"private": raw b64url, "public": b64url point}
TTL = 86_400  # seconds a push service keeps an undelivered notice (a correspondence turn)
SENDING = 64  # notices in flight at once, at most
TIMEOUT = 10.0  # seconds for one push service's answer


def push_contact(settings: Settings) -> str:
    """The VAPID subject: the host's contact, else the site's https address, else a
    placeholder that push services accept (some ask for a real one: docs/REACH.md)."""
    if settings.push_contact:
        return settings.push_contact
    if settings.public_url and settings.public_url.startswith("https://"):
        return settings.public_url
    return "mailto:brass@localhost"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_keys() -> dict[str, str]:
    """A fresh VAPID (P-256) key pair: the private scalar and the public point, both raw."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return {"private": b64url(key.private_numbers().private_value.to_bytes(32, "big")),
            "public": b64url(public)}


class PushKey(BaseModel):
    key: str = Field(description="the server's VAPID public key (base64url), the "
                                 "applicationServerKey of PushManager.subscribe")


class SubscriptionKeys(BaseModel):
    p256dh: str = Field(max_length=256)
    auth: str = Field(max_length=64)


class PushSubscriptionIn(BaseModel):
    """A browser's `PushSubscription.toJSON()`."""

    model_config = ConfigDict(extra="ignore")
    endpoint: str = Field(max_length=1024)
    expirationTime: float | None = None  # the browser's name for it
    keys: SubscriptionKeys


class PushEndpoint(BaseModel):
    endpoint: str = Field(max_length=1024)


class Pusher:
    """The push channel of the notices hub (notices.py: it decides whom to tell, after a
    commit of this instance's); holds the key pair and the HTTP session."""

    def __init__(self, store: PushStore, keys: dict[str, str], contact: str,
                 private_endpoints: bool = False) -> None:
        self.store, self.public_key, self.contact = store, keys["public"], contact
        self.vapid = Vapid.from_raw(keys["private"].encode())
        self.private_endpoints = private_endpoints
        self._tasks: set[asyncio.Task[None]] = set()
        self._slots = asyncio.Semaphore(SENDING)
        self._session: aiohttp.ClientSession | None = None
        self.sent = 0  # notices the push services accepted (tests, the benchmark)

    @classmethod
    async def start(cls, base: Any, players: PlayerStore, contact: str,
                    private_endpoints: bool = False) -> Pusher:
        keys = await asyncio.to_thread(players.setting_once, SETTING, new_keys)
        return cls(PushStore(base), keys, contact, private_endpoints)

    def check(self, sub: Subscription) -> None:
        """Refuse (`malformed`) what is not a browser's push subscription."""
        url = urlsplit(sub.endpoint)
        schemes = ("https", "http") if self.private_endpoints else ("https",)
        if url.scheme not in schemes or not url.hostname:
            raise ApiError("malformed", "A push endpoint is an https URL",
                           reason="push_endpoint")
        if not self.private_endpoints and not public_host(url.hostname):
            raise ApiError("malformed", "A push endpoint must be on the public internet",
                           reason="push_endpoint")
        try:
            point, secret = unb64url(sub.p256dh), unb64url(sub.auth)
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        except ValueError:
            point, secret = b"", b""
        if len(point) != 65 or len(secret) != 16:
            raise ApiError("malformed", "A push subscription's keys are a P-256 public key "
                           "(p256dh) and a 16-byte secret (auth), base64url",
                           reason="push_keys")

    def notify(self, player_id: str, payload: dict[str, Any]) -> None:
        """Tell the player's browsers (in a background task), if they want this kind."""
        task = asyncio.create_task(
            self._notify(player_id, payload, f"{payload['kind']}-{payload['game']}"),
            name=f"push-{payload['game']}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _notify(self, player_id: str, payload: dict[str, Any], topic: str) -> None:
        """At most `SENDING` notices at a time, from the read to the answers: a burst of
        turns waits its turn instead of filling the threads and the loop at once."""
        try:
            async with self._slots:
                subs = await asyncio.to_thread(self.store.wanting, player_id, payload["kind"])
                await asyncio.gather(*(self.send(s, payload, topic) for s in subs))
        except Exception:
            log.exception("push notice for %s failed", player_id)

    async def send(self, sub: Subscription, payload: dict[str, Any], topic: str) -> int:
        """One notice to one browser; its push service's status (0: not reached). A
        newer notice with the same topic replaces one still undelivered (a burst of turns
        is one notice)."""
        host = urlsplit(sub.endpoint).hostname or ""
        if not self.private_endpoints and not public_host(host):
            return 0
        body, headers = await asyncio.to_thread(self._sealed, sub, payload, topic)
        try:
            async with self._http().post(sub.endpoint, data=body, headers=headers,
                                         timeout=aiohttp.ClientTimeout(total=TIMEOUT)
                                         ) as answer:
                status = answer.status
        except (aiohttp.ClientError, OSError, TimeoutError) as exc:
            log.info("push to %s failed: %s", host, exc)
            return 0
        if status in (404, 410):  # the browser dropped the subscription
            await asyncio.to_thread(self.store.gone, sub.endpoint)
        elif status < 300:
            self.sent += 1
        else:
            log.info("push service %s answered %s", host, status)
        return status

    def _sealed(self, sub: Subscription, payload: dict[str, Any],
                topic: str) -> tuple[bytes, dict[str, str]]:
        """The encrypted body (aes128gcm, RFC 8291) and the headers, VAPID signature
        included (blocking: in a thread)."""
        body = WebPusher(sub.info()).encode(jsontext.dumps(payload).encode(), "aes128gcm")
        url = urlsplit(sub.endpoint)
        claims = {"sub": self.contact, "aud": f"{url.scheme}://{url.netloc}",
                  "exp": int(time.time()) + 12 * 3600}
        headers = {k: str(v) for k, v in self.vapid.sign(claims).items()}
        headers.update({"TTL": str(TTL), "Content-Encoding": "aes128gcm", "Urgency": "high",
                        "Topic": topic, "Content-Type": "application/octet-stream"})
        return bytes(body["body"]), headers

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None:
            self._session = guarded_session(self.private_endpoints, SENDING)
        return self._session

    async def close(self) -> None:
        """Let the notices in flight finish (each is bounded by its timeout), then close."""
        await asyncio.gather(*list(self._tasks), return_exceptions=True)
        if self._session is not None:
            await self._session.close()

    async def idle(self) -> None:
        """Wait until every notice started so far has left (tests, the benchmark)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


def pusher(request: Request) -> Pusher:
    found: Pusher = request.app.state.pusher
    return found


Sender = Annotated[Pusher, Depends(pusher)]


@router.get("/key", response_model=PushKey)
async def push_key(sender: Sender) -> PushKey:
    """The key a browser subscribes with (public: it only lets the push service check that a
    notice comes from this server)."""
    return PushKey(key=sender.public_key)


@router.post("/subscription", status_code=204, response_class=Response)
async def subscribe(body: PushSubscriptionIn, player: CurrentPlayer,
                    sender: Sender) -> Response:
    """This browser's subscription is the signed-in player's: their turns are pushed to it.
    A subscription that is not a browser's (not https, a private address, keys that are no
    P-256 point or 16-byte secret) is refused as `malformed`."""
    sub = Subscription(body.endpoint, body.keys.p256dh, body.keys.auth)
    sender.check(sub)
    await asyncio.to_thread(sender.store.subscribe, player.id, player.device_id, sub)
    return Response(status_code=204)


@router.delete("/subscription", status_code=204, response_class=Response)
async def unsubscribe(body: PushEndpoint, player: CurrentPlayer,
                      sender: Sender) -> Response:
    """This browser no longer wants notices (`not_found` if it had no subscription)."""
    if not await asyncio.to_thread(sender.store.unsubscribe, player.id, body.endpoint):
        raise ApiError("not_found", "This browser has no push subscription here")
    return Response(status_code=204)
