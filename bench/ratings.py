"""The rating update at a game's end (ratings.game_finished): CPU and wall time per game.

    python bench/ratings.py [--url postgresql+psycopg://postgres@127.0.0.1:5432/DB] [--runs 300]

A 4-player game (three players with accounts and `--history` rated games each, and a hard
bot) with a clock is rated `--runs` times, each in its own transaction rolled back (so every
run rates the same game from the same ratings), as the move that ends a game does: read the
seats and players, lock the rated players, read their ratings, the model, insert the rows.
Reports the CPU time (this process: SQLAlchemy, the driver and OpenSkill) and the wall time
(with the database's) per game, p50 and p99. Goal (issue 24): at most 5 ms of CPU.
Without `--url`, an SQLite file in a temporary folder.
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import insert

from brass.server import ratings
from brass.server.storebase import make_engine
from brass.server.tables import games, metadata, players, seats
from brass.server.tables import ratings as ratings_table


def setup(url: str, history: int) -> str:
    engine = make_engine(url)
    metadata.create_all(engine)
    at = dt.datetime.now(dt.UTC)
    game = "bench-rated"
    with engine.begin() as conn:
        ids = [f"bench-player-{i}" for i in range(3)]
        conn.execute(insert(players), [{"id": p, "name": p, "email": f"{p}@example.org",
                                        "email_verified_at": at,
                                        "role": "player", "listed": True, "created_at": at}
                                       for p in ids])
        for n in range(history):
            old = f"bench-old-{n}"
            conn.execute(insert(games).values(
                id=old, name=old, players=4, status="finished", seed=n, version=1,
                engine_version="bench", host_token_hash="x", created_at=at, updated_at=at))
            conn.execute(insert(ratings_table), [
                {"player_id": p, "game_id": old, "mu": 25.0 + n % 5, "sigma": 8.0 - n / history,
                 "ordinal": 0.0, "games": n + 1, "created_at": at} for p in ids])
        conn.execute(insert(games).values(
            id=game, name=game, players=4, status="finished", seed=1, version=1,
            engine_version="bench", host_token_hash="x", created_at=at, updated_at=at,
            settings={"clock": {"kind": "correspondence", "per_turn": 86400}}))
        conn.execute(insert(seats), [
            {"game_id": game, "seat": s, "name": f"seat {s}", "bot": s == 3,
             "bot_level": "hard" if s == 3 else None, "player_id": ids[s] if s < 3 else None}
            for s in range(4)])
    engine.dispose()
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url")
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--history", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.url or f"sqlite:///{folder}/ratings.db"
        game = setup(url, args.history)
        engine = make_engine(url)
        effects = [{"type": "game_end", "ranking": [
            {"seat": s, "rank": r} for s, r in ((2, 1), (0, 2), (3, 3), (1, 4))]}]
        cpu, wall = [], []
        for _ in range(args.runs):
            with engine.connect() as conn:
                tx = conn.begin()
                c0, w0 = time.process_time(), time.perf_counter()
                changes = ratings.game_finished(conn, game, effects, dt.datetime.now(dt.UTC))
                cpu.append(time.process_time() - c0)
                wall.append(time.perf_counter() - w0)
                tx.rollback()
                assert len(changes) == 3, changes
        engine.dispose()

    def ms(values: list[float], q: int) -> float:
        return statistics.quantiles(values, n=100)[q - 1] * 1000

    print(f"{engine.dialect.name}: {args.runs} rated games (3 players with {args.history} "
          f"rated games each, and a bot)")
    print(f"  CPU  p50 {ms(cpu, 50):.2f} ms  p99 {ms(cpu, 99):.2f} ms  (goal <= 5 ms)")
    print(f"  wall p50 {ms(wall, 50):.2f} ms  p99 {ms(wall, 99):.2f} ms")


if __name__ == "__main__":
    main()
