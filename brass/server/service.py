"""The game service: the per-game core (core.py) and the features above it, made and started
together. Routes and sockets call the features (`lobby`, `play`, `seats`, `replays`); the
steward drives play and seats; the fan-out tells the core what other instances wrote.

    lobby  play  seats  replays  analyses      features: call only down
         \\    |     |     /
          core (loading, lock, catch-up, publishing) ── steward (bots, clocks)
            |
          storage, workers

See docs/SERVER.md for the rooms and the path of a move."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from . import chat, memory
from .analyses import Analyses
from .core import GameCore
from .lobby import Lobby
from .movewrite import MoveWriter
from .notice import Carried
from .play import Play
from .replays import Replays
from .runtime import Runtime
from .seats import Seats
from .steward import Steward
from .storage import Storage
from .workers import Workers

log = logging.getLogger("brass.server")


class GameService:
    def __init__(self, storage: Storage, bot_delay: float = 0.5, workers: int = 1,
                 waiting_expiry: float = 0.0, finished_listed: float = 0.0,
                 clock_minimum: float = 30.0,
                 bot_budget: float = 1.0, analysis_budget: float = 0.5,
                 synchronous_commit: bool = True, notify_after_commit: bool = False,
                 analysis_workers: int = 1, analysis_jobs: int = 2,
                 analysis_per_address: int = 1) -> None:
        self.storage = storage
        self.waiting_expiry = waiting_expiry  # seconds; 0: waiting games never expire
        self.workers = Workers(workers)
        self.core = core = GameCore(storage, self.workers)
        writer = (MoveWriter(storage, synchronous=synchronous_commit,
                             notify_after_commit=notify_after_commit)
                  if storage.postgres else None)
        self.lobby = Lobby(core, writer, clock_minimum, finished_listed)
        self.replays = Replays(core)
        self.play = Play(core, self.replays, writer, bot_budget)
        self.seats = Seats(core)
        self.analyses = Analyses(storage, core.db, core.runtime, analysis_budget,
                                 self.replays.log_rows, analysis_workers, analysis_jobs,
                                 analysis_per_address)
        self.steward = core.tending = Steward(core, self.play, self.seats, bot_delay)
        self._background: list[asyncio.Task[None]] = []
        self._late: set[asyncio.Task[None]] = set()  # chat lines sent again (`listening`)

    @property
    def games(self) -> dict[str, Runtime]:
        """The games held in memory on this instance."""
        return self.core.games

    async def runtime(self, game_id: str) -> Runtime:
        return await self.core.runtime(game_id)

    async def start(self) -> None:
        """Start the worker processes and the steward (it claims the games with background
        work, rebuilds them from their logs and lets their bots play on)."""
        await self.workers.start()
        await self.steward.start()
        self.analyses.start_tending()
        self._background.append(asyncio.create_task(memory.trim_forever(), name="trim-memory"))
        if self.waiting_expiry > 0:
            self._background.append(asyncio.create_task(
                self.lobby.expire_forever(self.waiting_expiry), name="expire-waiting"))

    async def close(self) -> None:
        await self.steward.close()
        for task in [*self._background, *self._late]:
            task.cancel()
        await asyncio.gather(*self._background, *self._late, return_exceptions=True)
        await self.core.stop()
        await self.analyses.close()
        if self.play.writer is not None:
            await self.play.writer.close()
        self.core.close()
        self.workers.close()

    # -- what the fan-out (fanout.py) hears from other instances ----------------------------
    def changed(self, game_id: str, version: int, sender: str,
                carried: Carried | None = None) -> None:
        self.core.changed(game_id, version, sender, carried)

    def resync(self) -> None:
        self.core.resync()

    def listening(self, game_ids: list[str]) -> None:
        """The fan-out listens to these games' channels now: what other instances changed
        before it did was not heard. The moves are read from the log (`GameCore.listening`);
        the recent chat lines are sent again to this instance's clients of each game
        (`chat.heard_late`)."""
        self.core.listening(game_ids)
        for game_id in game_ids:
            rt = self.core.games.get(game_id)
            if rt is None or not rt.subscribers:
                continue  # nobody here to have missed a line
            task = asyncio.create_task(self._heard_late(rt), name=f"chat-late-{game_id}")
            self._late.add(task)
            task.add_done_callback(self._late.discard)

    async def _heard_late(self, rt: Runtime) -> None:
        try:
            await chat.heard_late(self.core, rt)
        except Exception as exc:  # the database out of reach: the lines wait for a reload
            log.warning("game %s: the chat's latest lines not read again (%r)", rt.id, exc)

    def chatted(self, game_id: str, sender: str, message: dict[str, Any]) -> None:
        """A chat message sent through another instance: to this instance's clients too."""
        rt = self.core.games.get(game_id)
        if sender != self.storage.instance and rt is not None:
            chat.broadcast(rt, message)
