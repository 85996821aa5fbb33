"""A move's statement run through libpq itself (psycopg's `pq` layer), prepared once per
connection: psycopg's cursor, for the same statement, spends about 115 µs of this process's
CPU (its query conversion, its dumpers, its generator-driven wait for the answer) where
sending the prepared statement and reading its answer here spend about 18 µs
(`python bench/moveexec.py`); a move's write is one statement, and every move makes one.
Only for statements whose parameters are `int`, `bool`, `str`, an aware `datetime` or None
(movelog.py's): each travels as text, as psycopg sends it, and a `str` with no type, as
psycopg does too, so that Postgres reads it as the column or cast it meets.

What psycopg would raise is raised alike: `psycopg.OperationalError` from libpq when the
connection is broken, and for an error from Postgres the class psycopg gives its SQLSTATE
(a unique violation is an `IntegrityError`).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import re
import weakref
from collections.abc import Callable
from typing import Any

import psycopg
from psycopg import pq

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")
# by statement: its text with libpq's $1, $2, ... and the parameters' names in that order
_NUMBERED: dict[str, tuple[bytes, tuple[str, ...]]] = {}
# the types a parameter is prepared with, by its Python type (else: none, Postgres infers it)
_OIDS = {int: 20, bool: 16, dt.datetime: 1184}  # int8, bool, timestamptz
# by connection: the name each statement it prepared has there
_PREPARED: weakref.WeakKeyDictionary[psycopg.AsyncConnection[Any], dict[bytes, bytes]] = (
    weakref.WeakKeyDictionary())


def numbered(sql: str) -> tuple[bytes, tuple[str, ...]]:
    """`sql`, whose parameters are psycopg's named placeholders (`%(name)s`), with libpq's
    numbered ones (a name used twice is one number), and the names in their numbers' order."""
    held = _NUMBERED.get(sql)
    if held is None:
        if "%%" in sql:
            raise ValueError("a literal % is not supported here")
        names: dict[str, int] = {}

        def number(m: re.Match[str]) -> str:
            return f"${names.setdefault(m.group(1), len(names) + 1)}"

        held = _NUMBERED[sql] = (_PLACEHOLDER.sub(number, sql).encode(), tuple(names))
    return held


def _text(value: object) -> bytes | None:
    """A parameter as the text Postgres reads it from."""
    if value is None:
        return None
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, bool):
        return b"t" if value else b"f"
    if isinstance(value, int):
        return str(value).encode()
    if isinstance(value, dt.datetime) and value.tzinfo is not None:
        return value.isoformat().encode()
    raise TypeError(f"no text for a parameter of type {type(value).__name__}")


async def execute(conn: psycopg.AsyncConnection[Any], sql: str,
                  params: dict[str, Any]) -> int:
    """Run `sql` with `params` on `conn` (in autocommit, and in no one else's use), prepared
    there the first time; the number of rows it returned."""
    text, names = numbered(sql)
    values = [params[name] for name in names]
    pg = conn.pgconn
    prepared = _PREPARED.setdefault(conn, {})
    name = prepared.get(text)
    if name is None:
        name = f"brass_{len(prepared)}".encode()
        pg.send_prepare(name, text, [_OIDS.get(type(v), 0) for v in values])
        _checked(await _results(pg))
        prepared[text] = name
    pg.send_query_prepared(name, [_text(v) for v in values])
    return _checked(await _results(pg)).ntuples


def _checked(results: list[pq.abc.PGresult]) -> pq.abc.PGresult:
    """The statement's result, or its error raised as psycopg raises it."""
    for res in results:
        if res.status == pq.ExecStatus.FATAL_ERROR:
            state = (res.error_field(pq.DiagnosticField.SQLSTATE) or b"").decode()
            message = res.error_message.decode(errors="replace").strip()
            try:
                raise psycopg.errors.lookup(state)(message)
            except KeyError:
                raise psycopg.DatabaseError(message) from None
    if not results:
        raise psycopg.OperationalError("no result from the database")
    return results[-1]


async def _results(pg: pq.abc.PGconn) -> list[pq.abc.PGresult]:
    """Send what libpq holds, then read every result of the command sent (the connection is
    non-blocking, as psycopg's asynchronous connections are)."""
    loop = asyncio.get_running_loop()
    fd = pg.socket
    while pg.flush():  # part of it waits for room in the socket
        await _ready(loop.add_writer, loop.remove_writer, fd)
    results: list[pq.abc.PGresult] = []
    while True:
        pg.consume_input()
        while not pg.is_busy():
            res = pg.get_result()
            if res is None:
                return results
            results.append(res)
        await _ready(loop.add_reader, loop.remove_reader, fd)


async def _ready(add: Callable[..., None], remove: Callable[[int], object], fd: int) -> None:
    """Wait until the socket `fd` is ready (`add`: the loop's add_reader or add_writer)."""
    woken = asyncio.get_running_loop().create_future()
    add(fd, _wake, woken)
    try:
        await woken
    finally:
        remove(fd)


def _wake(woken: asyncio.Future[None]) -> None:
    if not woken.done():
        woken.set_result(None)
