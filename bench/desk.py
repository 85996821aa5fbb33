"""The desk's cost (issue 24): 1,000 players x 20 games each in Postgres, then `GET /api/desk`
of one player at a time (random players, the device cookie as a browser sends it), p50/p99.
The goal: p99 <= 20 ms.

    python bench/desk.py [--players 1000] [--games 20] [--requests 2000]
        [--postgres postgresql+psycopg://postgres@127.0.0.1:5432]

Games have 4 seats, each a different player's (so 5,000 games for 1,000 x 20): 60 % running
(a fifth of all games with a correspondence deadline: the server's steward loads and holds
those, as it would), 20 % waiting, 20 % finished with scores. A fresh database is made and
dropped. The server is `brass serve` in its own process (as deployed, one instance); the
requests come one after another from this one, and the time is the whole HTTP round trip.
The SQL read alone (`desk.read_desk`) is timed too, and the server's CPU per request (its
process's user + system time over the measured requests, from /proc, divided by their
number): on a loaded machine the wall time is mostly waiting for a CPU, the CPU time is not.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx
from sqlalchemy import create_engine, insert, text

from bench.freshdb import fresh_postgres
from brass.engine import ENGINE_VERSION, new_game
from brass.server import migrate
from brass.server.auth import token_hash
from brass.server.desk import PAGE, read_desk
from brass.server.tables import devices, games, players, seats, snapshots


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def fill(url: str, n_players: int, per_player: int, rng: random.Random) -> list[str]:
    """The players, their devices (secret = "secret-<i>") and games; the players' ids."""
    now = dt.datetime.now(dt.UTC)
    ids = [f"p{i:05d}" + secrets.token_hex(4) for i in range(n_players)]
    # each player in `per_player` games of 4 seats, 4 different players each: a shuffle of
    # the players per round, cut in fours (`n_players` a multiple of 4)
    slots: list[str] = []
    for _ in range(per_player):
        slots.extend(rng.sample(ids, len(ids)))
    game_rows, seat_rows, snapshot_rows = [], [], []
    first_state = new_game(4, 1).to_json()
    for g in range(len(slots) // 4):
        game_id = f"g{g:06d}" + secrets.token_hex(3)
        roll, clocked = rng.random(), rng.random() < 0.2
        status = "running" if roll < 0.6 else "waiting" if roll < 0.8 else "finished"
        stamp = now - dt.timedelta(minutes=rng.randrange(100_000))
        game_rows.append({
            "id": game_id, "name": f"game {g}", "players": 4, "status": status,
            "seed": 1, "setup": None, "version": 0, "engine_version": ENGINE_VERSION,
            "host_token_hash": "0" * 64, "created_at": stamp,
            "updated_at": stamp, "listed": False, "settings": None,
            "finished_at": stamp if status == "finished" else None,
            "scores": [rng.randrange(200) for _ in range(4)] if status == "finished" else None,
            "to_move": rng.randrange(4) if status == "running" else None,
            "deadline": now + dt.timedelta(hours=rng.randrange(1, 72))
            if status == "running" and clocked else None})
        if status == "running" and clocked:  # a steward holds it: it must load
            snapshot_rows.append({"game_id": game_id, "seq": 0, "actions": 0,
                                  "state": first_state, "created_at": stamp})
        for seat, player in enumerate(slots[4 * g:4 * g + 4]):
            seat_rows.append({"game_id": game_id, "seat": seat, "name": f"name {player[:6]}",
                              "token_hash": secrets.token_hex(32), "bot": False,
                              "player_id": player, "joined_at": stamp})
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(insert(players), [{"id": p, "name": f"name {p[:6]}", "role": "player",
                                        "listed": False, "created_at": now} for p in ids])
        conn.execute(insert(devices), [
            {"id": f"d{i}", "player_id": p, "secret_hash": token_hash(f"secret-{i}"),
             "label": "bench", "created_at": now, "last_used_at": now}
            for i, p in enumerate(ids)])
        for chunk in range(0, len(game_rows), 1000):
            conn.execute(insert(games), game_rows[chunk:chunk + 1000])
        for chunk in range(0, len(seat_rows), 4000):
            conn.execute(insert(seats), seat_rows[chunk:chunk + 4000])
        for chunk in range(0, len(snapshot_rows), 100):
            conn.execute(insert(snapshots), snapshot_rows[chunk:chunk + 100])
        conn.execute(text("ANALYZE"))
    engine.dispose()
    return ids


def cpu_seconds(pid: int) -> float:
    """A process's user + system CPU time so far (Linux /proc), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def quiet(pid: int, timeout: float = 180.0) -> None:
    """Wait until the server has done its start-up work (the steward loading the clocked
    games: 1,000 of them): under 5 % of a CPU for a second, so it is not measured with the
    requests."""
    deadline, last = time.monotonic() + timeout, cpu_seconds(pid)
    while time.monotonic() < deadline:
        time.sleep(1.0)
        now = cpu_seconds(pid)
        if now - last < 0.05:
            return
        last = now
    raise SystemExit(f"the server was still busy after {timeout:.0f} s")


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {statistics.median(ordered):.2f} ms, p99 {p99:.2f} ms, max {ordered[-1]:.2f} ms"


def explained(engine: Any, ids: list[str]) -> str:
    """The page's statement (the page and its seats) as Postgres itself times it (EXPLAIN
    ANALYZE), for 200 players: the part no client, driver or machine load adds to."""
    ms = []
    with engine.connect() as conn:
        for player in ids[:200]:
            query = PAGE.params(player=player, offset=0, limit=21).compile(
                engine, compile_kwargs={"literal_binds": True})
            plan = conn.execute(text(f"EXPLAIN (ANALYZE, FORMAT JSON) {query}")).scalar_one()
            ms.append(plan[0]["Execution Time"] + plan[0]["Planning Time"])
    return percentiles(ms) + " (planning included)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--games", type=int, default=20, help="games per player")
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--postgres", default=os.environ.get(
        "BRASS_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432"))
    args = parser.parse_args()
    if args.players % 4:
        parser.error("--players: a multiple of 4 (4-player games)")
    rng = random.Random(24)
    with fresh_postgres("brass_bench_desk", args.postgres) as url:
        measure(url, args, rng)
    return 0


def measure(url: str, args: argparse.Namespace, rng: random.Random) -> None:
    """Fill the database at `url`, then time the desk's read in-process and over HTTP."""
    server = None
    try:
        migrate.upgrade(url)
        started = time.perf_counter()
        ids = fill(url, args.players, args.games, rng)
        print(f"filled: {len(ids)} players x {args.games} games "
              f"({len(ids) * args.games // 4} 4-player games) in "
              f"{time.perf_counter() - started:.1f} s")
        engine = create_engine(url)
        sql = []
        for _ in range(args.requests):
            player = rng.choice(ids)
            t0 = time.perf_counter()
            page = read_desk(engine, player, 0, 20)
            sql.append((time.perf_counter() - t0) * 1000)
            assert len(page.games) == 20 and page.total == args.games, page.total
        print(f"SQL read of one desk (read_desk, 20 games): {percentiles(sql)}")
        print(f"  of it, Postgres' own execution of the page's query: {explained(engine, ids)}")
        engine.dispose()
        port = free_port()
        env = {**os.environ, "DATABASE_URL": url, "BRASS_PORT": str(port), "BRASS_WORKERS": "0",
               "BRASS_JOIN_LIMIT": "0", "BRASS_LOG_LEVEL": "warning"}
        server = subprocess.Popen([sys.executable, "-m", "brass.cli", "serve"], env=env)
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=30) as http:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if http.get("/health").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not start within 60 s")
                time.sleep(0.2)
            quiet(server.pid)  # the steward loads the clocked games first (as at a restart)
            timings, cpu_before = [], 0.0
            for n in range(args.requests + 200):
                if n == 200:
                    cpu_before = cpu_seconds(server.pid)
                i = rng.randrange(len(ids))
                t0 = time.perf_counter()
                reply = http.get("/api/desk", cookies={"brass_device": f"secret-{i}"})
                elapsed = (time.perf_counter() - t0) * 1000
                assert reply.status_code == 200, reply.text
                if n >= 200:  # the first 200 warm the server up
                    timings.append(elapsed)
            cpu = (cpu_seconds(server.pid) - cpu_before) * 1000 / args.requests
        print(f"GET /api/desk over HTTP ({args.requests} requests, one at a time): "
              f"{percentiles(timings)} (goal p99 <= 20 ms)")
        print(f"  the server's CPU per request: {cpu:.2f} ms (its process, user + system)")
        print(f"load average while measured: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
