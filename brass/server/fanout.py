"""Fan-out between instances through Postgres LISTEN/NOTIFY (no broker, no other service).

Every write notifies the game's channel (`notice.channel`) in its own transaction (delivered
at commit, in commit order) with "game_id version instance" (and the move, when it fits). Each
instance keeps one dedicated connection that listens to the channels of the games it holds
(`hear`, `forget`: the core tells it), and hands each notification to `GameCore.changed` (a
game held here applies the move carried, or catches up from the log's new rows, and publishes
to its sockets). The event loop reads the connection's socket whenever it has data (a reader
of its own: one wake-up for all the notifications waiting, and none while nothing comes).
A channel is listened to a moment after its game is held (the LISTEN is a round trip of the
connection, taken as soon as it is free): what was sent before is read from the database then
(`heard`: `GameCore.listening`), except for a game this instance has just made: its creation
waits for its LISTEN (`hear_new`) before anyone is told its id, so nothing was sent before.
The connection is checked when it has been quiet for a few
seconds; when it drops, notifications may be lost: it reconnects (with a growing pause) and
then `GameCore.resync` checks every game held here against the database. SQLite is one
process: no fan-out.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo
from sqlalchemy.engine import make_url

from . import logs, metrics, outage
from .notice import Carried, Notice, channel, sender_of

log = logging.getLogger("brass.server")
CHECK = 5.0  # seconds without a notification before the connection is checked
START = 10.0  # seconds the start waits for the first listening connection
NEW_WAIT = 1.0  # seconds a new game's creation waits for its LISTEN (then: read, as others)


def libpq_url(url: str) -> str:
    """The SQLAlchemy URL (postgresql+psycopg://...) as psycopg takes it: a conninfo string
    of its parts (a URL rendered again keeps a space of the password as it is, which psycopg
    refuses: tests/server/test_db_settings.py gives one)."""
    parsed = make_url(url)
    parts: dict[str, Any] = {
        "host": parsed.host, "port": parsed.port, "user": parsed.username,
        "password": parsed.password, "dbname": parsed.database,
        **{k: v for k, v in parsed.query.items() if isinstance(v, str)}}
    return make_conninfo(**{k: v for k, v in parts.items() if v is not None})


class Fanout:
    def __init__(self, url: str, instance: str,
                 changed: Callable[[str, int, str, Carried | None], None],
                 resync: Callable[[], None],
                 chatted: Callable[[str, str, dict[str, Any]], None] | None = None,
                 heard: Callable[[list[str]], None] | None = None) -> None:
        self.url, self.instance = libpq_url(url), instance
        self.changed, self.resync, self.chatted, self.heard = changed, resync, chatted, heard
        self._wanted: dict[str, str] = {}  # channel -> game id: the games held here
        self._listening: set[str] = set()  # the channels the connection listens to
        self._new: dict[str, asyncio.Future[None]] = {}  # channels of new games: LISTENed
        self.connected = asyncio.Event()
        self._changes = asyncio.Event()  # the games held changed: LISTEN or UNLISTEN
        self._heard_at = 0.0  # when the connection last said something (monotonic)
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

    def hear(self, game_id: str) -> None:
        """Listen to the game's channel (as soon as the connection is free)."""
        self._wanted[channel(game_id)] = game_id
        self._changes.set()

    async def hear_new(self, game_id: str) -> None:
        """Listen to the channel of a game this instance has just made, before its id goes
        out: returns once it is listened to (nobody else could have changed the game before:
        it is not read again), or after `NEW_WAIT` seconds (the fan-out is reconnecting: it
        is read once listened to, as any other game)."""
        to = channel(game_id)
        listened = self._new[to] = asyncio.get_running_loop().create_future()
        self.hear(game_id)
        try:
            await asyncio.wait_for(asyncio.shield(listened), NEW_WAIT)
        except TimeoutError:
            pass
        finally:
            if self._new.get(to) is listened:
                del self._new[to]

    def forget(self, game_id: str) -> None:
        self._wanted.pop(channel(game_id), None)
        self._changes.set()

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
            # what arrives while a command of ours runs (LISTEN, the check) comes through
            # psycopg's handler; what arrives between them, through the reader (`_readable`)
            conn.add_notify_handler(lambda note: self._deliver(note.payload))
            self._listening = set()
            await self._channels(conn, announce=False)
            self.connected.set()
            if not first:
                log.info("fan-out: listening again; checking every game held here")
                self.resync()
            loop, fd = asyncio.get_running_loop(), conn.pgconn.socket
            broken: asyncio.Future[None] = loop.create_future()
            self._heard_at = time.monotonic()
            loop.add_reader(fd, self._readable, conn, fd, broken)
            try:
                while True:
                    self._changes.clear()
                    if self._wanted.keys() != self._listening:
                        await self._between(conn, fd, broken, self._channels(conn, True))
                        continue
                    waiting: asyncio.Future[Any] = asyncio.ensure_future(self._changes.wait())
                    await asyncio.wait((waiting, broken), timeout=CHECK,
                                       return_when=asyncio.FIRST_COMPLETED)
                    waiting.cancel()
                    if broken.done():
                        broken.result()  # raises what broke the connection
                    if time.monotonic() - self._heard_at > CHECK:  # quiet: alive?
                        await self._between(conn, fd, broken, conn.execute("SELECT 1"))
                        self._heard_at = time.monotonic()
            finally:
                loop.remove_reader(fd)
                if broken.done():
                    broken.exception()  # retrieved, whatever ended the loop

    def _readable(self, conn: psycopg.AsyncConnection[Any], fd: int,
                  broken: asyncio.Future[None]) -> None:
        """The listening socket has data: every notification it holds, delivered (one
        wake-up of the event loop for all of them, where psycopg's `notifies()` sets up a
        wait per notification and one every time it is asked again)."""
        pgconn = conn.pgconn
        try:
            pgconn.consume_input()
        except psycopg.Error as exc:  # the connection is gone: `_listen` reconnects
            asyncio.get_running_loop().remove_reader(fd)
            if not broken.done():
                broken.set_exception(exc)
            return
        encoding = conn.info.encoding
        while (note := pgconn.notifies()) is not None:
            self._heard_at = time.monotonic()
            self._deliver(note.extra.decode(encoding))

    async def _between(self, conn: psycopg.AsyncConnection[Any], fd: int,
                       broken: asyncio.Future[None], command: Awaitable[Any]) -> None:
        """Run one of our commands on the listening connection: psycopg waits on its socket
        itself meanwhile, so the reader steps aside (notifications that arrive come through
        the handler) and comes back after."""
        loop = asyncio.get_running_loop()
        loop.remove_reader(fd)
        try:
            await command
        finally:
            if not conn.closed:
                loop.add_reader(fd, self._readable, conn, fd, broken)
        self._readable(conn, fd, broken)  # what came after psycopg's last read

    async def _channels(self, conn: psycopg.AsyncConnection[Any], announce: bool) -> None:
        """LISTEN to the channels of the games held now, UNLISTEN the others; with
        `announce`, the games newly listened to are checked against the database (`heard`):
        a change made before the LISTEN took effect was not heard."""
        wanted = dict(self._wanted)
        new = [c for c in wanted if c not in self._listening]
        gone = [c for c in self._listening if c not in wanted]
        if new or gone:
            await conn.execute(sql.SQL("; ").join(
                [sql.SQL("LISTEN {}").format(sql.Identifier(c)) for c in new]
                + [sql.SQL("UNLISTEN {}").format(sql.Identifier(c)) for c in gone]))
        self._listening = set(wanted)
        fresh = [c for c in new if c in self._new]
        for c in fresh:
            self._new.pop(c).set_result(None)
        new = [c for c in new if c not in fresh]
        if announce and new and self.heard is not None:
            self.heard([wanted[c] for c in new])

    def _deliver(self, payload: str) -> None:
        metrics.HEARD.inc()
        try:
            if sender_of(payload) == self.instance:
                return  # this instance's own commit, applied here already
            notice = Notice.parse(payload)
            if notice.chat is None:
                self.changed(notice.game_id, notice.version, notice.sender, notice.carried())
            elif self.chatted is not None:
                self.chatted(notice.game_id, notice.sender, notice.chat)
        except Exception:
            log.exception("fan-out: cannot handle the notification %r", payload)
