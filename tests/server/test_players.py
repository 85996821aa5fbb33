"""Players (issue 24, docs/PLAYERS.md): the first visit makes a guest whose device secret is an
HttpOnly cookie; seats joined with it are the player's, and a device acts for them without
the seat link; an old seat link claims its seat for the browser's player; a cookie never
grants a seat its player did not take, a seat token never says whose it is, and a write with
the cookie from another site is refused. SQLite and Postgres (the `server` fixture)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import create_engine, select
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from brass.server import Settings
from brass.server.tables import devices, seats

from .conftest import LiveServer, Table, auth, make_game


def browser(server: LiveServer) -> httpx.Client:
    """A client as a browser on the site: it keeps cookies and sends the site's Origin."""
    return httpx.Client(base_url=server.base, timeout=60, headers={"Origin": server.base})


def guest(server: LiveServer) -> Iterator[httpx.Client]:
    with browser(server) as client:
        made = client.post("/api/session")
        assert made.status_code == 201, made.text
        yield client


@pytest.fixture
def alice(server: LiveServer) -> Iterator[httpx.Client]:
    yield from guest(server)


@pytest.fixture
def bob(server: LiveServer) -> Iterator[httpx.Client]:
    yield from guest(server)


def seat_players(server: LiveServer, game_id: str) -> dict[int, str | None]:
    engine = create_engine(server.settings.database_url)
    try:
        with engine.connect() as conn:
            return {r.seat: r.player_id for r in conn.execute(
                select(seats.c.seat, seats.c.player_id).where(seats.c.game_id == game_id))}
    finally:
        engine.dispose()


def test_the_first_visit_makes_a_guest_with_an_httponly_cookie(server: LiveServer) -> None:
    with browser(server) as client:
        made = client.post("/api/session")
        assert made.status_code == 201, made.text
        cookie = made.headers["set-cookie"]
        assert "brass_device=" in cookie and "HttpOnly" in cookie, cookie
        assert "samesite=lax" in cookie.lower() and "Secure" not in cookie, cookie
        me = made.json()
        assert me["account"] is False and me["name"] is None, me
        again = client.post("/api/session")
        assert again.status_code == 200 and again.json()["id"] == me["id"], again.text
        assert client.get("/api/me").json()["id"] == me["id"]
        renamed = client.patch("/api/me", json={"name": "Ada"})
        assert renamed.status_code == 200 and renamed.json()["name"] == "Ada", renamed.text
        secret = client.cookies["brass_device"]
    engine = create_engine(server.settings.database_url)
    try:
        with engine.connect() as conn:
            stored = list(conn.execute(select(devices.c.secret_hash).where(
                devices.c.player_id == me["id"])).scalars())
    finally:
        engine.dispose()
    assert len(stored) == 1 and secret not in stored[0], "the secret is stored hashed only"


def test_without_a_cookie_there_is_no_player(http: httpx.Client) -> None:
    reply = http.get("/api/me")
    assert reply.status_code == 401 and reply.json()["code"] == "unauthorized", reply.text


def test_writes_with_the_cookie_from_another_site_are_refused(
        server: LiveServer, alice: httpx.Client) -> None:
    for origin in ("https://evil.example", None):
        headers = {"Origin": origin} if origin else {}
        with httpx.Client(base_url=server.base, timeout=60, headers=headers,
                          cookies=alice.cookies) as other:
            if origin is None:
                other.headers.pop("Origin", None)
            reply = other.patch("/api/me", json={"name": "Mallory"})
            assert reply.status_code == 403 and reply.json()["code"] == "forbidden", reply.text
            assert other.get("/api/me").status_code == 200  # reading is no forgery
    assert alice.get("/api/me").json()["name"] is None, "the refused write changed nothing"
    with httpx.Client(base_url=server.base, timeout=60,
                      headers={"Origin": "https://evil.example"}) as stranger:
        refused = stranger.post("/api/session")
        assert refused.status_code == 403, refused.text
        assert "brass_device" not in stranger.cookies


def test_a_seat_joined_with_the_cookie_is_the_players_on_every_request(
        server: LiveServer, http: httpx.Client, alice: httpx.Client,
        bob: httpx.Client) -> None:
    table = make_game(http, 2, 0)
    joined = alice.post(table.url("/join"), json={"name": "Alice", "invite": table.invite})
    assert joined.status_code == 201, joined.text
    seat, token = joined.json()["seat"], joined.json()["token"]
    me = alice.get("/api/me").json()["id"]
    assert seat_players(server, table.id)[seat] == me
    bob.post(table.url("/join"), json={"name": "Bob", "invite": table.invite})
    # the device acts for its player's seat without the link
    state = alice.get(table.url("/state"))
    assert state.status_code == 200 and state.json()["seat"] == seat, state.text
    others = bob.get(table.url("/state")).json()
    assert others["seat"] == 1 - seat, others
    # ...and never for a seat its player did not take
    legal_bob = bob.get(table.url("/legal"), headers={"X-Seat": str(seat)})
    assert legal_bob.status_code == 401, legal_bob.text
    with httpx.Client(base_url=server.base, timeout=60) as nobody:
        assert nobody.get(table.url("/legal")).status_code == 401
    # the seat token still works in a fresh browser, and says nothing of its player
    fresh = http.get(table.url("/state"), headers=auth(token))
    assert fresh.status_code == 200 and me not in fresh.text, fresh.text
    assert me not in http.get(table.url()).text


