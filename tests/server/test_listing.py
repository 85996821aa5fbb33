"""The public listing (GET /api/games): only listed games, paged with a cursor, filtered in SQL,
changes since a token; idle waiting games expire; old finished games leave the listing but stay
reachable by id. On SQLite and Postgres."""

from __future__ import annotations

import datetime as dt
import secrets
import time
from typing import Any

import httpx
from sqlalchemy import insert

from brass.server import Settings
from brass.server.storage import GameRecord, SeatRecord, Storage, games, seats

from .conftest import LiveServer, auth, make_game
from .test_api import error_of

UTC = dt.UTC


def page_ids(reply: httpx.Response) -> list[str]:
    assert reply.status_code == 200, reply.text
    return [g["id"] for g in reply.json()["games"]]


def listed_game(http: httpx.Client, players: int = 2, name: str = "listed") -> str:
    created = http.post("/api/games", json={"players": players, "name": name, "listed": True})
    assert created.status_code == 201, created.text
    game_id: str = created.json()["id"]
    return game_id


def test_new_games_are_unlisted_unless_the_host_lists_them(http: httpx.Client) -> None:
    hidden = make_game(http, players=2, humans=0)
    shown = listed_game(http)
    first = page_ids(http.get("/api/games"))
    assert shown in first and hidden.id not in first
    assert http.get(hidden.url()).json()["listed"] is False  # reachable by its link
    error_of(http.post(hidden.url("/listed"), json={"listed": True}), 401, "unauthorized")
    error_of(http.post(hidden.url("/listed"), json={"listed": True},
                       headers=auth("not-the-host")), 401, "unauthorized")
    assert hidden.id not in page_ids(http.get("/api/games"))
    assert http.post(hidden.url("/listed"), json={"listed": True},
                     headers=auth(hidden.host)).json()["listed"] is True
    assert hidden.id in page_ids(http.get("/api/games"))
    http.post(hidden.url("/listed"), json={"listed": False}, headers=auth(hidden.host))
    assert hidden.id not in page_ids(http.get("/api/games"))


def test_bad_listing_requests_are_malformed(http: httpx.Client) -> None:
    for query in ["limit=0", "limit=101", "limit=x", "cursor=%%%", "cursor=bm90LWEtY3Vyc29y",
                  "changed_after=bm9wZQ", "status=lost", "cursor=YXxi&changed_after=YQ"]:
        error_of(http.get(f"/api/games?{query}"), 400, "malformed")


def _bulk_games(db_url: str, marker: str, n: int, start: dt.datetime) -> list[str]:
    """`n` listed waiting games, one second apart from `start`, inserted directly."""
    storage = Storage(db_url)
    ids = [f"{marker}{i:05d}" for i in range(n)]
    rows = [{"id": game_id, "name": marker, "players": 2, "status": "waiting", "seed": i,
             "setup": None, "version": 0, "engine_version": "1", "host_token_hash": "0" * 64,
             "created_at": start + dt.timedelta(seconds=i),
             "updated_at": start + dt.timedelta(seconds=i), "listed": True}
            for i, game_id in enumerate(ids)]
    try:
        with storage.engine.begin() as conn:
            conn.execute(insert(games), rows)
            conn.execute(insert(seats), [{"game_id": game_id, "seat": s, "bot": False}
                                         for game_id in ids for s in range(2)])
    finally:
        storage.close()
    return ids


def test_ten_thousand_games_page_through_once_each_newest_first(
        http: httpx.Client, db_url: str) -> None:
    marker = f"bulk{secrets.token_hex(3)}-"
    # made within the day a waiting game stays open (Settings.waiting_expiry): older ones the
    # shared server's sweep, once a minute, would expire while they are paged through (and
    # then flood every later test's changes feed: a CI run lost 1,702 of them so)
    start = dt.datetime.now(UTC) - dt.timedelta(hours=4)
    ids = _bulk_games(db_url, marker, 10_000, start)
    seen: list[str] = []
    cursor: str | None = None
    pages = 0
    while True:
        url = "/api/games?limit=100" + (f"&cursor={cursor}" if cursor else "")
        reply = http.get(url)
        body: dict[str, Any] = reply.json()
        assert len(body["games"]) <= 100
        seen.extend(g["id"] for g in body["games"] if g["id"].startswith(marker))
        pages += 1
        cursor = body["next"]
        if cursor is None:
            break
        assert pages < 200
    assert seen == sorted(ids, reverse=True)  # each once, newest first
    waiting = page_ids(http.get("/api/games?status=waiting&limit=100"))
    assert all(i not in waiting for i in ids[:9_000])  # newer waiting games come first
    running = http.get("/api/games?status=running&limit=100").json()["games"]
    assert all(g["status"] == "running" for g in running)


