"""A move's one-statement write (`Storage.plan_append`) on Postgres, run on the event loop
over a few connections of its own (through libpq itself: prepared.py), so the commonest write
pays no thread hop and no SQLAlchemy layers (they were about a tenth of the server process's
CPU per move); and so the lobby's two common writes, creating a game and taking a seat
(quicklobby.py: they were about a third of the CPU to open a game). Any other write, and
every write on SQLite, goes through `Storage` in a database thread."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import psycopg
from psycopg.rows import namedtuple_row

from . import outage, prepared
from .fanout import libpq_url
from .quicklobby import QuickClaim, QuickWrite
from .storage import ActionRecord, Claimed, QuickAppend, StaleVersion, Storage, Timing

T = TypeVar("T")
Conn = psycopg.AsyncConnection[Any]

log = logging.getLogger("brass.server")
CONNECTIONS = 4  # at most, opened as needed and kept


class MoveWriter:
    """`synchronous`: each move's commit waits until Postgres has flushed it to disk (off:
    Postgres acknowledges it at once and flushes within a fraction of a second, so a crash of
    Postgres or of its machine may lose the last moves acknowledged; a crash of this server
    loses nothing). Only moves: every other write waits for the flush.

    `notify_after_commit`: the move's statement sends no notification; a `Notifier` sends it
    once the move has committed (docs/OWNERSHIP.md, "Notifying and the durable commit")."""

    def __init__(self, storage: Storage, size: int = CONNECTIONS,
                 synchronous: bool = True, notify_after_commit: bool = False) -> None:
        self.storage, self.url = storage, libpq_url(storage.url)
        self.options = "" if synchronous else "-c synchronous_commit=off"
        # what opens a lobby write's transaction: it waits for the flush even when moves don't
        self._begin = "BEGIN" if synchronous else "BEGIN; SET LOCAL synchronous_commit TO on"
        self._idle: list[psycopg.AsyncConnection[object]] = []
        self._slots = asyncio.Semaphore(size)
        self._closing: set[asyncio.Task[None]] = set()
        self.notifier = Notifier(self.url, storage.instance) if notify_after_commit else None

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
                    found = await prepared.execute(conn, quick.sql if self.notifier is None
                                                   else quick.quiet_sql, quick.params)
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
                if found:
                    if self.notifier is not None:
                        self.notifier.send(quick.params["channel"], quick.params["payload"])
                    return quick.record, quick.timing
                if attempt == 2:  # the first try may have committed before the break
                    raise await asyncio.to_thread(self.storage.refused, game_id,
                                                  quick.record.action_id)
                raise StaleVersion(game_id)
        raise AssertionError("unreachable")

    async def create(self, quick: QuickWrite) -> None:
        """A new game's write (`Storage.plan_create`): one statement."""
        async def write(conn: Conn) -> None:
            await conn.execute(quick.sql, quick.params)
        await self._run("create_game", write, transaction=False)

    async def claim(self, quick: QuickClaim) -> Claimed | None:
        """A seat's claim (`Storage.plan_claim`); None if it was refused (it wrote nothing).
        The lock, the claim and the commit go in one round trip (a pipeline): the claim
        statement runs after the lock is taken, and writes nothing if the lock found no
        waiting game."""
        async def write(conn: Conn) -> tuple[Any, list[Any]]:
            lock = conn.cursor(row_factory=namedtuple_row)
            claim = conn.cursor(row_factory=namedtuple_row)
            async with conn.pipeline():
                await lock.execute(quick.lock_sql, quick.params)
                await claim.execute(quick.claim_sql, quick.params)
                await conn.execute("COMMIT")
            return await lock.fetchone(), await claim.fetchall()
        game_row, rows = await self._run("claim_seat", write, transaction=True)
        return None if game_row is None else quick.outcome(game_row, rows)

    async def _run(self, what: str, write: Callable[[Conn], Awaitable[T]],
                   transaction: bool) -> T:
        """`write` on a kept connection: with `transaction`, in one it opens here and
        `write` commits (rolled back here if `write` raises); else `write` is one statement
        in autocommit. A kept connection found broken before `write` (Postgres restarted) is
        dropped and a new one tried; a break during `write` may have committed, so it is not
        tried again (`unavailable`, as a database thread's write)."""
        async with self._slots:
            for attempt in (1, 2):
                reused = bool(self._idle)
                conn = self._idle.pop() if reused else await self._connect()
                try:
                    await conn.execute(self._begin if transaction else "SELECT 1")
                except psycopg.OperationalError as exc:
                    self._drop(conn)
                    if reused and attempt == 1:
                        continue
                    raise outage.unavailable(exc, what) from None
                try:
                    done = await write(conn)
                except psycopg.OperationalError as exc:
                    self._drop(conn)
                    raise outage.unavailable(exc, what) from None
                except Exception:
                    try:
                        if transaction:
                            await conn.execute("ROLLBACK")
                    except psycopg.Error:
                        self._drop(conn)
                        raise
                    self._idle.append(conn)
                    raise
                except BaseException:  # cancelled mid-statement: its state is unknown
                    self._drop(conn)
                    raise
                self._idle.append(conn)
                return done
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
        if self.notifier is not None:
            await self.notifier.close()
        idle, self._idle = self._idle, []
        await asyncio.gather(*(self._close(c) for c in idle), *self._closing)


class Notifier:
    """Sends the notifications of moves already committed, in the order given, many in one
    transaction. A transaction that notifies holds a lock of the whole Postgres cluster from
    its notifying to the end of its commit, disk flush included; a move's commit that notifies
    so makes every other notifying commit wait for its flush. Here the moves commit (and
    flush) side by side, without that lock, and the notifications follow in transactions that
    write nothing durable (`synchronous_commit` off: they hold the lock for no flush).

    What it costs: a notification goes a moment after its move's commit, and one still
    waiting when this server dies is never sent (the other instances hear of that version
    with the game's next, or when a client names it; the move itself is in the log)."""

    def __init__(self, url: str, instance: str) -> None:
        self.url, self.instance = url, instance
        self._pending: list[tuple[str, str]] = []  # (channel, payload)
        self._wake = asyncio.Event()
        self._conn: psycopg.AsyncConnection[object] | None = None
        self._task: asyncio.Task[None] | None = None

    def send(self, to: str, payload: str) -> None:
        self._pending.append((to, payload))
        self._wake.set()
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="notifier")

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            await self._flush()

    async def _flush(self) -> None:
        batch, self._pending = self._pending, []
        if not batch:
            return
        try:
            if self._conn is None or self._conn.closed:
                self._conn = await psycopg.AsyncConnection.connect(
                    self.url, autocommit=True, options="-c synchronous_commit=off",
                    application_name=f"brass-notify {self.instance}"[:63])
            await self._conn.execute(
                "SELECT pg_notify(c, p) FROM unnest(%s::text[], %s::text[]) "
                "WITH ORDINALITY AS n(c, p, i) ORDER BY i",
                ([c for c, _ in batch], [p for _, p in batch]))
        except psycopg.Error as exc:  # lost: the others catch up at the game's next version
            outage.report(exc, "notify")
            if self._conn is not None:
                await MoveWriter._close(self._conn)
            self._conn = None

    async def close(self) -> None:
        """Send what is waiting, then stop."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        await self._flush()
        if self._conn is not None:
            await MoveWriter._close(self._conn)
