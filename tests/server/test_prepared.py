"""A move's statement goes through libpq itself, prepared once per connection
(brass/server/prepared.py): each kind of parameter arrives as psycopg would send it, the
statement is prepared once, and what goes wrong is raised as psycopg raises it."""

from __future__ import annotations

import datetime as dt
from typing import Any

import psycopg
import pytest

from brass.server import prepared
from brass.server.fanout import libpq_url

from .conftest import run_in_own_loop

INSERT = ("INSERT INTO kept (n, flag, word, at, doc, note) SELECT %(n)s, %(flag)s, %(word)s, "
          "%(at)s, %(doc)s::jsonb, %(note)s WHERE %(n)s >= 0 RETURNING n")


def test_a_name_used_twice_is_one_number() -> None:
    text, names = prepared.numbered(INSERT)
    assert names == ("n", "flag", "word", "at", "doc", "note")
    assert text.decode().count("$1") == 2 and b"%(" not in text
    with pytest.raises(ValueError):
        prepared.numbered("SELECT 1 %% 2")


def test_parameters_arrive_as_psycopg_sends_them_and_errors_are_psycopgs(
        postgres_url: str) -> None:
    at = dt.datetime(2026, 12, 7, 18, 30, 1, 234567, tzinfo=dt.UTC)

    async def check() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with await psycopg.AsyncConnection.connect(
                libpq_url(postgres_url), autocommit=True) as conn:
            await conn.execute("CREATE TEMP TABLE kept (n int PRIMARY KEY, flag bool, "
                               "word varchar(20), at timestamptz, doc jsonb, note text)")
            params = {"n": 1, "flag": True, "word": "Coalbrookdale ✓", "at": at,
                      "doc": '{"a": [1, 2]}', "note": None}
            seen["first"] = await prepared.execute(conn, INSERT, params)
            seen["second"] = await prepared.execute(conn, INSERT, {**params, "n": 2,
                                                                   "note": "x"})
            seen["none"] = await prepared.execute(conn, INSERT, {**params, "n": -1})
            cur = await conn.execute("SELECT n, flag, word, at, doc, note FROM kept ORDER BY n")
            seen["rows"] = await cur.fetchall()
            cur = await conn.execute("SELECT count(*) FROM pg_prepared_statements")
            seen["prepared"] = (await cur.fetchone() or [0])[0]
            with pytest.raises(psycopg.errors.UniqueViolation) as twice:
                await prepared.execute(conn, INSERT, params)
            seen["integrity"] = isinstance(twice.value, psycopg.IntegrityError)
            with pytest.raises(psycopg.errors.UndefinedTable):
                await prepared.execute(conn, "SELECT * FROM nowhere WHERE 1 = %(n)s", params)
            with pytest.raises(TypeError):
                await prepared.execute(conn, INSERT, {**params, "at": at.replace(tzinfo=None)})
            seen["after"] = await prepared.execute(conn, INSERT, {**params, "n": 3})
            pid = conn.info.backend_pid
            async with await psycopg.AsyncConnection.connect(
                    libpq_url(postgres_url), autocommit=True) as admin:
                await admin.execute("SELECT pg_terminate_backend(%s)", [pid])
            with pytest.raises(psycopg.OperationalError):
                for _ in range(50):  # until the backend is gone
                    await prepared.execute(conn, INSERT, {**params, "n": 4})
        return seen

    seen = run_in_own_loop(check())
    assert (seen["first"], seen["second"], seen["none"], seen["after"]) == (1, 1, 0, 1)
    assert seen["rows"][:2] == [(1, True, "Coalbrookdale ✓", at, {"a": [1, 2]}, None),
                                (2, True, "Coalbrookdale ✓", at, {"a": [1, 2]}, "x")]
    assert seen["prepared"] == 1  # once for the three runs
    assert seen["integrity"]
