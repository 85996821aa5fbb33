"""The admin page's API (issue 25, adminpage.py): only an admin may use it (a guest gets
`forbidden`, a stranger `unauthorized`); the games list filters and pages; ending a game is
heard live by its spectators and refuses moves after; deleting one removes its rows; chat
moderation across games deletes a line for the history and mutes a seat; the create policy
is the one `brass settings` reads; the banner is sanitised and a second instance shows a
change within seconds, and no longer serves a game deleted on the first; the backup card
reads the newest dump; the figures are /metrics'."""

from __future__ import annotations

import logging
import secrets
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, func, select

from brass.server import Settings, policy
from brass.server.playerstore import PlayerStore
from brass.server.storebase import StoreBase
from brass.server.tables import chat, games, seats

from .conftest import LiveServer, act, auth, info, legal, make_game
from .databases import fresh_postgres
from .test_api import error_of
from .test_chat_moderation import next_other, say, texts
from .test_players import browser
from .test_websocket import hello, open_socket, receive

ROUTES: list[tuple[str, str, dict[str, Any] | None]] = [
    ("GET", "/api/admin/games", None), ("POST", "/api/admin/games/x/end", None),
    ("GET", "/api/admin/chat/muted", None),
    ("DELETE", "/api/admin/games/x", None), ("GET", "/api/admin/chat", None),
    ("DELETE", "/api/admin/games/x/chat/messages/1", None),
    ("POST", "/api/admin/games/x/chat/mute", {"seat": None, "muted": True}),
    ("GET", "/api/admin/policy", None), ("PUT", "/api/admin/policy", {"policy": "anyone"}),
    ("PUT", "/api/admin/banner", {"text": "hi"}), ("GET", "/api/admin/backup", None),
    ("GET", "/api/admin/figures", None)]


@contextmanager
def make_admin(server: LiveServer) -> Iterator[httpx.Client]:
    """A browser whose player the CLI made an admin (as `brass admin grant` does)."""
    with browser(server) as client:
        made = client.post("/api/session")
        assert made.status_code == 201, made.text
        base = StoreBase(server.settings.database_url)
        try:
            PlayerStore(base).set_role(client.get("/api/me").json()["id"], "admin")
        finally:
            base.close()
        yield client


@pytest.fixture
def admin(server: LiveServer) -> Iterator[httpx.Client]:
    with make_admin(server) as client:
        yield client


def test_only_an_admin_may_use_it(server: LiveServer, admin: httpx.Client) -> None:
    with browser(server) as guest, browser(server) as stranger:
        assert guest.post("/api/session").status_code == 201
        for method, path, body in ROUTES:
            error_of(stranger.request(method, path, json=body), 401, "unauthorized")
            error_of(guest.request(method, path, json=body), 403, "forbidden")
    assert admin.get("/api/admin/games").status_code == 200
    schema = admin.get("/openapi.json").json()
    assert {"/api/admin/games", "/api/admin/banner", "/api/banner"} <= set(schema["paths"])


