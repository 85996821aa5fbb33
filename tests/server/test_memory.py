"""The server gives freed memory back to the system (memory.py): after a burst of allocations
is freed, with small ones still alive between them (as a server's heap looks), one trim lowers
the resident memory. Run in a fresh interpreter: the heap of a long test session has free
holes of its own, and the small blocks would land there instead of between the big ones."""

from __future__ import annotations

import subprocess
import sys

import pytest

from brass.server import memory

PROBE = """
import gc
from pathlib import Path
from brass.server import memory

def resident_kb():
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])

big, kept = [], []
for i in range(2000):  # 2,000 blocks of 40 KB (under malloc's mmap threshold)
    big.append(bytearray(40_000))
    kept.append(bytearray(600 + i % 7))  # from malloc too, alive between the big ones
del big
gc.collect()
before = resident_kb()
took = memory.trim()
print(before, resident_kb(), took, len(kept))
"""


@pytest.mark.skipif(memory.LIBC is None, reason="no glibc: nothing to trim")
def test_a_trim_gives_freed_memory_back() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                         check=True, timeout=60).stdout.split()
    before, after, took = int(out[0]), int(out[1]), float(out[2])
    assert before - after > 40_000, (before, after)  # of the 80 MB freed, most went back
    assert took < 1.0
