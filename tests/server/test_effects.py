"""Every log row stores its public effects (the engine's `play` events as a spectator sees
them): `GET /log` and the state messages carry exactly those, and the bodies match their
OpenAPI models."""

from __future__ import annotations

import json
from typing import Any

import httpx

from brass.engine import new_game, parse_action, play, public_events
from brass.server.schemas import GameLog, StateMessage

from .conftest import LiveServer, make_game
from .test_websocket import hello, open_socket, receive


def test_the_log_and_the_state_messages_carry_the_public_effects(
        http: httpx.Client, server: LiveServer) -> None:
    table = make_game(http, players=2, humans=0)
    with open_socket(server, table.id) as watcher:
        assert hello(watcher, None)["status"] == "waiting"
        for _ in range(2):
            assert http.post(table.url("/bots"), headers={
                "Authorization": f"Bearer {table.host}"}, json={}).status_code == 201
        messages: list[dict[str, Any]] = []
        while not messages or messages[-1]["status"] != "finished":
            messages.append(receive(watcher))
    body = http.get(table.url("/log")).text
    log = GameLog.model_validate_json(body)
    data = json.loads(body)
    assert log.status == "finished" and data["seed"] is not None
    game = new_game(2, data["seed"], data["setup"])
    for entry in data["actions"]:
        game, events = play(game, parse_action(entry["action"]))
        assert entry["effects"] == json.loads(json.dumps(public_events(events, None)))
    assert list(game.scores) == data["scores"]
    by_seq = {e["seq"]: e for e in data["actions"]}
    states = [m for m in messages if m["type"] == "state" and m["version"] > 0]
    assert [m["version"] for m in states] == list(range(1, len(data["actions"]) + 1))
    for message in states:
        StateMessage.model_validate(message)
        assert message["log"] == [by_seq[message["version"]]] and message["undone"] == []
    StateMessage.model_validate_json(http.get(table.url("/state")).text)