def test_games_filtered_and_paged(http: httpx.Client, admin: httpx.Client) -> None:
    word = secrets.token_hex(4)
    made = []
    for humans, bots in ((2, 0), (1, 1), (0, 0)):
        reply = http.post("/api/games", json={"players": 2, "name": f"adm {word} {humans}{bots}"})
        assert reply.status_code == 201, reply.text
        made.append(reply.json())
        for i in range(humans):
            assert http.post(f"/api/games/{reply.json()['id']}/join", json={
                "name": f"h{i}", "invite": reply.json()["invite"]}).status_code == 201
        for _ in range(bots):
            assert http.post(f"/api/games/{reply.json()['id']}/bots", json={},
                             headers=auth(reply.json()["host_token"])).status_code == 201

    def ids(**query: Any) -> list[str]:
        reply = admin.get("/api/admin/games", params={"name": word.upper(), **query})
        assert reply.status_code == 200, reply.text
        return [g["id"] for g in reply.json()["games"]]

    newest_first = [g["id"] for g in reversed(made)]
    assert ids() == newest_first
    assert ids(status="running") == [made[1]["id"], made[0]["id"]]
    assert ids(status="waiting") == [made[2]["id"]]
    assert ids(bots="true") == [made[1]["id"]]
    assert ids(humans="false") == [made[2]["id"]]
    assert ids(humans="true", bots="false") == [made[0]["id"]]
    assert ids(since="2999-01-01T00:00:00Z") == []
    first = admin.get("/api/admin/games", params={"name": word, "limit": 2}).json()
    assert [g["id"] for g in first["games"]] == newest_first[:2] and first["next_offset"] == 2
    rest = admin.get("/api/admin/games", params={"name": word, "limit": 2, "offset": 2}).json()
    assert [g["id"] for g in rest["games"]] == newest_first[2:] and rest["next_offset"] is None
    assert admin.get("/api/admin/games", params={"name": "%_"}).status_code == 200  # literal
    error_of(admin.get("/api/admin/games", params={"limit": 1000}), 400, "malformed")
    error_of(admin.get("/api/admin/games", params={"offset": 10**6}), 400, "malformed")


def test_ending_a_game_is_heard_by_its_spectators(server: LiveServer, http: httpx.Client,
                                                  admin: httpx.Client) -> None:
    table = make_game(http, players=2, humans=2)
    with open_socket(server, table.id) as ws:
        first = hello(ws, None)
        assert first["status"] == "running", first
        mover = first["view"]["current_seat"]
        move = legal(http, table, mover)[0]["action"]
        ended = admin.post(f"/api/admin/games/{table.id}/end")
        assert ended.status_code == 200 and ended.json()["status"] == "cancelled", ended.text
        seen = [receive(ws) for _ in range(1)]
        while seen[-1].get("status") != "cancelled":
            assert len(seen) < 20, f"the spectator never heard the end: {seen}"
            seen.append(receive(ws))
    moved = act(http, table, mover, move, first["version"])
    error_of(moved, 409, "game_not_running")
    error_of(admin.post(f"/api/admin/games/{table.id}/end"), 409, "game_not_running")
    error_of(admin.post("/api/admin/games/no-such-game/end"), 404, "not_found")
    assert info(http, table)["called_off_by"] == "admin"


def test_a_waiting_game_the_admin_ends_says_so(http: httpx.Client,
                                               admin: httpx.Client) -> None:
    """Its lobby names the admin, not its host (called_off_by), and it stays so."""
    table = make_game(http, players=3, humans=1)
    assert info(http, table)["called_off_by"] is None
    ended = admin.post(f"/api/admin/games/{table.id}/end")
    assert ended.status_code == 200 and ended.json()["status"] == "cancelled", ended.text
    after = info(http, table)
    assert (after["status"], after["called_off_by"]) == ("cancelled", "admin"), after
    error_of(http.post(table.url("/cancel"), headers=auth(table.host)), 409, "game_not_running")
    assert info(http, table)["called_off_by"] == "admin"
    said = error_of(http.post(table.url("/join"), json={"name": "late", "invite": table.invite}),
                    409, "game_not_running")
    assert said == "The server's admin ended this game", said


def test_deleting_a_game_removes_its_rows(server: LiveServer, http: httpx.Client,
                                          admin: httpx.Client) -> None:
    table = make_game(http, players=2, humans=2)
    with open_socket(server, table.id) as ws:
        hello(ws, table.tokens[0])
        assert say(ws, "soon gone")["type"] == "chat"
    done = admin.delete(f"/api/admin/games/{table.id}")  # running: ended, then deleted
    assert done.status_code == 204, done.text
    error_of(http.get(table.url()), 404, "not_found")
    error_of(admin.delete(f"/api/admin/games/{table.id}"), 404, "not_found")
    engine = create_engine(server.settings.database_url)
    try:
        with engine.connect() as conn:
            left = [conn.execute(select(func.count()).select_from(t).where(
                t.c.id == table.id if t is games else t.c.game_id == table.id)).scalar()
                for t in (games, seats, chat)]
    finally:
        engine.dispose()
    assert left == [0, 0, 0], left


