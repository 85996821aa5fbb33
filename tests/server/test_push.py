"""Web Push (issue 27, docs/REACH.md) end to end without the internet: a push service stand-in
on loopback receives each notice as a push service would (RFC 8030: a POST to the
subscription's endpoint); the test holds the subscription's private keys and decrypts the
body (RFC 8291, aes128gcm), and checks the VAPID signature (RFC 8292) with the key the server
gives browsers. A turn that passes to a subscribed player's seat is pushed; a 410 deletes the
subscription; the key pair survives a restart; bad subscriptions are refused. SQLite and
Postgres (the `db_url` fixture)."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import queue
import secrets
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece
import httpx
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from sqlalchemy import create_engine, select

from brass.server import Settings, push, pushsend
from brass.server.tables import push_subscriptions

from .conftest import LiveServer, Table, auth, legal
from .databases import fresh_like
from .test_players import browser

WAIT = 30.0  # seconds a test waits for a notice before it says what it saw


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    sender: int | None = None  # the process whose socket posted it (this one's or a child's)


def socket_owner(port: int, to: int) -> int | None:
    """The process, this one or a child of it, holding the loopback TCP socket from local
    port `port` to port `to` (/proc/net/tcp gives the socket's inode, a process's fds name
    it). Both ports: the kernel may give one local port to several sockets that connect to
    different places (this process's own connections to Postgres, say)."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[1].endswith(f":{port:04X}") and fields[2].endswith(f":{to:04X}"):
            inodes.add(f"socket:[{fields[9]}]")
    me, children = os.getpid(), []
    for listed in Path(f"/proc/{me}/task").glob("*/children"):
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            children += [int(c) for c in listed.read_text().split()]
    for pid in [me, *children]:
        with contextlib.suppress(OSError):
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                with contextlib.suppress(OSError):
                    if os.readlink(fd) in inodes:
                        return pid
    return None


@dataclass
class PushService:
    """A push service on 127.0.0.1: records each POST, answers `answers[path]` (201)."""

    server: ThreadingHTTPServer
    got: queue.Queue[Received] = field(default_factory=queue.Queue)
    answers: dict[str, int] = field(default_factory=dict)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def next(self, path: str) -> Received:
        """The next notice to `path` (others are set aside and kept)."""
        deadline, others = time.monotonic() + WAIT, []
        try:
            while True:
                try:
                    got = self.got.get(timeout=max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    raise AssertionError(f"no push to {path} in {WAIT} s; others: "
                                         f"{[o.path for o in others]}") from None
                if got.path == path:
                    return got
                others.append(got)
        finally:
            for o in others:
                self.got.put(o)


@pytest.fixture(scope="module")
def push_service() -> Iterator[PushService]:
    holder: list[PushService] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # http.server's name
            service = holder[0]
            body = self.rfile.read(int(self.headers.get("content-length", "0")))
            service.got.put(Received(self.path, {k.lower(): v for k, v in
                                                 self.headers.items()}, body,
                                     socket_owner(self.client_address[1],
                                                  int(service.origin.rpartition(":")[2]))))
            self.send_response(service.answers.get(self.path, 201))
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    holder.append(PushService(httpd))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield holder[0]
    httpd.shutdown()


@pytest.fixture(scope="module")
def push_server(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """On a database of its own (databases.fresh_like): its steward plays no bot game that
    earlier tests left running, which would starve the push sender (nice 19) beside it."""
    with fresh_like(db_url, tmp_path_factory.mktemp("push")) as url, \
            LiveServer(Settings(database_url=url, bot_delay=0.0, join_limit=0,
                                push_private_endpoints=True)) as live:
        yield live


@dataclass
class Browser:
    """A player's browser with its push subscription's private halves."""

    client: httpx.Client
    key: ec.EllipticCurvePrivateKey
    secret: bytes
    endpoint: str

    def subscription(self) -> dict[str, Any]:
        point = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64url(point), "auth": b64url(self.secret)}}

    def read(self, got: Received) -> dict[str, Any]:
        """The notice's payload, decrypted as the browser would (RFC 8291)."""
        assert got.headers.get("content-encoding") == "aes128gcm", got.headers
        plain = http_ece.decrypt(got.body, private_key=self.key, auth_secret=self.secret,
                                 version="aes128gcm")
        payload: dict[str, Any] = json.loads(plain)
        return payload


def subscribed(server: LiveServer, service: PushService, name: str) -> Iterator[Browser]:
    with browser(server) as client:
        assert client.post("/api/session").status_code == 201
        me = Browser(client, ec.generate_private_key(ec.SECP256R1()), os.urandom(16),
                     f"{service.origin}/push/{name}-{secrets.token_hex(4)}")
        made = client.post("/api/push/subscription", json=me.subscription())
        assert made.status_code == 204, made.text
        yield me


@pytest.fixture
def alice(push_server: LiveServer, push_service: PushService) -> Iterator[Browser]:
    yield from subscribed(push_server, push_service, "alice")


@pytest.fixture
def bob(push_server: LiveServer, push_service: PushService) -> Iterator[Browser]:
    yield from subscribed(push_server, push_service, "bob")


def check_vapid(got: Received, public_key: str, audience: str) -> None:
    """The Authorization header is `vapid t=JWT,k=KEY`: KEY the server's public key, the
    JWT (ES256) signed by it, for this push service's origin, not yet expired."""
    scheme, _, params = got.headers["authorization"].partition(" ")
    assert scheme == "vapid", got.headers
    fields = dict(p.strip().split("=", 1) for p in params.split(","))
    assert fields["k"] == public_key, (fields, public_key)
    head, claims, signature = fields["t"].split(".")
    raw = unb64url(signature)
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    key.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"),
                                    int.from_bytes(raw[32:], "big")),
               f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    said = json.loads(unb64url(claims))
    assert said["aud"] == audience and said["exp"] > time.time(), said
    assert said["sub"].startswith(("mailto:", "https://")), said
    assert int(got.headers["ttl"]) > 0, got.headers


