"""Hardening for the open internet (issue 8): websockets that never say hello are closed, open
websockets are capped per address, half-sent HTTP requests time out, every answer carries
security headers, the API docs load nothing from elsewhere, a re-sent undone move is refused."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import sys
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from brass.server import Settings
from brass.server.schemas import _INVISIBLE

from .conftest import LiveServer, Table, act, auth, legal, make_game


def settings(tmp_path: Path, **changes: object) -> Settings:
    web = tmp_path / "web"
    web.mkdir(exist_ok=True)
    (web / "index.html").write_text("<!doctype html><title>Brass</title>")
    return Settings(database_url=f"sqlite:///{tmp_path / 'brass.db'}", bot_delay=0.0,
                    join_limit=0, web_dist=web, **changes)


def socket_to(live: LiveServer, game_id: str) -> ClientConnection:
    return connect(f"{live.ws_base}/ws/games/{game_id}", max_size=None, open_timeout=30)


def receive(ws: ClientConnection) -> dict[str, object]:
    message: dict[str, object] = json.loads(ws.recv(timeout=30))
    return message


# -- websockets ------------------------------------------------------------------------------
def test_a_socket_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    with LiveServer(settings(tmp_path, hello_timeout=0.5)) as live, \
            httpx.Client(base_url=live.base) as http:
        table = make_game(http, players=2, humans=2)
        with socket_to(live, table.id) as quiet, socket_to(live, table.id) as polite:
            polite.send(json.dumps({"type": "hello", "token": None}))
            assert receive(polite)["type"] == "state"
            started = time.monotonic()
            reply = receive(quiet)
            assert reply["type"] == "error" and reply["code"] == "timeout", reply
            with pytest.raises(ConnectionClosed) as closed:
                quiet.recv(timeout=30)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
            assert "hello" in closed.value.rcvd.reason
            assert time.monotonic() - started < 10
            polite.send(json.dumps({"type": "sync"}))  # said hello: it stays open
            assert receive(polite)["type"] == "state"


def test_open_sockets_are_capped_per_address(tmp_path: Path) -> None:
    with LiveServer(settings(tmp_path)) as live, httpx.Client(base_url=live.base) as http:
        assert live.settings.sockets_per_address == 20  # the default
        table = make_game(http, players=2, humans=2)
        with contextlib.ExitStack() as opened:
            sockets = [opened.enter_context(socket_to(live, table.id)) for _ in range(20)]
            for ws in sockets:
                ws.send(json.dumps({"type": "hello", "token": None}))
                assert receive(ws)["type"] == "state"
            with pytest.raises(InvalidStatus) as refused:
                socket_to(live, table.id)
            response = refused.value.response
            assert response.status_code == 429
            assert int(response.headers["Retry-After"]) > 0
            assert json.loads(response.body)["code"] == "too_many_sockets"
            sockets[0].send(json.dumps({"type": "sync"}))  # the first 20 still work
            assert receive(sockets[0])["type"] == "state"
            sockets.pop().close()
            deadline = time.monotonic() + 30  # the server frees the place once it sees the close
            while True:
                try:
                    sockets.append(opened.enter_context(socket_to(live, table.id)))
                    break
                except InvalidStatus:
                    assert time.monotonic() < deadline, "closing a socket freed no place"
                    time.sleep(0.05)
            sockets[-1].send(json.dumps({"type": "hello", "token": None}))
            assert receive(sockets[-1])["type"] == "state"


# -- half-sent requests ----------------------------------------------------------------------
@pytest.fixture(scope="module", params=["httptools", "h11"])
def slow_server(request: pytest.FixtureRequest,
                tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp(f"slow-{request.param}")
    with LiveServer(settings(tmp, request_timeout=1.0), http=request.param) as live:
        yield live


def read_until_closed(sock: socket.socket, limit: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes, and when it closed (seconds from now)."""
    started = time.monotonic()
    sock.settimeout(limit)
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data, time.monotonic() - started


def test_half_sent_headers_are_answered_408_and_closed(slow_server: LiveServer) -> None:
    with socket.create_connection(("127.0.0.1", slow_server.port)) as sock:
        sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        data, took = read_until_closed(sock, 30)
    assert data.startswith(b"HTTP/1.1 408 "), data
    assert json.loads(data.split(b"\r\n\r\n", 1)[1])["code"] == "timeout"
    assert 0.9 < took < 10


def test_a_connection_that_sends_nothing_is_closed(slow_server: LiveServer) -> None:
    with socket.create_connection(("127.0.0.1", slow_server.port)) as sock:
        data, took = read_until_closed(sock, 30)
    assert data.startswith(b"HTTP/1.1 408 ") and took < 10


