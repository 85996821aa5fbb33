"""Where a served move's CPU goes, part by part, in CPU time (run by `bench/server.py --parts`,
which starts the server through this file instead of `python -m brass.cli`).

A sampling profiler's shares mislead here: py-spy samples wall time, and on a loaded 2-core
machine a thread waiting for a core looks busy; cProfile's own cost changes what it measures.
This wraps a few synchronous functions of the served checkout that do not call one another
(`PARTS`; those it lacks are skipped) and sums the CPU time of the calling thread
(`time.thread_time`) spent in each; on SIGUSR1 it writes the sums, with the main thread's and
the process's CPU, as JSON to the file named by $BRASS_BENCH_PARTS. What no part names (the
event loop, tasks, the frameworks' layers, the database driver) is the main thread's rest.

Each call costs two reads of the thread's clock (about a microsecond); a move makes about
twenty such calls.
"""

from __future__ import annotations

import functools
import importlib
import json
import os
import signal
import sys
import time
from collections.abc import Callable
from typing import Any

# (module, attribute path, what it is): none of them calls another
PARTS = [
    ("uvicorn.protocols.websockets.websockets_sansio_impl",
     "WebSocketsSansIOProtocol.data_received", "frames received, parsed and queued"),
    ("brass.server.ws", "parse_message", "client messages parsed and validated"),
    ("brass.server.play", "play", "the engine's play"),
    ("brass.server.movelog", "MoveLog.plan_append", "the move's statement planned"),
    ("brass.server.outbound", "legal", "legal moves listed, as text"),
    ("brass.server.publish", "Publisher.publish", "state messages rendered and queued"),
    ("websockets.protocol", "Protocol.send_text", "frames made"),
    ("brass.server.fanout", "Fanout._readable", "notifications heard"),
    ("brass.server.collector", "young", "young garbage collections"),
]
SPENT: dict[str, list[float]] = {}  # by part: [calls, CPU seconds]


def _timed(fn: Callable[..., Any], label: str) -> Callable[..., Any]:
    count = SPENT.setdefault(label, [0, 0.0])
    clock = time.thread_time

    @functools.wraps(fn)
    def timed(*args: Any, **kwargs: Any) -> Any:
        began = clock()
        try:
            return fn(*args, **kwargs)
        finally:
            count[0] += 1
            count[1] += clock() - began
    return timed


def install() -> list[str]:
    """Wrap each part the served checkout has; the parts wrapped."""
    done = []
    for module_name, path, label in PARTS:
        try:
            owner: Any = importlib.import_module(module_name)
        except ImportError:
            continue
        *outer, name = path.split(".")
        for step in outer:
            owner = getattr(owner, step, None)
        if owner is None or not callable(getattr(owner, name, None)):
            continue
        setattr(owner, name, _timed(getattr(owner, name), label))
        done.append(label)
    return done


def dump(*_: object) -> None:
    """Write the sums (called on SIGUSR1, in the main thread)."""
    out = os.environ["BRASS_BENCH_PARTS"]
    sums = {"main thread": time.thread_time(), "process": time.process_time(),
            "written": time.time(), "parts": {k: v[1] for k, v in SPENT.items()},
            "calls": {k: v[0] for k, v in SPENT.items()}}
    with open(f"{out}.new", "w") as f:
        json.dump(sums, f)
    os.replace(f"{out}.new", out)


def main() -> int:
    install()
    signal.signal(signal.SIGUSR1, dump)
    from brass.cli import main as brass

    sys.argv = ["brass", *sys.argv[1:]]
    result: int = brass()
    return result


if __name__ == "__main__":
    raise SystemExit(main())
