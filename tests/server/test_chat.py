"""Chat: players and spectators talk over the game's websocket; everyone watching gets each
message (a spectator's marked as such), it is stored with the number of actions played (GET
/chat gives the history), and a bad message (empty, too long, invisible characters, too many
too fast) gets a typed error and is not stored."""

from __future__ import annotations

import json

import httpx
from websockets.sync.client import ClientConnection

from .conftest import LiveServer, info, legal, make_game
from .test_websocket import hello, open_socket, receive


def say(ws: ClientConnection, text: str, name: str | None = None) -> None:
    ws.send(json.dumps({"type": "chat", "text": text, **({"name": name} if name else {})}))


def test_players_and_spectators_chat(http: httpx.Client, server: LiveServer) -> None:
    table = make_game(http, players=2, humans=2)
    seat = info(http, table)["current_seat"]
    with open_socket(server, table.id) as player, open_socket(server, table.id) as watcher:
        hello(player, table.tokens[seat])
        hello(watcher, None)
        say(player, "<b>hello</b> & good luck")
        for ws in (player, watcher):
            m = receive(ws)
            assert m["type"] == "chat"
            assert m["message"]["text"] == "<b>hello</b> & good luck"  # stored as typed
            assert m["message"]["seat"] == seat and not m["message"]["spectator"]
            assert m["message"]["actions"] == 0
        action = legal(http, table, seat)[0]["action"]
        player.send(json.dumps({"type": "action", "action": action, "expected_version": 0,
                                "action_id": "c-1"}))
        assert receive(player)["type"] == "state"
        assert receive(player)["type"] == "ack"
        assert receive(watcher)["type"] == "state"
        say(watcher, "nice move", name="Sam")
        for ws in (player, watcher):
            m = receive(ws)["message"]
            assert m["spectator"] and m["seat"] is None and m["name"] == "Sam"
            assert m["actions"] == 1
        for bad in ("", "x" * 301, "zero\u200bwidth", "line\nbreak"):
            say(player, bad)
            assert receive(player)["code"] == "malformed", bad
        for i in range(4):  # the burst is 5: one spent above
            say(player, f"m{i}")
            assert receive(player)["message"]["text"] == f"m{i}"
            assert receive(watcher)["message"]["text"] == f"m{i}"
        say(player, "one too many")
        assert receive(player)["code"] == "rate_limited"
    history = http.get(f"/api/games/{table.id}/chat").json()["messages"]
    assert [m["text"] for m in history] == ["<b>hello</b> & good luck", "nice move",
                                            "m0", "m1", "m2", "m3"]
    assert [m["spectator"] for m in history][:2] == [False, True]