def rows(server: LiveServer, endpoint: str) -> int:
    engine = create_engine(server.settings.database_url)
    try:
        with engine.connect() as conn:
            return len(conn.execute(select(push_subscriptions.c.id).where(
                push_subscriptions.c.endpoint == endpoint)).all())
    finally:
        engine.dispose()


def start_game(alice: Browser, bob: Browser, name: str = "Pushed game",
               **options: Any) -> tuple[Table, dict[int, Browser]]:
    made = alice.client.post("/api/games", json={"players": 2, "name": name, **options})
    assert made.status_code == 201, made.text
    table = Table(id=made.json()["id"], host=made.json()["host_token"],
                  invite=made.json()["invite"])
    by_seat = {}
    for who, name in ((alice, "Alice"), (bob, "Bob")):
        joined = who.client.post(table.url("/join"), json={"name": name,
                                                           "invite": table.invite})
        assert joined.status_code == 201, joined.text
        table.tokens[joined.json()["seat"]] = joined.json()["token"]
        by_seat[joined.json()["seat"]] = who
    return table, by_seat


def test_a_turn_passing_to_a_subscribed_player_is_pushed_encrypted_and_signed(
        push_server: LiveServer, push_service: PushService, alice: Browser,
        bob: Browser) -> None:
    key = alice.client.get("/api/push/key").json()["key"]
    assert len(unb64url(key)) == 65
    table, by_seat = start_game(alice, bob)
    state = alice.client.get(table.url("/state"), headers=auth(table.tokens[0])).json()
    first = state["view"]["current_seat"]
    mover, other = by_seat[first], by_seat[1 - first]

    started = push_service.next(mover.endpoint.removeprefix(push_service.origin))
    check_vapid(started, key, push_service.origin)
    told = mover.read(started)
    assert told == {"kind": "turn", "game": table.id, "name": "Pushed game", "seat": first,
                    "url": f"/#/game/{table.id}"}, told

    with httpx.Client(base_url=push_server.base, timeout=60) as http:
        action = legal(http, table, first)[0]["action"]
        played = http.post(table.url("/actions"), headers=auth(table.tokens[first]), json={
            "action": action, "expected_version": state["version"],
            "action_id": secrets.token_hex(8)})
        assert played.status_code == 200, played.text
    passed = push_service.next(other.endpoint.removeprefix(push_service.origin))
    check_vapid(passed, key, push_service.origin)
    assert other.read(passed)["game"] == table.id


def test_a_subscription_the_push_service_calls_gone_is_deleted(
        push_server: LiveServer, push_service: PushService, alice: Browser,
        bob: Browser) -> None:
    for who in (alice, bob):
        push_service.answers[who.endpoint.removeprefix(push_service.origin)] = 410
    assert rows(push_server, alice.endpoint) == 1
    start_game(alice, bob)  # the first mover is told "turn", the other "started": both 410
    deadline = time.monotonic() + WAIT
    while rows(push_server, alice.endpoint) + rows(push_server, bob.endpoint) != 0:
        assert time.monotonic() < deadline, "the 410 did not delete the subscription"
        time.sleep(0.05)


