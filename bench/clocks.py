"""Clock benchmark (run by hand, not in the tests): what a turn clock adds to the write of a
move that ends a turn (the database's `now()` read and the reserve update in the same
transaction), side by side with the same write without a clock.

    python bench/clocks.py                # Postgres on 127.0.0.1:5432, a fresh database
    python bench/clocks.py --writes 2000 --sqlite

Writes `--writes` log rows through `Storage.append_turn` into two fresh games (one with a
live clock, one without), alternating, and prints the p50/p99 wall time per write and the
process CPU time per write of each, and their ratio.
"""

from __future__ import annotations

import argparse
import secrets
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.freshdb import fresh_postgres  # noqa: E402
from bench.server import percentile  # noqa: E402
from brass.server.clocks import Clock  # noqa: E402
from brass.server.migrate import upgrade  # noqa: E402
from brass.server.storage import GameRecord, SeatRecord, Storage, TurnStart, now  # noqa: E402

LOAN = {"kind": "loan", "card": "wild:location"}


def game(storage: Storage, clock: Clock) -> str:
    game_id = f"bench-{secrets.token_hex(6)}"
    stamp = now()
    storage.create_game(GameRecord(
        id=game_id, name="bench", players=2, status="running", seed=1, setup=None, version=0,
        engine_version="bench", host_token_hash="x", created_at=stamp, updated_at=stamp,
        settings={"clock": clock.to_json()},
        seats=[SeatRecord(seat=s, reserve=clock.reserve or None) for s in (0, 1)]))
    return game_id


def run(url: str, writes: int) -> None:
    upgrade(url)
    storage = Storage(url)
    live = Clock(kind="live", reserve=3600, increment=30)
    ids = {"live clock": game(storage, live), "no clock": game(storage, Clock())}
    wall: dict[str, list[float]] = {k: [] for k in ids}
    cpu = dict.fromkeys(ids, 0.0)
    for n in range(writes):
        for name, game_id in ids.items():
            clock = live if name == "live clock" else Clock()
            turn = TurnStart(clock, n % 2, 3600.0, now(), 1 - n % 2, 3600.0, False)
            w, c = time.perf_counter(), time.process_time()
            storage.append_turn(game_id, n, n % 2, LOAN, f"a{n}", None, None, None, turn)
            cpu[name] += time.process_time() - c
            wall[name].append(time.perf_counter() - w)
    for name in ids:
        print(f"{name:10}  p50 {percentile(wall[name], 50) * 1e3:6.2f} ms  "
              f"p99 {percentile(wall[name], 99) * 1e3:6.2f} ms  "
              f"CPU {cpu[name] / writes * 1e3:6.3f} ms/write")
    p50 = [percentile(wall[name], 50) for name in ids]
    print(f"ratio live/none: wall p50 {p50[0] / p50[1]:.2f}, "
          f"CPU {cpu['live clock'] / cpu['no clock']:.2f}")
    storage.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--writes", type=int, default=1000)
    ap.add_argument("--sqlite", action="store_true")
    args = ap.parse_args()
    if args.sqlite:
        with tempfile.TemporaryDirectory() as folder:
            run(f"sqlite:///{folder}/bench.db", args.writes)
        return
    with fresh_postgres("brass_bench_clocks") as url:
        run(url, args.writes)


if __name__ == "__main__":
    main()
