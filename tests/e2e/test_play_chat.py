"""Chat in the browser: two players and a spectator talk; everyone sees every message, the
spectator's listed apart; markup is shown as text; a replay shows each message from the move
it was sent at."""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from .test_browser import actions_done, open_page, start_two, wait_actions


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
