"""The embedded SQLite file keeps its connections (storebase.make_engine): opening one and
setting its pragmas was 40 % of a desk poll's CPU and a quarter of a move's on SQLite
(bench/requestcost.py, bench/server.py --sqlite). A kept connection still has the pragmas it
was opened with, and the database threads and `asyncio.to_thread`'s readers all get one at
once."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError

from brass.server.storebase import make_engine


def pragmas(conn: Connection) -> tuple[Any, ...]:
    return (conn.execute(text("PRAGMA journal_mode")).scalar_one(),
            conn.execute(text("PRAGMA foreign_keys")).scalar_one(),
            conn.execute(text("PRAGMA synchronous")).scalar_one())


def test_a_file_keeps_its_connections_and_their_pragmas(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path}/kept.db")
    try:
        with engine.connect() as conn:
            first = conn.connection.dbapi_connection
            assert pragmas(conn) == ("wal", 1, 2)  # 2: FULL, as every connection sets
        with engine.connect() as conn:
            assert conn.connection.dbapi_connection is first, "the connection was not kept"
            assert pragmas(conn) == ("wal", 1, 2)
    finally:
        engine.dispose()


def test_as_many_connections_at_once_as_the_server_has_users(tmp_path: Path) -> None:
    """16 database threads and up to 16 readers (the default executor's): none waits for
    another's connection (they all hold one at the same moment), and each reads its own
    write."""
    engine = make_engine(f"sqlite:///{tmp_path}/many.db")
    users = 32
    try:
        with engine.begin() as conn:
            conn.execute(text("CREATE TABLE said (who INTEGER PRIMARY KEY)"))
        all_in = threading.Barrier(users, timeout=30)
        seen: dict[int, int] = {}
        failed: list[BaseException] = []

        def user(who: int) -> None:
            try:
                with engine.connect() as conn:
                    all_in.wait()  # every user holds a connection at the same moment
                    with conn.begin():
                        conn.execute(text("INSERT INTO said VALUES (:who)"), {"who": who})
                    seen[who] = conn.execute(text("SELECT count(*) FROM said")).scalar_one()
            except BaseException as exc:  # reported below, with what the others saw
                failed.append(exc)

        threads = [threading.Thread(target=user, args=(i,)) for i in range(users)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        assert not failed, f"failed: {failed!r}; seen: {seen}"
        assert all(1 <= n <= users for n in seen.values()) and len(seen) == users, seen
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM said")).scalar_one() == users
    finally:
        engine.dispose()


def test_a_file_removed_or_replaced_is_not_written_through_a_kept_connection(
        tmp_path: Path) -> None:
    """The file removed while the server runs, and another put at its path: the connections
    kept to the old file are let go, so nothing is written where it would be lost, and a read
    sees the file now at the path; with none there, the database does not answer."""
    db = tmp_path / "kept.db"
    engine = make_engine(f"sqlite:///{db}")

    def remove() -> None:
        for path in tmp_path.glob("kept.db*"):  # with its write-ahead log
            path.unlink()

    try:
        with engine.begin() as conn:
            conn.execute(text("CREATE TABLE said (what TEXT)"))
            conn.execute(text("INSERT INTO said VALUES ('in the first file')"))
        remove()
        other = sqlite3.connect(db)
        other.execute("CREATE TABLE said (what TEXT)")
        other.execute("INSERT INTO said VALUES ('in the file put there')")
        other.commit()
        other.close()
        with engine.begin() as conn:
            assert conn.execute(text("SELECT what FROM said")).scalars().all() == [
                "in the file put there"], "read through a connection to the removed file"
            conn.execute(text("INSERT INTO said VALUES ('after')"))
        reader = sqlite3.connect(db)  # the write is in the file at the path
        assert reader.execute("SELECT count(*) FROM said").fetchone() == (2,)
        reader.close()
        remove()
        db.mkdir()  # a folder where the file was: no database can be opened there
        with pytest.raises(OperationalError, match="unable to open database file"), \
                engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    finally:
        engine.dispose()
