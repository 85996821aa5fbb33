"""Analyses of finished games (`brass.bots.analysis`): computed on request, a few moves at
a time in the worker processes (so bot moves and legal lists of running games are not held
up behind a whole game), stored once complete, then served from the database."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from brass.bots.analysis import MoveAnalysis, analyse_log

from .errors import ApiError
from .runtime import Runtime
from .storage import ActionRecord, Storage
from .workers import Workers

log = logging.getLogger("brass.server")
T = TypeVar("T")
MOVES_PER_CALL = 4  # moves judged per worker call: a few CPU seconds at most


@dataclass
class Job:
    task: asyncio.Task[None] | None = None
    moves: list[MoveAnalysis] = field(default_factory=list)
    failed: bool = False


class Analyses:
    def __init__(self, storage: Storage, workers: Workers,
                 db: Callable[..., Awaitable[Any]], budget: float,
                 log: Callable[[Runtime], Awaitable[list[ActionRecord]]]) -> None:
        self.storage, self.workers, self._db, self._log = storage, workers, db, log
        self.budget = budget  # CPU seconds per move
        self.jobs: dict[str, Job] = {}

    async def status(self, rt: Runtime) -> dict[str, Any]:
        """`none` (not asked for), `running` (with the moves judged so far), `done` (all of
        them) or `failed` (the log does not replay on this engine; asking again retries)."""
        total = rt.count
        stored = await self._db(self.storage.load_analysis, rt.id)
        if stored is not None:
            return {"status": "done", "done": len(stored), "total": len(stored),
                    "moves": stored}
        job = self.jobs.get(rt.id)
        if job is None:
            return {"status": "none", "done": 0, "total": total, "moves": []}
        return {"status": "failed" if job.failed else "running", "done": len(job.moves),
                "total": total, "moves": list(job.moves)}

    async def start(self, rt: Runtime) -> dict[str, Any]:
        if rt.record.status != "finished":
            raise ApiError("game_not_running", "A game is analysed once it is over")
        current = await self.status(rt)
        if current["status"] in ("none", "failed"):
            job = self.jobs[rt.id] = Job()
            job.task = asyncio.create_task(self._run(rt, job), name=f"analysis-{rt.id}")
            current = await self.status(rt)
        return current

    async def _run(self, rt: Runtime, job: Job) -> None:
        record = rt.record
        try:
            actions = [r.action for r in await self._log(rt)]
            for start in range(0, len(actions), MOVES_PER_CALL):
                job.moves += await self.workers.compute(
                    analyse_log, record.players, record.seed, record.setup, actions, start,
                    min(start + MOVES_PER_CALL, len(actions)), self.budget, rt.id)
            await self._db(self.storage.save_analysis, rt.id, job.moves)
            del self.jobs[rt.id]
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("cannot analyse game %s", rt.id)
            job.failed = True

    async def close(self) -> None:
        tasks = [job.task for job in self.jobs.values() if job.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
