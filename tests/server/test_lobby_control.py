"""The host controls a waiting game: removes a player or a bot (the removed player's token
stops working), or calls the game off (nobody can join). Nobody else can. SQLite and Postgres."""

from __future__ import annotations

import httpx

from .conftest import auth, info, make_game
from .test_api import error_of


def test_the_host_removes_a_player_whose_token_then_fails(http: httpx.Client) -> None:
    table = make_game(http, players=3, humans=2)
    removed = http.delete(table.url("/seats/1"), headers=auth(table.host))
    assert removed.status_code == 200, removed.text
    assert [s["taken"] for s in removed.json()["seats"]] == [True, False, False]
    error_of(http.get(table.url("/state"), headers=auth(table.tokens[1])), 401, "unauthorized")
    # the seat is free again; the game starts with the seats the database holds
    again = http.post(table.url("/join"), json={"name": "new", "invite": table.invite})
    assert again.status_code == 201 and again.json()["seat"] == 1
    http.post(table.url("/bots"), headers=auth(table.host), json={})
    assert info(http, table)["status"] == "running"
    error_of(http.get(table.url("/legal"), headers=auth(table.tokens[1])), 401, "unauthorized")
    error_of(http.delete(table.url("/seats/0"), headers=auth(table.host)), 409,
             "game_not_running")


def test_the_host_removes_a_bot_and_only_the_host_may(http: httpx.Client) -> None:
    table = make_game(http, players=3, humans=1, bots=1)
    error_of(http.delete(table.url("/seats/1")), 401, "unauthorized")
    error_of(http.delete(table.url("/seats/1"), headers=auth(table.tokens[0])), 401,
             "unauthorized")
    assert info(http, table)["seats"][1]["bot"] is True
    assert http.delete(table.url("/seats/1"), headers=auth(table.host)).status_code == 200
    assert info(http, table)["seats"][1] == {"seat": 1, "name": None, "bot": False,
                                              "taken": False, "stand_in": None,
                                              "reserve": None, "bot_level": None}
    error_of(http.delete(table.url("/seats/1"), headers=auth(table.host)), 409, "illegal")
    error_of(http.delete(table.url("/seats/7"), headers=auth(table.host)), 404, "not_found")


def test_a_cancelled_game_takes_no_one(http: httpx.Client) -> None:
    table = make_game(http, players=2, humans=1)
    error_of(http.post(table.url("/cancel"), headers=auth(table.tokens[0])), 401,
             "unauthorized")
    cancelled = http.post(table.url("/cancel"), headers=auth(table.host))
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert cancelled.json()["called_off_by"] == "host"
    error_of(http.post(table.url("/join"), json={"name": "late", "invite": table.invite}),
             409, "game_not_running")
    error_of(http.post(table.url("/bots"), headers=auth(table.host), json={}), 409,
             "game_not_running")
    error_of(http.post(table.url("/cancel"), headers=auth(table.host)), 409,
             "game_not_running")
    http.post(table.url("/listed"), json={"listed": True}, headers=auth(table.host))
    assert table.id not in {g["id"] for g in http.get("/api/games?limit=100").json()["games"]}
    assert info(http, table)["status"] == "cancelled"  # still reachable by its link
    assert info(http, table)["called_off_by"] == "host"
