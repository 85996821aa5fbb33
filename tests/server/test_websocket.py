"""The websocket: hello, state on connect and after every change, acks, typed errors for bad
input while the connection and the game stay healthy."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from brass.server.ws import MAX_QUEUED, Connection

from .conftest import LiveServer, info, legal, make_game, run_in_own_loop


def open_socket(server: LiveServer, game_id: str) -> ClientConnection:
    return connect(f"{server.ws_base}/ws/games/{game_id}", max_size=None, open_timeout=30)


def receive(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=60))
    return message


def receive_state(ws: ClientConnection) -> dict[str, Any]:
    """The next state message, whole: the seat to move gets each new version at once without
    its legal moves, then again with them (the first is checked and skipped)."""
    msg = receive(ws)
    assert msg["type"] == "state", msg
    view = msg["view"]
    if msg["legal"] is None and msg["status"] == "running" and view["current_seat"] == msg["seat"]:
        full = receive(ws)
        assert full["version"] == msg["version"] and full["legal"], full
        sent = ("legal", "server_time")  # each message carries its time of sending
        assert {k: v for k, v in full.items() if k not in sent} == {
            k: v for k, v in msg.items() if k not in sent}
        return full
    return msg


def hello(ws: ClientConnection, token: str | None) -> dict[str, Any]:
    ws.send(json.dumps({"type": "hello", "token": token}))
    return receive(ws)


def expect_error(ws: ClientConnection, raw: str | bytes, code: str) -> dict[str, Any]:
    ws.send(raw)
    reply = receive(ws)
    assert reply["type"] == "error" and reply["code"] == code, reply
    assert reply["message"]
    return reply


def test_state_on_connect_and_after_every_change_then_ack(http: httpx.Client,
                                                          server: LiveServer) -> None:
    table = make_game(http, players=2, humans=2)
    seat = info(http, table)["current_seat"]
    with open_socket(server, table.id) as mine, open_socket(server, table.id) as watcher:
        first = hello(mine, table.tokens[seat])
        assert first["type"] == "state" and first["version"] == 0 and first["seat"] == seat
        assert first["view"]["players"][seat]["hand"]
        watched = hello(watcher, None)
        assert watched["seat"] is None
        assert all(p["hand"] is None for p in watched["view"]["players"])
        action = legal(http, table, seat)[0]["action"]
        mine.send(json.dumps({"type": "action", "action": action, "expected_version": 0,
                              "action_id": "ws-1"}))
        assert receive(mine)["version"] == 1
        assert receive(mine) == {"type": "ack", "action_id": "ws-1", "version": 1}
        assert receive(watcher)["version"] == 1
        mine.send(json.dumps({"type": "action", "action": action, "expected_version": 0,
                              "action_id": "ws-2"}))
        reply = receive(mine)
        assert reply["type"] == "error" and reply["action_id"] == "ws-2"
        assert reply["code"] in {"stale_version", "not_your_turn"}
        mine.send(json.dumps({"type": "sync"}))
        assert receive(mine)["version"] == 1


def test_bad_messages_get_errors_and_the_connection_stays_up(http: httpx.Client,
                                                            server: LiveServer) -> None:
    table = make_game(http, players=2, humans=2)
    seat = info(http, table)["current_seat"]
    action = legal(http, table, seat)[0]["action"]
    good = {"type": "action", "action": action, "expected_version": 0, "action_id": "ok"}
    with open_socket(server, table.id) as ws:
        expect_error(ws, json.dumps(good), "unauthorized")  # before hello
        expect_error(ws, json.dumps({"type": "hello", "token": "wrong"}), "unauthorized")
        assert hello(ws, table.tokens[seat])["type"] == "state"
        expect_error(ws, json.dumps({"type": "hello", "token": None}), "malformed")
        expect_error(ws, "{not json", "malformed")
        expect_error(ws, json.dumps([1, 2]), "malformed")
        expect_error(ws, json.dumps({"type": "dance"}), "malformed")
        expect_error(ws, json.dumps({**good, "seat": 1 - seat}), "malformed")
        expect_error(ws, json.dumps({**good, "expected_version": "zero"}), "malformed")
        expect_error(ws, json.dumps({**good, "action": {"kind": "build"}}), "malformed")
        expect_error(ws, json.dumps({**good, "pad": "x" * (70 * 1024)}), "malformed")
        expect_error(ws, b"\xff\xfe binary", "malformed")
        expect_error(ws, "[" * 30_000 + "]" * 30_000, "malformed")  # deeper than the stack
        expect_error(ws, json.dumps({**good, "expected_version": True}), "malformed")
        if action.get("kind") == "build":
            expect_error(ws, json.dumps({**good, "action": {**action, "slot": True}}),
                         "malformed")
        ws.send(json.dumps(good))
        assert receive(ws)["version"] == 1
        assert receive(ws)["type"] == "ack"
    assert info(http, table)["version"] == 1


def test_a_spectator_cannot_act(http: httpx.Client, server: LiveServer) -> None:
    table = make_game(http, players=2, humans=2)
    seat = info(http, table)["current_seat"]
    action = legal(http, table, seat)[0]["action"]
    with open_socket(server, table.id) as ws:
        hello(ws, None)
        expect_error(ws, json.dumps({"type": "action", "action": action, "expected_version": 0,
                                     "action_id": "spy"}), "unauthorized")
        expect_error(ws, json.dumps({"type": "undo"}), "unauthorized")
    assert info(http, table)["version"] == 0


def test_unknown_game_socket_gets_not_found(server: LiveServer) -> None:
    with open_socket(server, "no-such-game") as ws:
        reply = receive(ws)
        assert reply["type"] == "error" and reply["code"] == "not_found"




def test_undo_over_the_websocket(http: httpx.Client, server: LiveServer) -> None:
    table = make_game(http, players=2, humans=2)
    with open_socket(server, table.id) as a, open_socket(server, table.id) as b:
        sockets = {0: a, 1: b}
        states = {seat: hello(ws, table.tokens[seat]) for seat, ws in sockets.items()}
        for version in (0, 1):  # the first round: one action each
            seat = states[0]["view"]["current_seat"]
            pick = next(e["action"] for e in legal(http, table, seat)
                        if e["action"]["kind"] == "pass")
            sockets[seat].send(json.dumps({"type": "action", "action": pick,
                                           "expected_version": version,
                                           "action_id": f"u{version}"}))
            states = {s: receive_state(ws) for s, ws in sockets.items()}
            assert receive(sockets[seat])["type"] == "ack"
        seat = states[0]["view"]["current_seat"]
        before = states[seat]["view"]
        loan = next(e["action"] for e in legal(http, table, seat) if e["action"]["kind"] == "loan")
        sockets[seat].send(json.dumps({"type": "action", "action": loan, "expected_version": 2,
                                       "action_id": "u2"}))
        loaned = receive_state(sockets[seat])
        assert loaned["version"] == 3 and loaned["undone"] == []
        assert [(e["seq"], e["action"]) for e in loaned["log"]] == [(3, loan)]
        assert loaned["legal"] and {e["action"]["kind"] for e in loaned["legal"]} >= {"pass"}
        assert receive(sockets[seat])["type"] == "ack"
        sockets[seat].send(json.dumps({"type": "undo", "expected_version": 3}))
        undone = receive_state(sockets[seat])
        assert undone["version"] == 4 and undone["view"]["players"] == before["players"]
        assert undone["undone"] == [3] and undone["log"] == [] and undone["legal"]
        assert receive(sockets[seat]) == {"type": "ack", "action_id": None, "version": 4}
        other = sockets[1 - seat]
        seen = [receive_state(other) for _ in range(2)]
        assert [m["version"] for m in seen] == [3, 4]
        assert [m["legal"] for m in seen] == [None, None]  # not its turn
        other.send(json.dumps({"type": "undo"}))
        assert receive(other)["code"] == "not_your_turn"


def test_a_client_too_far_behind_is_dropped_and_its_queue_stays_bounded() -> None:
    """A peer that stops reading: once `MAX_QUEUED` messages wait, later ones are not kept,
    and when the peer reads again it gets what was queued, then a close with 1013 (try
    again later: a reconnect gets the full state)."""

    class Stalled:  # the part of a starlette WebSocket the writer uses; its peer reads late
        def __init__(self) -> None:
            self.reading = asyncio.Event()
            self.got: list[str] = []
            self.closed_with: int | None = None

        async def send_text(self, text: str) -> None:
            await self.reading.wait()
            self.got.append(text)

        async def close(self, code: int) -> None:
            self.closed_with = code

    async def scenario() -> tuple[Stalled, Connection, int]:
        peer = Stalled()
        conn = Connection(peer)  # type: ignore[arg-type]
        writer = asyncio.create_task(conn.writer())
        for n in range(MAX_QUEUED + 100):
            conn.send(f'{{"n":{n}}}')
            await asyncio.sleep(0)
        waiting = conn.pending.qsize()
        peer.reading.set()
        await asyncio.wait_for(writer, timeout=10)
        return peer, conn, waiting

    peer, conn, waiting = run_in_own_loop(scenario())
    assert conn.dropped and waiting <= MAX_QUEUED + 1
    assert peer.got == [f'{{"n":{n}}}' for n in range(len(peer.got))]
    assert MAX_QUEUED <= len(peer.got) < MAX_QUEUED + 100
    assert peer.closed_with == 1013
