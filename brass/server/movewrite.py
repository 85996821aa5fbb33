"""A move's one-statement write (`Storage.plan_append`) on Postgres, run on the event loop
over a few connections of its own, so the commonest write pays no thread hop and no
SQLAlchemy layers (they were about a tenth of the server process's CPU per move). Any other
write, and every write on SQLite, goes through `Storage` in a database thread."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import psycopg

from . import outage
from .fanout import libpq_url
from .storage import ActionRecord, QuickAppend, StaleVersion, Storage, Timing

log = logging.getLogger("brass.server")
CONNECTIONS = 4  # at most, opened as needed and kept


class MoveWriter:
    """`synchronous`: each move's commit waits until Postgres has flushed it to disk (off:
    Postgres acknowledges it at once and flushes within a fraction of a second, so a crash of
    Postgres or of its machine may lose the last moves acknowledged; a crash of this server
    loses nothing). Only moves: every other write waits for the flush."""

    def __init__(self, storage: Storage, size: int = CONNECTIONS,
                 synchronous: bool = True) -> None:
        self.storage, self.url = storage, libpq_url(storage.url)
        self.options = "" if synchronous else "-c synchronous_commit=off"
        self._idle: list[psycopg.AsyncConnection[object]] = []
        self._slots = asyncio.Semaphore(size)
        self._closing: set[asyncio.Task[None]] = set()

    async def append(self, game_id: str, quick: QuickAppend) -> tuple[ActionRecord,
                                                                        Timing | None]:
        """Carry out `quick`; `StaleVersion` or `DuplicateActionId` as `Storage.append_turn`.
        A kept connection that turns out broken (Postgres restarted) is dropped and the write
        tried once more on a new one: a write that had committed before the break is then
        found by its action id."""
        async with self._slots:
            for attempt in (1, 2):
                reused = bool(self._idle)
                conn = self._idle.pop() if reused else await self._connect()
                try:
                    cur = await conn.execute(quick.sql, quick.params)
                    found = await cur.fetchone()
                except psycopg.errors.IntegrityError:
                    self._idle.append(conn)  # autocommit: the connection is ready again
                    raise await asyncio.to_thread(self.storage.refused, game_id,
                                                  quick.record.action_id) from None
                except psycopg.OperationalError as exc:
                    self._drop(conn)
                    if reused and attempt == 1:
                        log.warning("a kept database connection broke; writing again")
                        continue
                    raise outage.unavailable(exc, "move") from None
                except BaseException:  # cancelled mid-statement: its state is unknown
                    self._drop(conn)
                    raise
                self._idle.append(conn)
                if found is not None:
                    return quick.record, quick.timing
                if attempt == 2:  # the first try may have committed before the break
                    raise await asyncio.to_thread(self.storage.refused, game_id,
                                                  quick.record.action_id)
                raise StaleVersion(game_id)
        raise AssertionError("unreachable")

    async def _connect(self) -> psycopg.AsyncConnection[object]:
        try:
            return await psycopg.AsyncConnection.connect(
                self.url, autocommit=True, options=self.options,
                application_name=f"brass-moves {self.storage.instance}"[:63])
        except psycopg.OperationalError as exc:
            raise outage.unavailable(exc, "move") from None

    def _drop(self, conn: psycopg.AsyncConnection[object]) -> None:
        task = asyncio.ensure_future(self._close(conn))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    @staticmethod
    async def _close(conn: psycopg.AsyncConnection[object]) -> None:
        with contextlib.suppress(Exception):
            await conn.close()

    async def close(self) -> None:
        idle, self._idle = self._idle, []
        await asyncio.gather(*(self._close(c) for c in idle), *self._closing)
