"""A move's one-statement write on Postgres runs on the event loop over connections of its
own (movewrite.py). Those connections can break (Postgres restarted, a backend killed): the
next move still lands, exactly once. It leaves the same rows as the move's write in a
transaction (`Storage.append_turn`)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select, text

from brass.engine import ENGINE_VERSION, legal_actions, new_game, play, public_events
from brass.server import Settings, migrate
from brass.server.clocks import Clock
from brass.server.movewrite import MoveWriter
from brass.server.runtime import ends_round
from brass.server.storage import (
    GameRecord,
    SeatRecord,
    Storage,
    TurnStart,
    actions,
    games,
    now,
    seats,
    snapshots,
)

from .conftest import LiveServer, act, info, legal, make_game, run_in_own_loop
from .databases import fresh_postgres


@pytest.fixture(scope="module")
def postgres_server() -> Iterator[LiveServer]:
    """A server on Postgres only (the writer is Postgres's; SQLite writes in a thread), on a
    database of its own: the shared one holds bot games earlier tests left running, which its
    steward (bots at once) would play beside this module's moves."""
    with fresh_postgres() as url, \
            LiveServer(Settings(database_url=url, bot_delay=0.0, join_limit=0)) as live:
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
    with fresh_postgres() as url, \
            LiveServer(Settings(database_url=url, bot_delay=0.0, join_limit=0,
                                synchronous_commit=False)) as live, \
            httpx.Client(base_url=live.base, timeout=60) as http:
        table = make_game(http, players=2, humans=2)
        for version in range(4):
            seat = info(http, table)["current_seat"]
            reply = act(http, table, seat, legal(http, table, seat)[0]["action"], version)
            assert reply.status_code == 200, reply.text
        assert [e["seq"] for e in http.get(table.url("/log")).json()["actions"]] == [1, 2, 3, 4]


def test_both_shapes_of_the_move_write_leave_the_same_rows(postgres_url: str) -> None:
    """A move is one write in two shapes: `append_turn` (a transaction in a database thread:
    SQLite, and a timed game on Postgres) and `plan_append` run by the move writer (one
    statement on the event loop). Two games dealt alike, the same moves written one way and
    the other (a round's end with its snapshot, turns that end and turns that go on, the
    notification), leave the same rows but for their ids and times."""
    migrate.upgrade(postgres_url)
    storage = Storage(postgres_url, instance="shapes")
    seed, players, moves = 7, 2, 7
    stamp = now()

    def dealt(game_id: str) -> None:
        storage.create_game(GameRecord(
            id=game_id, name=game_id, players=players, status="waiting", seed=seed,
            setup=None, version=0, engine_version=ENGINE_VERSION, host_token_hash="h",
            created_at=stamp, updated_at=stamp,
            seats=[SeatRecord(seat=s) for s in range(players)]))
        for s in range(players):
            assert storage.claim_seat(game_id, s, f"p{s}", f"t{game_id}{s}", False,
                                      lambda: new_game(players, seed, None)) is not None

    def writes() -> list[tuple[Any, ...]]:
        """The arguments of each move's write, as `Play.submit_as` makes them."""
        game, out = new_game(players, seed, None), []
        for n in range(moves):
            seat = game.current_seat
            assert seat is not None
            action = legal_actions(game)[-1]  # loans and passes: each turn's last is a pass
            after, events = play(game, action)
            ends = after.current_seat != seat or after.actions_left != game.actions_left - 1
            out.append((n, seat, action.to_json(), f"move-{n}", public_events(events, None),
                        list(after.scores) if after.is_over else None,
                        (n + 1, after.to_json()) if ends_round(events) else None,
                        TurnStart(Clock(), seat, None, None, after.current_seat, None, False)
                        if ends else None, None))
            game = after
        assert any(w[6] is not None for w in out) and any(w[7] is None for w in out)
        return out

    async def by_statement() -> None:
        writer = MoveWriter(storage)
        try:
            for args in writes():
                quick = storage.plan_append("quick", *args)
                assert quick is not None  # no clock: the one-statement shape
                await writer.append("quick", quick)
        finally:
            await writer.close()

    def rows(game_id: str) -> dict[str, list[dict[str, Any]]]:
        times = {"created_at", "updated_at", "turn_started_at", "finished_at", "joined_at"}
        out: dict[str, list[dict[str, Any]]] = {}
        with storage.engine.connect() as conn:
            for table, key in ((games, games.c.id), (seats, seats.c.game_id),
                               (actions, actions.c.game_id), (snapshots, snapshots.c.game_id)):
                found = conn.execute(select(table).where(key == game_id)).mappings().all()
                out[table.name] = sorted(
                    ({k: v for k, v in r.items() if k not in times | {"id", "game_id", "name",
                                                                     "token_hash"}}
                     for r in found), key=repr)
        return out

    try:
        dealt("thread")
        dealt("quick")
        for args in writes():
            storage.append_turn("thread", *args)
        run_in_own_loop(by_statement())
        thread, quick = rows("thread"), rows("quick")
        assert len(thread["actions"]) == moves and len(thread["snapshots"]) >= 2
        assert thread == quick
    finally:
        storage.close()
