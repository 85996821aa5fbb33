"""Chat limits and moderation (issue 25): the limits are counted in the database, so a sender
cannot escape them by reconnecting, with a second socket, or through another instance; the
chat is read-only once the game is over; the host mutes a seat or the spectators and deletes
a message (for everyone: sockets are told, the history leaves it out); GET /chat is paged."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from .conftest import LiveServer, Table, auth, make_game
from .test_api import error_of
from .test_instances import cluster, instance_logs
from .test_websocket import hello, open_socket, receive


def say(ws: ClientConnection, text: str, name: str | None = None,
        line: str | None = None) -> dict[str, Any]:
    """Send a chat message (`line`: its page's id for it); its answer: the message as
    broadcast, or an error (others' messages the socket hears meanwhile are skipped)."""
    ws.send(json.dumps({"type": "chat", "text": text, **({"name": name} if name else {}),
                        **({"line": line} if line else {})}))
    while True:
        message = next_other(ws)
        if message["type"] != "chat" or message["message"]["text"] == text:
            return message


def next_other(ws: ClientConnection) -> dict[str, Any]:
    while True:
        message = receive(ws)
        if message["type"] != "state":
            return message


def texts(http: httpx.Client, table: Table, **query: Any) -> list[str]:
    reply = http.get(table.url("/chat"), params=query)
    assert reply.status_code == 200, reply.text
    return [m["text"] for m in reply.json()["messages"]]


def test_limits_hold_across_reconnects_and_sockets(http: httpx.Client,
                                                   server: LiveServer) -> None:
    table = make_game(http, players=2, humans=2)
    for i in range(3):  # a spectator: 3 messages, reconnects, 2 more, reconnects: refused
        with open_socket(server, table.id) as ws:
            hello(ws, None)
            sent = [say(ws, f"s{i}-{k}", name="Sam") for k in range(2 if i < 2 else 1)]
            if i < 2:
                assert [m["type"] for m in sent] == ["chat", "chat"], sent
            else:
                assert sent[0]["type"] == "chat", sent  # the fifth
    with open_socket(server, table.id) as ws:
        hello(ws, None)
        refused = say(ws, "one too many", name="Sam")
        assert refused["code"] == "rate_limited", refused
        assert "try again in" in refused["message"]
    # a seat: its sockets share one count
    with open_socket(server, table.id) as a, open_socket(server, table.id) as b:
        hello(a, table.tokens[0])
        hello(b, table.tokens[0])
        for k in range(5):
            assert say((a, b)[k % 2], f"p{k}")["type"] == "chat"
            next_other((b, a)[k % 2])  # the other socket hears it too
        assert say(b, "p5")["code"] == "rate_limited"
        with open_socket(server, table.id) as c:  # the other seat is not held back
            hello(c, table.tokens[1])
            assert say(c, "other seat")["type"] == "chat"
    assert texts(http, table)[-1] == "other seat"


def test_limits_hold_across_instances(tmp_path: Path) -> None:
    with cluster(tmp_path, 2) as found:
        a, b = found.instances
        table = make_game(a.http, players=2, humans=2)
        try:
            for k in range(5):
                inst = (a, b)[k % 2]
                with connect(f"{inst.ws}/ws/games/{table.id}", open_timeout=30) as ws:
                    hello(ws, None)
                    assert say(ws, f"m{k}")["type"] == "chat"
            with connect(f"{b.ws}/ws/games/{table.id}", open_timeout=30) as ws:
                hello(ws, None)
                assert say(ws, "sixth")["code"] == "rate_limited"
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{instance_logs(tmp_path)}") from None


def test_the_chat_of_a_game_that_is_over_is_read_only(http: httpx.Client,
                                                      server: LiveServer) -> None:
    """No line is taken once the game is over; one said before, sent again by its page (its
    connection dropped before the answer came), is answered as it was stored."""
    table = make_game(http, players=3, humans=1)
    with open_socket(server, table.id) as ws:
        hello(ws, table.tokens[0])
        assert say(ws, "before", line="p-0")["type"] == "chat"
        assert http.post(table.url("/cancel"), headers=auth(table.host)).status_code == 200
        refused = say(ws, "after")
        assert refused["code"] == "game_not_running", refused
        again = say(ws, "before", line="p-0")
        assert again["type"] == "chat" and again["message"]["line"] == "p-0", again
        refused = say(ws, "after", line="p-1")
        assert refused["code"] == "game_not_running", refused
    assert texts(http, table) == ["before"]


def test_the_host_mutes_and_deletes(http: httpx.Client, server: LiveServer) -> None:
    table = make_game(http, players=2, humans=2)
    mute = table.url("/chat/mute")
    error_of(http.post(mute, json={"seat": 0, "muted": True},
                       headers=auth(table.tokens[0])), 401, "unauthorized")
    with open_socket(server, table.id) as player, open_socket(server, table.id) as watcher:
        hello(player, table.tokens[0])
        hello(watcher, None)
        said = say(player, "rude words")["message"]
        assert next_other(watcher)["message"]["id"] == said["id"]
        assert say(watcher, "hi", name="Sam")["type"] == "chat"
        next_other(player)
        # the host deletes a message: every socket is told, the history leaves it out
        error_of(http.delete(table.url(f"/chat/messages/{said['id']}"),
                             headers=auth(table.tokens[1])), 401, "unauthorized")
        gone = http.delete(table.url(f"/chat/messages/{said['id']}"), headers=auth(table.host))
        assert gone.status_code == 204, gone.text
        for ws in (player, watcher):
            assert next_other(ws) == {"type": "chat_deleted", "id": said["id"]}
        assert texts(http, table) == ["hi"]
        error_of(http.delete(table.url(f"/chat/messages/{said['id']}"), headers=auth(table.host)),
                 404, "not_found")
        # the host mutes seat 0, then the spectators: every socket is told whom, each time
        muted = http.post(mute, json={"seat": 0, "muted": True}, headers=auth(table.host))
        assert muted.json() == {"seats": [0], "spectators": False, "admin_seats": [],
                                "admin_spectators": False}
        for ws in (player, watcher):
            assert next_other(ws) == {"type": "chat_mutes", "muted": muted.json()}
        refused = say(player, "still here")
        assert (refused["code"], refused["about"]) == ("chat_muted", "chat"), refused
        muted = http.post(mute, json={"seat": None, "muted": True}, headers=auth(table.host))
        assert muted.json() == {"seats": [0], "spectators": True, "admin_seats": [],
                                "admin_spectators": False}
        for ws in (player, watcher):
            assert next_other(ws) == {"type": "chat_mutes", "muted": muted.json()}
        assert say(watcher, "me too", name="Sam")["code"] == "chat_muted"
        assert http.get(table.url("/chat")).json()["muted"] == muted.json()
        http.post(mute, json={"seat": 0, "muted": False}, headers=auth(table.host))
        for ws in (player, watcher):
            assert next_other(ws) == {"type": "chat_mutes",
                                      "muted": {"seats": [], "spectators": True,
                                                "admin_seats": [],
                                                "admin_spectators": False}}
        assert say(player, "sorry")["type"] == "chat"
    assert texts(http, table) == ["hi", "sorry"]


def test_the_history_is_paged(http: httpx.Client, server: LiveServer) -> None:
    table = make_game(http, players=2, humans=2)
    with open_socket(server, table.id) as a, open_socket(server, table.id) as b:
        hello(a, table.tokens[0])
        hello(b, table.tokens[1])
        for k in range(6):
            assert say((a, b)[k // 3], f"m{k}")["type"] == "chat"
    page = http.get(table.url("/chat"), params={"limit": 4}).json()
    assert [m["text"] for m in page["messages"]] == ["m2", "m3", "m4", "m5"]
    assert page["next"] == page["messages"][0]["id"]
    older = http.get(table.url("/chat"), params={"limit": 4, "before": page["next"]}).json()
    assert [m["text"] for m in older["messages"]] == ["m0", "m1"] and older["next"] is None
    error_of(http.get(table.url("/chat"), params={"limit": 101}), 400, "malformed")