def test_chat_moderation_across_games(server: LiveServer, http: httpx.Client,
                                      admin: httpx.Client) -> None:
    tables = [make_game(http, players=2, humans=2) for _ in range(2)]
    word = secrets.token_hex(3)
    for k, table in enumerate(tables):
        with open_socket(server, table.id) as ws:
            hello(ws, table.tokens[0])
            if k == 0:  # an older line: a second page
                assert say(ws, f"{word} older")["type"] == "chat"
            assert say(ws, f"{word} line {k}")["type"] == "chat"
    lines = admin.get("/api/admin/chat", params={"limit": 2}).json()
    assert [(x["game_id"], x["text"]) for x in lines["lines"]] == [
        (tables[1].id, f"{word} line 1"), (tables[0].id, f"{word} line 0")], lines
    assert lines["next"] == lines["lines"][-1]["id"]
    older = admin.get("/api/admin/chat", params={"before": lines["next"], "limit": 50}).json()
    assert older["lines"][0]["text"] == f"{word} older", older
    assert all(x["id"] < lines["next"] for x in older["lines"]), older
    one = admin.get("/api/admin/chat", params={"game": tables[0].id, "limit": 1}).json()["lines"]
    assert [x["text"] for x in one] == [f"{word} line 0"], one
    with open_socket(server, tables[0].id) as spectator:
        hello(spectator, None)
        gone = admin.delete(f"/api/admin/games/{tables[0].id}/chat/messages/{one[0]['id']}")
        assert gone.status_code == 204, gone.text
        told = receive(spectator)
        while told["type"] == "state":
            told = receive(spectator)
        assert told == {"type": "chat_deleted", "id": one[0]["id"]}, told
    assert texts(http, tables[0]) == [f"{word} older"], "the history has the deleted line"
    error_of(admin.delete(f"/api/admin/games/{tables[0].id}/chat/messages/{one[0]['id']}"), 404,
             "not_found")
    muted = admin.post(f"/api/admin/games/{tables[1].id}/chat/mute",
                       json={"seat": 1, "muted": True})
    assert muted.json() == {"seats": [1], "spectators": False, "admin_seats": [1],
                            "admin_spectators": False}, muted.text
    # the game's host (often the player muted) cannot lift the admin's mute
    host_mute = tables[1].url("/chat/mute")
    error_of(http.post(host_mute, json={"seat": 1, "muted": False},
                       headers=auth(tables[1].host)), 403, "forbidden")
    again = http.post(host_mute, json={"seat": 1, "muted": True}, headers=auth(tables[1].host))
    assert again.json() == muted.json(), again.text  # still the admin's
    admin.post(f"/api/admin/games/{tables[0].id}/chat/mute", json={"seat": None, "muted": True})
    found = admin.get("/api/admin/chat/muted").json()
    mine = [g for g in found["games"] if g["game_id"] in {t.id for t in tables}]
    assert mine == [  # newest game first; a seat by its player's name
        {"game_id": tables[1].id, "game_name": "test",
         "seats": [{"seat": 1, "name": "human 1", "bot": False}], "spectators": False},
        {"game_id": tables[0].id, "game_name": "test", "seats": [],
         "spectators": True}], found
    first = admin.get("/api/admin/chat/muted", params={"limit": 1}).json()
    assert len(first["games"]) == 1 and first["next_offset"] == 1, first
    with open_socket(server, tables[1].id) as ws:
        hello(ws, tables[1].tokens[1])
        assert say(ws, "muted?")["code"] == "chat_muted"
        heard = admin.post(f"/api/admin/games/{tables[1].id}/chat/mute",
                           json={"seat": 1, "muted": False})
        assert heard.json() == {"seats": [], "spectators": False, "admin_seats": [],
                                "admin_spectators": False}, heard.text
        # the game's pages are told (the host's mute boxes follow the admin's change)
        assert next_other(ws) == {"type": "chat_mutes", "muted": heard.json()}
        assert say(ws, "heard again")["type"] == "chat"
    left = admin.get("/api/admin/chat/muted").json()["games"]
    assert tables[1].id not in {g["game_id"] for g in left}, left


