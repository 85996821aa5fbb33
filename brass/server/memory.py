"""Giving freed memory back to the system. glibc's malloc keeps in its heaps what Python frees
(a first turn's legal-move lists, a burst of state texts, the database threads' results): the
server's resident memory stays at its highest point, not at what its live games hold. Measured
with 200 live games (`bench/server.py`): one `malloc_trim` took the server process from 184 to
146 MB. So the server trims every `EVERY` seconds, in a thread (ctypes lets go of the GIL).
Elsewhere than glibc (musl, macOS) there is nothing to do. (Fewer heaps for the threads,
`mallopt(M_ARENA_MAX, 2)`, changed nothing measurable after trimming: left out.)"""

from __future__ import annotations

import asyncio
import ctypes
import logging
import time
from typing import Any

log = logging.getLogger("brass.server")
EVERY = 10.0  # seconds between trims


def _glibc() -> Any | None:
    """This process's C library if it has `malloc_trim` (glibc), else None."""
    try:
        libc = ctypes.CDLL(None)  # the symbols already loaded: no search, no subprocess
    except OSError:
        return None
    return libc if hasattr(libc, "malloc_trim") else None


LIBC = _glibc()


def trim() -> float:
    """Give the free memory of every heap back to the system; the seconds it took."""
    began = time.perf_counter()
    if LIBC is not None:
        LIBC.malloc_trim(0)
    return time.perf_counter() - began


async def trim_forever(every: float = EVERY) -> None:
    while True:
        await asyncio.sleep(every)
        took = await asyncio.to_thread(trim)
        log.debug("memory trimmed in %.1f ms", took * 1000)
