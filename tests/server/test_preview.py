"""Preview: the seat to move asks for the whole effect of a legal move before confirming it
(`POST legal/preview` or the websocket's `preview`) and gets the engine's `move` event for it,
the same one the log then stores; an illegal move or another seat gets a typed error."""

from __future__ import annotations

import json
from typing import Any

import httpx

from brass.engine import parse_action, play
from brass.server.schemas import Preview

from .conftest import LiveServer, auth
from .test_extensions import at, seated  # noqa: F401  (the fixture)
from .test_websocket import hello, open_socket, receive


def test_every_listed_kind_previews_as_the_engine_plays_it(http: httpx.Client,
                                                           seated: Any) -> None:  # noqa: F811
    game, seat, table = at(seated, "sell_goods_4")
    entries = http.get(table.url("/legal"), headers=auth(table.tokens[seat])).json()
    by_kind: dict[str, dict[str, Any]] = {}
    for e in entries:
        by_kind.setdefault(e["action"]["kind"], e)
    assert {"build", "sell", "loan"} <= set(by_kind)
    for entry in by_kind.values():
        reply = http.post(table.url("/legal/preview"), headers=auth(table.tokens[seat]),
                          json={"action": entry["action"], "version": 0})
        assert reply.status_code == 200, reply.text
        body = Preview.model_validate_json(reply.text)
        expected = play(game, parse_action(entry["action"]))[1][0]
        assert reply.json()["effect"] == json.loads(json.dumps(expected))
        assert body.effect["paid"] == entry["quote"]["money"]  # type: ignore[index]
        assert body.effect["received"] == entry["quote"]["received"]  # type: ignore[index]


def test_a_preview_over_the_websocket_and_its_errors(http: httpx.Client, server: LiveServer,
                                                    seated: Any) -> None:  # noqa: F811
    game, seat, table = at(seated, "sell_goods_4")
    other = (seat + 1) % game.num_players
    with open_socket(server, table.id) as ws:
        state = hello(ws, table.tokens[seat])
        build = next(e for e in state["legal"] if e["action"]["kind"] == "build")
        ws.send(json.dumps({"type": "preview", "action": build["action"], "version": 0}))
        reply = receive(ws)
        assert reply["type"] == "preview" and reply["action"] == build["action"]
        assert reply["effect"]["placed"]["industry"] == build["action"]["industry"]
        ws.send(json.dumps({"type": "preview", "action": build["action"], "version": 5}))
        stale = receive(ws)  # a refusal names the version it answers: a client drops old ones
        assert (stale["code"], stale["version"]) == ("stale_version", 5)
        illegal = {**build["action"], "slot": 9}
        ws.send(json.dumps({"type": "preview", "action": illegal, "version": 0}))
        refused = receive(ws)
        assert refused["code"] in {"illegal", "malformed"} and refused["version"] == 0
    with open_socket(server, table.id) as ws:
        hello(ws, table.tokens[other])
        ws.send(json.dumps({"type": "preview", "action": build["action"], "version": 0}))
        assert receive(ws)["code"] == "not_your_turn"
