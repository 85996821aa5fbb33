"""Garbage collection on a timer (collector.py): a young step frees young cycles and freezes
the survivors; a frozen cycle that becomes garbage waits for the full collection, which frees
it; the last collector to stop gives CPython its own collection back."""

from __future__ import annotations

import asyncio
import gc
import weakref

from brass.server import collector
from brass.server.collector import Collector

from .conftest import run_in_own_loop


class Node:
    """A cycle: a node that points at itself (reference counting alone never frees it)."""

    def __init__(self) -> None:
        self.me = self


def cycle() -> weakref.ref[Node]:
    return weakref.ref(Node())


async def until(condition: object, seconds: float = 10.0) -> bool:
    """Poll `condition()` (a callable) every 10 ms until it holds or `seconds` pass."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():  # type: ignore[operator]
        if loop.time() > deadline:
            return False
        await asyncio.sleep(0.01)
    return True


def test_young_cycles_are_freed_and_frozen_ones_wait_for_the_full_collection() -> None:
    async def scenario() -> None:
        was_enabled = gc.isenabled()
        steps = Collector(young_every=0.01, full_every=3600)
        steps.start()
        try:
            assert not gc.isenabled()  # no collection but the collector's
            young = cycle()  # garbage at once: the next young step frees it
            assert await until(lambda: young() is None)

            kept = Node()
            frozen = weakref.ref(kept)
            collector.young()  # alive across a young step: frozen
            assert all(o is not kept for o in gc.get_objects(0))
            del kept
            for _ in range(3):
                collector.young()
            assert frozen() is not None  # a frozen cycle waits for the full collection
            assert collector.full() >= 1
            assert frozen() is None
        finally:
            await steps.close()
        assert gc.isenabled() == was_enabled

    run_in_own_loop(scenario())


def test_the_full_collection_comes_on_its_timer() -> None:
    async def scenario() -> None:
        steps = Collector(young_every=0.01, full_every=0.05)
        kept = Node()
        steps.start()  # freezes `kept`
        frozen = weakref.ref(kept)
        try:
            del kept
            assert await until(lambda: frozen() is None)  # only a full collection frees it
        finally:
            await steps.close()

    run_in_own_loop(scenario())


def test_two_collectors_the_last_one_to_stop_turns_collection_back_on() -> None:
    async def scenario() -> None:
        first, second = Collector(young_every=0.01), Collector(young_every=0.01)
        first.start()
        second.start()
        await first.close()
        assert not gc.isenabled()  # the second still runs
        await second.close()
        # on again unless another server of this test session still runs its collector
        assert gc.isenabled() == (collector._running == 0)
        if gc.isenabled():
            assert gc.get_freeze_count() == 0

    run_in_own_loop(scenario())
