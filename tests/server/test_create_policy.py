"""Who may create games (issue 24, policy.py): the host sets it from the command line, in the
database every instance reads; `POST /api/games` refuses others with `create_refused` and the
policy as its reason. SQLite and Postgres. The session's server is shared: each test puts the
policy back to `anyone`."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import create_engine, update

from brass.server import policy
from brass.server.playerstore import PlayerStore
from brass.server.policy import Policy
from brass.server.storebase import StoreBase
from brass.server.tables import players

from . import test_players
from .conftest import LiveServer, repo_root

alice = test_players.alice  # a guest (fixture)


def brass_settings(server: LiveServer, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "brass.cli", "settings", "create-policy", *args,
         "--database", server.settings.database_url],
        capture_output=True, text=True, cwd=repo_root(), timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done


def set_policy(server: LiveServer, chosen: Policy) -> None:
    """As the command line does (tested below), without starting a process."""
    base = StoreBase(server.settings.database_url)
    try:
        policy.set_policy(PlayerStore(base), chosen)
    finally:
        base.close()


@pytest.fixture
def anyone_after(server: LiveServer) -> Iterator[None]:
    try:
        yield
    finally:
        set_policy(server, "anyone")


def create(client: httpx.Client, code: str | None = None) -> httpx.Response:
    body: dict[str, object] = {"players": 2, "name": "test"}
    if code is not None:
        body["invite_code"] = code
    return client.post("/api/games", json=body)


def refused(reply: httpx.Response, reason: str) -> None:
    assert reply.status_code == 403, reply.text
    assert reply.json()["code"] == "create_refused" and reply.json()["reason"] == reason, \
        reply.text


def test_an_invite_code_policy(server: LiveServer, http: httpx.Client,
                               anyone_after: None) -> None:
    assert create(http).status_code == 201
    said = brass_settings(server, "invite").stdout
    code = said.rsplit(": ", 1)[1].strip()
    assert "shown once" in said and len(code) >= 32, said
    assert code.isalnum(), code  # read out and typed: no "-" to wrap at or to pass as an option
    refused(create(http), "invite")
    refused(create(http, "not-the-code"), "invite")
    assert create(http, code).status_code == 201
    short = subprocess.run(
        [sys.executable, "-m", "brass.cli", "settings", "create-policy", "invite", "--code",
         "abc", "--database", server.settings.database_url],
        capture_output=True, text=True, cwd=repo_root(), timeout=120, check=False)
    assert short.returncode == 2 and "8 to 200 characters" in short.stderr, short.stderr
    refused(create(http, "not-the-code"), "invite")  # the policy did not change
    assert create(http, code).status_code == 201
    brass_settings(server, "invite", "--code", "chosen-by-the-host")
    refused(create(http, code), "invite")  # the old code stopped working
    assert create(http, "chosen-by-the-host").status_code == 201
    assert "create policy: invite" in brass_settings(server).stdout


def test_an_accounts_policy(server: LiveServer, http: httpx.Client, alice: httpx.Client,
                            anyone_after: None) -> None:
    set_policy(server, "accounts")
    refused(create(http), "accounts")
    refused(create(alice), "accounts")  # a guest has no account
    me = alice.get("/api/me").json()["id"]
    engine = create_engine(server.settings.database_url)
    try:
        with engine.begin() as conn:  # what a verified sign-in link does (accounts)
            conn.execute(update(players).where(players.c.id == me).values(
                email=f"{me.lower()}@example.org", email_verified_at=dt.datetime.now(dt.UTC)))
    finally:
        engine.dispose()
    assert alice.get("/api/me").json()["account"] is True
    assert create(alice).status_code == 201
