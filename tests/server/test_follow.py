"""An instance follows every change another instance announces (fanout.py hands each
notification to `GameCore.changed`), including one announced just as its previous catch-up
of the game has returned but before that task is forgotten: a spectator of the game there
must still get the new version (missed, it waited for the next move, and the last version of
a game for ever). And a write of its own whose task is cancelled (a steward that lost the
lease) but which commits all the same reaches its clients, and its players' notices, too."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import httpx

from brass.server import Settings, migrate
from brass.server.runtime import Runtime
from brass.server.service import GameService
from brass.server.storage import Storage

from .conftest import LiveServer, Table, act, info, legal, make_game, run_in_own_loop
from .databases import fresh_postgres

WITHIN = 10.0  # seconds for the spectator to hold the new version


class Spectator:
    """A client of instance B: keeps the version of every state message it is sent."""

    seat = None

    def __init__(self) -> None:
        self.versions: list[int] = []

    def send(self, text: str) -> None:
        message = json.loads(text)
        if message["type"] == "state":
            self.versions.append(message["version"])


def move(http: httpx.Client, table: Table) -> int:
    """The seat to move plays its first legal move through instance A; the new version."""
    seat, version = info(http, table)["current_seat"], info(http, table)["version"]
    reply = act(http, table, seat, legal(http, table, seat)[0]["action"], version)
    assert reply.status_code == 200, reply.text
    new: int = reply.json()["version"]
    return new


async def follow(url: str, http: httpx.Client, table: Table) -> None:
    b = GameService(Storage(url, instance="b"), workers=0)
    try:
        spectator = Spectator()
        await b.core.subscribe(await b.runtime(table.id), spectator)
        b.changed(table.id, move(http, table), "a")
        task = b.core._following[table.id]
        give_up = time.monotonic() + WITHIN
        while not task.done() and time.monotonic() < give_up:
            await asyncio.sleep(0)  # one turn of the loop at a time: see the task end
        assert task.done() and b.core._following.get(table.id) is task  # returned, not forgotten
        # A's next move and its notification come before the loop turns again (this call
        # blocks it), as two notifications read in one turn would
        latest = move(http, table)
        b.changed(table.id, latest, "a")
        while spectator.versions[-1] != latest and time.monotonic() < give_up:
            await asyncio.sleep(0.01)
        assert spectator.versions[-1] == latest, spectator.versions
    finally:
        await b.close()


def test_a_change_announced_as_the_last_catch_up_returns_is_followed() -> None:
    with fresh_postgres("brass_follow") as url, LiveServer(
            Settings(database_url=url, join_limit=0)) as a, httpx.Client(
            base_url=a.base, timeout=30) as http:
        table = make_game(http, players=2, humans=2)
        run_in_own_loop(follow(url, http, table))


class Turns:
    """A watcher of the notices hub (notices.py): the version at each turn it is told of."""

    def __init__(self) -> None:
        self.versions: list[int] = []

    def turn_began(self, rt: Runtime) -> None:
        self.versions.append(rt.record.version)

    def game_ended(self, rt: Runtime) -> None:
        raise AssertionError(f"game {rt.id} did not end")


async def cancelled_write(url: str) -> tuple[int, list[int], list[int]]:
    """A move cancelled while its write commits: the found version, the spectator's
    versions and the versions of the turns the notices hub was told of."""
    service = GameService(Storage(url, instance="solo"), workers=0)
    other = Storage(url, instance="reader")
    turns = Turns()
    service.core.reach.watchers.append(turns)
    try:
        game_id, _host, invite = await service.lobby.create_game(2, "cancelled")
        for i in range(2):
            await service.lobby.join(game_id, f"p{i}", invite)
        rt = await service.runtime(game_id)
        spectator = Spectator()
        await service.core.subscribe(rt, spectator)
        assert rt.game is not None and rt.game.current_seat is not None
        seat = rt.game.current_seat
        action = json.loads(await service.play.legal(rt, seat))[0]["action"]
        move = asyncio.create_task(service.play.submit_as(rt, seat, action, 0, "cancelled"))
        give_up = time.monotonic() + WITHIN
        while not rt.lock.locked() and time.monotonic() < give_up:
            await asyncio.sleep(0)  # until the move waits for its write (its only wait)
        # the write is a task of its own (core.written), made by the step that took the lock:
        # one more turn of the loop runs its first step, which hands it to a database thread
        await asyncio.sleep(0)
        # the write commits in its thread; the loop does not turn meanwhile (blocking reads)
        while (found := other.load_game(game_id)) is not None and found.version == 0 and (
                time.monotonic() < give_up):
            time.sleep(0.01)
        move.cancel()  # as a steward that lost the game's lease cancels its bot's move
        await asyncio.gather(move, return_exceptions=True)
        while (spectator.versions[-1] != 1 or 1 not in turns.versions) and (
                time.monotonic() < give_up):
            await asyncio.sleep(0.01)
        return (0 if found is None else found.version), spectator.versions, turns.versions
    finally:
        other.close()
        await service.close()


def test_a_cancelled_move_that_commits_still_reaches_the_clients(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'solo.db'}"
    migrate.upgrade(url)
    stored, versions, turns = run_in_own_loop(cancelled_write(url))
    assert stored == 1 and versions[-1] == 1, versions
    # its players are told of the turn it began (push, e-mail, webhooks), once
    assert turns.count(1) == 1, turns
