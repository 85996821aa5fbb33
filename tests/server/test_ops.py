"""Operations endpoints on a real server: /health, /ready (and its 503s), /metrics (closed
unless a token is set), request
ids on every response and websocket handshake, and the page at / when the client is missing."""

from __future__ import annotations

import logging
import secrets
import time
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine, text
from websockets.sync.client import connect

from brass.server import Settings, migrate
from brass.server.socketproto import LeanWebSocketProtocol

from .conftest import METRICS, LiveServer, auth, legal, make_game
from .test_websocket import hello, open_socket, receive


def metric(http: httpx.Client, name: str, **labels: str) -> float:
    """The value of one sample at /metrics (0 when it is not there yet)."""
    reply = http.get("/metrics", headers=METRICS)
    assert reply.status_code == 200 and reply.headers["content-type"].startswith("text/plain")
    for family in text_string_to_metric_families(reply.text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                return float(sample.value)
    return 0.0


def test_health_answers(http: httpx.Client) -> None:
    reply = http.get("/health")
    assert reply.status_code == 200 and reply.json() == {"status": "ok"}


def test_ready_when_the_database_is_at_the_migrations_head(http: httpx.Client) -> None:
    reply = http.get("/ready")
    assert reply.status_code == 200
    assert reply.json() == {"status": "ready", "migrations": sorted(migrate.heads())}


def test_metrics_are_closed_when_no_token_is_set(tmp_path: Path) -> None:
    """The default (no BRASS_METRICS_TOKEN): /metrics answers nobody, whatever they send."""
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'closed.db'}", bot_delay=0.0,
                        metrics_token=None)
    with LiveServer(settings) as live, httpx.Client(base_url=live.base, timeout=30) as http:
        for headers in ({}, METRICS, {"Authorization": "Bearer x"}):
            refused = http.get("/metrics", headers=headers)
            assert refused.status_code == 401, (headers, refused.status_code, refused.text)
            assert refused.json()["code"] == "unauthorized", refused.text
            assert "BRASS_METRICS_TOKEN" in refused.json()["message"], refused.text
            assert "brass_" not in refused.text
        assert http.get("/health").status_code == 200


def test_not_ready_while_the_database_is_behind_or_gone(tmp_path: Path) -> None:
    db = tmp_path / "ready.db"
    url = f"sqlite:///{db}"
    with LiveServer(Settings(database_url=url, bot_delay=0.0)) as live, \
            httpx.Client(base_url=live.base, timeout=30) as http:
        assert http.get("/ready").status_code == 200
        engine = create_engine(url)
        with engine.begin() as conn:
            (head,) = conn.execute(text("SELECT version_num FROM alembic_version")).one()
            conn.execute(text("UPDATE alembic_version SET version_num = 'older'"))
        behind = http.get("/ready")
        assert behind.status_code == 503
        assert behind.json() == {"status": "unavailable",
                                 "reason": "the database is not at the migrations' head",
                                 "database": ["older"], "head": [head]}
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = :v"), {"v": head})
        engine.dispose()
        assert http.get("/ready").status_code == 200
        for path in tmp_path.glob("ready.db*"):  # the file goes, a folder takes its place
            path.unlink()
        db.mkdir()
        gone = http.get("/ready")
        assert gone.status_code == 503
        assert gone.json() == {"status": "unavailable", "reason": "the database does not answer"}
        assert http.get("/health").status_code == 200  # alive all the same


