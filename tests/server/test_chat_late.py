"""A chat line another instance stored while this one held the game but did not yet listen to
its channel (fanout.py takes a LISTEN a round trip after the game is loaded) reaches this
instance's clients once it listens: `GameService.listening` sends the game's recent lines
again (`chat.heard_late`; docs/OWNERSHIP.md). A real server on a fresh Postgres, in this
process: the line is stored as an instance stores it, but under this instance's own name, so
its notification is not taken (as if it had come before the LISTEN); then the fan-out's
callback runs as when a LISTEN takes effect. A line this instance's clients were sent already
is not sent again."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from websockets.asyncio.client import connect

from brass.server import Settings

from .conftest import LiveServer, make_game, run_in_own_loop
from .databases import fresh_postgres


def test_a_line_sent_before_the_listen_reaches_the_clients_once_it_listens() -> None:
    with fresh_postgres() as url, \
            LiveServer(Settings(database_url=url, bot_delay=60, join_limit=0)) as live, \
            httpx.Client(base_url=live.base, timeout=60) as http:
        table = make_game(http, players=2, humans=1)  # waiting for its second player: its
        # chat is open
        service = live.server.config.app.state.service
        loop = live.server.servers[0].get_loop()
        seen: list[str] = []

        async def run() -> tuple[dict[str, Any], dict[str, Any]]:
            async with connect(f"{live.ws_base}/ws/games/{table.id}", max_size=None) as ws:
                await ws.send(json.dumps({"type": "hello", "token": None}))
                while json.loads(await asyncio.wait_for(ws.recv(), 30))["type"] != "state":
                    pass  # the game is held here, with a client
                await ws.send(json.dumps({"type": "chat", "text": "said here", "name": "Me"}))
                while json.loads(await asyncio.wait_for(ws.recv(), 30))["type"] != "chat":
                    pass  # sent to this instance's clients already: not sent again
                stored, _ = await asyncio.to_thread(
                    service.storage.add_chat, table.id, None, "Elsewhere",
                    "said before the listen", 0, "192.0.2.1")
                loop.call_soon_threadsafe(service.listening, [table.id])
                while True:
                    try:
                        message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    except TimeoutError:
                        raise AssertionError(
                            f"no chat line in 30 s; the socket got {seen}") from None
                    seen.append(message["type"] if message["type"] != "chat"
                                else message["message"]["text"])
                    if message["type"] == "chat":  # the oldest line sent again comes first
                        return stored, message["message"]

        stored, got = run_in_own_loop(run())
        assert got == stored, (got, stored, seen)
        assert got["text"] == "said before the listen" and got["name"] == "Elsewhere"
