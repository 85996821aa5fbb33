"""A per-client limit on the unauthenticated writes (creating and joining games).

LESSONS.md: joining needs the same care as acting; without a limit one client could fill a
server with games or take every free seat in a loop. A sliding window of request times per
client address, kept in memory (one server process).
"""

from __future__ import annotations

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
            wait = int(times[0] + self.window - now) + 1
            raise ApiError("rate_limited",
                           f"Too many new games or joins from here: try again in {wait} s")
        times.append(now)
