"""deploy/Caddyfile in front of a real `brass serve`, as compose runs them,
with the programs started directly (Debian's caddy; no Docker engine): HTTPS with a
certificate from Caddy's local CA (the site address is an IP, as `https://127.0.0.1:PORT`),
the API and a game's websocket (`wss://`) through it, and the client address the app sees.

The app runs with `BRASS_PROXY_HEADERS=1` and `BRASS_FORWARDED_ALLOW_IPS=127.0.0.1` (the
address the proxy connects from); test clients connect from other loopback addresses
(127.0.0.2 and up), so the app can tell the proxy from a client. The join limit (3 a minute
per address) shows which address the app counted: through the proxy, the real client's; a
client that talks to the app directly cannot choose its address with `X-Forwarded-For`.
`/metrics` is the app's, with its token, and never the proxy's."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from .conftest import free_port, repo_root
from .databases import fresh_postgres
from .test_restart import wait_for


@dataclass
class Stack:
    app: str  # the app, directly
    site: str  # the proxy's HTTPS address
    ssl: ssl.SSLContext  # trusts Caddy's local CA
    ca: Path  # its certificate

    def client(self, base: str, source: str) -> httpx.Client:
        """An HTTP client that connects from the loopback address `source`."""
        transport = httpx.HTTPTransport(local_address=source, verify=self.ssl)
        return httpx.Client(base_url=base, transport=transport, timeout=30)


def _answers(client: httpx.Client) -> bool:
    try:
        return client.get("/ready").status_code == 200
    except httpx.TransportError:
        return False


def waited(check: Any, what: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    """`wait_for`, and on failure the last lines of the process's log (a proxy that exits at
    start says why there: a port taken meanwhile, a bad Caddyfile)."""
    try:
        wait_for(check, what, proc)
    except AssertionError as exc:
        tail = "\n".join(log.read_text(errors="replace").splitlines()[-15:])
        raise AssertionError(f"{exc}; the last lines of {log}:\n{tail}") from None


@contextmanager
def process(args: list[str], env: dict[str, str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    with log.open("ab") as out:
        proc = subprocess.Popen(args, env=env, cwd=repo_root(), stdout=out,
                                stderr=subprocess.STDOUT)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=30)


METRICS_TOKEN = "proxy-metrics-" + "x" * 16
METRICS = {"Authorization": f"Bearer {METRICS_TOKEN}"}


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    caddy = shutil.which("caddy")
    if caddy is None:  # .ci/run installs Debian's caddy: never skipped in CI
        if os.environ.get("CI"):
            pytest.fail("caddy is not installed")
        pytest.skip("caddy is not installed (apt-get install caddy)")
    folder = tmp_path_factory.mktemp("proxy")
    app_port, https_port = free_port(), free_port()
    base = {k: v for k, v in os.environ.items() if not k.startswith("BRASS_")}
    app_env = {**base, "DATABASE_URL": f"sqlite:///{folder / 'brass.db'}",
               "BRASS_BOT_DELAY": "0", "BRASS_WORKERS": "0", "BRASS_JOIN_LIMIT": "3",
               "BRASS_PROXY_HEADERS": "1", "BRASS_FORWARDED_ALLOW_IPS": "127.0.0.1",
               "BRASS_METRICS_TOKEN": METRICS_TOKEN}
    proxy_env = {**base, "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"),
                 "XDG_CONFIG_HOME": str(folder / "config"),
                 "BRASS_SITE": f"https://127.0.0.1:{https_port}",
                 "BRASS_HTTPS_PORT": str(https_port), "BRASS_HTTP_PORT": str(free_port()),
                 "BRASS_CADDY_ADMIN": f"127.0.0.1:{free_port()}",
                 "BRASS_UPSTREAM": "127.0.0.1", "BRASS_UPSTREAM_PORT": str(app_port),
                 "BRASS_READ_HEADER_TIMEOUT": "2s"}
    serve = [sys.executable, "-m", "brass.cli", "serve", "--host", "127.0.0.1",
             "--port", str(app_port), "--log-level", "warning"]
    run_caddy = [caddy, "run", "--config", str(repo_root() / "deploy" / "Caddyfile"),
                 "--adapter", "caddyfile"]
    with process(serve, app_env, folder / "app.log") as app, \
            process(run_caddy, proxy_env, folder / "caddy.log") as proxy:
        app_url, site = f"http://127.0.0.1:{app_port}", f"https://127.0.0.1:{https_port}"
        with httpx.Client(base_url=app_url, timeout=30) as direct:
            waited(lambda: _answers(direct), "the app", app, folder / "app.log")
        root = folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        waited(root.is_file, "Caddy's local CA", proxy, folder / "caddy.log")
        context = ssl.create_default_context(cafile=str(root))
        stack = Stack(app=app_url, site=site, ssl=context, ca=root)
        with stack.client(site, "127.0.0.9") as through:
            waited(lambda: _answers(through), "the app through the proxy", proxy,
                   folder / "caddy.log")
        yield stack


def test_https_and_a_websocket_game_through_the_proxy(stack: Stack) -> None:
    with stack.client(stack.site, "127.0.0.6") as http:
        page = http.get("/api/games")
        assert page.status_code == 200 and page.url.scheme == "https"
        game = http.post("/api/games", json={"players": 2, "name": "over tls"}).json()
        me = http.post(f"/api/games/{game['id']}/join", json={"name": "me",
                                                                   "invite": game["invite"]}).json()
        added = http.post(f"/api/games/{game['id']}/bots", json={},
                          headers={"Authorization": f"Bearer {game['host_token']}"})
        assert added.status_code == 201
        ws_url = stack.site.replace("https://", "wss://") + f"/ws/games/{game['id']}"
        with connect(ws_url, ssl=stack.ssl, max_size=None) as ws:
            ws.send(json.dumps({"type": "hello", "token": me["token"]}))
            state = json.loads(ws.recv(timeout=30))
            assert state["type"] == "state" and state["seat"] == me["seat"]
            while state["view"]["current_seat"] != me["seat"]:  # the bot may move first
                state = json.loads(ws.recv(timeout=30))
            move = http.get(f"/api/games/{game['id']}/legal",
                            headers={"Authorization": f"Bearer {me['token']}"}).json()[0]
            ws.send(json.dumps({"type": "action", "action": move["action"],
                                "expected_version": state["version"], "action_id": "tls-1"}))
            answers = []
            while not any(a["type"] == "ack" for a in answers):
                answers.append(json.loads(ws.recv(timeout=30)))
        assert {"type": "ack", "action_id": "tls-1", "version": state["version"] + 1} in answers
        log = http.get(f"/api/games/{game['id']}/log").json()
        assert log["actions"][state["version"]]["action"] == move["action"]


def test_metrics_only_from_the_app_with_its_token_and_hsts_over_https(stack: Stack) -> None:
    with stack.client(stack.app, "127.0.0.10") as direct:
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": METRICS_TOKEN}):
            refused = direct.get("/metrics", headers=headers)
            assert refused.status_code == 401, (headers, refused.text)
            assert refused.json()["code"] == "unauthorized"
            assert refused.headers["www-authenticate"].startswith("Bearer")
        opened = direct.get("/metrics", headers=METRICS)
        assert opened.status_code == 200 and "brass_open_sockets" in opened.text
    with stack.client(stack.site, "127.0.0.11") as through:
        for path in ("/metrics", "/METRICS", "/metrics/", "/metrics?x=1"):
            hidden = through.get(path, headers=METRICS)
            assert hidden.status_code == 404, (path, hidden.status_code, hidden.text[:200])
            assert "brass_" not in hidden.text
        page = through.get("/api/games")
        assert page.status_code == 200
        assert page.headers["strict-transport-security"] == "max-age=31536000"


def test_the_proxy_closes_a_connection_whose_headers_never_end(stack: Stack) -> None:
    """Slowloris at the proxy: half-sent headers are cut at its read_header deadline (2 s
    here, 10 s shipped), while a websocket opened through it lives on past it."""
    host, port = stack.site.removeprefix("https://").split(":")
    with socket.create_connection((host, int(port)), source_address=("127.0.0.13", 0)) as raw, \
            stack.ssl.wrap_socket(raw, server_hostname=host) as tls:
        tls.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        started = time.monotonic()
        tls.settimeout(30)
        try:
            while tls.recv(65536):
                pass
        except (ConnectionResetError, ssl.SSLError):
            pass  # cut: as good as a close
        took = time.monotonic() - started
    assert 1.5 < took < 15, took
    with stack.client(stack.site, "127.0.0.14") as http:
        game = http.post("/api/games", json={"players": 2, "name": "long socket"}).json()["id"]
    ws_url = stack.site.replace("https://", "wss://") + f"/ws/games/{game}"
    with connect(ws_url, ssl=stack.ssl, max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "token": None}))
        assert json.loads(ws.recv(timeout=30))["type"] == "state"
        quiet = time.monotonic() + 3  # past the header deadline, saying nothing
        while time.monotonic() < quiet:
            with contextlib.suppress(TimeoutError):
                ws.recv(timeout=quiet - time.monotonic())
        ws.send(json.dumps({"type": "sync"}))
        assert json.loads(ws.recv(timeout=30))["type"] == "state"


def test_export_over_https_trusts_a_private_ca_given_with_cacert(
        stack: Stack, tmp_path: Path) -> None:
    with stack.client(stack.site, "127.0.0.12") as http:
        game = http.post("/api/games", json={"players": 2, "name": "tls export"}).json()["id"]

    def export(*options: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "brass.cli", "export", game, "--url",
                               stack.site, *options], capture_output=True, text=True,
                              cwd=repo_root(), timeout=60, check=False)

    untrusted = export()
    assert untrusted.returncode == 2, untrusted.stderr
    host = stack.site.removeprefix("https://")
    assert untrusted.stderr.startswith(
        f"brass export: {host} answers, but its TLS certificate is refused: "), untrusted.stderr
    assert "(trusted: this system's CAs)" in untrusted.stderr  # OpenSSL's words between
    assert untrusted.stderr.rstrip().endswith("a private CA's certificate: --cacert FILE")
    trusted = export("--cacert", str(stack.ca))  # it answers: the game is not finished
    assert trusted.returncode == 2
    assert trusted.stderr.startswith(f"brass export: game {game} is waiting: only a finished "
                                     "game can be exported"), trusted.stderr
    missing = export("--cacert", str(tmp_path / "none.pem"))
    assert missing.returncode == 2
    assert missing.stderr.startswith("brass export: cannot read the CA certificate"), \
        missing.stderr
    assert "Traceback" not in untrusted.stderr + trusted.stderr + missing.stderr


def created(client: httpx.Client, forwarded_for: str | None = None) -> int:
    headers = {} if forwarded_for is None else {"X-Forwarded-For": forwarded_for}
    reply = client.post("/api/games", json={"players": 2, "name": "limit"}, headers=headers)
    return reply.status_code


def test_the_app_sees_the_real_client_only_through_the_proxy(stack: Stack) -> None:
    # through the proxy: a client's own X-Forwarded-For is ignored, its address counts
    with stack.client(stack.site, "127.0.0.3") as alice:
        assert [created(alice, f"10.0.0.{i}") for i in range(4)] == [201, 201, 201, 429]
    # another client through the same proxy has its own budget: the app does not count the
    # proxy's address
    with stack.client(stack.site, "127.0.0.4") as bob:
        assert created(bob) == 201
    # directly: X-Forwarded-For from a client that is not the proxy is not believed
    with stack.client(stack.app, "127.0.0.2") as mallory:
        assert [created(mallory, f"10.0.1.{i}") for i in range(4)] == [201, 201, 201, 429]
    with stack.client(stack.app, "127.0.0.5") as carol:
        assert created(carol, "127.0.0.3") == 201  # not 127.0.0.3's spent budget


class Names:
    """A DNS server on a loopback UDP port that answers every A query with `addresses`: what
    Docker's DNS answers for the compose service `app` scaled to several instances."""

    def __init__(self, addresses: list[str]) -> None:
        self.addresses = addresses
        self.tcp = socket.create_server(("127.0.0.1", 0))  # Caddy's resolver asks over TCP
        self.port: int = self.tcp.getsockname()[1]
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", self.port))
        threading.Thread(target=self._serve_udp, daemon=True).start()
        threading.Thread(target=self._serve_tcp, daemon=True).start()

    def _serve_udp(self) -> None:
        while True:
            try:
                query, client = self.udp.recvfrom(512)
            except OSError:
                return  # closed
            with contextlib.suppress(OSError, IndexError):
                self.udp.sendto(self.answer(query), client)

    def _serve_tcp(self) -> None:
        while True:
            try:
                conn, _ = self.tcp.accept()
            except OSError:
                return  # closed
            with conn, contextlib.suppress(OSError, IndexError):
                while (head := conn.recv(2, socket.MSG_WAITALL)) and len(head) == 2:
                    query = conn.recv(int.from_bytes(head, "big"), socket.MSG_WAITALL)
                    reply = self.answer(query)
                    conn.sendall(len(reply).to_bytes(2, "big") + reply)

    def answer(self, query: bytes) -> bytes:
        end = 12
        while query[end]:  # the question's name, label by label
            end += query[end] + 1
        end += 5  # the name's last zero, type and class
        is_a = query[end - 4:end - 2] == b"\x00\x01"
        records = [b"\xc0\x0c\x00\x01\x00\x01\x00\x00\x00\x01\x00\x04" + socket.inet_aton(a)
                   for a in (self.addresses if is_a else [])]
        header = (query[:2] + b"\x81\x80" + b"\x00\x01" + len(records).to_bytes(2, "big")
                  + b"\x00\x00\x00\x00")
        return header + query[12:end] + b"".join(records)

    def close(self) -> None:
        self.tcp.close()
        self.udp.close()