def test_changes_since_a_token_bring_only_the_games_that_changed(http: httpx.Client) -> None:
    first = listed_game(http)
    hidden = make_game(http, players=2, humans=0)
    token = http.get("/api/games").json()["changes"]
    joined = http.post(f"/api/games/{first}/join", json={"name": "late"})
    assert joined.status_code == 201
    changed = http.get(f"/api/games?changed_after={token}").json()
    by_id = {g["id"]: g for g in changed["games"]}
    assert by_id[first]["seats"][0]["taken"] is True
    assert hidden.id not in by_id  # an unlisted game's changes are nobody's business
    assert changed["next"] is None
    # a token from long ago pages through the changes, oldest first
    ancient = http.get("/api/games?limit=1").json()  # any token will do as a start
    assert ancient["changes"]


def test_changes_page_through_oldest_first(http: httpx.Client, db_url: str) -> None:
    marker = f"chg{secrets.token_hex(3)}-"
    start = dt.datetime.now(UTC) - dt.timedelta(minutes=10)
    ids = _bulk_games(db_url, marker, 5, start)
    token = listing_token(start - dt.timedelta(seconds=1))
    seen: list[str] = []
    for _ in range(1000):  # other tests' games changed in these minutes come too
        body = http.get(f"/api/games?limit=2&changed_after={token}").json()
        seen.extend(g["id"] for g in body["games"] if g["id"].startswith(marker))
        if len(body["games"]) < 2:
            break
        token = body["changes"]
    assert seen == ids


def listing_token(stamp: dt.datetime) -> str:
    import base64
    return base64.urlsafe_b64encode(stamp.isoformat().encode()).decode().rstrip("=")


def test_old_finished_games_leave_the_listing_but_stay_reachable(
        http: httpx.Client, db_url: str) -> None:
    old = dt.datetime.now(UTC) - dt.timedelta(days=30)
    game_id = f"old-{secrets.token_hex(4)}"
    storage = Storage(db_url)
    try:
        storage.create_game(GameRecord(
            id=game_id, name="old", players=2, status="waiting", seed=1, setup=None, version=0,
            engine_version="1", host_token_hash="0" * 64, created_at=old, updated_at=old,
            seats=[SeatRecord(seat=0), SeatRecord(seat=1)], listed=True))
        with storage.engine.begin() as conn:
            conn.execute(games.update().where(games.c.id == game_id).values(
                status="finished", finished_at=old, scores=[1, 2]))
    finally:
        storage.close()
    everything = []
    cursor = None
    while True:
        body = http.get("/api/games?limit=100&status=finished"
                        + (f"&cursor={cursor}" if cursor else "")).json()
        everything.extend(g["id"] for g in body["games"])
        if (cursor := body["next"]) is None:
            break
    assert game_id not in everything
    assert http.get(f"/api/games/{game_id}").json()["status"] == "finished"


def test_idle_waiting_games_expire_and_refuse_joins(tmp_path: Any) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'expire.db'}", join_limit=0,
                        waiting_expiry=1.0, bot_delay=0.0)
    with LiveServer(settings) as live, httpx.Client(base_url=live.base) as client:
        game_id = listed_game(client)
        running = make_game(client, players=2, humans=1, bots=1)
        deadline = time.monotonic() + 20
        while client.get(f"/api/games/{game_id}").json()["status"] != "expired":
            assert time.monotonic() < deadline, "the waiting game did not expire"
            time.sleep(0.1)
        error_of(client.post(f"/api/games/{game_id}/join", json={"name": "late"}), 409,
                 "game_not_running")
        assert client.get(running.url()).json()["status"] == "running"
        assert game_id not in page_ids(client.get("/api/games?status=waiting"))
