"""One owner per game for its background work (docs/OWNERSHIP.md).

Each instance runs one `Steward`. Every `RENEW` seconds it renews the leases it holds (TTL
`TTL`, compared with the database clock only), claims games that need background work and
whose lease is free or expired (at most a fair share: the games needing work divided by the
instances holding leases), and runs one task per held game (`_tend`). A killed instance stops
renewing: within TTL + RENEW seconds another claims its games. Losing a lease cancels the
game's task. The lease only saves work: every step a task takes is a versioned write, so two
instances that both tried could not both land it.

A game's task waits for the first of: a bot to move (it moves after the bot delay), a new
version (a local commit, or another instance's through fanout.py), the deadline of the seat to
move (`games.deadline`: then it times the seat out, a write the database refuses before the
deadline by its own clock). SQLite is one process: `LocalLeases` gives this instance every
game.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import math
import time
from typing import TYPE_CHECKING, Protocol

from . import logs, outage
from .clockwatch import RECHECK, ClockWatch
from .due import due
from .errors import ApiError
from .storage import Leases, Storage, now

if TYPE_CHECKING:
    from .core import GameCore
    from .play import Play
    from .runtime import Runtime
    from .seats import Seats

log = logging.getLogger("brass.server")
RENEW, TTL = 2.0, 6.0  # seconds: a dead owner's games are taken over within TTL + RENEW
RETRY_FIRST, RETRY_MOST = 5.0, 600.0  # seconds before loading a game that failed is tried again


class LeaseTable(Protocol):
    def renew(self) -> set[str]: ...
    def census(self) -> tuple[int, int]: ...
    def claim(self, limit: int, game_id: str | None = None) -> dict[str, int]: ...
    def drop(self, game_ids: list[str]) -> None: ...


class LocalLeases:
    """One process on SQLite: this instance holds every game that needs work."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.held: set[str] = set()

    def renew(self) -> set[str]:
        return set(self.held)

    def census(self) -> tuple[int, int]:
        return len(self.storage.needing_work()), 0

    def claim(self, limit: int, game_id: str | None = None) -> dict[str, int]:
        ids = [g for g in self.storage.needing_work()
               if g not in self.held and game_id in (None, g)][:limit]
        self.held.update(ids)
        return dict.fromkeys(ids, 1)

    def drop(self, game_ids: list[str]) -> None:
        self.held.difference_update(game_ids)


def lease_table(storage: Storage) -> LeaseTable:
    if storage.postgres:
        return Leases(storage, storage.instance, TTL)
    return LocalLeases(storage)


