"""Chat in the browser: two players and a spectator talk; everyone sees every message, the
spectator's listed apart; markup is shown as text; a replay shows each message from the move
it was sent at."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from .test_browser import actions_done, get, open_page, start_two, wait_actions


def say(page: Page, text: str) -> None:
    """Send a chat line as a player would, once the page is connected (a line said while the
    socket reconnects waits to be sent: `test_a_line_said_while_reconnecting_is_sent_once_back`),
    and wait until the client took it (the box empties)."""
    expect(page.locator("[data-testid=conn]")).to_have_count(0)
    page.fill("input[name=chat-text]", text)
    page.click("[data-testid=chat-send]")
    expect(page.locator("input[name=chat-text]")).to_have_value("")


def chat_seen(page: Page) -> str:
    """What a page's chat shows, for a failure's message: its players' and spectators' lines
    and its connection's state."""
    conn = page.locator("[data-testid=conn]")
    return (f"players {page.locator('[data-testid=chat-players] li').all_inner_texts()}, "
            f"spectators {page.locator('[data-testid=chat-spectators] li').all_inner_texts()}, "
            f"connection {conn.inner_text() if conn.count() else 'open'}")


def test_two_players_and_a_spectator_chat(browser: Browser, server: str,
                                          shots_dir: Path) -> None:
    game_id, pages = start_two(browser, server, "Chatty")
    alice, bob = pages[0], pages[1]
    watcher = open_page(browser, f"{server}/#/game/{game_id}")
    expect(watcher.locator("[data-testid=spectating]")).to_be_visible()
    everyone = (alice, bob, watcher)

    say(alice, "<b>Good luck</b> & have fun")
    for p in everyone:
        line = p.locator("[data-testid=chat-players] li[data-chat-id]").last
        expect(line).to_contain_text("<b>Good luck</b> & have fun")
        expect(p.locator("[data-testid=chat] .chat-text b")).to_have_count(0)
    # a move, then Bob answers: his message is stored after that move
    mover = next(p for p in (alice, bob) if p.locator("[data-testid=action-panel]").count())
    n = actions_done(mover)
    mover.click("[data-kind=pass]")
    mover.locator("[data-choose-card]").first.click()
    mover.click("[data-testid=confirm]")
    for p in everyone:
        wait_actions(p, n + 1)
    say(bob, "Thanks!")
    watcher.fill("input[name=chat-name]", "Sam")
    say(watcher, "Watching from the gallery")
    for p in everyone:
        expect(p.locator("[data-testid=chat-players] li[data-chat-id]")).to_have_count(2)
        spectators = p.locator("[data-testid=chat-spectators] li")
        expect(spectators).to_have_count(1)
        expect(spectators).to_contain_text("Sam: Watching from the gallery")
    watcher.locator("[data-testid=chat]").screenshot(path=str(shots_dir / "chat.png"))

    replay = open_page(browser, f"{server}/#/replay/{game_id}")
    controls = replay.locator("[data-testid=replay]")
    expect(controls).to_have_attribute("data-frame", "0")
    chat = replay.locator("[data-testid=chat] li[data-chat-id]")
    expect(chat).to_have_count(1)
    replay.click("[data-testid=step-forward]")
    expect(controls).to_have_attribute("data-frame", "1")
    expect(chat).to_have_count(3)
    for p in (*everyone, replay):
        assert p.errors == [], p.errors  # type: ignore[attr-defined]


