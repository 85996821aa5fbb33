"""A per-client limit on the unauthenticated writes (creating and joining games).

LESSONS.md: joining needs the same care as acting; without a limit one client could fill a
server with games or take every free seat in a loop. A sliding window of request times per
client address, kept in memory (one server process). A refusal says when the oldest request
leaves the window: `Retry-After` on the 429, and in the message.

Not the `limits` library: its memory storage reads the wall clock (`time.time`, which jumps
with the system clock), runs a timer thread to expire keys, and takes no clock a test could
drive; one process needs neither its shared storages nor its other strategies.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable

from .errors import ApiError


class RateLimiter:
    """At most `limit` requests per `window` seconds for each key; `limit` 0 = no limit."""

    def __init__(self, limit: int, window: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._seen: dict[str, deque[float]] = {}

    def check(self, key: str) -> None:
        """Count one request for `key`; `ApiError("rate_limited")` when over the limit."""
        if self.limit <= 0:
            return
        now = self.clock()
        if len(self._seen) > 10_000:  # forget clients that went quiet
            self._seen = {k: q for k, q in self._seen.items() if q and q[-1] > now - self.window}
        times = self._seen.setdefault(key, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) >= self.limit:
            wait = max(1, math.ceil(times[0] + self.window - now))
            raise ApiError("rate_limited",
                           f"Too many new games or joins from here: try again in {wait} s",
                           retry_after=wait)
        times.append(now)