def test_the_first_name_a_player_joins_with_becomes_their_display_name(
        http: httpx.Client, alice: httpx.Client, bob: httpx.Client) -> None:
    """A guest who plays as "Alice" finds "Alice" on their account page (it was empty), and
    a name chosen since is never replaced by a later join's."""
    assert alice.get("/api/me").json()["name"] is None
    first, second = make_game(http, 2, 0), make_game(http, 2, 0)
    assert alice.post(first.url("/join"), json={"name": "Alice", "invite": first.invite}
                      ).status_code == 201
    # written once the join's answer has left (it is not held back by it)
    deadline, seen = time.monotonic() + 10, [alice.get("/api/me").json()["name"]]
    while seen[-1] != "Alice":
        assert time.monotonic() < deadline, f"the display name never came: {seen}"
        time.sleep(0.02)
        seen.append(alice.get("/api/me").json()["name"])
    assert alice.post(second.url("/join"), json={"name": "Ally", "invite": second.invite}
                      ).status_code == 201
    assert alice.get("/api/me").json()["name"] == "Alice"  # the first one stays
    assert bob.patch("/api/me", json={"name": "Robert"}).status_code == 200
    assert bob.post(first.url("/join"), json={"name": "Bob", "invite": first.invite}
                    ).status_code == 201
    assert bob.get("/api/me").json()["name"] == "Robert"


def test_an_old_seat_link_is_claimed_by_the_browser_that_opens_it(
        server: LiveServer, http: httpx.Client, alice: httpx.Client,
        bob: httpx.Client) -> None:
    table: Table = make_game(http, 2, 1)  # joined without a player: a seat from before
    (seat, token), = table.tokens.items()
    assert seat_players(server, table.id)[seat] is None
    claimed = alice.post(table.url("/claim"), headers=auth(token))
    assert claimed.status_code == 200 and claimed.json() == {"seat": seat, "mine": True}, \
        claimed.text
    alice_id = alice.get("/api/me").json()["id"]
    assert seat_players(server, table.id)[seat] == alice_id
    again = alice.post(table.url("/claim"), headers=auth(token))
    assert again.json()["mine"] is True, again.text
    # the same link opened by another player: the seat stays Alice's, and who she is is
    # never said; the link itself still plays
    stolen = bob.post(table.url("/claim"), headers=auth(token))
    assert stolen.status_code == 200 and stolen.json() == {"seat": seat, "mine": False}, \
        stolen.text
    assert alice_id not in stolen.text
    assert seat_players(server, table.id)[seat] == alice_id
    assert bob.get(table.url("/state")).json()["seat"] is None, "Bob is a spectator"
    assert alice.get(table.url("/state")).json()["seat"] == seat
    with httpx.Client(base_url=server.base, timeout=60) as nobody:
        refused = nobody.post(table.url("/claim"), headers=auth(token))
        assert refused.status_code == 401, refused.text


def test_the_cookie_is_secure_when_the_site_is_https(tmp_path_factory: pytest.TempPathFactory
                                                     ) -> None:
    url = f"sqlite:///{tmp_path_factory.mktemp('secure') / 'brass.db'}"
    with LiveServer(Settings(database_url=url, join_limit=0,
                             public_url="https://brass.example")) as live:
        with httpx.Client(base_url=live.base, timeout=60,
                          headers={"Origin": "https://brass.example"}) as client:
            made = client.post("/api/session")
            assert made.status_code == 201, made.text
            assert "Secure" in made.headers["set-cookie"], made.headers["set-cookie"]
        with httpx.Client(base_url=live.base, timeout=60,
                          headers={"Origin": live.base}) as client:
            refused = client.post("/api/session")
            assert refused.status_code == 403, "the public URL, not the Host, is the site"


def socket(server: LiveServer, game_id: str, cookie: str, origin: str) -> ClientConnection:
    return connect(f"{server.ws_base}/ws/games/{game_id}", open_timeout=30,
                   additional_headers={"Cookie": f"brass_device={cookie}", "Origin": origin})


def test_the_websocket_seats_the_cookies_player_and_checks_the_origin(
        server: LiveServer, http: httpx.Client, alice: httpx.Client,
        bob: httpx.Client) -> None:
    table = make_game(http, 2, 0)
    joined = alice.post(table.url("/join"), json={"name": "Alice", "invite": table.invite})
    seat = joined.json()["seat"]
    bob.post(table.url("/join"), json={"name": "Bob", "invite": table.invite})
    with socket(server, table.id, alice.cookies["brass_device"], server.base) as ws:
        ws.send(json.dumps({"type": "hello"}))
        first = json.loads(ws.recv(timeout=30))
        assert first.get("type") == "state" and first["seat"] == seat, first
    with socket(server, table.id, bob.cookies["brass_device"], server.base) as ws:
        ws.send(json.dumps({"type": "hello", "seat": seat}))  # not his: a spectator
        first = json.loads(ws.recv(timeout=30))
        assert first.get("type") == "state" and first["seat"] is None, first
    with socket(server, table.id, alice.cookies["brass_device"], "https://evil.example") as ws:
        said = json.loads(ws.recv(timeout=30))
        assert said.get("code") == "forbidden", said
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=30)
