"""Web Push notices' cost (issue 27): N games' turns change at once, each game's player to
move with one subscription; the notices go through the hub (notices.py) as on the server.
Measured: the time until every notice has left, the CPU per notice of the server's process
and of its children (the sender's process, pushsend.py: encryption, VAPID signature, HTTP
POST), the event loop's stalls meanwhile, and other games' move latency (a real `GameService`
on the same event loop: each move checked, written and published) with and without the
burst. One notice is sent and waited for first (the sender's process starts, the HTTP
session opens), so the burst measures a running sender.

    python bench/push.py [--notices 1000] [--games 20] [--bursts 3] [--seconds 5]
    python bench/push.py --bursts 10 --elsewhere   # then the control, below

With `--elsewhere`, a control follows: the same moves while another process (its own hub,
sender and subscriptions, spawned) makes the same bursts, 0.3 s apart. Beside the moves during
this process's bursts it tells how much of their rise the server's own handling of the
notices adds, and how much is the machine's CPUs shared with the sending.

The push service is a stand-in on 127.0.0.1 in another process (it answers 201), whose CPU is
not counted. The database is a temporary SQLite file (the sender's process reads a batch's
subscriptions in one transaction, as on the server).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import datetime as dt
import multiprocessing
import os
import socket
import tempfile
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from sqlalchemy import insert

from brass.engine import ENGINE_VERSION, legal_actions, new_game
from brass.server import migrate
from brass.server.notices import Notices
from brass.server.push import Pusher, new_keys
from brass.server.pushstore import PushStore, Subscription
from brass.server.records import GameRecord, SeatRecord
from brass.server.runtime import Runtime
from brass.server.service import GameService
from brass.server.storage import Storage
from brass.server.storebase import StoreBase
from brass.server.tables import metadata, players


def stand_in(port: int, nice: int, idle: bool) -> None:
    os.nice(nice)  # --stand-in-nice: out of the server's way, as a remote push service is
    if idle:  # --stand-in-idle: only a CPU nothing else wants (Linux), nearly as if elsewhere
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:  # http.server's name
            self.rfile.read(int(self.headers.get("content-length", "0")))
            self.send_response(201)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    class Server(ThreadingHTTPServer):
        request_queue_size = 256  # the sender opens up to 64 connections at once

    Server(("127.0.0.1", port), Handler).serve_forever()


def cpu_seconds(skip: int | None) -> float:
    """The CPU time of this process and of its children (the sender's), but `skip`'s."""
    total, tick = time.process_time(), os.sysconf("SC_CLK_TCK")
    for listed in Path(f"/proc/{os.getpid()}/task").glob("*/children"):
        for pid in map(int, listed.read_text().split()):
            if pid == skip:
                continue
            with contextlib.suppress(OSError):
                stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(stat[11]) + int(stat[12])) / tick  # utime, stime
    return total


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def waiting_turns(notices: int) -> list[Runtime]:
    """`notices` running 2-seat games held in memory, player p{i} to move in game g{i}."""
    at = dt.datetime.now(dt.UTC)
    games = []
    for i in range(notices):
        record = GameRecord(
            id=f"g{i}", name="bench", players=2, status="running", seed=i, setup=None,
            version=1, engine_version=ENGINE_VERSION, host_token_hash="", created_at=at,
            updated_at=at, seats=[SeatRecord(seat=s, name=f"P{s}", player_id=f"p{i}")
                                  for s in range(2)])
        rt = Runtime(record=record)
        rt.turn = [new_game(2, i, None)]
        games.append(rt)
    return games


class Mover:
    """Plays the first legal move of each of `count` other games in turn, one at a time
    (through `GameService`: checked, written, published), timing each."""

    def __init__(self, service: GameService, game_ids: list[str]) -> None:
        self.service, self.game_ids, self.next = service, game_ids, 0

    async def move(self) -> float | None:
        slot = self.next % len(self.game_ids)
        rt = await self.service.runtime(self.game_ids[slot])
        self.next += 1
        seat = rt.mover
        if seat is None or rt.game is None:  # over (an idle machine plays them out): a new one
            self.game_ids[slot] = await started_game(self.service, f"other {self.next}")
            return None
        action = legal_actions(rt.game)[0]
        start = time.perf_counter()
        await self.service.play.submit_as(rt, seat, action, rt.record.version,
                                          f"bench-{self.next}")
        return time.perf_counter() - start

    async def until(self, stop: asyncio.Event | float) -> list[float]:
        """Moves until `stop` is set (or for that many seconds); their latencies."""
        end = time.perf_counter() + stop if isinstance(stop, float) else None
        took = []
        while not (stop.is_set() if isinstance(stop, asyncio.Event) else
                   time.perf_counter() > (end or 0)):
            one = await self.move()
            if one is not None:
                took.append(one)
        return took


async def started_game(service: GameService, name: str) -> str:
    """A 2-player game of two people, started: its moves are the ones timed."""
    game_id, _host, invite = await service.lobby.create_game(2, name)
    for seat in range(2):
        await service.lobby.join(game_id, f"S{seat}", invite)
    return game_id


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else 0.0


async def subscribed(notices: int, folder: Path, port: int
                     ) -> tuple[StoreBase, Pusher, Notices, list[Runtime]]:
    """`notices` players, each with one subscription at the stand-in, their hub and games."""
    base = StoreBase(f"sqlite:///{folder / 'push.db'}")
    metadata.create_all(base.engine)
    store = PushStore(base)
    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        Encoding.X962, PublicFormat.UncompressedPoint)
    p256dh = base64.urlsafe_b64encode(point).rstrip(b"=").decode()
    auth = base64.urlsafe_b64encode(os.urandom(16)).rstrip(b"=").decode()
    with base.engine.begin() as conn:
        conn.execute(insert(players), [{"id": f"p{i}", "role": "player", "listed": False,
                                        "created_at": dt.datetime.now(dt.UTC)}
                                       for i in range(notices)])
    for i in range(notices):
        store.subscribe(f"p{i}", None, Subscription(
            f"http://127.0.0.1:{port}/push/{i}", p256dh, auth))
    pusher = Pusher(store, new_keys(), "mailto:bench@localhost", private_endpoints=True)
    hub = Notices([pusher])
    turns = waiting_turns(notices)
    hub.turn_began(turns[0])  # the sender warmed up
    await pusher.idle()
    return base, pusher, hub, turns


async def burst(hub: Notices, turns: list[Runtime]) -> None:
    """Every game's turn changes. On a server each game's turn changes in the task of its
    own move, so other work runs between them: one loop over all 1,000 would stall every
    other game at once for the whole burst (about 70 ms), which no server does."""
    for rt in turns:
        rt.count += 1  # a new turn of each game: the hub tells it once
        hub.turn_began(rt)
        await asyncio.sleep(0)


def elsewhere(notices: int, port: int, bursts: int, ready: Any) -> None:
    """The control (`--elsewhere`): the same bursts, made by another process (its own hub,
    sender and subscriptions), 0.3 s apart."""
    async def run(folder: Path) -> None:
        base, pusher, hub, turns = await subscribed(notices, folder, port)
        ready.set()
        for _ in range(bursts):
            await burst(hub, turns)
            await pusher.idle()
            await asyncio.sleep(0.3)
        await pusher.close()
        base.close()

    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(Path(folder)))


async def bench(notices: int, folder: Path, port: int, games: int, bursts: int,
                seconds: float, stand_in_pid: int | None, control: bool) -> None:
    base, pusher, hub, turns = await subscribed(notices, folder, port)
    warm = pusher.sent
    stalls: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        while not done.is_set():
            before = time.perf_counter()
            await asyncio.sleep(0.001)
            stalls.append(time.perf_counter() - before - 0.001)

    ticking = asyncio.create_task(ticker())
    cpu, own, start = cpu_seconds(stand_in_pid), time.process_time(), time.perf_counter()
    await burst(hub, turns)
    await pusher.idle()
    wall, used = time.perf_counter() - start, cpu_seconds(stand_in_pid) - cpu
    own = time.process_time() - own
    done.set()
    await ticking
    print(f"{notices} notices alone: all left in {wall:.2f} s; accepted {pusher.sent - warm}; "
          f"CPU (server and sender) {1000 * used / notices:.2f} ms per notice, the server's "
          f"process {1000 * own / notices:.2f} ms; event loop stall "
          f"p50 {pct(stalls, 0.5):.1f} ms, p99 {pct(stalls, 0.99):.1f} ms, "
          f"max {pct(stalls, 1.0):.1f} ms ({os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.1f})")

    url = f"sqlite:///{folder / 'games.db'}"
    await asyncio.to_thread(migrate.upgrade, url)
    service = GameService(Storage(url, instance="bench"), bot_delay=0.0, workers=0)
    await service.start()
    ids = [await started_game(service, f"other {g}") for g in range(games)]
    mover = Mover(service, ids)
    quiet = await mover.until(seconds)
    during: list[float] = []
    lasted = []
    for _ in range(bursts):
        left = asyncio.Event()
        moving = asyncio.create_task(mover.until(left))
        start = time.perf_counter()
        await burst(hub, turns)
        await pusher.idle()
        lasted.append(time.perf_counter() - start)
        left.set()
        during += await moving
    again = await mover.until(seconds)
    print(f"other games' moves ({games} games, one move at a time): without a burst "
          f"p50 {pct(quiet + again, 0.5):.1f} ms, p99 {pct(quiet + again, 0.99):.1f} ms "
          f"({len(quiet + again)} moves); during {bursts} bursts of {notices} notices "
          f"(each left in {', '.join(f'{w:.2f}' for w in lasted)} s) p50 "
          f"{pct(during, 0.5):.1f} ms, p99 {pct(during, 0.99):.1f} ms ({len(during)} moves); "
          f"load {os.getloadavg()[0]:.1f}")
    if control:
        spawn = multiprocessing.get_context("spawn")  # not a fork of this event loop
        ready = spawn.Event()
        other = spawn.Process(target=elsewhere, args=(notices, port, bursts, ready))
        other.start()
        await asyncio.to_thread(ready.wait, 120)
        left = asyncio.Event()
        moving = asyncio.create_task(mover.until(left))
        await asyncio.to_thread(other.join)
        left.set()
        there = await moving
        print(f"control: the same {bursts} bursts made by another process meanwhile: p50 "
              f"{pct(there, 0.5):.1f} ms, p99 {pct(there, 0.99):.1f} ms ({len(there)} moves)")
    await service.close()
    await pusher.close()
    base.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notices", type=int, default=1000)
    parser.add_argument("--games", type=int, default=20, help="other games, moving")
    parser.add_argument("--bursts", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="moves measured without a burst, before and after")
    parser.add_argument("--stand-in-nice", type=int, default=0,
                        help="the push service stand-in's niceness (it shares the CPUs)")
    parser.add_argument("--stand-in-idle", action="store_true",
                        help="the stand-in at SCHED_IDLE: its CPU taken from nothing else")
    parser.add_argument("--elsewhere", action="store_true",
                        help="then the control: the moves while another process makes the "
                             "same bursts (the machine's share of the rise)")
    args = parser.parse_args()
    port = free_port()
    server = multiprocessing.Process(target=stand_in, args=(port, args.stand_in_nice,
                                                                  args.stand_in_idle), daemon=True)
    server.start()
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        with tempfile.TemporaryDirectory() as folder:
            asyncio.run(bench(args.notices, Path(folder), port, args.games, args.bursts,
                              args.seconds, server.pid, args.elsewhere))
    finally:
        server.terminate()


if __name__ == "__main__":
    main()
