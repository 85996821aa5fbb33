"""The HTTP API: lobby, seats and tokens, typed errors, undo, log and replay frames."""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
import time
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, select

from brass.engine import DATA
from brass.engine.rules import LOAN
from brass.engine.turns import HAND_SIZE
from brass.server import Settings
from brass.server.steward import RETRY_FIRST
from brass.server.storage import GameRecord, SeatRecord, Storage, games, seats

from .conftest import LiveServer, Table, act, auth, info, legal, make_game
from .test_restart import wait_for


def state(http: httpx.Client, table: Table, seat: int | None) -> dict[str, Any]:
    headers = auth(table.tokens[seat]) if seat is not None else {}
    reply = http.get(table.url("/state"), headers=headers)
    assert reply.status_code == 200, reply.text
    data: dict[str, Any] = reply.json()
    return data


def two_humans(http: httpx.Client) -> tuple[Table, int]:
    table = make_game(http, players=2, humans=2)
    return table, info(http, table)["current_seat"]


def error_of(reply: httpx.Response, status: int, code: str) -> str:
    assert reply.status_code == status, reply.text
    body = reply.json()
    # an engine refusal adds its reason and params (tests/engine/test_refusal_codes.py)
    assert set(body) in ({"code", "message"}, {"code", "message", "reason", "params"}), body
    assert body["code"] == code, body
    message: str = body["message"]
    assert message
    return message


def test_create_list_and_public_info(http: httpx.Client) -> None:
    table = make_game(http, players=3, humans=1)
    assert http.post(table.url("/listed"), json={"listed": True},
                     headers=auth(table.host)).status_code == 200
    listed = {g["id"]: g for g in http.get("/api/games").json()["games"]}
    assert listed[table.id]["status"] == "waiting"
    assert table.id in {g["id"] for g in http.get("/api/games?status=waiting").json()["games"]}
    assert table.id not in {
        g["id"] for g in http.get("/api/games?status=running").json()["games"]}
    public = info(http, table)
    assert public["players"] == 3 and public["version"] == 0 and public["current_seat"] is None
    assert [s["taken"] for s in public["seats"]] == [True, False, False]
    assert "token" not in http.get(table.url()).text


def test_seat_tokens_are_long_random_and_only_their_hash_is_stored(
        http: httpx.Client, db_url: str) -> None:
    table = make_game(http, players=2, humans=2)
    assert len(set(table.tokens.values())) == 2
    for token in [table.host, *table.tokens.values()]:
        assert len(token) >= 43  # 32 random bytes, URL-safe base64: 256 bits
    engine = create_engine(db_url)
    with engine.connect() as conn:
        seat_rows = conn.execute(select(seats).where(seats.c.game_id == table.id)).all()
        game_row = conn.execute(select(games).where(games.c.id == table.id)).one()
    engine.dispose()
    stored = " ".join(str(v) for row in [*seat_rows, game_row] for v in row)
    for token in [table.host, *table.tokens.values()]:
        assert token not in stored
    hashes = {row.seat: row.token_hash for row in seat_rows}
    for seat, token in table.tokens.items():
        assert hashes[seat] == hashlib.sha256(token.encode()).hexdigest()
    assert game_row.host_token_hash == hashlib.sha256(table.host.encode()).hexdigest()


def test_game_starts_when_every_seat_is_taken_and_joining_stops(http: httpx.Client) -> None:
    table = make_game(http, players=2, humans=1)
    assert info(http, table)["status"] == "waiting"
    http.post(table.url("/join"), json={"name": "late", "invite": table.invite})
    assert info(http, table)["status"] == "running"
    error_of(http.post(table.url("/join"), json={"name": "later", "invite": table.invite}),
             409, "game_not_running")


def test_a_join_too_late_says_why(http: httpx.Client) -> None:
    """A game that is over, or that the admin ended, is not said to have "started"."""
    table = make_game(http, players=2, humans=1)
    assert http.post(table.url("/bots"), headers=auth(table.host),
                     json={"level": "easy"}).status_code == 201
    resigned = http.post(table.url("/resign"), headers=auth(table.tokens[0]), json={})
    assert resigned.status_code == 200, resigned.text  # a bot plays the seat to the end
    wait_for(lambda: info(http, table)["status"] == "finished", "the bots to end the game")
    said = error_of(http.post(table.url("/join"), json={"name": "late", "invite": table.invite}),
                    409, "game_not_running")
    assert said == "This game is over: watch it, or its replay", said