class Steward:
    def __init__(self, core: GameCore, play: Play, seats: Seats, bot_delay: float) -> None:
        self.core, self.play, self.seats = core, play, seats
        self.bot_delay = bot_delay
        self.leases = lease_table(core.storage)
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self._loop: asyncio.Task[None] | None = None
        self._pokes: set[asyncio.Task[None]] = set()
        # games that failed to load (say, a log this engine cannot replay): {id: (pause, when
        # to try again)}; their lease stays here, so no instance loads them more often
        self._failing: dict[str, tuple[float, float]] = {}
        self._closing = False
        self.watch = ClockWatch(core.storage)  # app.py gives it the sender and the minimum

    def owns(self, game_id: str) -> bool:
        return game_id in self.tasks

    async def start(self) -> None:
        """The first round at once (a restarted server's bots play on before it answers),
        then one every RENEW seconds."""
        await self.tick()
        self._loop = asyncio.create_task(self._run(), name="steward", context=logs.background())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(RENEW)
            try:
                await self.tick()
            except Exception as exc:  # the database out of reach: one line a kind (outage.py)
                outage.background(exc, "the steward round failed")

    async def tick(self) -> None:
        """Renew, let go of what was lost or is done, claim a fair share of the rest."""
        db = self.core.db
        held = await db(self.leases.renew)
        done = [g for g, t in self.tasks.items() if t.done()]
        for game_id in [g for g in self.tasks if g not in held]:
            log.info("lost the lease of game %s", game_id)
            self.tasks.pop(game_id).cancel()
        for game_id in done:
            self.tasks.pop(game_id, None)
        if done:
            await db(self.leases.drop, done)
            held.difference_update(done)
        needing, others = await db(self.leases.census)
        share = math.ceil(needing / (others + 1)) - len(held)
        if share > 0:
            held.update(await db(self.leases.claim, share))
        for game_id in held:
            self._tend_game(game_id)

    def poke(self, game_id: str) -> None:
        """A game just started here, or a bot plays a seat of it from now: claim it now
        rather than at the next round."""
        running = self.tasks.get(game_id)
        if self._closing or (running is not None and not running.done()):
            return
        if running is not None:  # its task found no work and ended; the lease is still held
            self._tend_game(game_id)
            return
        task = asyncio.create_task(self._claim_one(game_id), context=logs.background())
        self._pokes.add(task)
        task.add_done_callback(self._pokes.discard)

    async def _claim_one(self, game_id: str) -> None:
        try:
            if await self.core.db(self.leases.claim, 1, game_id):
                self._tend_game(game_id)
        except ApiError:
            pass  # the database out of reach (outage.py logged it): the next round claims it
        except Exception:
            log.exception("cannot claim game %s", game_id)

    def _tend_game(self, game_id: str) -> None:
        running = self.tasks.get(game_id)
        if self._closing or (running is not None and not running.done()):
            return
        failing = self._failing.get(game_id)
        if failing is not None and time.monotonic() < failing[1]:
            return
        self.tasks[game_id] = asyncio.create_task(
            self._tend(game_id), name=f"steward-{game_id}", context=logs.background())

    async def _tend(self, game_id: str) -> None:
        """The game's background work, until it has none (its lease is then dropped)."""
        try:
            rt = await self.core.runtime(game_id)
        except Exception as exc:
            if isinstance(exc, ApiError) and exc.code == "unavailable":
                return  # the database out of reach (outage.py logged it): the next round tries
            pause = min(RETRY_MOST, 2 * self._failing.get(game_id, (RETRY_FIRST / 2, 0))[0])
            self._failing[game_id] = (pause, time.monotonic() + pause)
            log.warning("cannot load game %s (%s); trying again in %.0f s", game_id, exc, pause)
            return
        self._failing.pop(game_id, None)
        failures = 0
        while True:
            rt.changed.clear()
            if rt.behind:
                with contextlib.suppress(Exception):  # logged; tried again below
                    await self.core.catch_up(rt)
            work = due(rt)
            if not work.live:
                self.watch.forget(game_id)
                return
            if work.bot is None and work.deadline is not None and work.mover is not None:
                failures = await self._clock(rt, work.mover, work.version, work.deadline,
                                             failures)
                continue
            if work.bot is None:
                await rt.changed.wait()
                continue
            await asyncio.sleep(self.bot_delay if failures == 0
                                else min(5.0, 0.2 * failures))
            try:
                await self.play.bot_move(rt, fallback=failures >= 2)
                failures = 0
            except ApiError as exc:
                if exc.code != "stale_version":  # another writer was first: from the new one
                    failures += 1
                if exc.code not in ("stale_version", "unavailable"):  # outage.py logs those
                    log.warning("bot move refused in game %s: %s %s", game_id, exc.code,
                                exc.message)
            except Exception:
                failures += 1
                log.exception("bot failed in game %s", game_id)

    async def _clock(self, rt: Runtime, seat: int, version: int, deadline: dt.datetime,
                     failures: int) -> int:
        """Wait for the next thing the mover's clock brings (or a new version: the caller
        looks again): a reminder (clockwatch.py), or the deadline, with the player's
        vacations taken out; then send it, or time the seat out. `not_yet`: this
        instance's clock is ahead of the database's, try again shortly; `stale_version`:
        the game moved on. The failures so far."""
        try:
            plan = await self.core.db(self.watch.plan, rt, seat, deadline, now())
        except Exception as exc:
            outage.background(exc, f"cannot read the clock of game {rt.id}")
            await asyncio.sleep(min(5.0, 0.2 * (failures + 1)))
            return failures + 1
        wake = plan.deadline
        for _, when, _ in plan.reminders:
            wake = min(wake, when if plan.away is None else max(when, plan.away))
        wait = min((wake - now()).total_seconds(), RECHECK)
        if failures:
            wait = max(wait, min(5.0, 0.05 * failures))
        if wait > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(rt.changed.wait(), wait)
                return failures  # something changed: the caller looks again
        at = now()
        if plan.deadline > at:  # a reminder, or a wait cut short to read the vacations again
            if plan.away is None or plan.away <= at:
                try:
                    sent = await self.core.db(self.watch.claim, rt, plan, at)
                except Exception:
                    log.warning("cannot mark a clock reminder of game %s", rt.id,
                                exc_info=True)
                    return failures + 1
                if sent is not None:
                    self.watch.tell(rt, seat, plan, *sent)
            return failures
        try:
            await self.seats.time_out(rt, seat, version, plan.grace)
            return 0
        except ApiError as exc:
            if exc.code == "not_yet":
                return failures + 1
            if exc.code != "stale_version":
                if exc.code != "unavailable":  # outage.py logs those
                    log.warning("time-out refused in game %s: %s %s", rt.id, exc.code,
                                exc.message)
                return failures + 1
            return 0
        except Exception:
            log.exception("cannot time out seat %s of game %s", seat, rt.id)
            return failures + 1

    async def close(self) -> None:
        """Stop every task and give the leases up, so another instance takes over at once."""
        self._closing = True
        tasks = [*self.tasks.values(), *self._pokes]
        if self._loop is not None:
            tasks.append(self._loop)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        held = list(self.tasks)
        self.tasks.clear()
        if held:
            try:
                await self.core.db(self.leases.drop, held)
            except Exception:
                log.warning("cannot give up the leases at close", exc_info=True)
