"""Analyses of finished games (`brass.bots.analysis`) as bounded jobs: started only by a seat or
the host of the finished game (anyone reads one once it is stored), one job per game across
instances (a row in `analysis_jobs`, analysisjobs.py), computed a few moves at a time in a pool
of their own at the lowest CPU priority (so bot moves keep their pace however many analyses
are asked for), within a server-wide cap and a cap per client address (429 with Retry-After
past either), with the moves judged so far stored in the job's row: any instance shows the
progress, and another instance resumes the job where it stopped if its owner dies."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from brass.bots.analysis import analyse_log

from . import metrics, outage
from .analysisjobs import AnalysisJobs
from .auth import token_matches
from .errors import ApiError
from .runtime import Runtime
from .storage import ActionRecord, Storage
from .workers import ANALYSIS_NICE, Workers

log = logging.getLogger("brass.server")
MOVES_PER_CALL = 4  # moves judged per worker call: a few CPU seconds at most
JOB_TTL = 10.0  # seconds a job stays its owner's without a renewal (then another resumes it)
TEND_EVERY = 3.0  # seconds between renewals and looks for jobs a dead instance left
RETRY_AFTER = 30  # seconds a refused start is told to wait (about a short game's analysis)


class Analyses:
    def __init__(self, storage: Storage, db: Callable[..., Awaitable[Any]],
                 runtime: Callable[[str], Awaitable[Runtime]], budget: float,
                 log: Callable[[Runtime], Awaitable[list[ActionRecord]]],
                 workers: int = 1, server_cap: int = 2, address_cap: int = 1) -> None:
        self.storage, self._db, self._runtime, self._log = storage, db, runtime, log
        self.budget = budget  # CPU seconds per move
        self.pool = Workers(workers, nice=ANALYSIS_NICE, inline=False,
                            pool="analyses", idle=True)
        self.jobs = AnalysisJobs(storage, storage.instance or "local", JOB_TTL)
        self.server_cap, self.address_cap = server_cap, address_cap
        self.running: dict[str, asyncio.Task[None]] = {}
        self._tending: asyncio.Task[None] | None = None
        self._warming: asyncio.Task[None] | None = None
        self._closing = False

    def start_tending(self) -> None:
        """Renew and resume jobs from now on; start the pool's processes in the background
        (at their low priority they may take long to load the engine: never waited for)."""
        self._tending = asyncio.create_task(self._tend_forever(), name="tend-analyses")
        self._warming = asyncio.create_task(self._warm(), name="warm-analyses")

    async def _warm(self) -> None:
        with contextlib.suppress(Exception):
            await self.pool.start()

    async def status(self, rt: Runtime) -> dict[str, Any]:
        """`none` (not asked for), `running` (with the moves judged so far), `done` (all of
        them) or `failed` (the log does not replay on this engine; asking again retries)."""
        stored = await self._db(self.storage.load_analysis, rt.id)
        if stored is not None:
            return {"status": "done", "done": len(stored), "total": len(stored),
                    "moves": stored}
        job = await self._db(self.jobs.get, rt.id)
        if job is None:
            return {"status": "none", "done": 0, "total": rt.count, "moves": []}
        return {"status": "failed" if job.failed else "running", "done": len(job.moves),
                "total": job.total, "moves": job.moves}

    async def start(self, rt: Runtime, token: str | None, address: str) -> dict[str, Any]:
        """Start the analysis (a seat's or the host's token): once per game on the whole
        server; an analysis under way or stored is shown, not started again."""
        if rt.seat_of(token) is None and not token_matches(token, rt.record.host_token_hash):
            raise ApiError("unauthorized", "Only a player or the host of this game can start "
                           "its analysis (anyone can read it once it is done)")
        if rt.record.status != "finished":
            raise ApiError("game_not_running", "A game is analysed once it is over")
        current = await self.status(rt)
        if current["status"] not in ("none", "failed"):
            return current
        outcome = await self._db(self.jobs.claim, rt.id, address, rt.count, self.server_cap,
                                 self.address_cap)
        if outcome == "server_busy":
            raise ApiError("rate_limited", f"The server is analysing {self.server_cap} games "
                           f"already: try again in {RETRY_AFTER} s", retry_after=RETRY_AFTER)
        if outcome == "address_busy":
            raise ApiError("rate_limited", "An analysis asked for from here is under way: "
                           f"try again in {RETRY_AFTER} s", retry_after=RETRY_AFTER)
        if outcome == "claimed":
            self._launch(rt.id)
        return await self.status(rt)

    def _launch(self, game_id: str) -> None:
        if game_id not in self.running:
            self.running[game_id] = asyncio.create_task(self._run(game_id),
                                                        name=f"analysis-{game_id}")

    async def _run(self, game_id: str) -> None:
        """Judge the moves not yet judged, a few per call, storing each step; stop when the
        job is taken by another instance (this one was thought dead)."""
        try:
            rt = await self._runtime(game_id)
            record = rt.record
            job = await self._db(self.jobs.get, game_id)
            moves = [] if job is None else list(job.moves)
            actions = [r.action for r in await self._log(rt)]
            for start in range(len(moves), len(actions), MOVES_PER_CALL):
                judged = await self.pool.compute(
                    analyse_log, record.players, record.seed, record.setup, actions, start,
                    min(start + MOVES_PER_CALL, len(actions)), self.budget, game_id)
                moves += judged
                metrics.ANALYSED_MOVES.inc(len(judged))
                if not await self._db(self.jobs.progress, game_id, moves):
                    return  # another instance holds it now
            await self._db(self.storage.save_analysis, game_id, moves)
            await self._db(self.jobs.finish, game_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            if self._closing:
                return  # the worker was stopped: the job is resumed later
            log.exception("cannot analyse game %s", game_id)
            with contextlib.suppress(Exception):
                await self._db(self.jobs.fail, game_id)
        finally:
            self.running.pop(game_id, None)

    async def _tend_forever(self) -> None:
        """Keep this instance's jobs (renew their leases) and resume the jobs of instances
        that stopped renewing theirs, within the server's cap of jobs at once."""
        while True:
            try:
                await self._db(self.jobs.renew)
                room = self.server_cap - len(self.running)
                if room > 0:
                    for game_id in await self._db(self.jobs.orphans, room):
                        log.info("resuming the analysis of game %s", game_id)
                        self._launch(game_id)
            except Exception as exc:
                outage.background(exc, "cannot tend the analyses")
            await asyncio.sleep(TEND_EVERY)

    async def close(self) -> None:
        """Stop at once (the worker is killed, its pool let go of): this instance's jobs are
        released for another instance, or this one's next start, to resume."""
        tasks = [t for t in (self._tending, self._warming, *self.running.values())
                 if t is not None]
        self._closing = True
        self.pool.close(kill=True)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        with contextlib.suppress(Exception):
            await self._db(self.jobs.release)