def test_trickled_headers_do_not_hold_the_connection(slow_server: LiveServer) -> None:
    """Each byte resets uvicorn's keep-alive timer; the request deadline counts from the first."""
    with socket.create_connection(("127.0.0.1", slow_server.port)) as sock:
        sock.sendall(b"GET /api/games HTTP/1.1\r\n")
        started = time.monotonic()
        sock.settimeout(0.2)
        data = b""
        while time.monotonic() - started < 10:
            try:
                sock.sendall(b"X")
                chunk = sock.recv(65536)
            except TimeoutError:
                continue
            except OSError:  # reset: the server closed it
                break
            if not chunk:
                break
            data += chunk
        assert time.monotonic() - started < 10, "the trickling client was never cut off"
    assert data == b"" or data.startswith(b"HTTP/1.1 408 ")


def test_a_half_sent_body_is_answered_408_and_closed(slow_server: LiveServer) -> None:
    with socket.create_connection(("127.0.0.1", slow_server.port)) as sock:
        sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"pla")
        data, took = read_until_closed(sock, 30)
    assert data.startswith(b"HTTP/1.1 408 "), data
    assert took < 10


def test_headers_over_the_limit_are_refused(slow_server: LiveServer) -> None:
    with socket.create_connection(("127.0.0.1", slow_server.port)) as sock:
        sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     + b"X-Pad: " + b"a" * 20_000 + b"\r\n")
        data, _ = read_until_closed(sock, 30)
    assert data.split(b" ", 2)[1] in (b"400", b"431"), data[:100]


def test_whole_requests_and_idle_kept_alive_connections_still_work(
        slow_server: LiveServer) -> None:
    request = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    with socket.create_connection(("127.0.0.1", slow_server.port)) as sock:
        sock.settimeout(30)
        for _ in range(2):
            sock.sendall(request)
            data = b""
            while b"\r\n\r\n" not in data or not data.endswith((b"]", b"}")):
                data += sock.recv(65536)
            assert data.startswith(b"HTTP/1.1 200 "), data
            time.sleep(1.5)  # idle past the request deadline, within uvicorn's keep-alive
    with httpx.Client(base_url=slow_server.base) as http:
        table = make_game(http, players=2, humans=2)
        with socket_to(slow_server, table.id) as ws:  # an upgraded socket has no deadline
            ws.send(json.dumps({"type": "hello", "token": None}))
            assert receive(ws)["type"] == "state"
            time.sleep(1.5)
            ws.send(json.dumps({"type": "sync"}))
            assert receive(ws)["type"] == "state"


# -- headers and docs ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    with LiveServer(settings(tmp_path_factory.mktemp("plain"))) as live, \
            httpx.Client(base_url=live.base) as http:
        yield http


def test_every_answer_has_security_headers(plain: httpx.Client) -> None:
    for path in ("/", "/api/games", "/api/games/nope", "/docs", "/openapi.json"):
        reply = plain.get(path)
        assert reply.headers["X-Content-Type-Options"] == "nosniff", path
        assert reply.headers["X-Frame-Options"] == "DENY", path
        assert reply.headers["Referrer-Policy"] == "no-referrer", path
        assert "frame-ancestors 'none'" in reply.headers["Content-Security-Policy"], path
    page = plain.get("/").headers["Content-Security-Policy"]
    host = plain.base_url.netloc.decode()
    assert "default-src 'self'" in page and "script-src 'self';" in page
    assert f"connect-src 'self' ws://{host} wss://{host};" in page
    assert "unsafe" not in page
    assert plain.get("/api/games").headers["Content-Security-Policy"].startswith(
        "default-src 'none'")
    odd_host = plain.get("/", headers={"Host": "evil; script-src *"})
    assert "evil" not in odd_host.headers["Content-Security-Policy"]


def test_a_reloaded_page_keeps_its_policy(plain: httpx.Client) -> None:
    """A reload revalidates the page and gets 304; the browser merges the 304's headers into
    the cached page, so a 304 must not bring `default-src 'none'` (the page would not start)."""
    page = plain.get("/")
    again = plain.get("/", headers={"If-None-Match": page.headers["ETag"]})
    assert again.status_code == 304
    assert "default-src 'none'" not in again.headers.get("Content-Security-Policy", "")
    assert again.headers["X-Frame-Options"] == "DENY"


def test_the_docs_load_nothing_from_elsewhere(plain: httpx.Client) -> None:
    assert plain.get("/redoc").status_code == 404  # off: it loads its logo from a CDN
    for page in ("/docs",):
        html = plain.get(page)
        assert html.status_code == 200 and html.headers["content-type"].startswith("text/html")
        policy = html.headers["Content-Security-Policy"]
        assert "script-src 'self';" in policy and "http" not in policy
        urls = re.findall(r'(?:src|href)="([^"]+)"', html.text)
        assert urls and all(u.startswith("/") and not u.startswith("//") for u in urls), urls
        for url in urls:
            assert plain.get(url).status_code == 200, url
    assert "cdn" not in plain.get("/docs/init.js").text


