"""While a bot plays for a player's seat (handed over when idle), that seat is offered nothing:
its state messages over a real websocket carry no legal moves, `GET /legal` is empty, and a
move or a preview it sends is refused with the coded `stand_in_playing` (not `not_your_turn`);
once the player takes the seat back, its moves are offered again. SQLite and Postgres."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection

from brass.server import Settings

from .conftest import LiveServer, Table, act, auth
from .databases import fresh_like
from .test_clocks import new_table
from .test_websocket import hello, open_socket, receive


@pytest.fixture(scope="module")
def handing(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # the bot waits a while before it moves for the seat: the stand-in's own turn lasts;
    # a database of its own (databases.fresh_like): no bot game earlier tests left running
    with fresh_like(db_url, tmp_path_factory.mktemp("handing")) as url, \
            LiveServer(Settings(database_url=url, bot_delay=0.5, join_limit=0,
                                clock_minimum=1.0)) as live:
        yield live


def hand_over(http: httpx.Client, table: Table, asking: int, seat: int,
              version: int) -> httpx.Response:
    """`POST /handover`, asked again while the seat has not been idle long enough."""
    started = time.monotonic()
    while True:
        reply = http.post(table.url("/handover"), headers=auth(table.tokens[asking]),
                          json={"seat": seat, "expected_version": version})
        if reply.status_code != 409 or reply.json()["code"] != "not_yet":
            return reply
        assert time.monotonic() - started < 60, f"never idle enough: {reply.text}"
        time.sleep(0.05)


def states_until(ws: ClientConnection, done: Any) -> list[dict[str, Any]]:
    """The state messages the socket gets until `done(message)` holds (that one included)."""
    heard: list[dict[str, Any]] = []
    while not heard or not done(heard[-1]):
        message = receive(ws)
        if message["type"] == "state":
            heard.append(message)
    return heard


def answer(ws: ClientConnection) -> dict[str, Any]:
    """The next message that is not a state; the states before it (the bot moving for the
    seat) offer no move."""
    while True:
        message = receive(ws)
        if message["type"] != "state":
            return message
        assert message["legal"] is None, (
            f"version {message['version']}: {len(message['legal'])} moves offered to seat "
            f"{message['seat']} while a bot plays it ({message['seats']})")


def test_a_seat_a_bot_plays_for_is_offered_no_move(handing: LiveServer) -> None:
    with httpx.Client(base_url=handing.base, timeout=60) as http:
        table = new_table(http, humans=2, clock={"kind": "none", "handoff_after": 1})
        first = http.get(table.url("/state")).json()
        idle, version = first["view"]["current_seat"], first["version"]
        moves = http.get(table.url("/legal"), headers=auth(table.tokens[idle])).json()
        assert moves, "the seat to move is offered its moves before the hand-over"
        with open_socket(handing, table.id) as ws:
            hello(ws, table.tokens[idle])
            handed = hand_over(http, table, 1 - idle, idle, version)
            assert handed.json() == {"version": version + 1}, handed.text
            heard = states_until(ws, lambda m: m["version"] == version + 1)
            standing = heard[-1]
            assert standing["seats"][idle]["stand_in"] == "handover", standing["seats"]
            # the seat is still to move (a bot moves for it in a while)
            assert standing["view"]["current_seat"] == idle, standing["view"]["current_seat"]
            assert standing["legal"] is None, f"{len(standing['legal'])} moves offered"
            # asked while the bot stands in: refused with the code that says why
            ws.send(json.dumps({"type": "preview", "action": moves[0]["action"],
                                "version": version + 1}))
            refused = answer(ws)
            assert (refused["type"], refused["code"]) == ("error", "stand_in_playing"), refused
            ws.send(json.dumps({"type": "action", "action": moves[0]["action"],
                                "expected_version": version + 1, "action_id": "mine-1"}))
            refused = answer(ws)
            assert (refused["type"], refused["code"]) == ("error", "stand_in_playing"), refused
            offered = http.get(table.url("/legal"), headers=auth(table.tokens[idle]))
            assert offered.status_code == 200 and offered.json() == [], offered.text
            polled = http.get(table.url("/state"), headers=auth(table.tokens[idle])).json()
            assert polled["legal"] in (None, []), f"{len(polled['legal'])} moves offered"
            # until the player takes the seat back, no state message offers a move
            back = http.post(table.url("/takeover"), headers=auth(table.tokens[idle]))
            assert back.status_code == 200, back.text
            returned = back.json()["version"]
            for message in states_until(ws, lambda m: m["version"] == returned):
                if message["version"] < returned:
                    assert message["legal"] is None, f"moves offered at {message['version']}"
            # their seat's moves come back with the next state that has them to move (the
            # other seat moves first if the bot moved for this one meanwhile)
            now = http.get(table.url("/state"), headers=auth(table.tokens[1 - idle])).json()
            if now["view"]["current_seat"] != idle:
                played = act(http, table, 1 - idle, now["legal"][0]["action"], now["version"])
                assert played.status_code == 200, played.text
            mine = states_until(ws, lambda m: m["view"]["current_seat"] == idle
                                and m["legal"] is not None)
            assert mine[-1]["legal"] and mine[-1]["seats"][idle]["stand_in"] is None, mine[-1]
