"""The notices hub (notices.py, docs/REACH.md) end to end through Web Push: a push service
stand-in on loopback (test_push.py's) receives each notice, decrypted with the browser's keys
(RFC 8291). Each kind reaches a player when their switch is on and not when it is off; a game
the player looks at (a socket that said `visible`) sends them nothing; two instances on one
Postgres send a turn notice exactly once; nudges and their refusals."""

from __future__ import annotations

import datetime as dt
import json
import queue
import secrets
from collections.abc import Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select
from websockets.sync.client import ClientConnection, connect

from brass.server import Settings
from brass.server.push import Pusher
from brass.server.tables import games

from .conftest import LiveServer, Table, auth, legal
from .databases import fresh_like, fresh_postgres
from .test_push import Browser, PushService, Received, push_service, start_game, subscribed
from .test_ratings import wait_for

__all__ = ["push_service"]  # the stand-in fixture, shared with test_push.py
WAIT = 60.0  # seconds a condition is waited for before the test says what it saw


def pusher(live: LiveServer) -> Pusher:
    found: Pusher = live.server.config.app.state.pusher
    return found


def settled(*servers: LiveServer) -> None:
    """Every notice the servers started has left (the hub's reads of who looks at the game,
    on Postgres, and then the push channels are idle)."""
    def idle(s: LiveServer) -> bool:
        return not s.server.config.app.state.service.core.reach._tasks and not pusher(s).busy

    wait_for(lambda: all(idle(s) for s in servers), "the notices to leave", timeout=WAIT)


def drain(service: PushService) -> list[Received]:
    """Everything the stand-in received so far (and not taken yet)."""
    got = []
    while True:
        try:
            got.append(service.got.get_nowait())
        except queue.Empty:
            return got


def payloads(service: PushService, who: Browser, got: list[Received]) -> list[dict[str, Any]]:
    """The notices among `got` that went to `who`, decrypted."""
    path = who.endpoint.removeprefix(service.origin)
    return [who.read(g) for g in got if g.path == path]


def kinds(service: PushService, who: Browser, got: list[Received]) -> list[str]:
    return [p["kind"] for p in payloads(service, who, got)]


player = contextmanager(subscribed)  # a signed-in browser with its push subscription


def settings(url: str) -> Settings:
    return Settings(database_url=url, bot_delay=0.0, join_limit=0, clock_minimum=1.0,
                    push_private_endpoints=True, nudge_after=0.0)  # nudged at once