def test_the_create_policy_is_the_command_lines(server: LiveServer, admin: httpx.Client,
                                                http: httpx.Client) -> None:
    base = StoreBase(server.settings.database_url)
    try:
        set_to = admin.put("/api/admin/policy", json={"policy": "accounts"})
        assert set_to.json() == {"policy": "accounts", "code": None}, set_to.text
        assert policy.current(PlayerStore(base))[0] == "accounts"
        error_of(http.post("/api/games", json={"players": 2, "name": "x"}), 403,
                 "create_refused")
        invite = admin.put("/api/admin/policy", json={"policy": "invite"}).json()
        assert invite["policy"] == "invite" and len(invite["code"]) >= 16, invite
        assert admin.get("/api/admin/policy").json() == {"policy": "invite"}
        error_of(admin.put("/api/admin/policy", json={"policy": "anyone", "code": "12345678"}),
                 400, "malformed")
        error_of(admin.put("/api/admin/policy", json={"policy": "everyone"}), 400, "malformed")
    finally:
        policy.set_policy(PlayerStore(base), "anyone")
        base.close()
    assert admin.get("/api/admin/policy").json() == {"policy": "anyone"}


def test_the_banner_is_sanitised(admin: httpx.Client, http: httpx.Client) -> None:
    try:
        for bad in ("", " padded ", "a\u202eb", "nul\x00", "x" * 281):
            error_of(admin.put("/api/admin/banner", json={"text": bad}), 400, "malformed")
        text = "Maintenance at 22:00 UTC — back in 10 minutes"
        put = admin.put("/api/admin/banner", json={"text": text})
        assert put.status_code == 200 and put.json()["text"] == text, put.text
        assert http.get("/api/banner").json()["text"] == text  # this instance: at once
    finally:
        assert admin.put("/api/admin/banner", json={"text": None}).status_code == 200
    assert http.get("/api/banner").json()["text"] is None


def test_backup_and_figures(server: LiveServer, admin: httpx.Client,
                            http: httpx.Client) -> None:
    absent = admin.get("/api/admin/backup").json()
    assert absent["present"] is False and absent["latest"] is None, absent
    table = make_game(http, players=2, humans=0, bots=2)  # bots move: the counter moves
    deadline = time.monotonic() + 60
    while http.get(table.url()).json()["version"] < 3:
        assert time.monotonic() < deadline, "the bots did not move"
        time.sleep(0.05)
    found = admin.get("/api/admin/figures").json()
    assert found["moves"] >= 3 and found["moves_per_minute"] > 0, found
    assert found["memory_bytes"] > 10_000_000 and found["open_files"] > 0, found
    assert found["uptime_seconds"] > 0 and found["games_running"] >= 0, found
    assert found["instance"].startswith(f"{socket.gethostname()[:40]}:"), found


