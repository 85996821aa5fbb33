"""A move's one-statement write on Postgres runs on the event loop over connections of its
own (movewrite.py). Those connections can break (Postgres restarted, a backend killed): the
next move still lands, exactly once."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import create_engine, text

from brass.server import Settings
from brass.server.movewrite import MoveWriter
from brass.server.storage import Storage

from .conftest import LiveServer, act, info, legal, make_game, run_in_own_loop


@pytest.fixture(scope="module")
def postgres_server(postgres_url: str) -> Iterator[LiveServer]:
    """A server on Postgres only (the writer is Postgres's; SQLite writes in a thread)."""
    with LiveServer(Settings(database_url=postgres_url, bot_delay=0.0, join_limit=0)) as live:
        yield live


def test_a_move_lands_after_the_writers_connections_are_killed(
        postgres_server: LiveServer, caplog: pytest.LogCaptureFixture) -> None:
    with httpx.Client(base_url=postgres_server.base, timeout=60) as http:
        killed_and_moved(http, postgres_server.settings.database_url, caplog)


def killed_and_moved(http: httpx.Client, url: str, caplog: pytest.LogCaptureFixture) -> None:
    table = make_game(http, players=2, humans=2)
    for version in range(2):
        seat = info(http, table)["current_seat"]
        reply = act(http, table, seat, legal(http, table, seat)[0]["action"], version)
        assert reply.status_code == 200, reply.text
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            killed = conn.execute(text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                "datname = current_database() AND application_name LIKE 'brass-moves %'"
            )).scalars().all()
            assert killed and all(killed)
            for _ in range(200):  # until the killed backends are gone
                left = conn.execute(text(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND application_name LIKE 'brass-moves %'")).scalar_one()
                if left == 0:
                    break
                conn.execute(text("SELECT pg_sleep(0.05)"))
            assert left == 0
    finally:
        admin.dispose()
    seat = info(http, table)["current_seat"]
    entry = legal(http, table, seat)[0]
    with caplog.at_level(logging.WARNING, logger="brass.server"):
        reply = act(http, table, seat, entry["action"], 2, action_id="after-the-break")
    assert reply.status_code == 200, reply.text
    assert any("connection broke" in r.getMessage() for r in caplog.records)  # and retried
    assert reply.json()["version"] == 3
    again = act(http, table, seat, entry["action"], 2, action_id="after-the-break")
    assert again.status_code == 200 and again.json()["version"] == 3  # a retry: not twice
    log = http.get(table.url("/log")).json()["actions"]
    assert [e["seq"] for e in log] == [1, 2, 3]


def test_moves_may_be_committed_without_waiting_for_the_flush(postgres_url: str) -> None:
    """`synchronous_commit=False`: the writer's sessions say so to Postgres (by default they
    wait for the flush); the moves land all the same."""
    async def settings_seen() -> list[str]:
        seen = []
        storage = Storage(postgres_url)
        try:
            for synchronous in (True, False):
                writer = MoveWriter(storage, synchronous=synchronous)
                conn = await writer._connect()
                async with conn:
                    row = await (await conn.execute("SHOW synchronous_commit")).fetchone()
                    assert row is not None
                    seen.append(str(row[0]))
        finally:
            storage.close()
        return seen

    assert run_in_own_loop(settings_seen()) == ["on", "off"]
    settings = Settings(database_url=postgres_url, bot_delay=0.0, join_limit=0,
                        synchronous_commit=False)
    with LiveServer(settings) as live, httpx.Client(base_url=live.base, timeout=60) as http:
        table = make_game(http, players=2, humans=2)
        for version in range(4):
            seat = info(http, table)["current_seat"]
            reply = act(http, table, seat, legal(http, table, seat)[0]["action"], version)
            assert reply.status_code == 200, reply.text
        assert [e["seq"] for e in http.get(table.url("/log")).json()["actions"]] == [1, 2, 3, 4]
