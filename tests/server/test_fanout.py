"""The fan-out's listening connection (fanout.py) on a real Postgres: the event loop reads its
socket itself, and steps aside while the connection runs a command of its own (a LISTEN for a
game newly held), when psycopg's handler hands on what arrives. Every notification sent to a
channel it listens to is handed over once and in commit order, those that arrive during a
LISTEN included; none of the instance's own is handed on."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import psycopg

from brass.server.fanout import Fanout, libpq_url
from brass.server.notice import channel

from .conftest import run_in_own_loop

GAMES = 10
SENT = 300
WITHIN = 30.0  # seconds for every notification to be handed over


def test_each_notification_once_in_order_while_listens_come_and_go(postgres_url: str) -> None:
    heard: list[tuple[str, int]] = []
    sent: list[tuple[str, int]] = []
    windows: list[int] = []  # notifications sent while the connection ran a LISTEN

    async def run() -> None:
        fan = Fanout(postgres_url, "here", lambda g, v, s, c: heard.append((g, v)), lambda: None)
        plain = fan._channels

        async def slowly(conn: psycopg.AsyncConnection[Any], announce: bool) -> None:
            """Each LISTEN after the first keeps the connection busy a while, so that
            notifications arrive during the command."""
            if announce:
                before = len(sent)
                await conn.execute("SELECT pg_sleep(0.05)")
                windows.append(len(sent) - before)
            await plain(conn, announce)

        fan._channels = slowly  # type: ignore[method-assign]
        for i in range(GAMES):
            fan.hear(f"g{i}")
        await fan.start()
        assert fan.connected.is_set(), "the fan-out did not connect"
        try:
            async with await psycopg.AsyncConnection.connect(libpq_url(postgres_url),
                                                             autocommit=True) as conn:
                for k in range(SENT):
                    game = f"g{k % GAMES}"
                    own = k % 7 == 0  # this instance's own commit: not handed on
                    await conn.execute("SELECT pg_notify(%s, %s)", (
                        channel(game), f"{game} {k + 1} {'here' if own else 'there'}"))
                    if not own:
                        sent.append((game, k + 1))
                    if k % 10 == 0:
                        fan.hear(f"extra{k}")  # a LISTEN round trip, notifications flowing
                        fan.forget(f"extra{k - 10}")
                    if k % 3 == 0:
                        await asyncio.sleep(0.005)
            give_up = time.monotonic() + WITHIN
            while len(heard) < len(sent) and time.monotonic() < give_up:
                await asyncio.sleep(0.05)
        finally:
            await fan.close()

    run_in_own_loop(run())
    missing = [n for n in sent if n not in heard]
    assert not missing, f"{len(missing)} never handed over, first {missing[:5]}"
    assert heard == sent, f"handed over {len(heard)}, sent {len(sent)}: not once each in order"
    assert any(windows), f"no notification arrived during a LISTEN: {windows}"


def test_a_new_game_is_listened_to_before_its_creation_returns(postgres_url: str) -> None:
    """`hear_new` (a game this instance has just made) returns once its channel is listened
    to: a notification sent right after is handed over, and the game is not announced to be
    read from the database (nobody could change it before); a game held the usual way is."""
    heard: list[tuple[str, int]] = []
    announced: list[str] = []

    async def run() -> None:
        fan = Fanout(postgres_url, "here", lambda g, v, s, c: heard.append((g, v)),
                     lambda: None, heard=announced.extend)
        await fan.start()
        assert fan.connected.is_set(), "the fan-out did not connect"
        try:
            async with await psycopg.AsyncConnection.connect(libpq_url(postgres_url),
                                                             autocommit=True) as conn:
                for i in range(5):
                    await fan.hear_new(f"new{i}")
                    await conn.execute("SELECT pg_notify(%s, %s)",
                                       (channel(f"new{i}"), f"new{i} {i + 1} there"))
                fan.hear("held")
                give_up = time.monotonic() + WITHIN
                while (len(heard) < 5 or not announced) and time.monotonic() < give_up:
                    await asyncio.sleep(0.02)
        finally:
            await fan.close()

    run_in_own_loop(run())
    assert heard == [(f"new{i}", i + 1) for i in range(5)], heard
    assert announced == ["held"], announced
