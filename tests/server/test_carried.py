"""The notification carries the move (issue 26), on two real instances and one Postgres: a
spectator on instance B sees every move made on A, and B applies each from its notification
without reading the database (`brass_followed{how="carried"}` at B's /metrics; no "read").
When B's listening connection is killed and a move is made before it can come back, its
notification is lost: B recovers the move from the database (a "read") and the spectator
still sees every version in order. The same with the notifications sent after the commit
(`BRASS_NOTIFY_AFTER_COMMIT`, movewrite.Notifier)."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from websockets.asyncio.client import connect

from .conftest import act, info, legal, make_game, run_in_own_loop
from .test_instances import Instance, cluster, instance_logs
from .test_restart import wait_for

TOKEN = "metrics-for-the-test"
MOVES = 6  # made on A while B follows by notification


def metrics_of(inst: Instance) -> str:
    reply = inst.http.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert reply.status_code == 200, reply.text
    return reply.text


def followed(inst: Instance) -> dict[str, float]:
    """B's `brass_followed` counters: {how: count}."""
    return {m[0]: float(m[1]) for m in re.findall(
        r'^brass_followed_total\{how="(\w+)"\} (\S+)$', metrics_of(inst), re.M)}


def heard(inst: Instance) -> float:
    """The notifications the instance heard."""
    found = re.search(r"^brass_notices_heard_total (\S+)$", metrics_of(inst), re.M)
    assert found is not None
    return float(found.group(1))


@pytest.mark.parametrize("after_commit", ["false", "true"])  # BRASS_NOTIFY_AFTER_COMMIT
def test_moves_carried_by_notifications_and_one_lost_read_from_the_log(
        tmp_path: Path, after_commit: str) -> None:
    with cluster(tmp_path, 2, extra={"BRASS_METRICS_TOKEN": TOKEN,
                                     "BRASS_NOTIFY_AFTER_COMMIT": after_commit}) as found:
        a, b = found.instances
        table = make_game(a.http, players=2, humans=2)
        # the maintenance database: a database's connections cannot be barred from inside it
        engine = create_engine(f"{found.url.rsplit('/', 1)[0]}/postgres",
                               isolation_level="AUTOCOMMIT")
        seen: list[int] = []

        def move(version: int) -> None:
            seat = info(a.http, table)["current_seat"]
            done = act(a.http, table, seat, legal(a.http, table, seat)[0]["action"], version)
            assert done.json() == {"version": version + 1}, done.text

        def listeners() -> list[int]:
            with engine.connect() as conn:
                return list(conn.execute(text(
                    "SELECT pid FROM pg_stat_activity WHERE application_name LIKE :name"),
                    {"name": f"brass-fanout %:{b.proc.pid}:%"}).scalars())

        async def until(ws: object, version: int) -> None:
            while not seen or seen[-1] < version:
                message = json.loads(await asyncio.wait_for(ws.recv(), 30))  # type: ignore
                if message["type"] == "state" and (not seen or seen[-1] != message["version"]):
                    seen.append(message["version"])

        async def run() -> None:
            async with connect(f"{b.ws}/ws/games/{table.id}", max_size=None) as ws:
                await ws.send(json.dumps({"type": "hello", "token": None}))
                await until(ws, 0)
                # B listens to the game's channel a moment after it holds the game; a move
                # made before that is read from the log once it listens: either way, once the
                # spectator holds version 1, B listens
                await asyncio.to_thread(move, 0)
                await until(ws, 1)
                before = await asyncio.to_thread(followed, b)
                for version in range(1, MOVES + 1):
                    await asyncio.to_thread(move, version)
                    await until(ws, version + 1)
                after = await asyncio.to_thread(followed, b)
                counts = {how: after.get(how, 0) - before.get(how, 0) for how in after}
                assert counts.get("carried") == MOVES and counts.get("read", 0) == 0, (
                    before, after)
                old = await asyncio.to_thread(listeners)
                assert len(old) == 1, old
                # B's listener is cut and cannot come back (no new connection to the
                # database) until A's next move has committed: its notification is lost
                database = found.url.rsplit("/", 1)[1]
                with engine.connect() as conn:
                    conn.execute(text(f'ALTER DATABASE "{database}" ALLOW_CONNECTIONS false'))
                    conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": old[0]})
                    await asyncio.to_thread(move, MOVES + 1)  # on a connection A kept
                    conn.execute(text(f'ALTER DATABASE "{database}" ALLOW_CONNECTIONS true'))
                await until(ws, MOVES + 2)
                await asyncio.to_thread(
                    wait_for, lambda: len(listeners()) == 1 and listeners() != old,
                    "B's listener to reconnect")
                counts = await asyncio.to_thread(followed, b)
                assert counts.get("read", 0) > after.get("read", 0), (after, counts)

        try:
            run_in_own_loop(run())
        except AssertionError as exc:
            raise AssertionError(f"{exc}; seen {seen}\n{instance_logs(tmp_path)}") from None
        finally:
            engine.dispose()
        assert seen == list(range(MOVES + 3)), seen


def test_an_instance_hears_only_the_games_it_holds(tmp_path: Path) -> None:
    """Each game has its own channel; B listens to those of the games it holds only: A's
    moves in a game B never opened reach B not at all, and once B holds it, they do."""
    with cluster(tmp_path, 2, extra={"BRASS_METRICS_TOKEN": TOKEN}) as found:
        a, b = found.instances
        table = make_game(a.http, players=2, humans=2)

        def move() -> int:
            seat, version = info(a.http, table)["current_seat"], info(a.http, table)["version"]
            done = act(a.http, table, seat, legal(a.http, table, seat)[0]["action"], version)
            assert done.status_code == 200, done.text
            new: int = done.json()["version"]
            return new

        for _ in range(3):
            move()
        assert heard(b) == 0  # the game's join and moves: not one notification

        async def run() -> None:
            async with connect(f"{b.ws}/ws/games/{table.id}", max_size=None) as ws:
                await ws.send(json.dumps({"type": "hello", "token": None}))
                latest = -1
                for _ in range(2):  # the first may come before B listens (then it reads it)
                    version = await asyncio.to_thread(move)
                    while latest < version:
                        message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                        if message["type"] == "state":
                            latest = message["version"]

        run_in_own_loop(run())
        assert heard(b) >= 1  # the second move at least: B listened once it held the game
