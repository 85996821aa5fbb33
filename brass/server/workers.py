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


class Workers:
    def __init__(self, count: int) -> None:
        self.count = count
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False

    async def start(self) -> None:
        """Start the processes and load the engine in each."""
        await asyncio.gather(*[self.compute(warm_up) for _ in range(self.count)])

    def close(self) -> None:
        self._closed = True
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)

    async def compute(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a worker process; in this process when there are no workers, the
        server is closing, or the pool broke (a new one is started next time)."""
        if self.count <= 0 or self._closed:
            return fn(*args)
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.count, mp_context=get_context("spawn"),
                                             initializer=_worker_init, initargs=(os.getpid(),))
        try:
            with metrics.WORKER_QUEUE.track_inprogress():
                return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)
        except BrokenProcessPool:
            log.exception("the worker pool broke; starting a new one")
            self._pool = None
            return fn(*args)


def _worker_init(parent: int) -> None:
    """In a worker process: yield the CPU to the server process (whose event loop carries
    every commit and broadcast), and exit as soon as the server process is gone (even
    killed with SIGKILL, which gives the pool no chance to stop its workers)."""
    with contextlib.suppress(OSError):
        os.nice(5)
    gc.set_threshold(20_000, 50, 100)  # the engine's caches make full collections slow

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="follow-parent").start()


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
