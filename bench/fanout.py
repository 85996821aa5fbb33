"""The fan-out's CPU (issue 26): one instance's listening connection (fanout.py) in a process
of its own, listening to 50 games' channels, while this process sends `--rate` notifications a
second to them (as other instances' moves would) for `--seconds`. Printed: the listener's CPU
per second of wall time, with no notification and at the rate, and from these the CPU per
notification heard.

    python bench/fanout.py [--rate 100] [--seconds 10] [--rounds 2]
    python bench/fanout.py --baseline /tmp/main    # that checkout's fan-out too, alternating

Needs Postgres on 127.0.0.1:5432 (`BRASS_BENCH_POSTGRES`); the notifications go through its
`postgres` database (no table is touched).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import sys
import time
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parents[1]
POSTGRES = os.environ.get("BRASS_BENCH_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432")
GAMES = 50


def listener(root: str, seconds: float, queue: Any) -> None:
    """The fan-out of the checkout at `root`; its CPU and wall time over `seconds`, and the
    notifications it handed on."""
    sys.path.insert(0, root)
    from brass.server.fanout import Fanout  # that checkout's

    async def run() -> None:
        heard = [0]

        def changed(*_: Any) -> None:
            heard[0] += 1

        fan = Fanout(f"{POSTGRES}/postgres", "listener", changed, lambda: None)
        for i in range(GAMES):
            fan.hear(f"game{i}")
        await fan.start()
        await asyncio.sleep(0.5)  # settled
        queue.put("ready")
        cpu, wall = time.process_time(), time.perf_counter()
        await asyncio.sleep(seconds)
        queue.put((time.process_time() - cpu, time.perf_counter() - wall, heard[0]))
        await fan.close()

    asyncio.run(run())


def once(root: Path, rate: float, seconds: float) -> tuple[float, int, int]:
    """The listener's CPU (ms per second), notifications heard and sent."""
    from brass.server.notice import channel  # the channel names agree across versions

    spawn = multiprocessing.get_context("spawn")
    queue = spawn.Queue()
    process = spawn.Process(target=listener, args=(str(root), seconds, queue))
    process.start()
    assert queue.get(timeout=60) == "ready"
    sent = 0
    url = f"{POSTGRES.replace('+psycopg', '')}/postgres"
    with psycopg.connect(url, autocommit=True) as conn:
        end = time.perf_counter() + seconds
        due = time.perf_counter()
        while time.perf_counter() < end:
            if not rate:
                time.sleep(0.1)
                continue
            game = f"game{sent % GAMES}"
            conn.execute("SELECT pg_notify(%s, %s)", (channel(game), f"{game} {sent + 1} other"))
            sent += 1
            due += 1 / rate
            time.sleep(max(0.0, due - time.perf_counter()))
    cpu, wall, heard = queue.get(timeout=60)
    process.join()
    return 1000 * cpu / wall, heard, sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=100.0, help="notifications a second")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another checkout, measured alternately")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    roots = [ROOT] + ([args.baseline.resolve()] if args.baseline else [])
    per: dict[Path, list[float]] = {root: [] for root in roots}
    for _ in range(args.rounds):
        for root in roots:
            idle, _, _ = once(root, 0, args.seconds)
            busy, heard, sent = once(root, args.rate, args.seconds)
            each = (busy - idle) / args.rate * 1000
            per[root].append(each)
            print(f"{root}: idle {idle:.1f} ms/s; at {args.rate:.0f}/s {busy:.1f} ms/s, heard "
                  f"{heard} of {sent}: {each:.0f} µs per notification", flush=True)
    if args.baseline:
        new, old = (sorted(per[r])[len(per[r]) // 2] for r in roots)
        print(f"CPU per notification heard: {new:.0f} µs against {old:.0f}: ratio "
              f"{new / old:.2f}")


if __name__ == "__main__":
    main()