def test_a_second_instance_sees_the_banner_and_the_end(tmp_path: Path) -> None:
    (tmp_path / "brass-20260101T000000Z.dump").write_bytes(b"x" * 1234)
    (tmp_path / "brass-20260102T000000Z.dump").write_bytes(b"y" * 4321)
    (tmp_path / "brass-20260103T000000Z.dump.partial").write_bytes(b"z")
    with fresh_postgres("brass_admin") as url:
        made = [Settings(database_url=url, bot_delay=0.0, join_limit=0, backup_dir=tmp_path)
                for _ in range(2)]
        with LiveServer(made[0]) as a, LiveServer(made[1]) as b, make_admin(a) as admin, \
                httpx.Client(base_url=b.base, timeout=60) as other:
            newest = admin.get("/api/admin/backup").json()
            assert (newest["present"], newest["latest"], newest["size"], newest["count"]) == (
                True, "brass-20260102T000000Z.dump", 4321, 2), newest
            assert other.get("/api/banner").json()["text"] is None  # b holds a copy now
            assert admin.put("/api/admin/banner", json={"text": "Hello from A"}
                             ).status_code == 200
            start, seen = time.monotonic(), None
            while seen != "Hello from A":
                assert time.monotonic() - start < 10, f"B still shows {seen!r}"
                seen = other.get("/api/banner").json()["text"]
                time.sleep(0.05)
            # a spectator on B hears a game end that the admin ended on A
            table = make_game(other, players=2, humans=2)
            with open_socket(b, table.id) as ws:
                assert hello(ws, None)["status"] == "running"
                assert admin.post(f"/api/admin/games/{table.id}/end").status_code == 200
                heard = [receive(ws)]
                while heard[-1].get("status") != "cancelled":
                    assert len(heard) < 20, f"B's spectator never heard the end: {heard}"
                    heard.append(receive(ws))
                # deleted on A while B holds it (its spectator is still there): gone on B too
                assert admin.delete(f"/api/admin/games/{table.id}").status_code == 204
                start, answers = time.monotonic(), [other.get(table.url()).status_code]
                while answers[-1] != 404:
                    assert time.monotonic() - start < 10, f"B still serves it: {answers}"
                    time.sleep(0.05)
                    answers.append(other.get(table.url()).status_code)
                error_of(other.get(table.url("/log")), 404, "not_found")
            # each instance's figures are its own, and say whose: a reload may reach the other
            with httpx.Client(base_url=b.base, timeout=60, cookies=admin.cookies,
                              headers={"Origin": b.base}) as admin_on_b:
                on_b = admin_on_b.get("/api/admin/figures")
                assert on_b.status_code == 200, on_b.text
            on_a = admin.get("/api/admin/figures").json()["instance"]
            assert on_a != on_b.json()["instance"], (on_a, on_b.json())


def test_each_change_an_admin_makes_is_logged_with_the_admin_and_its_target(
        server: LiveServer, http: httpx.Client, admin: httpx.Client,
        caplog: pytest.LogCaptureFixture) -> None:
    """Several admins share a server: the access log says only the path, so each change is
    a line of its own naming the admin and what changed (never an invite code)."""
    me = admin.get("/api/me").json()["id"]
    table = make_game(http, players=2, humans=2)
    with open_socket(server, table.id) as ws:
        hello(ws, table.tokens[1])
        line_id = say(ws, "a line to delete")["message"]["id"]
    caplog.set_level(logging.INFO, logger="brass.server.admin")
    steps = [("DELETE", f"/api/admin/games/{table.id}/chat/messages/{line_id}", None,
              f"deleted chat line {line_id} of game {table.id}"),
             ("POST", f"/api/admin/games/{table.id}/chat/mute", {"seat": 1, "muted": True},
              f"muted seat 1 in the chat of game {table.id}"),
             ("POST", f"/api/admin/games/{table.id}/chat/mute", {"seat": None, "muted": False},
              f"let speak the spectators in the chat of game {table.id}"),
             ("PUT", "/api/admin/banner", {"text": "Back soon"}, "set the banner to 'Back soon'"),
             ("PUT", "/api/admin/banner", {"text": None}, "cleared the banner"),
             ("PUT", "/api/admin/policy", {"policy": "invite", "code": "secret-code-123"},
              "set the create policy to invite"),
             ("PUT", "/api/admin/policy", {"policy": "anyone"}, "set the create policy to anyone"),
             ("POST", f"/api/admin/games/{table.id}/end", None, f"ended game {table.id}"),
             ("DELETE", f"/api/admin/games/{table.id}", None,
              f"deleted game {table.id} (cancelled until then)")]
    for method, path, body, said in steps:
        caplog.clear()
        done = admin.request(method, path, json=body)
        assert done.status_code < 300, (path, done.text)
        lines = [r.getMessage() for r in caplog.records if r.name == "brass.server.admin"]
        assert len(lines) == 1 and lines[0].startswith(f"admin {me} ") and \
            lines[0].endswith(said), (said, lines)
        assert "secret-code-123" not in lines[0]

