"""Bad input found by review: each once let a client stall, mislead or impersonate."""

from __future__ import annotations

import time

import httpx

from .conftest import LiveServer, Table, act, auth, info, legal, make_game


def test_a_player_cannot_stall_a_bot_by_taking_its_action_id(http: httpx.Client,
                                                              server: LiveServer) -> None:
    """Bots used to submit with the id `bot-{version}-{seat}`: a human who sent that id first
    froze the bot for good. Bot ids are now secret: each human move here takes the id the
    old bot would have used next, and the bot keeps playing."""
    table = make_game(http, players=2, humans=1)
    human = next(iter(table.tokens))
    bot = 1 - human
    assert http.post(table.url("/bots"), headers=auth(table.host), json={}).status_code == 201
    deadline = time.monotonic() + 60
    for _ in range(4):
        while info(http, table)["current_seat"] != human:  # the bot's turn: it must move
            assert time.monotonic() < deadline, "the bot stalled"
            time.sleep(0.05)
        version = info(http, table)["version"]
        move = legal(http, table, human)[-1]["action"]
        reply = act(http, table, human, move, version, f"bot-{version + 1}-{bot}")
        assert reply.status_code == 200, reply.text
    assert info(http, table)["version"] >= 5  # the bot moved in between


def test_an_action_id_reused_for_another_action_is_refused(http: httpx.Client) -> None:
    table = make_game(http, players=2, humans=2)
    seat = info(http, table)["current_seat"]
    entries = legal(http, table, seat)
    first, other = entries[0]["action"], entries[-1]["action"]
    assert act(http, table, seat, first, 0, "same-id").json() == {"version": 1}
    assert act(http, table, seat, first, 0, "same-id").json() == {"version": 1}  # a retry
    refused = act(http, table, seat, other, 1, "same-id")
    assert refused.status_code == 400 and refused.json()["code"] == "malformed"
    assert "another action" in refused.json()["message"]
    assert info(http, table)["version"] == 1


def test_a_bot_for_a_seat_the_game_does_not_have_is_malformed(http: httpx.Client) -> None:
    table = make_game(http, players=2, humans=0)
    reply = http.post(table.url("/bots"), headers=auth(table.host), json={"seat": 3})
    assert reply.status_code == 400 and reply.json()["code"] == "malformed"


def test_names_with_invisible_or_direction_characters_are_refused(http: httpx.Client) -> None:
    created = http.post("/api/games", json={"players": 2, "name": "names"}).json()
    table = Table(id=created["id"], host=created["host_token"], invite=created["invite"])
    for name in ("Al\u202eice", "Bob\u200b", "\u2028", "   ", "Eve\x7f"):
        reply = http.post(table.url("/join"), json={"name": name, "invite": table.invite})
        assert reply.status_code == 400 and reply.json()["code"] == "malformed", name
    assert http.post(table.url("/join"),
                     json={"name": "Zoë Ōkubo", "invite": table.invite}).status_code == 201


def test_wrong_types_are_malformed_not_converted(http: httpx.Client) -> None:
    table = make_game(http, players=2, humans=2)
    seat = info(http, table)["current_seat"]
    move = legal(http, table, seat)[0]["action"]
    for version in ("0", True, 0.5):  # 0.0 is a JSON Schema integer: accepted as 0
        reply = http.post(table.url("/actions"), headers=auth(table.tokens[seat]),
                          json={"action": move, "expected_version": version, "action_id": "t"})
        assert reply.status_code == 400 and reply.json()["code"] == "malformed", version
    assert info(http, table)["version"] == 0
