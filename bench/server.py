"""Server benchmark (run by hand, not in the tests):

    python bench/server.py                       # 200 games, Postgres on 127.0.0.1:5432
    python bench/server.py --games 50 --seconds 30 --think 1.0

Starts `brass serve` in a subprocess against a fresh Postgres database (dropped at the end),
then plays `--games` concurrent 4-seat games: every seat and one spectator per game on its
own websocket over loopback. Each seat plays like a bot: on its turn it waits `--think`
seconds (a player thinking), asks `GET /legal`, picks with the bot heuristic and sends the
action over its websocket. The latency of an action is the time from sending it to the moment
all five sockets of that game hold the new version. After a `--warmup` (the first moves of
all games come in one burst), measures for `--seconds` (or until every game is over) and
prints the median, p90, p99 and max, and the throughput.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from brass.bots import choose_entry  # noqa: E402

POSTGRES = os.environ.get("BRASS_BENCH_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432")


@dataclass
class GameClock:
    """Per game: when each version was sent, and how many sockets hold it."""

    sockets: int
    sent: dict[int, float] = field(default_factory=dict)
    holding: dict[int, int] = field(default_factory=dict)
    finished: bool = False


@dataclass
class Bench:
    latencies: list[float] = field(default_factory=list)
    worst: list[tuple[float, float]] = field(default_factory=list)  # (latency, when)
    errors: dict[str, int] = field(default_factory=dict)
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    measuring: bool = False  # off during the warm-up


class KeepAlive:
    """A minimal HTTP/1.1 GET over one kept-alive loopback connection (one per game): the
    load generator must stay light, or it measures itself instead of the server."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.lock = asyncio.Lock()
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def get(self, path: str, token: str) -> Any:
        async with self.lock:
            if self.streams is None:
                self.streams = await asyncio.open_connection("127.0.0.1", self.port)
            reader, writer = self.streams
            writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         f"Authorization: Bearer {token}\r\n\r\n".encode())
            head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").lower()
            length = int(head.split("content-length:", 1)[1].split("\r\n", 1)[0])
            return json.loads(await reader.readexactly(length))

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def note_arrival(bench: Bench, clock: GameClock, version: int) -> None:
    count = clock.holding.get(version, 0) + 1
    clock.holding[version] = count
    if count == clock.sockets:
        del clock.holding[version]
        sent = clock.sent.pop(version, None)
        if sent is not None and bench.measuring:
            now = time.perf_counter()
            bench.latencies.append(now - sent)
            if now - sent > 0.1:
                bench.worst.append((now - sent, now))


async def seat_loop(ws: ClientConnection, seat: int | None, token: str | None, base: str,
                    http: KeepAlive, clock: GameClock, bench: Bench, think: float) -> None:
    rng = random.Random(f"{base}:{seat}")
    acted_at = -1
    async for raw in ws:
        msg = json.loads(raw)
        if msg["type"] == "error":
            bench.errors[msg["code"]] = bench.errors.get(msg["code"], 0) + 1
            acted_at = -1
            await ws.send('{"type":"sync"}')
            continue
        if msg["type"] != "state" or msg["view"] is None:
            continue
        version = msg["version"]
        note_arrival(bench, clock, version)
        if msg["status"] == "finished":
            clock.finished = True
            return
        if seat is None or msg["view"]["current_seat"] != seat or version <= acted_at:
            continue
        acted_at = version
        if bench.stop.is_set():
            return
        await asyncio.sleep(think * (0.5 + rng.random()))
        entries = await http.get(f"{base}/legal", token or "")
        pick = choose_entry(entries, rng, msg["view"]["players"][seat]["money"])
        # the time of sending is keyed by the version this action will make
        clock.sent[version + 1] = time.perf_counter()
        await ws.send(json.dumps({"type": "action", "action": pick["action"],
                                  "expected_version": version,
                                  "action_id": secrets.token_hex(8)}))


