"""Worker processes for pure engine computations that take tens of milliseconds to seconds (a
bot's choice, an analysis, replaying a loaded game's turn), so the event loop that carries
every commit and broadcast never waits for them. With `workers=0` they run in the server
process. A seat's legal moves are not listed here: bounded and cheaper than the trip to a
worker, they are listed in the server process (`legal.compute`)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
import random
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from typing import Any, TypeVar

from brass.bots import LevelName, choose, observe
from brass.engine import Game, legal_actions, legal_moves, new_game

from . import metrics

log = logging.getLogger("brass.server")
T = TypeVar("T")


BOT_NICE = 5  # the workers' niceness: below the server process, whose loop carries every move
ANALYSIS_NICE = 19  # analyses' own pool: the lowest priority, below every bot move


class Workers:
    """A pool of `count` processes at `nice` (and `idle`: at SCHED_IDLE too, `_idle_priority`).
    The bots' pool runs a computation in the server process when it cannot in a worker
    (closing, or the pool broke): a move must be made. An analyses' pool (`inline=False`)
    never does: it waits for a worker, or fails."""

    def __init__(self, count: int, nice: int = BOT_NICE, inline: bool = True,
                 pool: str = "bots", idle: bool = False) -> None:
        self.count = count
        self.queued = metrics.WORKER_QUEUE.labels(pool)  # `pool`: one of metrics.POOLS
        self.nice, self.idle = nice, idle
        self.inline = inline
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False

    async def start(self) -> None:
        """Start the processes and load the engine in each."""
        await asyncio.gather(*[self.compute(warm_up) for _ in range(self.count)])

    def close(self, kill: bool = False) -> None:
        """Stop the processes: after their computations in hand, or with `kill` at once (an
        analysis at the lowest priority may wait long for a CPU; its job is resumed later).
        Either way the pool is waited for (killed processes end at once) and let go of: its
        queues' semaphores are freed now. uvicorn ends a server stopped by SIGTERM by raising
        the signal again, which ends the process without `atexit`, so multiprocessing would
        never free them and its resource tracker would warn of leaked semaphores."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            if kill:
                for process in list(getattr(pool, "_processes", {}).values()):
                    process.kill()
            pool.shutdown(wait=True, cancel_futures=True)

    async def compute(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a worker process; in this process when there are no workers, or
        (`inline`) when the server is closing or the pool broke (a new one is started next
        time)."""
        if self.count <= 0:
            return fn(*args)
        if self._closed:
            if not self.inline:
                raise RuntimeError("the workers are closed")
            return fn(*args)
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.count, mp_context=get_context("spawn"),
                                             initializer=_worker_init,
                                             initargs=(os.getpid(), self.nice, self.idle))
        try:
            with self.queued.track_inprogress():
                return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)
        except BrokenProcessPool:
            if self._closed:
                raise
            log.exception("the worker pool broke; starting a new one")
            self._pool = None
            if not self.inline:
                raise
            return fn(*args)


def _worker_init(parent: int, nice: int = BOT_NICE, idle: bool = False) -> None:
    """In a worker process: yield the CPU to the server process (whose event loop carries
    every commit and broadcast), an analysis's to the bots' too (`nice`, `idle`), and exit
    as soon as the server process is gone (even killed with SIGKILL, which gives the pool no
    chance to stop its workers)."""
    with contextlib.suppress(OSError):
        os.nice(nice)
    if idle:
        _idle_priority()
    gc.set_threshold(20_000, 50, 100)  # the engine's caches make full collections slow

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="follow-parent").start()


def _idle_priority() -> None:
    """Linux: run only on a CPU nothing else wants (SCHED_IDLE: a waking server or bot worker
    takes the CPU at once, where a nice-19 process still delays each of their wake-ups, and a
    bot move is a chain of them). In the server's own session: where the kernel groups
    processes by session (autogroup), a group of its own would compete with the server's
    group as an equal at every wake-up, which SCHED_IDLE cannot overrule from inside it (a
    bot game under an analysis flood ran at 0.71-0.78 of its pace so, 0.87-0.94 without:
    `tests/server/test_analysis_jobs.py -k flood`; moves during a push burst p99 48 ms so,
    12-15 ms without, 10-11 ms with no burst: `bench/push.py`). The price: on a CPU the
    server's processes keep busy it gets about 1 % (weight 3 against nice 0's 1,024). Right
    for analyses (resumable, and bots must keep their pace); the push sender stays at nice
    19 only (weight 15: a few per cent, so a notice still leaves from a busy machine, and
    moves' p99 during bursts is the same: 12-18 ms either way)."""
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def warm_up() -> int:
    """Load the engine's data in a worker (the first real request should not pay for it)."""
    return len(legal_actions(new_game(2, 0)))


def bot_choice(game: Game, seed: str, fallback: bool, level: LevelName = "easy",
               budget: float = 1.0, log: Sequence[str | None] = ()) -> dict[str, Any]:
    """The bot's action (as JSON) for the player to move; with `fallback`, any legal one.
    The bot sees only what its seat may: the seat's view of `game` and the public log
    (`log`: each action's public events as stored, None for a row stored without them);
    a search level thinks for `budget` seconds of wall clock."""
    rng = random.Random(seed)
    seat = game.current_seat
    if fallback or seat is None:  # the bot keeps failing: any legal action will do
        candidates = legal_moves(game)
        return candidates[rng.randrange(len(candidates))].action.to_json()
    events = (None if any(e is None for e in log)
              else [event for e in log if e is not None for event in json.loads(e)])
    return choose(observe(game, seat, events), level, budget, rng).to_json()
