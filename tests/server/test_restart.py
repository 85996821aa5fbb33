"""Restart: SIGKILL the server process in the middle of bot games; after a restart every
acknowledged action is there and the games go on to the end."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from .conftest import Table, act, free_port, info, legal, make_game, repo_root

HANG_GUARD = 180.0  # seconds; only stops a broken run from hanging, never a pass/fail limit


@contextmanager
def server_process(db_url: str, log_path: Path, **extra: str) -> Iterator[httpx.Client]:
    port = free_port()
    env = {**os.environ, "DATABASE_URL": db_url, "BRASS_BOT_DELAY": "0.03", **extra}
    with log_path.open("ab") as log_file:
        proc = subprocess.Popen(
            [sys.executable, "-m", "brass.cli", "serve", "--port", str(port),
             "--log-level", "warning"], env=env, cwd=repo_root(), stdout=log_file,
            stderr=subprocess.STDOUT)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            wait_for(lambda: _up(client), f"server up (see {log_path})", proc)
            client.headers["x-pid"] = str(proc.pid)
            yield client
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=30)


def _up(client: httpx.Client) -> bool:
    try:
        return client.get("/api/games").status_code == 200
    except httpx.TransportError:
        return False


def wait_for(check: Any, what: str, proc: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + HANG_GUARD
    while not check():
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the server exited while waiting for {what}")
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.05)


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def log_of(client: httpx.Client, table: Table) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = client.get(table.url("/log")).json()["actions"]
    return entries


def test_sigkill_mid_game_loses_no_acknowledged_action(db_url: str, tmp_path: Path) -> None:
    server_log = tmp_path / "server.log"
    with server_process(db_url, server_log) as client:
        bot_games = [make_game(client, players=n, humans=0, bots=n) for n in (2, 3, 4)]
        mixed = make_game(client, players=2, humans=1, bots=1)
        human = next(iter(mixed.tokens))
        wait_for(lambda: info(client, mixed)["current_seat"] == human, "the human's turn")
        version = info(client, mixed)["version"]
        acked = act(client, mixed, human, legal(client, mixed, human)[0]["action"], version,
                    "acked-before-kill")
        assert acked.status_code == 200, acked.text
        wait_for(lambda: all(len(log_of(client, t)) >= 8 for t in bot_games), "bot moves")
        seen = {t.id: log_of(client, t) for t in [*bot_games, mixed]}
        pid = int(client.headers["x-pid"])
        helpers = children(pid)  # the worker process(es) computing bot moves
        assert helpers
        os.kill(pid, signal.SIGKILL)
    wait_for(lambda: not any(Path(f"/proc/{p}").exists() for p in helpers),
             "the server's worker processes to exit after it was killed")

    with server_process(db_url, server_log) as client:
        for table in [*bot_games, mixed]:
            now = log_of(client, table)
            assert now[:len(seen[table.id])] == seen[table.id]
        mine = [e for e in log_of(client, mixed) if e["seq"] == acked.json()["version"]]
        assert mine and mine[0]["seat"] == human
        for table in bot_games:
            wait_for(lambda t=table: info(client, t)["status"] == "finished", "the game's end")
        # the kill came in the middle: games went on after the restart
        assert any(len(log_of(client, t)) > len(seen[t.id]) for t in bot_games)
        # the mixed game goes on too: the bot moves if it is its turn, then the human acts
        wait_for(lambda: info(client, mixed)["current_seat"] == human, "the human's turn")
        version = info(client, mixed)["version"]
        again = act(client, mixed, human, legal(client, mixed, human)[0]["action"], version)
        assert again.json() == {"version": version + 1}