def test_host_token_is_needed_to_add_bots(http: httpx.Client) -> None:
    table = make_game(http, players=3, humans=1)
    path = table.url("/bots")
    error_of(http.post(path, json={}), 401, "unauthorized")
    error_of(http.post(path, json={}, headers=auth("x" * 43)), 401, "unauthorized")
    error_of(http.post(path, json={}, headers=auth(table.tokens[0])), 401, "unauthorized")
    assert http.post(path, json={"seat": 2}, headers=auth(table.host)).json() == {"seat": 2}
    error_of(http.post(path, json={"seat": 2}, headers=auth(table.host)), 409, "seat_taken")


def test_unknown_games_are_not_found(http: httpx.Client) -> None:
    error_of(http.get("/api/games/nope"), 404, "not_found")
    error_of(http.post("/api/games/nope/join", json={"name": "a"}), 404, "not_found")
    error_of(http.get("/api/games/nope/log"), 404, "not_found")
    error_of(http.post("/api/games/nope/actions", json={
        "action": {"kind": "loan", "card": "wild:location"}, "expected_version": 0,
        "action_id": "a"}), 404, "not_found")
    error_of(http.get("/api/nothing-here"), 404, "not_found")


def test_malformed_requests_get_a_clear_error(http: httpx.Client) -> None:
    error_of(http.post("/api/games", content=b"{not json",
                       headers={"content-type": "application/json"}), 400, "malformed")
    error_of(http.post("/api/games", json={"players": 2, "name": "a", "extra": 1}), 400,
             "malformed")
    error_of(http.post("/api/games", json={"players": "two", "name": "a"}), 400, "malformed")
    error_of(http.post("/api/games", json={"players": 5, "name": "a"}), 400, "malformed")
    error_of(http.post("/api/games", json={"players": 2, "name": "a" * 1000}), 400, "malformed")
    error_of(http.post("/api/games", json={"players": 2, "name": "a", "pad": "x" * 70_000}),
             413, "malformed")
    error_of(http.get("/api/games?status=lost"), 400, "malformed")
    table, seat = two_humans(http)
    before = info(http, table)
    message = error_of(act(http, table, seat, {"kind": "fly"}, 0), 400, "malformed")
    assert "kind" in message
    error_of(act(http, table, seat, {"kind": "loan", "card": "no_such_card"}, 0), 400,
             "malformed")
    error_of(act(http, table, seat, {"kind": "loan", "card": "wild:location", "x": 1}, 0), 400,
             "malformed")
    error_of(http.post(table.url("/actions"), headers=auth(table.tokens[seat]), json={
        "action": {}, "expected_version": 0, "action_id": "a", "seat": 1}), 400, "malformed")
    assert info(http, table) == before


def test_a_spectator_or_a_wrong_token_cannot_act(http: httpx.Client) -> None:
    table, seat = two_humans(http)
    action = legal(http, table, seat)[0]["action"]
    body = {"action": action, "expected_version": 0, "action_id": "x1"}
    error_of(http.post(table.url("/actions"), json=body), 401, "unauthorized")
    error_of(http.post(table.url("/actions"), json=body, headers=auth("wrong")), 401,
             "unauthorized")
    other = make_game(http, players=2, humans=2)  # a real token of another game
    error_of(http.post(table.url("/actions"), json=body, headers=auth(other.tokens[0])), 401,
             "unauthorized")
    error_of(http.get(table.url("/legal")), 401, "unauthorized")
    error_of(http.get(table.url("/state"), headers=auth("wrong")), 401, "unauthorized")
    assert info(http, table)["version"] == 0


def test_nobody_acts_out_of_turn(http: httpx.Client) -> None:
    table, seat = two_humans(http)
    other = 1 - seat
    assert legal(http, table, other) == []
    action = legal(http, table, seat)[0]["action"]
    error_of(act(http, table, other, action, 0), 409, "not_your_turn")
    assert info(http, table)["version"] == 0


