"""What a plain HTTP request costs the server (run by hand, not in the tests):

    python bench/requestcost.py                  # 1,000 requests a path, 3 rounds, SQLite
    python bench/requestcost.py --requests 2000 --root /tmp/main   # another checkout's server
    python bench/requestcost.py --postgres       # a fresh database on 127.0.0.1:5432 instead

Starts `brass serve` in its own process on a fresh SQLite file (the embedded default; with
`--postgres`, a fresh Postgres database, dropped at the end), makes a
player (`POST /api/session`, the cookie kept as a browser keeps it), then asks each path below
`--requests` times over one keep-alive connection, `--rounds` times, and prints the server
process's CPU per request (user + system time from /proc, over the requests) of the cheapest
round: the machine's other tenants only ever add to it. The paths are the ones pages ask again
and again: the desk's poll every 5 s (answered 304 with its ETag while nothing changed),
`/api/me`, the banner (every 60 s), the health check a load balancer asks.

Beside it, in this process, the time FastAPI takes to find the route (the app router's
`matches` over its routes until one matches, as its `app` does; the included router then
matches again inside), and which of the top-level routes it is: FastAPI 0.165 keeps each
`include_router` as a nested router, so a path served by a router included late is matched
through every router before it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from desk import cpu_seconds, free_port  # noqa: E402  (bench/desk.py, beside this one)
from freshdb import POSTGRES, fresh_postgres  # noqa: E402  (bench/freshdb.py)
from starlette.routing import Match  # noqa: E402

PATHS = ["/api/desk", "/api/me", "/api/banner", "/health"]


def served(root: Path, url: str) -> tuple[subprocess.Popen[bytes], str]:
    """`brass serve` from `root` on the database at `url`, answering."""
    port = free_port()
    env = dict(os.environ, BRASS_DATABASE_URL=url, PYTHONPATH=str(root))
    process = subprocess.Popen([sys.executable, "-m", "brass.cli", "serve", "--port",
                                str(port), "--log-level", "warning"], cwd=root, env=env)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{base}/health").status_code == 200:
                return process, base
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline or process.poll() is not None:
            process.kill()
            raise SystemExit("the server did not answer within 60 s")
        time.sleep(0.2)


@contextmanager
def database(postgres: bool, folder: str) -> Iterator[str]:
    """The URL of a fresh database: an SQLite file in `folder`, or a Postgres database made
    for the run and dropped after it."""
    if not postgres:
        yield f"sqlite:///{folder}/bench.db"
        return
    with fresh_postgres("brass_requestcost") as url:
        yield url


def per_request(pid: int, client: httpx.Client, path: str, headers: dict[str, str],
                count: int, rounds: int) -> tuple[float, int]:
    """The server's CPU per request in ms (the cheapest round) and the last status."""
    status = 0
    for _ in range(min(200, count)):  # warm: the first requests compile and cache
        status = client.get(path, headers=headers).status_code
    best = float("inf")
    for _ in range(rounds):
        before = cpu_seconds(pid)
        for _ in range(count):
            status = client.get(path, headers=headers).status_code
        best = min(best, cpu_seconds(pid) - before)
    return best / count * 1e3, status


def routing(paths: list[str]) -> dict[str, tuple[float, int, int]]:
    """Per path: µs to find its top-level route, its place (1-based) and how many there are."""
    from brass.server.app import create_app
    from brass.server.settings import Settings

    with tempfile.TemporaryDirectory() as folder:
        app = create_app(Settings(database_url=f"sqlite:///{folder}/routes.db"))
    routes = app.router.routes

    def scope(path: str) -> dict[str, Any]:
        return {"type": "http", "method": "GET", "path": path, "root_path": "", "headers": [],
                "query_string": b"", "app": app}

    def top(path: str) -> int:
        return next(place for place, route in enumerate(routes, 1)
                    if route.matches(scope(path))[0] is Match.FULL)

    found: dict[str, tuple[float, int, int]] = {}
    for path in paths:
        n, start = 2000, time.perf_counter()
        for _ in range(n):
            place = top(path)
        found[path] = ((time.perf_counter() - start) / n * 1e6, place, len(routes))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=1000, help="per path and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve")
    parser.add_argument("--postgres", action="store_true",
                        help=f"serve from a fresh database at {POSTGRES} instead of SQLite")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, database(args.postgres, folder) as url:
        process, base = served(args.root.resolve(), url)
        try:
            with httpx.Client(base_url=base, headers={"Origin": base}, timeout=60) as client:
                made = client.post("/api/session")
                if made.status_code != 201:
                    raise SystemExit(f"no player: {made.status_code} {made.text[:200]}")
                tag = client.get("/api/desk").headers["etag"]
                print(f"server: {args.root.resolve()}; {url.split(':')[0]}; {args.requests} "
                      f"requests a path, the cheapest of {args.rounds} rounds")
                for path in PATHS:
                    headers = {"If-None-Match": tag} if path == "/api/desk" else {}
                    ms, status = per_request(process.pid, client, path, headers,
                                             args.requests, args.rounds)
                    print(f"  GET {path} ({status}): {ms:.3f} ms of server CPU a request")
        finally:
            process.terminate()
            process.wait(timeout=30)
    if args.root.resolve() == ROOT:
        print("finding the route (this process, this checkout):")
        for path, (us, place, total) in routing(PATHS).items():
            print(f"  {path}: {us:.1f} µs, top-level route {place} of {total}")


if __name__ == "__main__":
    main()