@pytest.fixture(scope="module")
def notices_server(db_url: str,
                   tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server on a database of its own (of db_url's kind): the shared one holds bot games
    that earlier tests' servers left running, which this server's steward would play beside
    this module's bot game, starving the push sender (nice 19) of the CPU (a clean-clone CI
    run waited 30 s in vain for the game-ended notice)."""
    with fresh_like(db_url, tmp_path_factory.mktemp("notices")) as url, \
            LiveServer(settings(url)) as live:
        yield live


@pytest.fixture
def pair(notices_server: LiveServer,
         push_service: PushService) -> Iterator[tuple[Browser, Browser]]:
    """Alice and Bob, each signed in with a push subscription."""
    with player(notices_server, push_service, "alice") as alice, \
            player(notices_server, push_service, "bob") as bob:
        yield alice, bob


def socket(live: LiveServer, game_id: str,
           who: Browser) -> AbstractContextManager[ClientConnection]:
    """The player's socket of the game (their device cookie), hello said."""
    return socket_at(live.ws_base, live.base, game_id, who)


@contextmanager
def socket_at(ws_base: str, origin: str, game_id: str,
              who: Browser) -> Iterator[ClientConnection]:
    """The player's socket of the game on the server at `ws_base` (test_reach_instances.py:
    one of several instances)."""
    with connect(f"{ws_base}/ws/games/{game_id}", open_timeout=30, additional_headers={
            "Cookie": f"brass_device={who.client.cookies['brass_device']}",
            "Origin": origin}) as ws:
        ws.send(json.dumps({"type": "hello"}))
        first = json.loads(ws.recv(timeout=30))
        assert first.get("type") == "state", first
        yield ws


def said(ws: ClientConnection, message: dict[str, Any], answer: str) -> dict[str, Any]:
    """Send `message`, then read until a message of type `answer` (what it got if none)."""
    ws.send(json.dumps(message))
    seen = []
    while True:
        got = json.loads(ws.recv(timeout=30))
        if got.get("type") == answer:
            return got  # type: ignore[no-any-return]
        seen.append(got.get("type"))
        assert len(seen) < 50, f"no {answer} after {message}; saw {seen}"


def show(ws: ClientConnection, visible: bool) -> None:
    """The socket says whether it shows the game; returns once the server read it: a
    message answered by an error comes after it (a state could be a move's broadcast)."""
    ws.send(json.dumps({"type": "visible", "visible": visible}))
    said(ws, {"type": "no such message"}, "error")


def play_first_legal(http: httpx.Client, table: Table) -> tuple[int, int]:
    """The seat to move plays its first legal move: (that seat, the seat to move after)."""
    state = http.get(table.url("/state"), headers=auth(table.tokens[0])).json()
    seat = state["view"]["current_seat"]
    played = http.post(table.url("/actions"), headers=auth(table.tokens[seat]), json={
        "action": legal(http, table, seat)[0]["action"], "expected_version": state["version"],
        "action_id": secrets.token_hex(8)})
    assert played.status_code == 200, played.text
    after = http.get(table.url("/state"), headers=auth(table.tokens[0])).json()
    return seat, after["view"]["current_seat"]


def test_switches_are_typed_and_kept(notices_server: LiveServer,
                                     push_service: PushService) -> None:
    with player(notices_server, push_service, "switches") as me:
        got = me.client.get("/api/me/notices")
        assert got.json() == {"turn": True, "started": True, "ended": True, "replaced": True,
                              "rematch": True, "chat": False, "nudge": True,
                              "clock": True}, got.text
        put = me.client.put("/api/me/notices", json={"chat": True, "ended": False,
                                                     "clock": False})
        assert put.status_code == 200 and put.json()["chat"] is True, put.text
        kept = me.client.get("/api/me/notices").json()
        assert kept["ended"] is False and kept["clock"] is False, kept
        wrong = me.client.put("/api/me/notices", json={"bogus": True})
        assert wrong.status_code == 400, wrong.text
        assert httpx.get(f"{notices_server.base}/api/me/notices").status_code == 401


def test_each_kind_reaches_a_player_when_on_and_not_when_off(
        notices_server: LiveServer, push_service: PushService,
        pair: tuple[Browser, Browser]) -> None:
    alice, bob = pair
    # Bob: started off, chat on; Alice: the defaults (chat off)
    assert bob.client.put("/api/me/notices",
                          json={"started": False, "chat": True}).status_code == 200
    drain(push_service)
    table, by_seat = start_game(alice, bob)
    settled(notices_server)
    got = drain(push_service)
    first = next(s for s, who in by_seat.items() if kinds(push_service, who, got) == ["turn"])
    mover, other = by_seat[first], by_seat[1 - first]
    assert kinds(push_service, other, got) == ([] if other is bob else ["started"]), got

    with socket(notices_server, table.id, alice) as a_ws, \
            socket(notices_server, table.id, bob) as b_ws:
        said(a_ws, {"type": "chat", "text": "your move, @bob!"}, "chat")
        said(b_ws, {"type": "chat", "text": "@Alice soon"}, "chat")
    settled(notices_server)
    got = drain(push_service)
    assert [(n["kind"], n["by"], n["text"]) for n in payloads(push_service, bob, got)] == [
        ("chat", "Alice", "your move, @bob!")], got
    assert kinds(push_service, alice, got) == [], "Alice's chat switch is off"

    # a nudge from the other player to the mover; not twice in 24 h; not to oneself
    nudge = other.client.post(table.url("/nudge"))
    assert nudge.status_code == 200 and nudge.json()["seat"] == first, nudge.text
    again = other.client.post(table.url("/nudge"))
    assert again.status_code == 429 and again.json()["code"] == "nudge_too_soon", again.text
    assert again.json()["params"]["again_at"] and int(again.headers["retry-after"]) > 0
    own = mover.client.post(table.url("/nudge"))
    assert own.status_code == 409 and own.json()["code"] == "nudge_not_allowed", own.text
    state = other.client.get(table.url("/nudge")).json()
    assert state["allowed"] is False and state["again_at"], state
    settled(notices_server)
    got = drain(push_service)
    assert [(n["kind"], n["by"]) for n in payloads(push_service, mover, got)] == [
        ("nudge", "Alice" if other is alice else "Bob")], got

    # both resign: the bots play to the end; both are told it ended, then a rematch offer
    for seat in (0, 1):
        resigned = by_seat[seat].client.post(table.url("/resign"), json={})
        assert resigned.status_code == 200, resigned.text
    wait_for(lambda: alice.client.get(table.url()).json()["status"] == "finished",
             "the bots to finish the game", timeout=240)
    places = []
    for who in (alice, bob):  # the bots' last move ends it: its notices follow the commit
        ended = who.read(push_service.next(who.endpoint.removeprefix(push_service.origin)))
        assert ended["kind"] == "ended" and ended["game"] == table.id, ended
        places.append((ended["seat"], ended["place"], ended["players"]))
    ranks = alice.client.get(table.url("/state")).json()["view"]["ranks"]  # the engine's
    assert sorted(places) == [(seat, ranks[seat], 2) for seat in (0, 1)], (places, ranks)
    engine = create_engine(notices_server.settings.database_url)  # as the end's write left it
    try:
        with engine.connect() as conn:
            stored = conn.execute(select(games.c.ranks).where(games.c.id == table.id)).scalar()
    finally:
        engine.dispose()
    assert stored == ranks, (stored, ranks)
    settled(notices_server)
    assert drain(push_service) == [], "more than the end was told"
    offered = alice.client.post(table.url("/rematch"), json={"empty_seats": "open"})
    assert offered.status_code == 200, offered.text
    settled(notices_server)
    got = drain(push_service)
    assert kinds(push_service, bob, got) == ["rematch"], got
    assert kinds(push_service, alice, got) == [], got
    # Bob accepts: the rematch starts; its first mover is told "turn", the other "started"
    # (Bob's "started" is off)
    accepted = bob.client.post(table.url("/rematch/answer"), json={"accept": True})
    assert accepted.status_code == 200 and accepted.json()["new_game_id"], accepted.text
    settled(notices_server)
    got = drain(push_service)
    told = {who: [(n["kind"], n["game"]) for n in payloads(push_service, b, got)]
            for who, b in (("alice", alice), ("bob", bob))}
    new = accepted.json()["new_game_id"]
    assert sorted(told["alice"] + told["bob"]) in (
        [("started", new), ("turn", new)], [("turn", new)]), told
    assert told["bob"] in ([], [("turn", new)]), told
    assert bob.client.put("/api/me/notices", json={"rematch": False}).status_code == 200


def test_a_seat_handed_to_a_bot_tells_its_player(
        notices_server: LiveServer, push_service: PushService,
        pair: tuple[Browser, Browser]) -> None:
    alice, bob = pair
    made = alice.client.post("/api/games", json={
        "players": 2, "name": "Handed", "clock": {"kind": "none", "handoff_after": 1}})
    assert made.status_code == 201, made.text
    game = made.json()["id"]
    by_seat = {}
    for who, name in ((alice, "Alice"), (bob, "Bob")):
        joined = who.client.post(f"/api/games/{game}/join",
                                 json={"name": name, "invite": made.json()["invite"]})
        assert joined.status_code == 201, joined.text
        by_seat[joined.json()["seat"]] = who
    settled(notices_server)
    drain(push_service)

    def hand_over() -> list[int]:
        """[the seat handed to a bot] (the other player asks once it was idle long enough)."""
        for seat, who in by_seat.items():
            answer = who.client.post(f"/api/games/{game}/handover", json={"seat": 1 - seat})
            if answer.status_code == 200:
                return [1 - seat]
        return []

    [handed] = wait_for(hand_over, "the hand-over to be allowed", timeout=30)
    settled(notices_server)
    got = drain(push_service)
    told = [n for n in payloads(push_service, by_seat[handed], got) if n["kind"] == "replaced"]
    assert [(n["seat"], n["why"]) for n in told] == [(handed, "handover")], got
    assert kinds(push_service, by_seat[1 - handed], got) in ([], ["turn"]), (
        handed, [(s, payloads(push_service, w, got)) for s, w in by_seat.items()])


def test_no_turn_notice_while_the_player_looks_at_the_game(
        notices_server: LiveServer, push_service: PushService,
        pair: tuple[Browser, Browser]) -> None:
    alice, bob = pair
    table, by_seat = start_game(alice, bob)
    settled(notices_server)
    drain(push_service)
    state = alice.client.get(table.url("/state"), headers=auth(table.tokens[0])).json()
    first = state["view"]["current_seat"]
    watcher = by_seat[1 - first]
    with socket(notices_server, table.id, watcher) as ws, httpx.Client(
            base_url=notices_server.base, timeout=60) as http:
        show(ws, True)
        moved, to = play_first_legal(http, table)
        assert moved == first and to == 1 - first, (moved, to)
        settled(notices_server)
        assert kinds(push_service, watcher, drain(push_service)) == [], \
            "a turn notice while the game was shown"
        # hidden again: the next turn of the watcher's is told (the mover plays on)
        show(ws, False)
        while True:
            moved, to = play_first_legal(http, table)
            if to == 1 - first and moved != to:
                break
        settled(notices_server)
        assert "turn" in kinds(push_service, watcher, drain(push_service))


def test_two_instances_send_a_turn_notice_exactly_once(push_service: PushService) -> None:
    with fresh_postgres("brass_notices") as url, LiveServer(settings(url)) as a, \
            LiveServer(settings(url)) as b, ExitStack() as stack:
        alice = stack.enter_context(player(a, push_service, "alice2"))
        bob = stack.enter_context(player(a, push_service, "bob2"))
        table, by_seat = start_game(alice, bob)
        settled(a, b)
        drain(push_service)
        passes = 0
        with connect(f"{a.ws_base}/ws/games/{table.id}", open_timeout=30) as on_a, \
                connect(f"{b.ws_base}/ws/games/{table.id}", open_timeout=30) as on_b:
            for ws in (on_a, on_b):  # spectators: both instances hold and follow the game
                ws.send(json.dumps({"type": "hello", "token": None}))
                assert json.loads(ws.recv(timeout=30))["type"] == "state"
            version = 0
            for live in (a, b, a, b):
                with httpx.Client(base_url=live.base, timeout=60) as http:
                    moved, to = play_first_legal(http, table)
                    passes += moved != to
                    version = http.get(table.url()).json()["version"]
                for ws in (on_a, on_b):  # each instance has the new version (caught up)
                    while (json.loads(ws.recv(timeout=30)).get("version") or 0) < version:
                        pass
        settled(a, b)
        got = drain(push_service)
        ours = [g for g in got if g.path in {w.endpoint.removeprefix(push_service.origin)
                                             for w in by_seat.values()}]
        assert passes >= 2 and len(ours) == passes, (passes, [g.path for g in ours])


def test_a_turn_just_begun_is_not_nudged(push_service: PushService,
                                         tmp_path: Path) -> None:
    """A player who just got the turn is thinking: a nudge waits until the turn has lasted
    the server's nudge_after, and the server says until when."""
    url = f"sqlite:///{tmp_path / 'young.db'}"
    with LiveServer(settings(url).model_copy(update={"nudge_after": 3600.0})) as live, \
            player(live, push_service, "alice") as alice, \
            player(live, push_service, "bob") as bob:
        table, by_seat = start_game(alice, bob)
        first = alice.client.get(table.url()).json()["current_seat"]
        other = by_seat[1 - first]
        state = other.client.get(table.url("/nudge")).json()
        assert (state["allowed"], state["wait"], state["seat"]) == (False, "thinking", first), state
        left = dt.datetime.fromisoformat(state["again_at"]) - dt.datetime.now(dt.UTC)
        assert dt.timedelta(minutes=55) < left <= dt.timedelta(hours=1), state
        refused = other.client.post(table.url("/nudge"))
        assert refused.status_code == 429, refused.text
        body = refused.json()
        assert (body["code"], body["reason"]) == ("nudge_too_soon", "turn_young"), body
        assert body["params"]["again_at"] and 0 < int(refused.headers["retry-after"]) <= 3600