async def open_game(http: httpx.AsyncClient, port: int, bench: Bench, think: float,
                    ) -> tuple[list[ClientConnection], list[asyncio.Task[None]], GameClock,
                               KeepAlive]:
    game_id = (await http.post("/api/games", json={"players": 4, "name": "bench"})).json()["id"]
    base = f"/api/games/{game_id}"
    clock = GameClock(sockets=5)
    sockets: list[ClientConnection] = []
    seats: list[tuple[int | None, str | None]] = [(None, None)]
    for i in range(4):
        joined = (await http.post(f"{base}/join", json={"name": f"p{i}"})).json()
        seats.append((joined["seat"], joined["token"]))
    tasks = []
    legal = KeepAlive(port)
    for seat, token in seats:
        ws = await connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}", max_size=None,
                           compression=None)
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sockets.append(ws)
        tasks.append(asyncio.create_task(
            seat_loop(ws, seat, token, base, legal, clock, bench, think)))
    return sockets, tasks, clock, legal


async def run(port: int, games: int, seconds: float, think: float, warmup: float) -> Bench:
    bench = Bench()
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=120,
                                 limits=limits) as http:
        opened = []
        for start in range(0, games, 20):  # open in batches to keep the lobby calls polite
            opened += await asyncio.gather(*[open_game(http, port, bench, think)
                                             for _ in range(start, min(games, start + 20))])
        # the load generator's own collector pauses (hundreds of ms with 1000 sockets) must
        # not be measured as server latency: no collections in this bounded run
        gc.freeze()
        gc.disable()
        print(f"{games} games, {5 * games} sockets open; warming up for {warmup:.0f} s, "
              f"then measuring for {seconds:.0f} s", flush=True)
        await asyncio.sleep(warmup)
        bench.measuring = True
        began = time.perf_counter()
        while time.perf_counter() - began < seconds and not all(
                game[2].finished for game in opened):
            await asyncio.sleep(0.5)
        played = time.perf_counter() - began
        bench.stop.set()
        for _, tasks, _, legal in opened:
            legal.close()
            for task in tasks:
                task.cancel()
        await asyncio.wait([asyncio.create_task(ws.close()) for sockets, _, _, _ in opened
                            for ws in sockets], timeout=30)
        bench.errors["_seconds"] = int(played)
    return bench


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=10.0,
                        help="seconds of play before measuring (the first moves of 200 games "
                             "come in one burst)")
    parser.add_argument("--think", type=float, default=2.0,
                        help="mean seconds a seat waits before its move (default 2)")
    parser.add_argument("--database-url", default=None,
                        help="use this database instead of a fresh Postgres one")
    args = parser.parse_args()

    name = f"brass_bench_{os.getpid()}"
    admin = create_engine(f"{POSTGRES}/postgres", isolation_level="AUTOCOMMIT")
    url = args.database_url
    if url is None:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        url = f"{POSTGRES}/{name}"
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "BRASS_JOIN_LIMIT": "0",  # 1000 joins and
           "BRASS_SOCKETS_PER_ADDRESS": "0"}  # 1000 sockets from one address
    server = subprocess.Popen([sys.executable, "-m", "brass.cli", "serve", "--port", str(port),
                               "--log-level", "warning"], cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit("the server did not start")
            time.sleep(0.2)
        try:
            import uvloop  # installed with uvicorn[standard]

            uvloop.install()
        except ImportError:
            pass
        bench = asyncio.run(run(port, args.games, args.seconds, args.think, args.warmup))
    finally:
        server.terminate()
        server.wait(timeout=30)
        if args.database_url is None:
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()

    lat = [x * 1000 for x in bench.latencies]
    played = bench.errors.pop("_seconds")
    if not lat:
        print("no action completed")
        return 1
    print(f"database: {'postgres (fresh)' if args.database_url is None else url.split('://')[0]}")
    print(f"games: {args.games} x 4 seats + 1 spectator = {5 * args.games} websockets; "
          f"think {args.think} s (mean, per move); measured {played} s after a "
          f"{args.warmup:.0f} s warm-up")
    print(f"actions: {len(lat)} ({len(lat) / max(played, 1):.1f}/s)")
    print(f"latency submit -> all 5 sockets hold the new version (ms): "
          f"median {statistics.median(lat):.1f}  p90 {percentile(lat, 90):.1f}  "
          f"p99 {percentile(lat, 99):.1f}  max {max(lat):.1f}")
    print(f"errors: {bench.errors or 'none'}")
    if bench.worst:
        start = min(when for _, when in bench.worst)
        print(f"over 100 ms: {len(bench.worst)}, at (s after the first): " + ", ".join(
            f"{when - start:.1f}" for _, when in sorted(bench.worst, key=lambda w: w[1])[:20]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
