"""Prometheus metrics (prometheus_client), served at `/metrics` by `ops.py`.

They count what this server process does (with several server processes, each has its own;
the worker processes report nothing themselves, their work is timed here). The call sites are
one line each: `MOVES.labels(kind).inc()`, `@timed(MOVE_SECONDS)`, `with LEGAL_SECONDS.time()`,
`with WORKER_QUEUE.track_inprogress()`, `ERRORS.labels(code).inc()`,
`GC_SECONDS.labels(kind).observe(seconds)`; the gauges of games and
sockets are read when scraped (`observe`) or kept by `ws.enter` (`OPEN_SOCKETS`).

`/metrics` tells a stranger how busy the server is, its memory, open files and errors, so it is
closed by default: `ops.MetricsGate` answers it only to a request that carries the setting
`metrics_token` as `Authorization: Bearer <token>` (with no token set, to nobody).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from prometheus_client import Counter, Gauge, Histogram

P = ParamSpec("P")
T = TypeVar("T")

LIVE_GAMES = Gauge("brass_live_games", "Running games this server holds")
OPEN_SOCKETS = Gauge("brass_open_sockets", "Open game websockets")
MOVES = Counter("brass_moves", "Moves committed, by kind of action", ["kind"])
HEARD = Counter("brass_notices_heard", "Notifications of other instances' writes heard (only "
                "those of games held here)")
FOLLOWED = Counter("brass_followed", "Another instance's writes this one followed, by how: "
                   "a move carried by its notification, or a read of the log", ["how"])
MOVE_SECONDS = Histogram(
    "brass_move_seconds", "Time from receiving an accepted move to its commit and broadcast",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0))
LEGAL_SECONDS = Histogram(
    "brass_legal_moves_seconds", "Time to compute a seat's legal moves with their prices",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5))
WORKER_QUEUE = Gauge("brass_worker_queue_depth",
                     "Computations waiting for or running in a worker process, by pool: bots "
                     "(engine work: bot moves, previews, replay frames), analyses, push "
                     "(batches of notices)", ["pool"])
POOLS = ("bots", "analyses", "push")
for _pool in POOLS:
    WORKER_QUEUE.labels(_pool)  # each shown from the start, at 0
GC_SECONDS = Histogram(
    "brass_gc_seconds", "Pauses of the garbage collector (collector.py): young, every 0.1 s; "
    "full, every BRASS_GC_FULL_EVERY seconds", ["kind"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0))
ANALYSED_MOVES = Counter("brass_analysed_moves",
                         "Moves of finished games judged by the analyses this server computed")
ERRORS = Counter("brass_errors", "Typed errors sent to clients (HTTP and websocket), by code",
                 ["code"])


def timed(histogram: Histogram) -> Callable[[Callable[P, Awaitable[T]]],
                                            Callable[P, Awaitable[T]]]:
    """Decorate a coroutine function: observe how long each call that returns takes (a call
    that raises, e.g. a refused move, is not observed)."""

    def decorate(fn: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
        @functools.wraps(fn)
        async def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
            start = time.perf_counter()
            result = await fn(*args, **kwargs)
            histogram.observe(time.perf_counter() - start)
            return result

        return wrapper

    return decorate


def observe(live_games: int) -> None:
    """Set the gauges that are read from the service (called when /metrics is scraped)."""
    LIVE_GAMES.set(live_games)
