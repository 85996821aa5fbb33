"""Chat: players and spectators talk over the game's websocket; everyone watching gets each
message (a spectator's marked as such), it is stored with the number of actions played (GET
/chat gives the history), and a bad message (empty, too long, invisible characters, too many
too fast) gets a typed error and is not stored."""

from __future__ import annotations

import json
from typing import Any

import httpx
from websockets.sync.client import ClientConnection

from .conftest import LiveServer, info, legal, make_game
from .test_websocket import hello, open_socket, receive


def say(ws: ClientConnection, text: str, name: str | None = None,
        line: str | None = None) -> None:
    ws.send(json.dumps({"type": "chat", "text": text, **({"name": name} if name else {}),
                        **({"line": line} if line else {})}))


def next_of(ws: ClientConnection, kind: str, seat: int | None = None) -> dict[str, Any]:
    """The next message of type `kind` (a chat line: of `seat`, if given; others, such as
    the lines of other sockets, skipped); says what came instead if none does."""
    seen = []
    for _ in range(20):
        m = receive(ws)
        if m["type"] == kind and (seat is None or m["message"]["seat"] == seat):
            return m
        seen.append(m)
    raise AssertionError(f"no {kind} in 20 messages: {seen}")


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


def test_a_line_sent_again_after_a_dropped_connection_is_stored_once(
        http: httpx.Client, server: LiveServer) -> None:
    """A page whose connection dropped before the answer to a line came sends it again on its
    next connection, with the id it gave it (`line`): the line is stored once and answered
    again as stored (the same message id, so every page keeps it once), to the sender alone,
    and a line sent again is not counted against the burst; another sender's id is refused,
    and a line without an id is stored each time, as before."""
    table = make_game(http, players=2, humans=2)
    seat = info(http, table)["current_seat"]
    with open_socket(server, table.id) as first:
        hello(first, table.tokens[seat])
        say(first, "did this go?", line="pageA-0")
        stored = next_of(first, "chat")["message"]
    assert stored["text"] == "did this go?" and stored["line"] == "pageA-0", stored
    with open_socket(server, table.id) as again, open_socket(server, table.id) as watcher, \
            open_socket(server, table.id) as rival:
        hello(again, table.tokens[seat])
        hello(watcher, None)
        hello(rival, table.tokens[1 - seat])
        for _ in range(6):  # the burst is 5: were they counted, the last would be refused
            say(again, "did this go?", line="pageA-0")
            assert next_of(again, "chat")["message"] == stored
        say(again, "a new line", line="pageA-1")
        assert next_of(again, "chat")["message"]["text"] == "a new line"
        told = next_of(watcher, "chat")["message"]  # the first the others hear since
        assert told["text"] == "a new line", told
        say(rival, "not mine", line="pageA-0")
        refused = next_of(rival, "error")
        assert (refused["code"], refused["about"]) == ("malformed", "chat"), refused
        for ws, who in ((again, seat), (rival, 1 - seat)):
            say(ws, "no id")
            assert next_of(ws, "chat", who)["message"]["line"] is None
        say(again, "x", line="not an id!")
        assert next_of(again, "error")["code"] == "malformed"
    history = http.get(f"/api/games/{table.id}/chat").json()["messages"]
    assert [(m["text"], m["line"]) for m in history] == [
        ("did this go?", "pageA-0"), ("a new line", "pageA-1"), ("no id", None),
        ("no id", None)], history
