"""The connection every store shares: the engine, one short transaction at a time, and the
notification of each commit to the other instances (notice.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from sqlalchemy import (
    create_engine,
    event,
    text,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.pool import NullPool, QueuePool

from . import jsontext
from .notice import Notice, channel

JSON_CODEC: dict[str, Any] = {"json_serializer": jsontext.dumps,
                              "json_deserializer": jsontext.loads}


def private(path: Path) -> None:
    """Make the SQLite file `path`, if it is not there, readable by its owner alone: it holds
    every seat's token hash and every chat line, as a Postgres dump does (deploy/backup.sh
    writes those 0600). SQLite gives its -wal and -shm files the database file's mode."""
    with suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def make_engine(url: str, name: str = "") -> Engine:
    """An SQLAlchemy engine for `url`; creates the SQLite file's folder if needed. On Postgres
    its connections say `name` as their `application_name` (`pg_stat_activity`: restore.sh
    refuses while an instance's connections are there)."""
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if not path or path == ":memory:":  # a memory database keeps no connection
            return _sqlite_engine(url, {"poolclass": NullPool})
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        private(Path(path))
        # a file's connections are kept (as many as the database threads, core.py: 16, and
        # as many again for `asyncio.to_thread`'s readers): opening one and setting its
        # pragmas was 40 % of a desk poll's CPU and a quarter of a move's (bench/
        # requestcost.py, bench/server.py --sqlite)
        engine = _sqlite_engine(url, {"poolclass": QueuePool, "pool_size": 16,
                                      "max_overflow": 16})

        @event.listens_for(engine, "connect")
        def _opened(_dbapi_conn: Any, record: Any) -> None:
            record.info["file"] = _file_of(path)

        @event.listens_for(engine, "checkout")
        def _same_file(_dbapi_conn: Any, record: Any, _proxy: Any) -> None:
            """A kept connection to a file since removed or replaced (a copy put back by
            hand) would go on with the old one, and what it wrote would be lost: it is let go,
            and the pool opens the file now at the path (or fails as a fresh one would)."""
            if record.info.get("file") != _file_of(path):
                raise DisconnectionError("the SQLite file was removed or replaced")

        return engine
    # as many kept connections as the server's database threads (core.py: 16): a pool
    # smaller than its users opens and closes a connection (a Postgres process) per
    # overflowing write under load. With the move writer's 4, the listener, the push
    # sender's one and the notifier's, an instance uses at most 27 (HOSTING.md)
    named = {"connect_args": {"application_name": name[:63]}} if name else {}
    return create_engine(url, pool_size=16, max_overflow=4, pool_pre_ping=True, **named,
                         **JSON_CODEC)


def _sqlite_engine(url: str, pooled: dict[str, Any]) -> Engine:
    """An SQLite engine whose every connection writes ahead (WAL), checks foreign keys and
    syncs each commit to disk."""
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                           **pooled, **JSON_CODEC)

    @event.listens_for(engine, "connect")
    def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA synchronous=FULL")
        cur.close()

    return engine


def _file_of(path: str) -> tuple[int, int] | None:
    """The file at `path` (device, inode; None: none there)."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


class StoreBase:
    """A database connection for the stores (storage.py, movelog.py, leases.py)."""

    def __init__(self, url: str, instance: str = "") -> None:
        self.url = url
        self.instance = instance
        self.engine = make_engine(url, f"brass-main {instance}" if instance else "")
        self.postgres = self.engine.dialect.name == "postgresql"

    def _notify(self, conn: Connection, game_id: str, version: int | None) -> None:
        """Tell the other instances (at commit) that `game_id` changed: its new `version`, or
        -1 for a change that keeps the version (seats, status, listing)."""
        if self.postgres:
            notice = Notice(game_id, self.instance, -1 if version is None else version)
            conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                         {"channel": channel(game_id), "payload": notice.text()})

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        with self.engine.begin() as conn:
            yield conn

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        """A connection whose statements each commit by themselves (autocommit): for a read
        that needs no transaction, it saves the BEGIN and ROLLBACK round trips around it
        (the device lookup runs on every request with the cookie)."""
        with autocommit(self.engine) as conn:
            yield conn


def autocommit(engine: Engine) -> Connection:
    """A connection of `engine` without a transaction around its statements (see `_read`)."""
    return engine.connect().execution_options(isolation_level="AUTOCOMMIT")