def test_a_notice_leaves_from_a_process_of_its_own_at_the_lowest_priority(
        push_server: LiveServer, push_service: PushService, alice: Browser,
        bob: Browser) -> None:
    """The server (this process, uvicorn in a thread) only hands the notices over: the
    socket that posts them is a child process's, nice 19 (not SCHED_IDLE, which a busy
    machine starves), in the server's session (and autogroup: one of its own would compete
    with the server's as an equal, workers.py)."""
    start_game(alice, bob)  # the first mover is told "turn", the other "started"
    for who in (alice, bob):
        got = push_service.next(who.endpoint.removeprefix(push_service.origin))
        assert got.sender is not None, "no process of ours held the posting socket"
        assert got.sender != os.getpid(), "posted by the server's own process"
        parent = int(Path(f"/proc/{got.sender}/stat").read_text().rsplit(")", 1)[1].split()[1])
        assert parent == os.getpid(), (got.sender, parent)
        assert os.getpriority(os.PRIO_PROCESS, got.sender) == 19
        assert os.sched_getscheduler(got.sender) == os.SCHED_OTHER
        assert os.getsid(got.sender) == os.getsid(0), "in a session group of its own"


def test_the_key_pair_is_made_once_and_kept_across_restarts(push_server: LiveServer) -> None:
    with httpx.Client(base_url=push_server.base) as http:
        key = http.get("/api/push/key").json()["key"]
    with LiveServer(Settings(database_url=push_server.settings.database_url,
                             bot_delay=0.0)) as again, \
            httpx.Client(base_url=again.base) as http:
        assert http.get("/api/push/key").json()["key"] == key


def test_unsubscribing_and_bad_subscriptions(server: LiveServer, push_server: LiveServer,
                                             alice: Browser) -> None:
    gone = alice.client.request("DELETE", "/api/push/subscription",
                                json={"endpoint": alice.endpoint})
    assert gone.status_code == 204, gone.text
    assert rows(push_server, alice.endpoint) == 0
    again = alice.client.request("DELETE", "/api/push/subscription",
                                 json={"endpoint": alice.endpoint})
    assert again.status_code == 404, again.text
    with browser(server) as client:  # a server that allows only public https endpoints
        assert client.post("/api/session").status_code == 201
        good = alice.subscription()
        for endpoint in ("http://push.example.org/x", "https://127.0.0.1/x",
                         "https://localhost/x", "https://[::1]/x", "https://10.0.0.8/x",
                         "https://169.254.169.254/latest"):
            refused = client.post("/api/push/subscription", json={**good, "endpoint": endpoint})
            assert refused.status_code == 400, (endpoint, refused.text)
            assert refused.json()["reason"] == "push_endpoint", refused.text
        for keys in ({"p256dh": "AAAA", "auth": good["keys"]["auth"]},
                     {"p256dh": good["keys"]["p256dh"], "auth": "c2hvcnQ"}):
            refused = client.post("/api/push/subscription", json={
                **good, "endpoint": "https://push.example.org/x", "keys": keys})
            assert refused.status_code == 400 and refused.json()["reason"] == "push_keys", \
                refused.text
        huge = client.post("/api/push/subscription", json={
            **good, "endpoint": "https://push.example.org/" + "x" * 2000})
        assert huge.status_code in (400, 422), huge.text
    with httpx.Client(base_url=server.base) as anonymous:
        assert anonymous.post("/api/push/subscription",
                              json=alice.subscription()).status_code == 401


def test_one_signature_serves_a_push_service_for_a_while(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The sender signs for each push service (its origin) once every `REUSED` seconds, and
    each signature checks for that service alone; past `REUSED`, a new one is made."""
    keys = push.new_keys()
    sender = pushsend.Sender(keys["private"], "mailto:host@example.org", True)
    try:
        def said(audience: str) -> Received:
            return Received("/", {**{k.lower(): v for k, v in
                                     sender.authorization(audience).items()}, "ttl": "1"}, b"")

        first, again = said("https://push.one.example"), said("https://push.one.example")
        other = said("https://push.two.example:8443")
        for got, audience in ((first, "https://push.one.example"),
                              (again, "https://push.one.example"),
                              (other, "https://push.two.example:8443")):
            check_vapid(got, keys["public"], audience)
        assert first.headers == again.headers, "signed again within REUSED"
        assert other.headers["authorization"] != first.headers["authorization"]
        monkeypatch.setattr(pushsend, "REUSED", 0.0)
        renewed = said("https://push.one.example")
        check_vapid(renewed, keys["public"], "https://push.one.example")
        assert renewed.headers["authorization"] != first.headers["authorization"]
    finally:
        sender.loop.close()
