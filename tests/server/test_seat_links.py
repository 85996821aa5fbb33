"""Seat and host links can be renewed: the new secret works at once, the old one gets
`unauthorized` everywhere and changes nothing; a socket opened with the old seat token goes on
as a spectator. On SQLite and Postgres."""

from __future__ import annotations

import json

import httpx

from .conftest import LiveServer, act, auth, info, legal, make_game
from .test_api import error_of
from .test_websocket import hello, open_socket, receive


def test_a_renewed_seat_link_refuses_the_old_one(http: httpx.Client, server: LiveServer) -> None:
    table = make_game(http, players=2, humans=2)
    seat = info(http, table)["current_seat"]
    old = table.tokens[seat]
    with open_socket(server, table.id) as ws:
        assert hello(ws, old)["seat"] == seat
        renewed = http.post(table.url("/renew"), headers=auth(old))
        assert renewed.status_code == 200, renewed.text
        body = renewed.json()
        assert body["role"] == "seat" and body["seat"] == seat and body["token"] != old
        new = body["token"]
        # the old socket is told, then watches as a spectator
        told = receive(ws)
        assert told["type"] == "error" and told["code"] == "unauthorized"
        watching = receive(ws)
        assert watching["type"] == "state" and watching["seat"] is None
        assert all(p["hand"] is None for p in watching["view"]["players"])
        entry = legal(http, table.__class__(table.id, table.host, {seat: new}), seat)[0]
        ws.send(json.dumps({"type": "action", "action": entry["action"],
                            "expected_version": 0, "action_id": "old-socket"}))
        assert receive(ws)["code"] == "unauthorized"
    for reply in (http.get(table.url("/state"), headers=auth(old)),
                  http.get(table.url("/legal"), headers=auth(old)),
                  http.post(table.url("/renew"), headers=auth(old))):
        error_of(reply, 401, "unauthorized")
    table.tokens[seat] = old
    error_of(act(http, table, seat, entry["action"], 0), 401, "unauthorized")
    assert info(http, table)["version"] == 0  # nothing changed
    table.tokens[seat] = new
    assert http.get(table.url("/state"), headers=auth(new)).json()["seat"] == seat
    assert act(http, table, seat, entry["action"], 0).json() == {"version": 1}
    with open_socket(server, table.id) as ws:
        assert hello(ws, old)["code"] == "unauthorized"


def test_a_renewed_host_link_refuses_the_old_one(http: httpx.Client) -> None:
    table = make_game(http, players=3, humans=1)
    renewed = http.post(table.url("/renew"), headers=auth(table.host)).json()
    assert renewed["role"] == "host" and renewed["seat"] is None
    error_of(http.post(table.url("/bots"), headers=auth(table.host), json={}), 401,
             "unauthorized")
    assert info(http, table)["seats"][1]["taken"] is False
    added = http.post(table.url("/bots"), headers=auth(renewed["token"]), json={})
    assert added.status_code == 201, added.text


def test_renewing_needs_a_valid_token(http: httpx.Client) -> None:
    table = make_game(http, players=2, humans=1)
    error_of(http.post(table.url("/renew")), 401, "unauthorized")
    error_of(http.post(table.url("/renew"), headers=auth("x" * 43)), 401, "unauthorized")
    error_of(http.post("/api/games/nope/renew", headers=auth("x")), 404, "not_found")
    assert http.get(table.url("/state"), headers=auth(table.tokens[0])).json()["seat"] == 0
