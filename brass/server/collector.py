"""Garbage collection in short, regular steps, so that no game waits for a long one.

CPython starts a collection when a generation's count (objects allocated less objects freed)
passes its threshold. A server holding many live games replaces each game's state at every
move, so that count barely moves while the youngest generation fills with survivors (the new
states, the sockets' pending futures); when a collection finally runs it walks all of them,
and every game waits: under `bench/server.py` at 1,000 games (the legal moves listed in the
server process), 40-90 ms for the youngest generation several times a minute, and 330-360 ms
for the middle one about once a minute.

Instead, with a `Collector` running: automatic collection is off; every `young_every` seconds
the youngest generation is collected (only what was allocated since the last step: a few
ms), then every survivor is frozen (`gc.freeze`: never walked again). A frozen object is still
freed by reference counting, which is how a replaced state, a sent message or a closed game
goes; only garbage in reference cycles among frozen objects (a closed socket's protocol and
tasks, say) waits, for the full collection every `full_every` seconds (`gc.unfreeze`, then
`gc.collect`): the one long pause, counted in `brass_gc_seconds{kind="full"}`.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import threading
import time

from . import metrics

log = logging.getLogger("brass.server")
YOUNG_EVERY = 0.1  # seconds between collections of the youngest generation
FULL_EVERY = 900.0  # seconds between full collections (the frozen objects' cycles)

_running = 0  # collectors started in this process (a test may run several servers, each
_lock = threading.Lock()  # on its own thread)


class Collector:
    def __init__(self, young_every: float = YOUNG_EVERY, full_every: float = FULL_EVERY) -> None:
        self.young_every, self.full_every = young_every, full_every
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Turn automatic collection off and freeze what start-up made (it lives on)."""
        global _running
        with _lock:
            _running += 1
            gc.disable()
            gc.freeze()
        self._task = asyncio.create_task(self._run(), name="collect-garbage")

    async def close(self) -> None:
        """Stop; the last collector to stop gives the process back CPython's own collection
        (with every frozen object collectable again)."""
        global _running
        if self._task is None:
            return
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None
        with _lock:
            _running -= 1
            if _running == 0:
                gc.unfreeze()
                gc.enable()

    async def _run(self) -> None:
        full_at = time.monotonic() + self.full_every
        while True:
            await asyncio.sleep(self.young_every)
            if time.monotonic() >= full_at:
                full_at = time.monotonic() + self.full_every
                full()
            else:
                young()


def young() -> int:
    """Collect what was allocated since the last step, then freeze what survived; the number
    of objects freed."""
    began = time.perf_counter()
    freed = gc.collect(0)
    gc.freeze()
    metrics.GC_SECONDS.labels("young").observe(time.perf_counter() - began)
    return freed


def full() -> int:
    """Collect everything, frozen objects included, then freeze the survivors again; the
    number of objects freed."""
    began = time.perf_counter()
    gc.unfreeze()
    freed = gc.collect()
    gc.freeze()
    took = time.perf_counter() - began
    metrics.GC_SECONDS.labels("full").observe(took)
    log.info("full garbage collection: %d objects freed in %.0f ms", freed, took * 1000)
    return freed