def test_metrics_count_moves_legal_time_errors_games_and_sockets(
        http: httpx.Client, server: LiveServer) -> None:
    # bots of earlier tests may still be playing on this server: counts only grow
    moves = sum_of(http, "brass_moves_total")
    timed = metric(http, "brass_move_seconds_count")
    legal_count = metric(http, "brass_legal_moves_seconds_count")
    not_found = metric(http, "brass_errors_total", code="not_found")

    table = make_game(http, players=2, humans=2)
    game = http.get(table.url("/state")).json()
    seat = game["view"]["current_seat"]
    entry = legal(http, table, seat)[0]
    done = http.post(table.url("/actions"), headers=auth(table.tokens[seat]), json={
        "action": entry["action"], "expected_version": game["version"],
        "action_id": secrets.token_hex(8)})
    assert done.status_code == 200, done.text
    kind = entry["action"]["kind"]
    assert http.get("/api/games/no-such-game").status_code == 404

    assert metric(http, "brass_moves_total", kind=kind) >= 1
    assert sum_of(http, "brass_moves_total") >= moves + 1
    assert metric(http, "brass_move_seconds_count") >= timed + 1
    assert metric(http, "brass_legal_moves_seconds_count") >= legal_count + 1
    assert metric(http, "brass_errors_total", code="not_found") >= not_found + 1
    assert metric(http, "brass_live_games") >= 1
    shown = http.get("/metrics", headers=METRICS).text
    for pool in ("bots", "analyses", "push"):  # push batches are not "engine computations"
        assert f'brass_worker_queue_depth{{pool="{pool}"}}' in shown, shown[:2000]
    young = metric(http, "brass_gc_seconds_count", kind="young")  # a step every 0.1 s
    deadline = time.monotonic() + 10
    while metric(http, "brass_gc_seconds_count", kind="young") <= young:
        assert time.monotonic() < deadline, "no young garbage collection in 10 s"
    with open_socket(server, table.id) as ws:
        assert hello(ws, None)["type"] == "state"
        while_open = metric(http, "brass_open_sockets")
        assert while_open >= 1
        ws.send('{"type": "nonsense"}')
        assert receive(ws)["code"] == "malformed"
    deadline = time.monotonic() + 30
    while metric(http, "brass_open_sockets") > while_open - 1:  # the server closes its side
        assert time.monotonic() < deadline, "the closed socket is still counted"
        time.sleep(0.05)


def sum_of(http: httpx.Client, name: str) -> float:
    reply = http.get("/metrics", headers=METRICS)
    return sum(float(s.value) for family in text_string_to_metric_families(reply.text)
               for s in family.samples if s.name == name)


@pytest.mark.parametrize(("sent", "kept"), [
    ("trace-42.a:b_c", True), ("x" * 129, False), ("two words", False), ("", False)])
def test_every_response_carries_a_request_id(http: httpx.Client, sent: str, kept: bool) -> None:
    for reply in (http.get("/api/games", headers={"X-Request-ID": sent}),
                  http.get("/api/games/nothing", headers={"X-Request-ID": sent})):
        rid = reply.headers["x-request-id"]
        if kept:
            assert rid == sent
        else:
            assert rid != sent and len(rid) == 16 and int(rid, 16) >= 0


def test_a_websocket_handshake_echoes_its_request_id(http: httpx.Client,
                                                     server: LiveServer) -> None:
    table = make_game(http, players=2, humans=0)
    with connect(f"{server.ws_base}/ws/games/{table.id}", open_timeout=30,
                 additional_headers={"X-Request-ID": "socket-7"}) as ws:
        assert ws.response is not None
        assert ws.response.headers["x-request-id"] == "socket-7"


def test_an_open_socket_keeps_no_handshake(http: httpx.Client, server: LiveServer) -> None:
    """socketproto.py: once accepted, a socket's protocol holds neither the handshake's
    request and response nor the scope's headers, and the socket still plays."""
    table = make_game(http, players=2, humans=0)
    with connect(f"{server.ws_base}/ws/games/{table.id}", open_timeout=30,
                 additional_headers={"X-Padding": "p" * 2000}) as ws:
        assert hello(ws, None)["type"] == "state"
        mine = [c for c in list(server.server.server_state.connections)
                if isinstance(c, LeanWebSocketProtocol) and c.handshake_complete
                and not c.close_sent and c.scope["path"] == f"/ws/games/{table.id}"]
        assert len(mine) == 1
        assert mine[0].request is None and mine[0].response is None
        assert mine[0].scope["headers"] == []
        ws.send('{"type": "sync"}')
        assert receive(ws)["type"] == "state"


def test_without_a_built_client_the_root_is_a_page_saying_so(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'noweb.db'}", web_dist=None)
    with caplog.at_level(logging.WARNING, logger="brass.server"), LiveServer(settings) as live, \
            httpx.Client(base_url=live.base) as http:
        page = http.get("/")
        assert page.status_code == 503 and page.headers["content-type"].startswith("text/html")
        assert "The web client is not built" in page.text and "make web" in page.text
        assert http.get("/api/games").status_code == 200
    warnings = [r.getMessage() for r in caplog.records if "web client is not built" in
                r.getMessage()]
    assert len(warnings) == 1 and "make web" in warnings[0]
