"""Game webhooks (issue 27, docs/REACH.md): a receiver on loopback (allowed by
`webhook_private_addresses`) gets each turn's start and the game's end, at most one call per
game every few seconds; a private, loopback or link-local address is refused when set (and a
name resolving to one is not reached); a receiver that hangs never delays a move. SQLite and
Postgres."""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import itertools
import json
import queue
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from brass.engine import ENGINE_VERSION, new_game
from brass.server import Settings
from brass.server.netguard import PublicOnly
from brass.server.records import GameRecord, SeatRecord, now
from brass.server.runtime import Runtime
from brass.server.webhooks import GAP, body_for, result_text

from .conftest import LiveServer, Table, act, auth, info, legal, make_game
from .databases import fresh_like
from .test_ratings import wait_for

SITE = "https://brass.test"


@dataclass
class Call:
    path: str
    body: dict[str, Any]
    at: float
    status: int = 204


@dataclass
class Receiver:
    """An incoming-webhook stand-in on 127.0.0.1: records each POST; one to a path under
    /hang/ is held until `release` is set (or 60 s); the next `failing[path]` calls to a path
    are answered 500."""

    server: ThreadingHTTPServer
    calls: queue.Queue[Call] = field(default_factory=queue.Queue)
    entered: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    failing: dict[str, int] = field(default_factory=dict)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def waiting(self, path: str) -> list[Call]:
        """The calls to `path` received and not taken yet (others are put back)."""
        mine, others = [], []
        while True:
            try:
                call = self.calls.get_nowait()
            except queue.Empty:
                break
            (mine if call.path == path else others).append(call)
        for o in others:
            self.calls.put(o)
        return mine

    def until(self, path: str, done: Any, timeout: float = 240.0) -> list[Call]:
        """The calls to `path`, until one that `done` picks (others are put back)."""
        got, others, deadline = [], [], time.monotonic() + timeout
        try:
            while True:
                try:
                    call = self.calls.get(timeout=max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    raise AssertionError(f"no such call to {path} in {timeout} s; calls: "
                                         f"{[c.body for c in got]}") from None
                if call.path != path:
                    others.append(call)
                    continue
                got.append(call)
                if done(call):
                    return got
        finally:
            for o in others:
                self.calls.put(o)


@pytest.fixture(scope="module")
def receiver() -> Iterator[Receiver]:
    holder: list[Receiver] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # http.server's name
            rec = holder[0]
            body = json.loads(self.rfile.read(int(self.headers.get("content-length", "0"))))
            if self.path.startswith("/hang/"):
                rec.entered.set()
                rec.release.wait(60)
            status = 500 if rec.failing.get(self.path, 0) > 0 else 204
            if status == 500:
                rec.failing[self.path] -= 1
            rec.calls.put(Call(self.path, body, time.monotonic(), status))
            self.send_response(status)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    holder.append(Receiver(httpd))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield holder[0]
    holder[0].release.set()
    httpd.shutdown()


@pytest.fixture(scope="module")
def hooked(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server on a database of its own (of db_url's kind): the shared one holds bot games
    that earlier tests' servers left running, which this server's steward would play beside
    this module's bot game (a clean-clone CI run saw that game make two turns in 240 s)."""
    with fresh_like(db_url, tmp_path_factory.mktemp("hooked")) as url, \
            LiveServer(Settings(database_url=url, bot_delay=0.0, join_limit=0,
                                public_url=SITE, webhook_private_addresses=True)) as live:
        yield live


def test_the_turns_and_the_end_are_posted_at_most_once_per_gap(hooked: LiveServer,
                                                               receiver: Receiver) -> None:
    with httpx.Client(base_url=hooked.base, timeout=60) as http:
        made = http.post("/api/games", json={"players": 2, "name": "Hooked"}).json()
        game, host = made["id"], made["host_token"]
        path = f"/hook/{game}"
        refused = http.put(f"/api/games/{game}/webhook", json={"url": receiver.url(path)})
        assert refused.status_code == 401, refused.text  # the host token is needed
        put = http.put(f"/api/games/{game}/webhook", headers=auth(host),
                       json={"url": receiver.url(path)})
        assert put.status_code == 200 and put.json() == {"url": receiver.url(path)}, put.text
        for _ in range(2):  # easy bots play it to its end
            added = http.post(f"/api/games/{game}/bots", headers=auth(host),
                              json={"level": "easy"})
            assert added.status_code == 201, added.text
        calls = receiver.until(path, lambda c: " is over: " in c.body["text"])
        wait_for(lambda: http.get(f"/api/games/{game}").json()["status"] == "finished",
                 "the game's end")
        scores = http.get(f"/api/games/{game}").json()["scores"]
    texts = [c.body["text"] for c in calls]
    assert all(c.body["content"] == c.body["text"] for c in calls), texts  # neither service
    assert texts[0].startswith("Hooked: ") and "'s turn. " in texts[0], texts
    assert all(t.endswith(f"{SITE}/#/game/{game}") for t in texts), texts
    end = texts[-1]
    for score in scores:
        assert f" {score}" in end, (end, scores)
    gaps = [b.at - a.at for a, b in itertools.pairwise(calls)]
    # a bot game moves many times a second: the calls are coalesced, one per GAP at most
    # (measured where they arrive: half the gap leaves room for a loaded machine)
    assert all(g >= GAP * 0.5 for g in gaps), gaps


def test_a_private_address_is_refused_when_set(server: LiveServer) -> None:
    with httpx.Client(base_url=server.base, timeout=60) as http:
        table = make_game(http, 2, 0)
        url = table.url("/webhook")
        for bad, reason in (("https://10.1.2.3/hook", "webhook_address"),
                            ("https://localhost/hook", "webhook_address"),
                            ("https://[::1]:8443/hook", "webhook_address"),
                            ("https://169.254.169.254/latest", "webhook_address"),
                            ("https://192.168.1.1/hook", "webhook_address"),
                            ("http://example.org/hook", "webhook_url"),
                            ("ftp://example.org/hook", "webhook_url")):
            got = http.put(url, headers=auth(table.host), json={"url": bad})
            assert got.status_code == 400, (bad, got.text)
            assert got.json()["code"] == "malformed" and got.json()["reason"] == reason, (
                bad, got.text)
        assert http.get(url, headers=auth(table.host)).json() == {"url": None}
        good = "https://discord.com/api/webhooks/1/abc"
        assert http.put(url, headers=auth(table.host), json={"url": good}).status_code == 200
        assert http.get(url, headers=auth(table.host)).json() == {"url": good}
        assert http.delete(url, headers=auth(table.host)).status_code == 204
        again = http.delete(url, headers=auth(table.host))
        assert again.status_code == 404 and again.json()["code"] == "not_found", again.text


def test_a_name_that_resolves_to_a_private_address_is_not_reached() -> None:
    async def resolve() -> None:
        resolver = PublicOnly()
        try:
            with pytest.raises(OSError, match="no public address"):
                await resolver.resolve("localhost", 443)
        finally:
            await resolver.close()

    # its own thread: a session's playwright (the e2e tests) keeps a loop running in this one
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, resolve()).result()


def test_each_service_gets_its_own_body_which_mentions_nobody() -> None:
    quiet = {"parse": []}
    assert body_for("https://discord.com/api/webhooks/1/x", "hi") == {
        "content": "hi", "allowed_mentions": quiet}
    assert body_for("https://hooks.slack.com/services/T/B/x", "hi") == {"text": "hi"}
    assert body_for("https://chat.example.org/hook", "hi") == {
        "content": "hi", "text": "hi", "allowed_mentions": quiet}
    # a seat named to ping the whole channel at every turn pings nobody
    loud = "@everyone and <!channel> & <@123>'s turn."
    discord = body_for("https://discord.com/api/webhooks/1/x", loud)
    assert "@everyone" not in discord["content"] and "@\u200beveryone" in discord["content"]
    slack = body_for("https://hooks.slack.com/services/T/B/x", loud)["text"]
    assert "<" not in slack and "&lt;!channel&gt; &amp; &lt;@\u200b123&gt;" in slack, slack


def test_a_bots_turn_is_not_posted_where_people_play(
        db_url: str, tmp_path: Path, receiver: Receiver) -> None:
    # the bot thinks a while, as on a real server: its turn would be posted before it moves
    with fresh_like(db_url, tmp_path) as url, \
            LiveServer(Settings(database_url=url, bot_delay=0.5, join_limit=0,
                                public_url=SITE, webhook_private_addresses=True)) as live, \
            httpx.Client(base_url=live.base, timeout=60) as http:
        table = make_game(http, 2, 1, bots=1)
        path = f"/people/{table.id}"
        put = http.put(table.url("/webhook"), headers=auth(table.host),
                       json={"url": receiver.url(path)})
        assert put.status_code == 200, put.text
        (seat,) = table.tokens
        texts: list[str] = []
        for _ in range(3):  # the person's turn ends; the bot's passes; the person's begins
            wait_for(lambda: info(http, table)["current_seat"] == seat, "the person's turn")
            while info(http, table)["current_seat"] == seat:
                state = info(http, table)
                done = act(http, table, seat, legal(http, table, seat)[0]["action"],
                           state["version"])
                assert done.status_code == 200, done.text
            texts += [c.body["text"] for c in receiver.until(path, lambda c: True)]
    assert texts and all(t.startswith("test: human 0's turn.") for t in texts), texts


def test_a_receiver_that_hangs_never_delays_a_move(hooked: LiveServer,
                                                    receiver: Receiver) -> None:
    with httpx.Client(base_url=hooked.base, timeout=60) as http:
        receiver.entered.clear()  # the receiver serves every test of the module
        receiver.release.clear()
        table = make_game(http, 2, 2)
        path = f"/hang/{table.id}"
        put = http.put(table.url("/webhook"), headers=auth(table.host),
                       json={"url": receiver.url(path)})
        assert put.status_code == 200, put.text
        took = []
        for _ in range(3):
            took.append(move_timed(http, table)[0])
            # the first call is held by the receiver before the next move is measured
            assert receiver.entered.wait(30), "the webhook was never called"
        receiver.release.set()
        receiver.until(path, lambda c: True)
    # the receiver holds its call (the webhook's timeout is 5 s): a move that waited for it
    # would take seconds; these are moves alone
    assert max(took) < 2.0, took


def test_a_url_changed_or_removed_by_the_host_is_used_from_the_next_turn(
        hooked: LiveServer, receiver: Receiver) -> None:
    """The instance keeps a game's URL for a while (webhooks.FRESH): one set or removed
    there is used at once, not after that while."""
    with httpx.Client(base_url=hooked.base, timeout=60) as http:
        table = make_game(http, 2, 2)
        first, second, third = (f"/moved/{table.id}/{n}" for n in (1, 2, 3))

        def move() -> None:
            """Moves until the turn passes to another seat (one turn's start: one call; a
            seat may end a round and start the next)."""
            seat = http.get(table.url()).json()["current_seat"]
            while True:
                state = http.get(table.url()).json()
                if state["current_seat"] != seat:
                    return
                done = act(http, table, seat, legal(http, table, seat)[0]["action"],
                           state["version"])
                assert done.status_code == 200, done.text

        def next_call() -> Call:
            """The next call for this game (another test's calls are put back)."""
            got: Call | None = None
            others: list[Call] = []
            deadline = time.monotonic() + 240
            try:
                while got is None:
                    try:
                        call = receiver.calls.get(timeout=max(0.0, deadline - time.monotonic()))
                    except queue.Empty:
                        raise AssertionError(f"no call for game {table.id} in 240 s; others: "
                                             f"{[o.path for o in others]}") from None
                    if call.path.startswith(f"/moved/{table.id}/"):
                        got = call
                    else:
                        others.append(call)
            finally:
                for o in others:
                    receiver.calls.put(o)
            return got

        for path in (first, second, None, third):
            if path is None:
                dropped = http.delete(table.url("/webhook"), headers=auth(table.host))
                assert dropped.status_code == 204, dropped.text
                move()  # no URL: nothing is called for this turn (or the next URL is)
                continue
            put = http.put(table.url("/webhook"), headers=auth(table.host),
                           json={"url": receiver.url(path)})
            assert put.status_code == 200, put.text
            move()
            call = next_call()
            assert call.path == path, (call.path, path)


def webhooks_idle(live: LiveServer) -> bool:
    """No message of any game is waiting or being sent (retries included)."""
    return not live.server.config.app.state.webhooks._running


def turn_text(http: httpx.Client, table: Table) -> str:
    state = http.get(table.url()).json()
    return f"test: {state['seats'][state['current_seat']]['name']}'s turn."


def move_timed(http: httpx.Client, table: Table) -> tuple[float, bool]:
    """The seat to move plays its first legal move: the round trip, in seconds, and whether
    the turn passed to the other seat (only then is a message queued: a seat that moves
    again is not announced)."""
    state = http.get(table.url()).json()
    seat = state["current_seat"]
    action = legal(http, table, seat)[0]["action"]
    began = time.perf_counter()
    done = http.post(table.url("/actions"), headers=auth(table.tokens[seat]), json={
        "action": action, "expected_version": state["version"],
        "action_id": f"timed-{state['version']}"})
    took = time.perf_counter() - began
    assert done.status_code == 200, done.text
    return took, http.get(table.url()).json()["current_seat"] != seat


def test_a_failing_receiver_gets_the_message_once_after_retries(hooked: LiveServer,
                                                                receiver: Receiver) -> None:
    with httpx.Client(base_url=hooked.base, timeout=60) as http:
        table = make_game(http, 2, 2)  # two people: only the test moves
        wait_for(lambda: webhooks_idle(hooked), "the start's message to be dropped (no URL)")
        path = f"/flaky/{table.id}"
        put = http.put(table.url("/webhook"), headers=auth(table.host),
                       json={"url": receiver.url(path)})
        assert put.status_code == 200, put.text

        # one turn: 500, 500, then accepted; the pauses grow, each at least the gap
        receiver.failing[path] = 2
        assert move_timed(http, table)[1], "the first move passes the turn"
        text = turn_text(http, table)
        calls = receiver.until(path, lambda c: c.status == 204, timeout=60)
        wait_for(lambda: webhooks_idle(hooked), "the webhook to be done")
        assert [(c.status, c.body["text"].split(" http")[0]) for c in calls] == [
            (500, text), (500, text), (204, text)], [(c.status, c.body) for c in calls]
        gaps = [b.at - a.at for a, b in itertools.pairwise(calls)]
        # measured where they arrive: half of each pause leaves room for a loaded machine
        assert gaps[0] >= GAP * 0.5 and gaps[1] >= 2 * GAP * 0.5, gaps
        assert receiver.waiting(path) == [], "a call after the message was accepted"

        # moves while the receiver fails: none waits; the latest turn arrives, once
        receiver.failing[path] = 2
        took, passed = [], False
        while not passed:  # until the turn passes: its message is queued
            took_one, passed = move_timed(http, table)
            took.append(took_one)
        later = receiver.until(path, lambda c: True, timeout=60)  # the first try failed
        for _ in range(3):
            took.append(move_timed(http, table)[0])
        text = turn_text(http, table)
        wait_for(lambda: webhooks_idle(hooked), "the webhook to be done")
        later += receiver.waiting(path)
    accepted = [c.body["text"] for c in later if c.status == 204]
    seen = [(c.status, c.body["text"]) for c in later]
    assert later[0].status == 500 and later[-1].status == 204, seen
    assert accepted[-1].startswith(text + " "), (text, seen)  # the latest turn arrived
    assert len(accepted) == len(set(accepted)), seen  # each message once
    gaps = [b.at - a.at for a, b in itertools.pairwise(calls + later)]
    assert all(g >= GAP * 0.5 for g in gaps), gaps  # at most one call per game per gap
    assert max(took) < 2.0, took  # moves alone: none waited for the receiver


def test_the_end_message_orders_a_tie_on_points_as_the_rules_do() -> None:
    """Seats equal on points are ordered by income, then money (RULES.md §1), as the end
    screen says: a sort by points alone put the lower seat first."""
    game = new_game(3, 5, None)
    players = list(game.players)
    # income spaces 30 and 40: income levels 10 and 14
    for seat, (vp, space, money) in enumerate(((80, 30, 5), (80, 40, 1), (95, 10, 0))):
        players[seat] = dataclasses.replace(players[seat], vp=vp, income_space=space,
                                            money=money)
    over = dataclasses.replace(game, players=tuple(players), is_over=True)
    stamp = now()
    record = GameRecord(
        id="tie", name="Tie", players=3, status="finished", seed=5, setup=None, version=1,
        engine_version=ENGINE_VERSION, host_token_hash="h", created_at=stamp,
        updated_at=stamp, scores=[80, 80, 95],
        seats=[SeatRecord(seat=s, name=n) for s, n in enumerate(("Ada", "Bo", "Cy"))])
    assert result_text(Runtime(record=record, turn=[over])) == "Cy 95, Bo 80, Ada 80"
