"""The server gives freed memory back to the system (memory.py): after a burst of allocations
is freed, with small ones still alive between them (as a server's heap looks), one trim lowers
the resident memory."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from brass.server import memory


def resident_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(memory.LIBC is None, reason="no glibc: nothing to trim")
def test_a_trim_gives_freed_memory_back() -> None:
    big, kept = [], []
    for i in range(2000):  # 2,000 blocks of 40 KB (under malloc's mmap threshold)
        big.append(bytearray(40_000))
        kept.append(bytearray(600 + i % 7))  # from malloc too, alive between them: the heap
        # cannot just shrink from its top
    del big
    gc.collect()
    before = resident_kb()
    took = memory.trim()
    after = resident_kb()
    assert before - after > 40_000, (before, after)  # of the 80 MB freed, most went back
    assert took < 1.0
    assert len(kept) == 2000
