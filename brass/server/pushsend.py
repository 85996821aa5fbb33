"""The push sender's side (docs/REACH.md): runs in a process of its own at the lowest priority
(nice 19, in the server's session: workers.py), so a burst of notices never takes the GIL
or the event loop from a move, and a CPU only for short slices.
push.py's `Pusher` hands it batches of (player, kind, payload) and gets back the endpoints to
forget: the read of those players' subscriptions and switches (one transaction on the
process's own connection: in the server's process, that read's Python held the GIL against
the moves), the encryption (RFC 8291, pywebpush), the VAPID signature (ES256) and the POST
(aiohttp, through netguard.py's guard) all happen here; pushstore.py's deletes stay in the
server's process (one writer of the table). A batch's notices go out together,
`SENDING` at once, on an event loop and an HTTP session that the process keeps from batch to
batch; the next batch waits for the slowest answer of this one (`TIMEOUT` at most)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from py_vapid import Vapid
from pywebpush import WebPusher

from . import jsontext
from .netguard import guarded_session, public_host
from .pushstore import PushStore
from .storebase import StoreBase

TTL = 86_400  # seconds a push service keeps an undelivered notice (a correspondence turn)
SENDING = 64  # notices in flight at once, at most
TIMEOUT = 10.0  # seconds for one push service's answer
VALID = 12 * 3600  # seconds a VAPID signature is valid (RFC 8292: 24 h at most)
REUSED = 600.0  # seconds one push service's signature is reused (then signed anew)
SIGNED = 64  # push services whose signature is kept (then all are signed anew)


@dataclass(frozen=True)
class Job:
    """One notice to one browser (pickled to the sender's process)."""

    endpoint: str
    p256dh: str
    auth: str
    payload: dict[str, Any]
    topic: str  # `KIND-GAME`: a newer notice replaces one still undelivered


@dataclass(frozen=True)
class Ask:
    """One notice for one player's browsers (pickled to the sender's process, which reads
    them and the player's switches)."""

    player: str
    kind: str  # the switch that must be on (pushstore.DEFAULTS)
    payload: dict[str, Any]
    topic: str


@dataclass(frozen=True)
class Sent:
    """What a batch came to: the endpoints whose push service said 404 or 410 (the browser
    dropped the subscription: the server deletes them), the notices accepted, and what went
    wrong (the server logs it: this process has no log of its own)."""

    gone: list[str]
    accepted: int
    failures: list[str]


class Sender:
    """The sender process's state: the VAPID key, the HTTP session, its own event loop."""

    def __init__(self, private_key: str, contact: str, private_endpoints: bool) -> None:
        self.key, self.contact, self.private_endpoints = private_key, contact, private_endpoints
        self.vapid = Vapid.from_raw(private_key.encode())
        self.loop = asyncio.new_event_loop()
        self.session: aiohttp.ClientSession | None = None
        self.signed: dict[str, tuple[float, dict[str, str]]] = {}  # by push service's origin

    async def batch(self, jobs: list[Job]) -> Sent:
        if self.session is None:
            self.session = guarded_session(self.private_endpoints, SENDING)
        slots, failures = asyncio.Semaphore(SENDING), []

        async def one(job: Job) -> int:
            host = urlsplit(job.endpoint).hostname or ""
            async with slots:
                try:
                    status = await self.send(job)
                except Exception as exc:  # any: told to the server, which logs it
                    failures.append(f"push to {host} failed: {exc!r}")
                    return 0
            if status >= 300 and status not in (404, 410):
                failures.append(f"push service {host} answered {status}")
            return status

        answers = await asyncio.gather(*(one(job) for job in jobs))
        return Sent([j.endpoint for j, a in zip(jobs, answers, strict=True) if a in (404, 410)],
                    sum(1 for a in answers if 0 < a < 300), failures)

    async def send(self, job: Job) -> int:
        """One notice to one browser; its push service's status (0: an endpoint the guard
        refuses)."""
        host = urlsplit(job.endpoint).hostname or ""
        if not self.private_endpoints and not public_host(host):
            return 0
        body, headers = self.sealed(job)
        assert self.session is not None
        async with self.session.post(job.endpoint, data=body, headers=headers,
                                     timeout=aiohttp.ClientTimeout(total=TIMEOUT)) as answer:
            return answer.status

    def sealed(self, job: Job) -> tuple[bytes, dict[str, str]]:
        """The encrypted body (aes128gcm, RFC 8291) and the headers, VAPID signature
        included."""
        info = {"endpoint": job.endpoint, "keys": {"p256dh": job.p256dh, "auth": job.auth}}
        body = WebPusher(info).encode(jsontext.dumps(job.payload).encode(), "aes128gcm")
        url = urlsplit(job.endpoint)
        headers = self.authorization(f"{url.scheme}://{url.netloc}")
        headers.update({"TTL": str(TTL), "Content-Encoding": "aes128gcm", "Urgency": "high",
                        "Topic": job.topic, "Content-Type": "application/octet-stream"})
        return bytes(body["body"]), headers

    def authorization(self, audience: str) -> dict[str, str]:
        """The VAPID headers for the push service at `audience` (its origin): signed once
        every `REUSED` seconds per push service, valid for `VALID` (RFC 8292 lets a signature
        serve many requests until it expires). Signing each notice was a fifth of the
        sender's CPU per notice (an ES256 signature, 80 µs of 380)."""
        now = time.time()
        held = self.signed.get(audience)
        if held is None or now - held[0] >= REUSED:
            if len(self.signed) >= SIGNED:
                self.signed.clear()
            claims = {"sub": self.contact, "aud": audience, "exp": int(now) + VALID}
            held = self.signed[audience] = (now, {k: str(v) for k, v in
                                                  self.vapid.sign(claims).items()})
        return dict(held[1])


_sender: Sender | None = None  # the sender process's one (made by its first batch)


def deliver(private_key: str, contact: str, private_endpoints: bool,
            jobs: list[Job]) -> Sent:
    """In the sender process (push.py's pool): send a batch, every notice answered or timed
    out, on the process's own event loop."""
    global _sender
    if _sender is None or (_sender.key, _sender.contact, _sender.private_endpoints) != (
            private_key, contact, private_endpoints):
        _sender = Sender(private_key, contact, private_endpoints)
    return _sender.loop.run_until_complete(_sender.batch(jobs))


_store: PushStore | None = None  # the sender process's reader of the subscriptions


def deliver_asked(url: str, private_key: str, contact: str, private_endpoints: bool,
                  asks: list[Ask]) -> Sent:
    """In the sender process: the asked players' browsers that want their notice, read in
    one transaction (the process keeps its connection to the database at `url`), then
    `deliver`ed."""
    global _store
    if _store is None or _store.base.url != url:
        if _store is not None:
            _store.base.close()
        _store = PushStore(StoreBase(url))
    found = _store.wanting_all([(a.player, a.kind) for a in asks])
    jobs = [Job(s.endpoint, s.p256dh, s.auth, a.payload, a.topic)
            for a, subs in zip(asks, found, strict=True) for s in subs]
    if not jobs:
        return Sent([], 0, [])
    return deliver(private_key, contact, private_endpoints, jobs)
