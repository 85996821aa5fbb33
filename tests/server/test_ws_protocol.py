"""The game socket's messages are what `/openapi.json` says: a whole 2-player game played over
real websockets (SQLite), two seats and a spectator connected, where every message a client
sends is a `ClientMessage` and every message received parses as a `ServerMessage` and dumps
back to the same JSON (an unknown field or type fails). On the way: previews, extensions,
undo, sync, a refused action, chat and a chat line the host deletes, so every message type of
both unions goes over the wire."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable, Iterator
from typing import Any, get_args

import httpx
import pytest
from websockets.sync.client import ClientConnection

from brass.server import Settings
from brass.server.schemas import ClientMessage, ServerMessage

from .conftest import LiveServer, Table, auth, make_game
from .test_websocket import open_socket


def types_of(union: Any) -> set[str]:
    """The `type` values of a RootModel's discriminated union."""
    members = get_args(union.model_fields["root"].annotation)
    assert members, union
    return {get_args(m.model_fields["type"].annotation)[0] for m in members}


class Checked:
    """A socket whose every message, each way, is checked against the API's models; the
    state messages it got are kept by version (the latest at each)."""

    def __init__(self, ws: ClientConnection, sent: set[str], heard: set[str]) -> None:
        self.ws, self.sent, self.heard = ws, sent, heard
        self.states: dict[int, dict[str, Any]] = {}

    def send(self, message: dict[str, Any]) -> None:
        parsed = ClientMessage.model_validate(message)  # the client models forbid extras
        assert parsed.root.model_dump(mode="json", exclude_unset=True) == message, message
        self.sent.add(message["type"])
        self.ws.send(json.dumps(message))

    def receive(self) -> dict[str, Any]:
        text = self.ws.recv(timeout=60)
        message: dict[str, Any] = json.loads(text)
        parsed = ServerMessage.model_validate(message)
        back = parsed.root.model_dump(mode="json", exclude_unset=True)
        if back != message:
            extra = sorted(set(message) - set(back))
            raise AssertionError(f"a {message.get('type')} message the models do not describe "
                                 f"(unknown at the top: {extra}): {text[:400]}")
        self.heard.add(message["type"])
        if message["type"] == "state":
            self.states[message["version"]] = message
        return message

    def until(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            message = self.receive()
            if done(message):
                return message

    def state(self, version: int, legal: bool = False) -> dict[str, Any]:
        """The state at `version` (with its legal moves, if `legal`), read if not yet got."""
        while True:
            got = self.states.get(version)
            if got is not None and (not legal or got["legal"] is not None):
                return got
            self.receive()


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    url = f"sqlite:///{tmp_path_factory.mktemp('wsproto') / 'brass.db'}"
    with LiveServer(Settings(database_url=url, bot_delay=0.0, join_limit=0)) as live:
        yield live


def test_every_socket_message_of_a_whole_game_is_described(sqlite_server: LiveServer) -> None:
    rng = random.Random(7)
    sent: set[str] = set()
    heard: set[str] = set()
    with httpx.Client(base_url=sqlite_server.base, timeout=60) as http:
        table = make_game(http, players=2, humans=2)
        with contextlib.ExitStack() as stack:
            socks = {seat: Checked(stack.enter_context(open_socket(sqlite_server, table.id)),
                                   sent, heard) for seat in (0, 1, None)}
            play(http, table, socks, rng)
    # each kind at least once (the first chance is always taken)
    assert sent == types_of(ClientMessage), f"sent {sorted(sent)}"
    assert heard == types_of(ServerMessage), f"heard {sorted(heard)}"


def play(http: httpx.Client, table: Table, socks: dict[int | None, Checked],
         rng: random.Random) -> None:
    for seat, sock in socks.items():
        sock.send({"type": "hello", "token": None if seat is None else table.tokens[seat]})
    version = socks[None].until(lambda m: m["type"] == "state")["version"]
    chatted = False
    sent, heard = socks[None].sent, socks[None].heard  # shared by all the sockets
    while True:
        for sock in socks.values():
            sock.state(version)
        public = socks[None].state(version)
        if public["view"]["is_over"]:
            return
        mover = public["view"]["current_seat"]
        sock = socks[mover]
        moves = [e["action"] for e in sock.state(version, legal=True)["legal"]]
        if not chatted and version >= 4:  # a chat line, then the host deletes it
            sock.send({"type": "chat", "text": "good luck"})
            said = [s.until(lambda m: m["type"] == "chat") for s in socks.values()][-1]
            gone = http.delete(table.url(f"/chat/messages/{said['message']['id']}"),
                               headers=auth(table.host))
            assert gone.status_code == 204, gone.text
            for s in socks.values():
                s.until(lambda m: m["type"] == "chat_deleted")
            socks[None].send({"type": "chat", "text": "hello all", "name": "watcher"})
            for s in socks.values():
                s.until(lambda m: m["type"] == "chat")
            muted = http.post(table.url("/chat/mute"), json={"seat": None, "muted": True},
                              headers=auth(table.host))  # and mutes the spectators
            assert muted.status_code == 200, muted.text
            for s in socks.values():
                s.until(lambda m: m["type"] == "chat_mutes")
            chatted = True
        if "preview" not in sent or rng.random() < 0.2:  # a move's effect before it is made
            sock.send({"type": "preview", "action": rng.choice(moves), "version": version})
            sock.until(lambda m: m["type"] == "preview")
        growing = [m for m in moves if m["kind"] in ("sell", "network")]
        if growing and ("extend" not in sent or rng.random() < 0.3):
            sock.send({"type": "extend", "action": growing[0], "version": version})
            sock.until(lambda m: m["type"] == "extensions")
        if "sync" not in sent or rng.random() < 0.05:
            sock.send({"type": "sync"})
            sock.until(lambda m: m["type"] == "state" and m["legal"] is not None)
        if "visible" not in sent:  # the page shows the game (no answer: notices.py)
            sock.send({"type": "visible", "visible": True})
        if "error" not in heard or rng.random() < 0.05:  # refused: not the game's version
            sock.send({"type": "action", "action": moves[0], "expected_version": version + 9,
                       "action_id": f"stale-{version}"})
            refused = sock.until(lambda m: m["type"] == "error")
            assert refused["code"] == "stale_version", refused
        pick = rng.choice([m for m in moves if m["kind"] != "pass"] or moves)
        sock.send({"type": "action", "action": pick, "expected_version": version,
                   "action_id": f"move-{version}"})
        version = sock.until(lambda m: m["type"] == "ack")["version"]
        if sock.state(version)["undoable"] and ("undo" not in sent or rng.random() < 0.3):
            sock.send({"type": "undo", "expected_version": version})
            version = sock.until(lambda m: m["type"] == "ack")["version"]
