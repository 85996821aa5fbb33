"""deploy/Caddyfile in front of a real `brass serve`, as the compose profile `tls` runs them,
with the programs started directly (Debian's caddy; no Docker engine): HTTPS with a
certificate from Caddy's local CA (the site address is an IP, as `https://127.0.0.1:PORT`),
the API and a game's websocket (`wss://`) through it, and the client address the app sees.

The app runs with `BRASS_PROXY_HEADERS=1` and `BRASS_FORWARDED_ALLOW_IPS=127.0.0.1` (the
address the proxy connects from); test clients connect from other loopback addresses
(127.0.0.2 and up), so the app can tell the proxy from a client. The join limit (3 a minute
per address) shows which address the app counted: through the proxy, the real client's; a
client that talks to the app directly cannot choose its address with `X-Forwarded-For`."""

from __future__ import annotations

import json
import os
import shutil
import ssl
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from .conftest import free_port, repo_root
from .test_restart import wait_for


@dataclass
class Stack:
    app: str  # the app, directly
    site: str  # the proxy's HTTPS address
    ssl: ssl.SSLContext  # trusts Caddy's local CA

    def client(self, base: str, source: str) -> httpx.Client:
        """An HTTP client that connects from the loopback address `source`."""
        transport = httpx.HTTPTransport(local_address=source, verify=self.ssl)
        return httpx.Client(base_url=base, transport=transport, timeout=30)


def _answers(client: httpx.Client) -> bool:
    try:
        return client.get("/ready").status_code == 200
    except httpx.TransportError:
        return False


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
               "BRASS_PROXY_HEADERS": "1", "BRASS_FORWARDED_ALLOW_IPS": "127.0.0.1"}
    proxy_env = {**base, "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"),
                 "XDG_CONFIG_HOME": str(folder / "config"),
                 "BRASS_SITE": f"https://127.0.0.1:{https_port}",
                 "BRASS_HTTPS_PORT": str(https_port), "BRASS_HTTP_PORT": str(free_port()),
                 "BRASS_CADDY_ADMIN": f"127.0.0.1:{free_port()}",
                 "BRASS_UPSTREAM": "127.0.0.1", "BRASS_UPSTREAM_PORT": str(app_port)}
    serve = [sys.executable, "-m", "brass.cli", "serve", "--host", "127.0.0.1",
             "--port", str(app_port), "--log-level", "warning"]
    run_caddy = [caddy, "run", "--config", str(repo_root() / "deploy" / "Caddyfile"),
                 "--adapter", "caddyfile"]
    with process(serve, app_env, folder / "app.log") as app, \
            process(run_caddy, proxy_env, folder / "caddy.log") as proxy:
        app_url, site = f"http://127.0.0.1:{app_port}", f"https://127.0.0.1:{https_port}"
        with httpx.Client(base_url=app_url, timeout=30) as direct:
            wait_for(lambda: _answers(direct), "the app", app)
        root = folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        wait_for(root.is_file, f"Caddy's local CA (see {folder / 'caddy.log'})", proxy)
        context = ssl.create_default_context(cafile=str(root))
        stack = Stack(app=app_url, site=site, ssl=context)
        with stack.client(site, "127.0.0.9") as through:
            wait_for(lambda: _answers(through), "the app through the proxy", proxy)
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
