"""Listing benchmark (run by hand, not in the tests):

    python bench/lobby.py                 # 10,000 games, Postgres on 127.0.0.1:5432
    python bench/lobby.py --games 10000 --calls 400 --bots 6 --seconds 20 --pollers 20

Starts `brass serve` in a subprocess against a fresh Postgres database (dropped at the end)
holding `--games` listed games (inserted directly: most finished, some waiting or running),
then measures:
1. `GET /api/games?limit=50` latency (p50/p99 over `--calls` sequential calls), and a changes
   request (`changed_after`), as the home page polls it;
2. the move rate of `--bots` all-bot games (moves per second, from the games' versions) over
   `--seconds`, first alone, then while `--pollers` clients keep the home page open (a first
   page, then the changes every `--poll` seconds, as web/src/ui/Home.tsx does).
Prints the figures and the goals (p99 <= 20 ms; the move rate unchanged).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx
from sqlalchemy import create_engine, insert, text

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.freshdb import fresh_postgres  # noqa: E402
from bench.server import free_port, percentile  # noqa: E402  (one of each for the benches)
from brass.server.storage import games, seats  # noqa: E402


def fill(url: str, n: int) -> None:
    """`n` listed games over the last 30 days: 80% finished, 15% waiting, 5% expired."""
    engine = create_engine(url)
    start = dt.datetime.now(dt.UTC) - dt.timedelta(days=30)
    rows, seat_rows = [], []
    for i in range(n):
        stamp = start + dt.timedelta(seconds=i * 30 * 86400 / n)
        status = "finished" if i % 20 < 16 else "waiting" if i % 20 < 19 else "expired"
        game_id = f"bench{i:06d}"
        rows.append({"id": game_id, "name": f"bench game {i}", "players": 4, "status": status,
                     "seed": i, "setup": None, "version": 120 if status == "finished" else 0,
                     "engine_version": "1", "host_token_hash": "0" * 64, "created_at": stamp,
                     "updated_at": stamp, "listed": True, "scores": None,
                     "finished_at": stamp if status == "finished" else None})
        seat_rows.extend({"game_id": game_id, "seat": s, "name": f"p{s}", "bot": True}
                         for s in range(4))
    with engine.begin() as conn:
        for k in range(0, n, 2000):
            conn.execute(insert(games), rows[k:k + 2000])
            conn.execute(insert(seats), seat_rows[4 * k:4 * (k + 2000)])
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text("ANALYZE"))  # as autovacuum would, long before 10,000 games
    engine.dispose()


def listing_latency(base: str, calls: int) -> tuple[list[float], list[float]]:
    pages, changes = [], []
    with httpx.Client(base_url=base, timeout=30) as http:
        token = http.get("/api/games?limit=50").json()["changes"]
        for _ in range(calls):
            t = time.perf_counter()
            reply = http.get("/api/games?limit=50")
            pages.append(time.perf_counter() - t)
            assert reply.status_code == 200 and len(reply.json()["games"]) == 50
            t = time.perf_counter()
            http.get(f"/api/games?changed_after={token}").raise_for_status()
            changes.append(time.perf_counter() - t)
    return pages, changes


async def versions(http: httpx.AsyncClient, ids: list[str]) -> int:
    infos = await asyncio.gather(*(http.get(f"/api/games/{i}") for i in ids))
    return sum(r.json()["version"] for r in infos)


async def poller(base: str, stop: asyncio.Event, every: float) -> int:
    calls = 0
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        token = (await http.get("/api/games?limit=50")).json()["changes"]
        calls += 1
        while not stop.is_set():
            try:
                await asyncio.wait_for(stop.wait(), timeout=every)
            except TimeoutError:
                token = (await http.get(f"/api/games?changed_after={token}")).json()["changes"]
                calls += 1
    return calls


async def move_rates(base: str, bots: int, seconds: float, pollers: int,
                     every: float) -> tuple[list[float], float, int]:
    """Bot moves per second: a window alone, a window with the pollers, a window alone
    again (the games wind down as they go: the two lone windows bracket the busy one)."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        ids = []
        for _ in range(bots):
            created = (await http.post("/api/games", json={"players": 4, "name": "b"})).json()
            for _ in range(4):
                await http.post(f"/api/games/{created['id']}/bots",
                                headers={"Authorization": f"Bearer {created['host_token']}"},
                                json={})
            ids.append(created["id"])
        await asyncio.sleep(2)  # past the first burst

        async def window() -> float:
            before, t0 = await versions(http, ids), time.perf_counter()
            await asyncio.sleep(seconds)
            return (await versions(http, ids) - before) / (time.perf_counter() - t0)

        first = await window()
        stop = asyncio.Event()
        tasks = [asyncio.create_task(poller(base, stop, every)) for _ in range(pollers)]
        busy = await window()
        stop.set()
        calls = sum(await asyncio.gather(*tasks))
        last = await window()
    return [first, last], busy, calls


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--bots", type=int, default=30, help="all-bot 4-seat games")
    parser.add_argument("--bot-delay", type=float, default=0.25)
    parser.add_argument("--seconds", type=float, default=10.0, help="each measuring window")
    parser.add_argument("--pollers", type=int, default=20)
    parser.add_argument("--poll", type=float, default=5.0, help="seconds between polls")
    args = parser.parse_args()
    with fresh_postgres("brass_bench") as url:
        measure(url, args)
    return 0


def measure(url: str, args: argparse.Namespace) -> None:
    """Fill the database at `url`, serve it, and time the listing and the bots' moves."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "BRASS_JOIN_LIMIT": "0",
           "BRASS_BOT_DELAY": str(args.bot_delay)}
    server = subprocess.Popen([sys.executable, "-m", "brass.cli", "serve", "--port", str(port),
                               "--log-level", "warning"], cwd=ROOT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                httpx.get(f"{base}/api/games?limit=1", timeout=1).raise_for_status()
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        fill(url, args.games)
        pages, changes = listing_latency(base, args.calls)
        print(f"GET /api/games?limit=50 with {args.games} games (Postgres), {args.calls} calls: "
              f"p50 {statistics.median(pages) * 1000:.1f} ms, "
              f"p99 {percentile(pages, 99) * 1000:.1f} ms (goal p99 <= 20 ms)")
        print(f"GET /api/games?changed_after=...: p50 {statistics.median(changes) * 1000:.1f} ms,"
              f" p99 {percentile(changes, 99) * 1000:.1f} ms")
        lone, busy, calls = asyncio.run(move_rates(base, args.bots, args.seconds,
                                                   args.pollers, args.poll))
        alone = statistics.mean(lone)
        print(f"bot moves/s in {args.bots} games: {lone[0]:.1f} and {lone[1]:.1f} alone, "
              f"{busy:.1f} with {args.pollers} home pages open ({calls} listing calls); "
              f"ratio {busy / alone:.2f} (goal: unchanged)")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
