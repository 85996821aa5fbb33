"""The hello race (issue 26), on two real instances and one Postgres: a join answered by
instance A and the new seat's hello (or a request with its token) on instance B at once. B
holds the game from before the join and hears of it by notification only a moment after A's
reply; an unknown token is checked against the database before it is refused, so the seat is
never refused."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from .conftest import auth, run_in_own_loop
from .test_instances import cluster, instance_logs

ROUNDS = 12  # joins raced against a hello, each on a game B already holds


async def _first_reply(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 30))
    return message


def test_a_join_on_one_instance_and_a_hello_on_another_at_once(tmp_path: Path) -> None:
    with cluster(tmp_path, 2) as found:
        a, b = found.instances
        refused: list[str] = []

        async def round_(number: int, on_a: httpx.AsyncClient, on_b: httpx.AsyncClient) -> None:
            created = (await on_a.post("/api/games", json={"players": 3, "name": "race"})).json()
            game = created["id"]
            first = await on_b.get(f"/api/games/{game}")  # B holds the game, no seat taken
            assert first.status_code == 200, first.text
            # the socket is open before the join: the hello goes out the moment A answers
            async with connect(f"{b.ws}/ws/games/{game}", max_size=None) as ws:
                joined = await on_a.post(f"/api/games/{game}/join",
                                         json={"name": f"p{number}", "invite": created["invite"]})
                assert joined.status_code == 201, joined.text
                token, seat = joined.json()["token"], joined.json()["seat"]
                await ws.send(json.dumps({"type": "hello", "token": token}))
                state = await on_b.get(f"/api/games/{game}/state", headers=auth(token))
                reply = await _first_reply(ws)
            if reply.get("type") != "state" or reply.get("seat") != seat:
                refused.append(f"round {number}: hello on B answered {reply}")
            if state.status_code != 200 or state.json().get("seat") != seat:
                refused.append(f"round {number}: GET /state on B answered "
                               f"{state.status_code} {state.text[:200]}")

        async def run() -> None:
            async with httpx.AsyncClient(base_url=a.base, timeout=30) as on_a, \
                    httpx.AsyncClient(base_url=b.base, timeout=30) as on_b:
                for number in range(ROUNDS):
                    await round_(number, on_a, on_b)

        run_in_own_loop(run())
        assert not refused, "\n".join(refused) + "\n" + instance_logs(tmp_path)