def test_stale_version_and_illegal_actions_leave_the_game_untouched(http: httpx.Client) -> None:
    table, seat = two_humans(http)
    view = state(http, table, seat)["view"]
    hand = view["players"][seat]["hand"]
    not_in_hand = next(card for card in DATA.cards if card not in hand)
    refusal = act(http, table, seat, {"kind": "pass", "card": not_in_hand}, 0)
    assert error_of(refusal, 409, "illegal")
    assert (refusal.json()["reason"], refusal.json()["params"]) == (
        "card_not_held", {"card": not_in_hand, "held": 0})
    unknown = act(http, table, seat, {"kind": "pass", "card": "industry:gold"}, 0)
    assert error_of(unknown, 400, "malformed")
    assert (unknown.json()["reason"], unknown.json()["params"]) == (
        "unknown_card", {"card": "industry:gold"})
    action = legal(http, table, seat)[0]["action"]
    error_of(act(http, table, seat, action, 5), 409, "stale_version")
    assert state(http, table, seat)["view"] == view
    assert act(http, table, seat, action, 0).json() == {"version": 1}
    error_of(act(http, table, seat, action, 0), 409, "stale_version")


def play_first_round(http: httpx.Client, table: Table) -> None:
    for _ in range(2):  # one action each in the first round
        now = info(http, table)
        seat = now["current_seat"]
        pick = next(e["action"] for e in legal(http, table, seat) if e["action"]["kind"] == "pass")
        assert act(http, table, seat, pick, now["version"]).status_code == 200


def test_undo_takes_back_an_action_of_the_current_turn_only(http: httpx.Client) -> None:
    table, _ = two_humans(http)
    play_first_round(http, table)
    now = info(http, table)
    seat, version = now["current_seat"], now["version"]
    error_of(http.post(table.url("/undo"), headers=auth(table.tokens[seat])), 409, "illegal")
    error_of(http.post(table.url("/undo"), headers=auth(table.tokens[1 - seat])), 409,
             "not_your_turn")
    before = state(http, table, seat)["view"]
    loan = next(e["action"] for e in legal(http, table, seat) if e["action"]["kind"] == "loan")
    assert act(http, table, seat, loan, version, "my-loan").json() == {"version": version + 1}
    assert state(http, table, seat)["view"]["players"][seat]["money"] > before["players"][seat][
        "money"]
    undone = http.post(table.url("/undo"), headers=auth(table.tokens[seat]),
                       json={"expected_version": version + 1})
    assert undone.json() == {"version": version + 2}
    after = state(http, table, seat)
    assert after["version"] == version + 2
    assert after["view"]["players"] == before["players"]
    assert len(http.get(table.url("/log")).json()["actions"]) == 2
    # a retry of the undone action's id does not apply it again, and says so
    error_of(act(http, table, seat, loan, version + 2, "my-loan"), 409, "action_undone")
    assert state(http, table, seat)["view"]["players"] == before["players"]
    # the turn's last action ends it: cards are drawn, no undo past that
    for _ in range(2):
        now = info(http, table)
        pick = legal(http, table, seat)[0]["action"]
        assert act(http, table, seat, pick, now["version"]).status_code == 200
    if info(http, table)["current_seat"] == seat:  # a new turn of the same seat
        error_of(http.post(table.url("/undo"), headers=auth(table.tokens[seat])), 409, "illegal")
    else:
        error_of(http.post(table.url("/undo"), headers=auth(table.tokens[seat])), 409,
                 "not_your_turn")


def test_log_of_a_running_game_is_public_and_replay_frames(http: httpx.Client) -> None:
    table, _ = two_humans(http)
    play_first_round(http, table)
    log = http.get(table.url("/log")).json()
    assert log["seed"] is None and log["setup"] is None and log["scores"] is None
    assert [a["seq"] for a in log["actions"]] == [1, 2]
    assert all(a["action"]["kind"] == "pass" for a in log["actions"])
    frame = http.get(table.url("/replay/1")).json()
    assert frame["n"] == 1 and frame["seat"] is None
    assert all(p["hand"] is None for p in frame["view"]["players"])
    error_of(http.get(table.url("/replay/1?seat=0")), 401, "unauthorized")
    error_of(http.get(table.url("/replay/3")), 404, "not_found")
    spectator = state(http, table, None)
    assert all(p["hand"] is None for p in spectator["view"]["players"])


def test_openapi_schema_lists_the_api(http: httpx.Client) -> None:
    schema = http.get("/openapi.json").json()
    for path in ["/api/games", "/api/games/{game_id}/actions", "/api/games/{game_id}/legal",
                 "/api/games/{game_id}/undo", "/api/games/{game_id}/log",
                 "/api/games/{game_id}/replay/{n}"]:
        assert path in schema["paths"]
    assert {"SubmitAction", "Version", "Error", "GameLog"} <= set(schema["components"]["schemas"])


