"""Fixtures for the server tests: a real database (SQLite file and a fresh Postgres database per
session), a real server (uvicorn on a free loopback port, in a thread) and small helpers.

Postgres: `BRASS_TEST_POSTGRES` (default `postgresql+psycopg://postgres@127.0.0.1:5432`);
each session creates its own uniquely named database through the `postgres` maintenance
database and drops it at the end, so parallel runs never collide. Without a reachable Postgres
the Postgres cases are skipped, except under CI (`CI=true`), where they fail.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import threading
import time
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import uvicorn
from sqlalchemy import create_engine, text

from brass.server import Settings, create_app
from brass.server.request_deadlines import uvicorn_options

from .accountsite import Site
from .mail import Mailbox, smtp_server
from .ports import free_port

T = TypeVar("T")

POSTGRES = os.environ.get("BRASS_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432")


def run_in_own_loop(coro: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run` in a thread of its own: another plugin (Playwright's sync API in the
    browser tests, which run first in one pytest session) may keep an event loop running in
    the main thread."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    name = f"brass_test_{os.getpid()}_{secrets.token_hex(4)}"
    admin = create_engine(f"{POSTGRES}/postgres", isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as exc:  # no Postgres here
        admin.dispose()
        if os.environ.get("CI"):
            pytest.fail(f"Postgres is needed under CI: {exc}")
        pytest.skip(f"no Postgres at {POSTGRES}: {exc}")
    try:
        yield f"{POSTGRES}/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="session", params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('db') / 'brass.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


METRICS_TOKEN = "test-metrics-token-0123456789"  # the shared server's /metrics (metrics.py)
METRICS = {"Authorization": f"Bearer {METRICS_TOKEN}"}


class LiveServer:
    """The real app served by uvicorn on a loopback port, in a thread of this process."""

    def __init__(self, settings: Settings, http: str = "auto") -> None:
        self.settings = settings
        self.port = free_port()
        config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=self.port,
                                log_level="warning", **uvicorn_options(settings, http))
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"

    def __enter__(self) -> LiveServer:
        self.thread.start()
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


@pytest.fixture(scope="session")
def server(db_url: str) -> Iterator[LiveServer]:
    # many games from one address: the join limit has its own test (test_ratelimit.py)
    with LiveServer(Settings(database_url=db_url, bot_delay=0.0, join_limit=0,
                             metrics_token=METRICS_TOKEN)) as live:
        yield live


@pytest.fixture
def http(server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base, timeout=60) as client:
        yield client


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class Table:
    """A game made by a test: its id, host token and the tokens of the seats it joined."""

    id: str
    host: str
    tokens: dict[int, str] = field(default_factory=dict)
    invite: str | None = None

    def url(self, path: str = "") -> str:
        return f"/api/games/{self.id}{path}"


def make_game(http: httpx.Client, players: int, humans: int, bots: int = 0) -> Table:
    created = http.post("/api/games", json={"players": players, "name": "test"})
    assert created.status_code == 201, created.text
    table = Table(id=created.json()["id"], host=created.json()["host_token"],
                  invite=created.json()["invite"])
    for i in range(humans):
        joined = http.post(table.url("/join"), json={"name": f"human {i}",
                                                     "invite": table.invite})
        assert joined.status_code == 201, joined.text
        table.tokens[joined.json()["seat"]] = joined.json()["token"]
    for _ in range(bots):
        added = http.post(table.url("/bots"), headers=auth(table.host), json={})
        assert added.status_code == 201, added.text
    return table


def info(http: httpx.Client, table: Table) -> dict[str, Any]:
    reply = http.get(table.url())
    assert reply.status_code == 200
    data: dict[str, Any] = reply.json()
    return data


def act(http: httpx.Client, table: Table, seat: int, action: dict[str, Any],
        version: int, action_id: str | None = None) -> httpx.Response:
    return http.post(table.url("/actions"), headers=auth(table.tokens[seat]), json={
        "action": action, "expected_version": version,
        "action_id": action_id or secrets.token_hex(8)})


def legal(http: httpx.Client, table: Table, seat: int) -> list[dict[str, Any]]:
    reply = http.get(table.url("/legal"), headers=auth(table.tokens[seat]))
    assert reply.status_code == 200, reply.text
    entries: list[dict[str, Any]] = reply.json()
    return entries


def repo_root() -> Path:
    return Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def box() -> Iterator[Mailbox]:
    """A real SMTP server (aiosmtpd) for the module's tests."""
    with smtp_server() as mailbox:
        yield mailbox


@pytest.fixture(scope="module")
def site(db_url: str, box: Mailbox) -> Iterator[Site]:
    """The app with e-mail through `box` (a module may override it with other settings)."""
    with Site(db_url, box.port) as live:
        yield live