def test_a_line_sent_before_the_hello_is_answered_still_shows(browser: Browser,
                                                              server: str) -> None:
    """The watcher's page reads the chat's history, then its socket's hello is held (a slow
    network) while Alice's line is stored: the line is in neither the history it read nor
    the socket's messages. The page reads the history again once the hello is answered."""
    game_id, pages = start_two(browser, server, "Late hello")
    alice = pages[0]
    held: list[str | bytes] = []
    to_server: list[WebSocketRoute] = []

    def hold_hello(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()
        to_server.append(upstream)

        def from_page(message: str | bytes) -> None:
            if not held and '"hello"' in str(message):
                held.append(message)  # sent on when the test says so
            else:
                upstream.send(message)
        ws.on_message(from_page)

    ctx = browser.new_context()
    watcher = ctx.new_page()
    watcher.route_web_socket(re.compile(r"/ws/games/"), hold_hello)
    with watcher.expect_response(re.compile(rf"/api/games/{game_id}/chat")) as history:
        watcher.goto(f"{server}/#/game/{game_id}")
    assert history.value.ok, history.value.status
    deadline = time.monotonic() + 30
    while not held and time.monotonic() < deadline:
        watcher.wait_for_timeout(50)  # the route's handler runs while playwright waits
    assert held, "the watcher's page never said hello"

    say(alice, "Said while you were connecting")
    expect(alice.locator("[data-testid=chat-players] li[data-chat-id]")).to_have_count(1)
    to_server[0].send(held[0])  # the hello goes on: the server answers it
    expect(watcher.locator("[data-testid=chat-players] li[data-chat-id]")).to_contain_text(
        "Said while you were connecting")
    ctx.close()


def test_a_line_whose_connection_drops_in_flight_is_kept_once(browser: Browser,
                                                             server: str) -> None:
    """Alice's connection drops while a line is in flight, twice: once the line is lost on its
    way to the server, once the server stores it and its answer is lost. Each time her page
    sends it again on the next connection, with its id, and everyone has it once."""
    game_id, pages = start_two(browser, server, "In flight")
    alice, bob = pages[0], pages[1]
    lose = {"Lost on the way": "to the server", "Stored, its answer lost": "the answer"}
    lost: list[str] = []
    sent: dict[str, list[int]] = {text: [] for text in lose}  # by text: on which connection
    answered: dict[str, list[int]] = {text: [] for text in lose}
    connections: list[WebSocketRoute] = []

    def network(ws: WebSocketRoute) -> None:
        """Alice's network, connection by connection: it loses each line once, one way or
        the other, and then the connection."""
        upstream = ws.connect_to_server()
        connections.append(ws)
        here = len(connections)

        def drop(what: str) -> None:
            lost.append(what)
            ws.close()
            upstream.close()

        def from_page(message: str | bytes) -> None:
            m = json.loads(message)
            if m["type"] == "chat" and m["text"] in lose:
                sent[m["text"]].append(here)
                if lose[m["text"]] == "to the server" and "to the server" not in lost:
                    return drop("to the server")
            upstream.send(message)

        def from_server(message: str | bytes) -> None:
            m = json.loads(message)
            if m["type"] == "chat" and m["message"]["text"] in lose:
                answered[m["message"]["text"]].append(here)
                if lose[m["message"]["text"]] == "the answer" and "the answer" not in lost:
                    return drop("the answer")
            ws.send(message)

        ws.on_message(from_page)
        upstream.on_message(from_server)

    def lines(page: Page) -> list[str]:
        return page.locator("[data-testid=chat-players] li[data-chat-id] .chat-text"
                            ).all_inner_texts()

    def until(done: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + 30
        while not done():
            if time.monotonic() > deadline:
                raise AssertionError(f"{what}: lost {lost}, sent {sent}, answered "
                                     f"{answered}; Alice {chat_seen(alice)}")
            alice.wait_for_timeout(50)  # the route's handlers run while playwright waits

    alice.route_web_socket(re.compile(r"/ws/games/"), network)
    alice.evaluate("window.__brass.drop(0)")  # her next connection goes through the route
    until(lambda: len(connections) == 1, "no routed connection")
    for text in lose:
        say(alice, text)
        until(lambda text=text: answered[text] and answered[text][-1] > sent[text][0],
              f"{text!r} not answered on a later connection")
        assert len(sent[text]) == 2 and sent[text][0] < sent[text][1], sent
    assert lost == ["to the server", "the answer"]
    for p in (alice, bob):
        expect(p.locator("[data-testid=chat-players] li[data-chat-id]")).to_have_count(2)
        assert [line.strip() for line in lines(p)] == list(lose), chat_seen(p)
    history = get(server, f"/api/games/{game_id}/chat")["messages"]
    assert [m["text"] for m in history] == list(lose), history
    assert len({m["line"] for m in history}) == 2 and all(m["line"] for m in history), history
    for p in (alice, bob):
        assert p.errors == [], p.errors  # type: ignore[attr-defined]


def test_a_line_said_while_reconnecting_is_sent_once_back(browser: Browser, server: str,
                                                          shots_dir: Path) -> None:
    """Alice's connection drops; what she says meanwhile is not lost nor silently kept in the
    box: the page says it will go once the connection is back, and sends it then, in order."""
    _, pages = start_two(browser, server, "Said offline")
    alice, bob = pages[0], pages[1]
    expect(alice.locator("[data-testid=conn]")).to_have_count(0)
    alice.evaluate("window.__brass.drop(600000)")
    expect(alice.locator("[data-testid=conn]")).to_have_text("Reconnecting…")
    for line in ("First, offline", "Second, offline"):
        alice.fill("input[name=chat-text]", line)
        alice.click("[data-testid=chat-send]")
        expect(alice.locator("input[name=chat-text]")).to_have_value("")
    unsent = alice.locator("[data-testid=chat-unsent]")
    expect(unsent).to_contain_text("Not connected")
    expect(unsent.locator("li")).to_have_text(["First, offline", "Second, offline"])
    expect(bob.locator("[data-testid=chat-players] li[data-chat-id]")).to_have_count(0)
    alice.locator("[data-testid=chat]").screenshot(path=str(shots_dir / "chat-unsent.png"))

    alice.evaluate("window.__brass.resume()")
    for p in (alice, bob):
        lines = p.locator("[data-testid=chat-players] li[data-chat-id]")
        expect(lines).to_have_count(2)
        expect(lines.first).to_contain_text("First, offline")
        expect(lines.last).to_contain_text("Second, offline")
    expect(unsent).to_have_count(0)
    for p in (alice, bob):
        assert p.errors == [], p.errors  # type: ignore[attr-defined]
