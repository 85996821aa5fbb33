"""Web Push (docs/REACH.md): a player's browsers are told "your turn" when a game's turn passes to
their seat, with the tab closed. The server's VAPID key pair is made once and kept in
`server_settings` (a new one would silently kill every subscription); `GET /api/push/key` gives
browsers its public half, `POST`/`DELETE /api/push/subscription` keep the signed-in player's
browser's subscription (pushstore.py writes them).

A notice is queued after the move's commit and leaves off the server's process: the event loop
only hands a batch of (player, kind, payload) to the sender's process (pushsend.py, at the
lowest priority), which reads the players' subscriptions and switches (one transaction a
batch), encrypts (RFC 8291), signs (VAPID) and posts, and answers with the subscriptions to
delete (the push service's 404 or 410). Only the instance that committed the event tells the
hub, so a notice is sent once however many instances serve the game. Endpoints are the
browsers' push services, on the public internet: one at a private, loopback or link-local
address (or not https) is refused, when subscribed and again when resolved to send (no request
forgery into the host's network), unless the `push_private_endpoints` setting allows them
(tests, a push service stand-in on loopback): netguard.py, which the game webhooks share."""

from __future__ import annotations

import asyncio
import base64
import logging
from collections import OrderedDict
from typing import Annotated, Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from .errors import ApiError
from .identity import CurrentPlayer
from .netguard import public_host
from .playerstore import PlayerStore
from .pushsend import Ask, deliver_asked
from .pushstore import PushStore, Subscription
from .schemas import ERRORS
from .settings import Settings
from .workers import ANALYSIS_NICE, Workers

log = logging.getLogger("brass.server")
router = APIRouter(prefix="/api/push", tags=["players"], responses=ERRORS)
SETTING = "vapid"  # server_settings key: {"private": raw b64url, "public": b64url point}
QUEUED = 10_000  # notices waiting for the sender, at most (then the oldest turn is dropped)
BATCH = 256  # notices handed to the sender at once, at most
CLOSING = 15.0  # seconds the notices queued may still take when the server stops


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
    commit of this instance's); holds the key pair, the notices waiting and the sender's
    process (pushsend.py).

    The notices wait here, in order, `QUEUED` at most: a newer notice of the same kind and
    game to the same player replaces a waiting one (keeping its place), and when the queue is
    full the oldest turn notice (else the oldest) is dropped (`dropped`), so a sender that
    cannot keep up costs memory that stays bounded. One batch at a time (`BATCH` at most)
    goes from the queue to the sender's process, which reads its players' subscriptions and
    switches in one transaction (its own connection: in a thread here, that read's Python
    held the GIL against the moves), seals and posts them; the subscriptions it found gone
    are deleted here (pushstore.py is the table's one writer)."""

    def __init__(self, store: PushStore, keys: dict[str, str], contact: str,
                 private_endpoints: bool = False) -> None:
        self.store, self.public_key, self.contact = store, keys["public"], contact
        self.private_key = keys["private"]
        self.private_endpoints = private_endpoints
        # a process of its own at nice 19 (not SCHED_IDLE, as the analyses: a notice must
        # leave a busy machine too: workers.py); never the server's own
        self.sender = Workers(1, nice=ANALYSIS_NICE, inline=False, pool="push")
        self._waiting: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()
        self._pump: asyncio.Task[None] | None = None
        self.sent = 0  # notices the push services accepted (tests, the benchmark)
        self.dropped = 0  # notices dropped from a full queue

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
        """Queue the notice for the player's browsers (they get it if they want this kind)."""
        key = (player_id, f"{payload['kind']}-{payload['game']}")
        if key not in self._waiting and len(self._waiting) >= QUEUED:
            oldest = next((k for k, p in self._waiting.items() if p["kind"] == "turn"),
                          next(iter(self._waiting)))
            del self._waiting[oldest]
            self.dropped += 1
            log.info("push queue full: the %s notice to %s dropped", *reversed(oldest))
        self._waiting[key] = payload
        if self._pump is None or self._pump.done():
            self._pump = asyncio.create_task(self._send_waiting(), name="push")

    @property
    def busy(self) -> bool:
        """Notices wait or are on their way (tests, the benchmark)."""
        return bool(self._waiting) or (self._pump is not None and not self._pump.done())

    async def _send_waiting(self) -> None:
        """Batches from the queue to the sender's process until it is empty."""
        while self._waiting:
            batch = [self._waiting.popitem(last=False) for _ in
                     range(min(BATCH, len(self._waiting)))]
            try:
                await self._send(batch)
            except Exception:
                log.exception("%d push notices failed", len(batch))

    async def _send(self, batch: list[tuple[tuple[str, str], dict[str, Any]]]) -> None:
        asks = [Ask(player, payload["kind"], payload, topic)
                for (player, topic), payload in batch]
        sent = await self.sender.compute(deliver_asked, self.store.base.url, self.private_key,
                                         self.contact, self.private_endpoints, asks)
        self.sent += sent.accepted
        for failure in sent.failures:
            log.info("%s", failure)
        if sent.gone:  # the browser dropped the subscription
            await asyncio.to_thread(self.store.gone, *sent.gone)

    async def idle(self, timeout: float | None = None) -> None:
        """Wait until every notice queued so far has left (each is bounded by its timeout),
        `timeout` seconds at most (TimeoutError)."""
        async with asyncio.timeout(timeout):
            while self._pump is not None and not self._pump.done():
                await asyncio.shield(self._pump)

    async def close(self) -> None:
        """Let the notices queued finish for `CLOSING` seconds at most, then stop the sender's
        process (what is left is dropped: a sender at the lowest priority may wait long for a
        CPU on a busy machine)."""
        try:
            await self.idle(CLOSING)
        except TimeoutError:
            log.warning("push: %d notices not sent at close", len(self._waiting))
        if self._pump is not None:
            self._pump.cancel()
            await asyncio.gather(self._pump, return_exceptions=True)
        self.sender.close(kill=True)


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
