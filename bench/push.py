"""Web Push notices' cost (issue 27): N players' turns begin at once, each player with one
subscription; the time until every notice has left, the sender's CPU per notice (encryption,
VAPID signature, HTTP POST), and the event loop's longest stall meanwhile (what a move being
served at that moment would wait, at most).

    python bench/push.py [--notices 1000]

The push service is a stand-in on 127.0.0.1 in another process (it answers 201), so the CPU
measured is the sender's only. The database is a temporary SQLite file (one indexed read per
notice, in a thread, as on the server).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
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

from brass.server.push import Pusher, new_keys
from brass.server.pushstore import PushStore, Subscription
from brass.server.storebase import StoreBase
from brass.server.tables import metadata, players


def stand_in(port: int) -> None:
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def bench(notices: int, folder: Path, port: int) -> None:
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
    stalls: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        while not done.is_set():
            before = time.perf_counter()
            await asyncio.sleep(0.001)
            stalls.append(time.perf_counter() - before - 0.001)

    ticking = asyncio.create_task(ticker())
    cpu, start = time.process_time(), time.perf_counter()
    for i in range(notices):
        pusher.notify(f"p{i}", {"kind": "turn", "game": f"g{i}", "name": "bench", "seat": 0,
                                "url": f"/#/game/g{i}"})
    await pusher.idle()
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    done.set()
    await ticking
    await pusher.close()
    stalls.sort()
    print(f"{notices} notices: all left in {wall:.2f} s; accepted {pusher.sent}; "
          f"sender CPU {1000 * used / notices:.2f} ms per notice; event loop stall "
          f"p50 {1000 * stalls[len(stalls) // 2]:.1f} ms, p99 "
          f"{1000 * stalls[int(len(stalls) * 0.99)]:.1f} ms, max {1000 * stalls[-1]:.1f} ms "
          f"({os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f})")
    base.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notices", type=int, default=1000)
    args = parser.parse_args()
    port = free_port()
    server = multiprocessing.Process(target=stand_in, args=(port,), daemon=True)
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
            asyncio.run(bench(args.notices, Path(folder), port))
    finally:
        server.terminate()


if __name__ == "__main__":
    main()
