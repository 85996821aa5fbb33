"""Creating a game and taking a seat have two shapes on Postgres: `Storage.create_game` and
`Storage.claim_seat` (a transaction in a database thread, as on SQLite) and their plans
(quicklobby.py) run by the move writer on the event loop. Two games made and joined alike,
one each way, leave the same rows and send the same notifications; a plan refuses what the
thread's write refuses, and writes nothing then."""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
import pytest
from sqlalchemy import select

from brass.engine import ENGINE_VERSION, new_game
from brass.server import migrate
from brass.server.fanout import libpq_url
from brass.server.movewrite import MoveWriter
from brass.server.notice import channel
from brass.server.storage import (
    BrowserSeated,
    Claimed,
    GameRecord,
    SeatRecord,
    Storage,
    games,
    now,
    seats,
    snapshots,
)

from .conftest import run_in_own_loop

PLAYERS, SEED = 4, 11
# (seat asked for, name, token, bot, browser): a player, a bot on a seat asked for, a player
# with a browser id, the last seat (it starts the game)
CLAIMS: list[tuple[int | None, str | None, str | None, bool, str | None]] = [
    (None, "ann", "t-ann", False, None), (2, None, None, True, None),
    (None, "bob", "t-bob", False, "b-bob"), (None, "cy", "t-cy", False, None)]


def record(game_id: str) -> GameRecord:
    stamp = now()
    return GameRecord(
        id=game_id, name="both shapes", players=PLAYERS, status="waiting", seed=SEED,
        setup=None, version=0, engine_version=ENGINE_VERSION, host_token_hash="host",
        created_at=stamp, updated_at=stamp, listed=True, invite_hash="invite",
        settings={"clock": {"kind": "none"}, "shared_screen": False},
        seats=[SeatRecord(seat=s, reserve=None) for s in range(PLAYERS)])


def first() -> Any:
    return new_game(PLAYERS, SEED, None)


def rows(storage: Storage, game_id: str, stamps: bool = False) -> list[Any]:
    """The game's rows but for the times a write stamps (with `stamps`, all of them)."""
    with storage.engine.connect() as conn:
        game = conn.execute(select(games).where(games.c.id == game_id)).one()._asdict()
        taken = [r._asdict() for r in conn.execute(
            select(seats).where(seats.c.game_id == game_id).order_by(seats.c.seat))]
        kept = [r._asdict() for r in conn.execute(
            select(snapshots).where(snapshots.c.game_id == game_id))]
    for row in [game, *taken, *kept]:
        for key in ("id", "game_id", "created_at", "updated_at", "joined_at",
                    "turn_started_at"):
            if not stamps or key in ("id", "game_id"):
                row.pop(key, None)
    return [game, taken, kept]


def claimed_shape(claimed: Claimed | None) -> Any:
    assert claimed is not None
    shown = claimed.record
    return (claimed.seat, claimed.started, shown.status,
            [(s.seat, s.name, s.token_hash, s.bot, s.browser_hash) for s in shown.seats])


def test_both_shapes_of_the_lobby_writes_leave_the_same_rows(postgres_url: str) -> None:
    migrate.upgrade(postgres_url)
    storage = Storage(postgres_url, instance="lobby-shapes")
    told: dict[str, list[str]] = {"by-thread": [], "by-plan": []}

    async def both() -> tuple[list[Any], list[Any]]:
        listener = await psycopg.AsyncConnection.connect(libpq_url(postgres_url),
                                                         autocommit=True)
        writer = MoveWriter(storage)
        try:
            for game_id in told:
                await listener.execute(f'LISTEN "{channel(game_id)}"')
            storage.create_game(record("by-thread"))
            quick = storage.plan_create(record("by-plan"))
            assert quick is not None
            await writer.create(quick)
            by_thread, by_plan = [], []
            for n, (seat, name, token, bot, browser) in enumerate(CLAIMS):
                last = n == len(CLAIMS) - 1
                by_thread.append(claimed_shape(storage.claim_seat(
                    "by-thread", seat, name, token, bot, first, browser, True)))
                known = storage.load_game("by-plan")
                assert known is not None
                plan = storage.plan_claim(known, seat, name, token, bot,
                                          first() if last else None, browser, True, None, None)
                assert plan is not None
                by_plan.append(claimed_shape(await writer.claim(plan)))
            async with asyncio.timeout(10):
                async for note in listener.notifies():
                    told["by-thread" if note.channel == channel("by-thread")
                         else "by-plan"].append(note.payload.split(" ")[1])
                    if sum(len(t) for t in told.values()) == 2 * len(CLAIMS):
                        break
            return by_thread, by_plan
        finally:
            await writer.close()
            await listener.close()

    by_thread, by_plan = run_in_own_loop(both())
    assert by_plan == by_thread
    assert by_plan[-1][1] and by_plan[-1][2] == "running"
    assert [c[3][2][1] for c in by_plan[1:2]] == ["Bot 3"]  # a bot is named by its seat
    assert rows(storage, "by-plan") == rows(storage, "by-thread")
    assert told == {"by-thread": ["-1"] * len(CLAIMS), "by-plan": ["-1"] * len(CLAIMS)}
    storage.close()


def test_a_plan_refuses_what_the_thread_refuses_and_writes_nothing(postgres_url: str) -> None:
    migrate.upgrade(postgres_url)
    storage = Storage(postgres_url, instance="lobby-refusals")

    async def refusals() -> None:
        writer = MoveWriter(storage)
        try:
            game = record("refused")
            quick = storage.plan_create(game)
            assert quick is not None
            await writer.create(quick)
            for seat, name, browser in [(0, "ann", "b-ann"), (1, "bob", None),
                                        (2, "cy", None)]:
                assert storage.claim_seat("refused", seat, name, f"t-{name}", False, first,
                                          browser, True) is not None
            stale = storage.load_game("refused")
            assert stale is not None
            before = rows(storage, "refused", stamps=True)

            async def refused(seat: int | None, browser: str | None, start: bool,
                              known: GameRecord = game) -> Claimed | None:
                plan = storage.plan_claim(known, seat, "dan", "t-dan", False,
                                          first() if start else None, browser, True, None,
                                          None)
                assert plan is not None
                return await writer.claim(plan)

            # a claimer that saw four seats free would fill the game without starting it
            assert await refused(None, None, False) is None
            # the seat asked for is taken
            assert await refused(1, None, False) is None
            assert await refused(1, None, True, stale) is None
            # the browser holds a seat already
            with pytest.raises(BrowserSeated):
                await refused(None, "b-ann", True, stale)
            assert rows(storage, "refused", stamps=True) == before  # not even a time
            # and the claim that may start the game does
            started = await refused(None, None, True, stale)
            assert started is not None and started.started and started.seat == 3
            # the game no longer waits: the lock finds nothing
            assert await refused(None, None, True, stale) is None
        finally:
            await writer.close()

    run_in_own_loop(refusals())
    storage.close()
