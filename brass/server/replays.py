"""Replays and logs: a game's log as of a version, and the view after any number of its
actions, rebuilt in a worker from the nearest snapshot and the rows after it only (a small
cache of snapshots over all games): a late frame costs what an early one does. Reads only:
nothing here changes a game."""

from __future__ import annotations

import bisect
import dataclasses
from collections import OrderedDict

from . import outbound
from .core import GameCore
from .errors import ApiError
from .runtime import Runtime
from .schemas import ReplayFrame
from .storage import ActionRecord, Snapshot

SNAPSHOT_CACHE = 64  # snapshots kept in memory for replay frames, over all games


class Replays:
    def __init__(self, core: GameCore) -> None:
        self.core = core
        self._snapshots: OrderedDict[tuple[str, int], Snapshot] = OrderedDict()

    async def log_rows(self, rt: Runtime) -> list[ActionRecord]:
        """The game's log (undone rows left out) as of the version it is at when called, read
        from the database: a game holds only the end of its log in memory."""
        rows = await self.core.db(self.core.storage.actions_as_of, rt.id, rt.record.version)
        return [a for a in rows if not a.undone]

    async def log_text(self, rt: Runtime) -> str:
        """`GET /log`: the log as of one version, with the record and seat changes of it."""
        record, changes = dataclasses.replace(rt.record), list(rt.seat_changes)
        return outbound.log_text(record, await self.log_rows(rt), changes)

    async def replay_frame(self, rt: Runtime, n: int, seat: int | None) -> ReplayFrame:
        """The view after the first `n` actions of the log: rebuilt in a worker from the
        latest snapshot at or before `n` (at most one round of replay). A game stored under
        another engine shows only the frames it has snapshots of."""
        game, total, at = rt.game, rt.count, rt.record.version
        if game is None:
            raise ApiError("game_not_running", "The game has not started")
        if not 0 <= n <= total:
            raise ApiError("not_found", f"The game has {total} actions, not {n}")
        if n == total:
            return outbound.replay_frame(game, n, total, seat)
        base = rt.snapshots[bisect.bisect_right(rt.snapshots, n) - 1] if (
            rt.snapshots and rt.snapshots[0] <= n) else None
        if rt.older_engine and base != n:
            raise ApiError("not_found", f"Game {rt.id} was played with engine "
                           f"{rt.record.engine_version}: only the frames after "
                           f"{', '.join(map(str, rt.snapshots)) or 'no action'} are kept")
        snapshot = None if base is None else await self._snapshot(rt, base)
        rows = await self.core.db(  # as of the version `total` was read at
            self.core.storage.rows_after, rt.id, at, 0 if snapshot is None else snapshot.seq,
            n - (base or 0))
        return await self.core.workers.compute(
            outbound.rebuilt_frame, rt.record.players, rt.record.seed, rt.record.setup,
            None if snapshot is None else snapshot.state, [a.action for a in rows], n, total,
            seat)

    async def _snapshot(self, rt: Runtime, count: int) -> Snapshot:
        """The stored state after `count` actions (a small cache over all games)."""
        key = (rt.id, count)
        found = self._snapshots.get(key)
        if found is None:
            found = await self.core.db(self.core.storage.load_snapshot, rt.id, count)
            if found is None or found.actions != count:
                raise ApiError("not_found", f"No snapshot after {count} actions")
            self._snapshots[key] = found
            if len(self._snapshots) > SNAPSHOT_CACHE:
                self._snapshots.popitem(last=False)
        self._snapshots.move_to_end(key)
        return found