def test_the_proxy_routes_a_game_to_one_instance_and_instances_share_every_change(
        tmp_path: Path) -> None:
    """`docker compose up --scale app=2` without Docker: two `brass serve` on one Postgres
    database, on 127.0.0.21 and 127.0.0.22 (the same port), found by the proxy through a DNS
    name that resolves to both, as Docker's DNS resolves `app`. The proxy sends every socket and
    request of one game to one instance (a hash of the game's id); a client that reaches the
    other instance directly still hears every change."""
    caddy = shutil.which("caddy")
    if caddy is None:
        if os.environ.get("CI"):
            pytest.fail("caddy is not installed")
        pytest.skip("caddy is not installed (apt-get install caddy)")
    hosts, port, site_port = ["127.0.0.21", "127.0.0.22"], free_port(), free_port()
    names = Names(hosts)
    base = {k: v for k, v in os.environ.items() if not k.startswith("BRASS_")}
    proxy_env = {**base, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"),
                 "XDG_CONFIG_HOME": str(tmp_path / "config"),
                 "BRASS_SITE": f"http://127.0.0.1:{site_port}",
                 "BRASS_HTTP_PORT": str(free_port()), "BRASS_HTTPS_PORT": str(free_port()),
                 "BRASS_CADDY_ADMIN": f"127.0.0.1:{free_port()}",
                 "BRASS_UPSTREAM": "app.brass.test", "BRASS_UPSTREAM_PORT": str(port),
                 "BRASS_RESOLVERS": f"127.0.0.1:{names.port}"}
    run_caddy = [caddy, "run", "--config", str(repo_root() / "deploy" / "Caddyfile"),
                 "--adapter", "caddyfile"]
    with fresh_postgres("brass_proxy") as url, ExitStack() as stack:
        stack.callback(names.close)
        app_env = {**base, "DATABASE_URL": url, "BRASS_BOT_DELAY": "0", "BRASS_WORKERS": "0",
                   "BRASS_JOIN_LIMIT": "3", "BRASS_PROXY_HEADERS": "1",
                   "BRASS_FORWARDED_ALLOW_IPS": "127.0.0.1", "BRASS_METRICS_TOKEN": METRICS_TOKEN}
        apps = [stack.enter_context(process(
            [sys.executable, "-m", "brass.cli", "serve", "--host", host, "--port", str(port),
             "--log-level", "warning"], app_env, tmp_path / f"app-{host}.log"))
            for host in hosts]
        directs = [stack.enter_context(httpx.Client(base_url=f"http://{host}:{port}",
                                                    timeout=30)) for host in hosts]
        for app, direct, host in zip(apps, directs, hosts, strict=True):
            waited(lambda d=direct: _answers(d), "an app instance", app,
                   tmp_path / f"app-{host}.log")
        proxy = stack.enter_context(process(run_caddy, proxy_env, tmp_path / "caddy.log"))
        site = f"http://127.0.0.1:{site_port}"
        through = stack.enter_context(httpx.Client(
            base_url=site, timeout=30, transport=httpx.HTTPTransport(local_address="127.0.0.7")))
        waited(lambda: _answers(through), "the app through the proxy", proxy,
               tmp_path / "caddy.log")
        game = through.post("/api/games", json={"players": 2, "name": "two"}).json()
        seats = [through.post(f"/api/games/{game['id']}/join", json={
                     "name": n, "invite": game["invite"]}).json() for n in ("a", "b")]

        def sockets() -> list[float]:
            return [_metric(d.get("/metrics", headers=METRICS).text, "brass_open_sockets")
                    for d in directs]

        ws_url = site.replace("http://", "ws://") + f"/ws/games/{game['id']}"
        with ExitStack() as open_sockets:
            clients = []
            for token in [s["token"] for s in seats] + [None] * 4:
                ws = open_sockets.enter_context(connect(ws_url, max_size=None))
                ws.send(json.dumps({"type": "hello", "token": token}))
                assert json.loads(ws.recv(timeout=30))["version"] == 0
                clients.append(ws)
            held = sockets()
            assert sorted(held) == [0, 6], held  # the game's six sockets: on one instance
            home = held.index(6)
            for direct_url in [f"ws://{host}:{port}/ws/games/{game['id']}" for host in hosts]:
                ws = open_sockets.enter_context(connect(direct_url, max_size=None))
                ws.send(json.dumps({"type": "hello", "token": None}))  # one on each, directly
                assert json.loads(ws.recv(timeout=30))["version"] == 0
                clients.append(ws)
            mover = next(s for s in seats if s["seat"] == info_seat(through, game["id"]))
            move = through.get(f"/api/games/{game['id']}/legal",
                               headers={"Authorization": f"Bearer {mover['token']}"}).json()[0]
            done = through.post(f"/api/games/{game['id']}/actions",
                                headers={"Authorization": f"Bearer {mover['token']}"},
                                json={"action": move["action"], "expected_version": 0,
                                      "action_id": "through-the-proxy"})
            assert done.json() == {"version": 1}
            moves = [_moves(d.get("/metrics", headers=METRICS).text) for d in directs]
            assert moves[home] == 1 and sum(moves) == 1, moves  # the move went to the same one
            for ws in clients:  # every socket, on either instance, gets the new version
                while json.loads(ws.recv(timeout=30))["version"] != 1:
                    pass


def info_seat(client: httpx.Client, game_id: str) -> int:
    seat: int = client.get(f"/api/games/{game_id}").json()["current_seat"]
    return seat


def _metric(text: str, name: str) -> float:
    for line in text.splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"no metric {name}")


def _moves(text: str) -> float:
    """Moves this instance committed, every kind together."""
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith("brass_moves_total{"))