def test_the_openapi_schema_declares_the_bearer_token(http: httpx.Client) -> None:
    """Who is asking is a declared security scheme (deps.py), not a header parameter: a
    route that needs a seat's or the host's token says so, one that needs none does not."""
    schema = http.get("/openapi.json").json()
    schemes = schema["components"]["securitySchemes"]
    assert [s for s in schemes.values() if s["type"] == "http" and s["scheme"] == "bearer"]
    needed = [{name: []} for name in schemes]
    for path, method, security in [("/api/games/{game_id}/actions", "post", needed),
                                   ("/api/games/{game_id}/cancel", "post", needed),
                                   ("/api/games/{game_id}/renew", "post", needed),
                                   ("/api/games/{game_id}/state", "get", [*needed, {}])]:
        operation = schema["paths"][path][method]
        assert operation.get("security") == security, (path, operation)
        assert all(p["name"].lower() != "authorization" for p in operation.get("parameters", []))
    assert "security" not in schema["paths"]["/api/games/{game_id}/log"]["get"]
    assert "security" not in schema["paths"]["/api/games"]["post"]


def test_the_rules_numbers_are_the_engines_own(http: httpx.Client) -> None:
    reply = http.get("/api/rules")
    assert reply.status_code == 200, reply.text
    numbers = reply.json()
    assert numbers == {k: v for k, v in DATA.rules.items() if k != "about"}
    assert numbers["loan"]["money"] == LOAN["money"] and numbers["hand_size"] == HAND_SIZE
    assert numbers["link_cost"] == {"canal": 3, "rail": 5, "double_rail": 15}
    # as the engine prices them: a loan's money and a canal's cost at the game's first move
    table, seat = two_humans(http)
    quotes = {e["action"]["kind"]: e["quote"] for e in legal(http, table, seat)}
    assert quotes["loan"]["received"] == numbers["loan"]["money"]
    assert quotes["network"]["money"] == numbers["link_cost"]["canal"]
    schema = http.get("/openapi.json").json()
    assert schema["paths"]["/api/rules"]["get"]["responses"]["200"]["content"][
        "application/json"]["schema"] == {"$ref": "#/components/schemas/Rules"}


def test_the_built_web_client_is_served_at_the_root(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    dist.mkdir()
    (dist / "index.html").write_text("<!doctype html><title>Brass</title>")
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'web.db'}", web_dist=dist)
    with LiveServer(settings) as live, httpx.Client(base_url=live.base) as client:
        assert "<title>Brass</title>" in client.get("/").text
        assert client.get("/api/games").json()["games"] == []
        missing = client.get("/api/nothing-here")
        assert missing.status_code == 404 and missing.json()["code"] == "not_found"


def test_a_stored_game_that_no_longer_replays_is_refused_cleanly(
        http: httpx.Client, db_url: str, server: LiveServer) -> None:
    """A log the engine cannot replay (say, written under other rules) must not crash the
    server: the game is reported as not running, everything else goes on; its bots' steward
    tries it again after a growing pause, not at each of its rounds."""
    storage = Storage(db_url)
    game_id = f"broken-{secrets.token_hex(4)}"
    stamp = dt.datetime.now(dt.UTC)
    try:
        storage.create_game(GameRecord(
            id=game_id, name="old", players=2, status="running", seed=1, setup=None, version=0,
            engine_version="0", host_token_hash="0" * 64, created_at=stamp, updated_at=stamp,
            seats=[SeatRecord(seat=0, name="a", bot=True), SeatRecord(seat=1, name="b",
                                                                      bot=True)]))
        storage.append_action(game_id, 0, 0, {"kind": "loan", "card": "wild:location"}, "x")
    finally:
        storage.close()
    error_of(http.get(f"/api/games/{game_id}"), 409, "game_not_running")
    assert http.get("/api/games").status_code == 200
    steward = server.server.config.app.state.service.steward
    # it has bots: at its next round the steward claims it, fails to load it, and waits
    wait_for(lambda: game_id in steward._failing, "the steward to try the broken game")
    pause, retry_at = steward._failing[game_id]
    assert pause == RETRY_FIRST and retry_at > time.monotonic() + RETRY_FIRST / 2
