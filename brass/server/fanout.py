"""Fan-out between instances through Postgres LISTEN/NOTIFY (no broker, no other service).

Every write notifies `notice.CHANNEL` in its own transaction (delivered at commit, in commit
order) with "game_id version instance" (and the move, when it fits). Each instance keeps one
dedicated connection that listens, and hands each notification to `GameCore.changed` (a game
held here applies the move carried, or catches up from the log's new rows, and publishes to
its sockets). The connection is checked every few
seconds; when it drops, notifications may be lost: it reconnects (with a growing pause) and
then `GameCore.resync` checks every game held here against the database. SQLite is one
process: no fan-out.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import psycopg
from sqlalchemy.engine import make_url

from . import logs, outage
from .notice import CHANNEL, Carried, Notice

log = logging.getLogger("brass.server")
CHECK = 5.0  # seconds without a notification before the connection is checked
START = 10.0  # seconds the start waits for the first listening connection


def libpq_url(url: str) -> str:
    """The SQLAlchemy URL (postgresql+psycopg://...) as psycopg takes it."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class Fanout:
    def __init__(self, url: str, instance: str,
                 changed: Callable[[str, int, str, Carried | None], None],
                 resync: Callable[[], None],
                 chatted: Callable[[str, str, dict[str, Any]], None] | None = None) -> None:
        self.url, self.instance = libpq_url(url), instance
        self.changed, self.resync, self.chatted = changed, resync, chatted
        self.connected = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Listen; returns once the first connection listens (a server that answers
        requests already hears every change), or after `START` seconds (it goes on trying,
        and checks every game held once it listens)."""
        self._task = asyncio.create_task(self._run(), name="fanout", context=logs.background())
        waiting = asyncio.ensure_future(self.connected.wait())
        await asyncio.wait([waiting, self._task], timeout=START,
                           return_when=asyncio.FIRST_COMPLETED)
        waiting.cancel()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        pause, first = 0.1, True
        while True:
            try:
                await self._listen(first)
                pause = 0.1
            except (psycopg.Error, OSError) as exc:  # one line per kind every few seconds
                outage.report(exc, "the fan-out's listening connection")
            self.connected.clear()
            first = False
            await asyncio.sleep(pause)
            pause = min(5.0, pause * 2)

    async def _listen(self, first: bool) -> None:
        async with await psycopg.AsyncConnection.connect(
                self.url, autocommit=True, application_name=f"brass-fanout {self.instance}"[:63],
                keepalives=1, keepalives_idle=10, keepalives_interval=5,
                keepalives_count=3) as conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            self.connected.set()
            if not first:
                log.info("fan-out: listening again; checking every game held here")
                self.resync()
            while True:
                async for note in conn.notifies(timeout=CHECK):
                    self._deliver(note.payload)
                await conn.execute("SELECT 1")  # quiet for a while: is the connection alive?

    def _deliver(self, payload: str) -> None:
        try:
            notice = Notice.parse(payload)
            if notice.chat is None:
                self.changed(notice.game_id, notice.version, notice.sender, notice.carried())
            elif self.chatted is not None:
                self.chatted(notice.game_id, notice.sender, notice.chat)
        except Exception:
            log.exception("fan-out: cannot handle the notification %r", payload)