def test_the_schema_documents_400_not_fastapi_422(plain: httpx.Client) -> None:
    schema = plain.get("/openapi.json").json()
    assert "422" not in json.dumps(schema["paths"])
    assert "HTTPValidationError" not in schema["components"]["schemas"]
    assert schema["paths"]["/api/games"]["post"]["responses"]["400"]["content"][
        "application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}


def test_a_wrong_method_is_405_with_every_allowed_method(plain: httpx.Client) -> None:
    reply = plain.request("DELETE", "/api/games")
    assert reply.status_code == 405
    assert {m.strip() for m in reply.headers["Allow"].split(",")} >= {"GET", "POST"}


def test_an_api_path_asked_with_another_method_is_405_not_the_clients_404(
        plain: httpx.Client) -> None:
    """Behind the web client's catch-all mount too: every API path with no GET answers GET
    (and HEAD) with 405 and the methods it has; a path no route has is still a 404."""
    paths = plain.get("/openapi.json").json()["paths"]
    no_get = {path: {m.upper() for m in ops} for path, ops in paths.items() if "get" not in ops}
    assert len(no_get) >= 5, sorted(no_get)
    for path, methods in no_get.items():
        url = re.sub(r"\{[^}]+\}", "x1", path)
        for method in ("GET", "HEAD"):
            reply = plain.request(method, url)
            assert reply.status_code == 405, (method, url, reply.status_code)
            assert {m.strip() for m in reply.headers["Allow"].split(",")} == methods, \
                (url, reply.headers["Allow"])
    assert plain.get("/api/no/such/path").status_code == 404
    assert plain.get("/").status_code == 200  # the client itself


def test_the_name_pattern_refuses_every_invisible_character() -> None:
    listed = {cp for a, b in _INVISIBLE for cp in range(a, b + 1)}
    invisible = {cp for cp in range(sys.maxunicode + 1)
                 if unicodedata.category(chr(cp)) in ("Cc", "Cf", "Zl", "Zp")}
    assert invisible <= listed, sorted(hex(cp) for cp in invisible - listed)


# -- a re-sent undone move -------------------------------------------------------------------
def loan_then_undo(http: httpx.Client, table: Table) -> tuple[int, dict[str, object], str]:
    """Both seats pass their one first-round action, the next seat takes a loan and undoes it;
    returns that seat, the loan and its action_id."""
    for version in (0, 1):
        seat = http.get(table.url()).json()["current_seat"]
        pick = next(e["action"] for e in legal(http, table, seat) if e["action"]["kind"] == "pass")
        assert act(http, table, seat, pick, version).status_code == 200
    seat = http.get(table.url()).json()["current_seat"]
    loan = next(e["action"] for e in legal(http, table, seat) if e["action"]["kind"] == "loan")
    assert act(http, table, seat, loan, 2, "loan-1").json() == {"version": 3}
    undone = http.post(table.url("/undo"), headers=auth(table.tokens[seat]),
                       json={"expected_version": 3})
    assert undone.json() == {"version": 4}
    return seat, loan, "loan-1"


def test_a_resent_undone_move_is_refused_over_http(plain: httpx.Client) -> None:
    table = make_game(plain, players=2, humans=2)
    seat, loan, action_id = loan_then_undo(plain, table)
    again = act(plain, table, seat, loan, 2, action_id)
    assert again.status_code == 409 and again.json()["code"] == "action_undone", again.text
    assert plain.get(table.url()).json()["version"] == 4
    fresh = act(plain, table, seat, loan, 4, "loan-2")  # a new id plays it again
    assert fresh.json() == {"version": 5}


def test_a_resent_undone_move_is_refused_over_the_websocket(tmp_path: Path) -> None:
    with LiveServer(settings(tmp_path)) as live, httpx.Client(base_url=live.base) as http:
        table = make_game(http, players=2, humans=2)
        seat, loan, action_id = loan_then_undo(http, table)
        with socket_to(live, table.id) as ws:
            ws.send(json.dumps({"type": "hello", "token": table.tokens[seat]}))
            assert receive(ws)["version"] == 4
            ws.send(json.dumps({"type": "action", "action": loan, "expected_version": 2,
                                "action_id": action_id}))
            reply = receive(ws)
            assert reply["type"] == "error" and reply["code"] == "action_undone", reply
            assert reply["action_id"] == action_id
        assert http.get(table.url()).json()["version"] == 4
