"""The CPU this process spends on one move's write (issue 22, 26): the move's one statement
(`Storage.plan_append`, as the move writer runs it) sent through psycopg's cursor, as the
writer did before, and through libpq itself, prepared once per connection
(brass/server/prepared.py, as it does now), in turns of 200 writes each, on a fresh Postgres
database. Printed: this process's CPU per write for each way, from sending the statement to
holding its answer (its plan, the same for both, not counted; nor Postgres's own CPU),
the median over the turns, and their ratio.

    python bench/moveexec.py [--writes 2000]

Needs Postgres on 127.0.0.1:5432 (`BRASS_BENCH_POSTGRES`).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.freshdb import fresh_postgres  # noqa: E402
from brass.engine import ENGINE_VERSION, new_game  # noqa: E402
from brass.server import migrate, prepared  # noqa: E402
from brass.server.fanout import libpq_url  # noqa: E402
from brass.server.storage import GameRecord, SeatRecord, Storage, now  # noqa: E402

TURN = 200  # writes in a row one way
ACTION = {"kind": "loan", "card": "location:birmingham"}
EFFECTS = [{"type": "move", "seat": 0, "kind": "loan", "money": 30, "income": -3}]


def made(storage: Storage, game_id: str) -> None:
    """A running 2-seat game to write moves to."""
    stamp = now()
    storage.create_game(GameRecord(
        id=game_id, name=game_id, players=2, status="waiting", seed=1, setup=None, version=0,
        engine_version=ENGINE_VERSION, host_token_hash="h", created_at=stamp,
        updated_at=stamp, seats=[SeatRecord(seat=s) for s in range(2)]))
    for s in range(2):
        assert storage.claim_seat(game_id, s, f"p{s}", f"t{game_id}{s}", False,
                                  lambda: new_game(2, 1, None)) is not None


async def by_cursor(conn: psycopg.AsyncConnection[Any], sql: str,
                    params: dict[str, Any]) -> int:
    cur = await conn.execute(sql, params)
    return 0 if await cur.fetchone() is None else 1


async def writes(storage: Storage, url: str, total: int) -> dict[str, list[float]]:
    """CPU per write (µs) of each turn, by way."""
    ways = {"psycopg cursor": by_cursor, "libpq, prepared": prepared.execute}
    versions = {way: 0 for way in ways}
    spent: dict[str, list[float]] = {way: [] for way in ways}
    conns = {way: await psycopg.AsyncConnection.connect(url, autocommit=True) for way in ways}
    try:
        for _ in range(total // TURN):
            for way, run in ways.items():
                game_id = way.split()[0].strip(",")
                running = 0.0
                for _ in range(TURN):
                    version = versions[way]
                    quick = storage.plan_append(game_id, version, 0, ACTION, f"m{version}",
                                                EFFECTS, None, None, None, None)
                    assert quick is not None
                    began = time.process_time()
                    assert await run(conns[way], quick.sql, quick.params) == 1
                    running += time.process_time() - began
                    versions[way] += 1
                spent[way].append(running * 1e6 / TURN)
    finally:
        for conn in conns.values():
            await conn.close()
    return spent


def run(coro: Any) -> Any:
    """`coro` on uvloop's event loop where it is installed, as the server runs."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--writes", type=int, default=2000, help="writes each way")
    args = parser.parse_args()
    with fresh_postgres("brass_moveexec") as url:
        migrate.upgrade(url)
        storage = Storage(url, instance="bench")
        try:
            for game_id in ("psycopg", "libpq"):
                made(storage, game_id)
            spent = run(writes(storage, libpq_url(url), args.writes))
        finally:
            storage.close()
    medians = {way: statistics.median(times) for way, times in spent.items()}
    for way, times in spent.items():
        print(f"{way}: {medians[way]:.0f} µs of this process's CPU per write, median of "
              f"{len(times)} turns of {TURN} ({min(times):.0f}-{max(times):.0f})")
    cursor, libpq = medians.values()
    print(f"libpq over psycopg's cursor: {libpq / cursor:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
