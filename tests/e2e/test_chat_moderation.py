"""The host moderates the chat in the browser (issue 25): a message the host deletes
disappears for everyone at once, a spectator included, and from the replay; only the host
sees the delete buttons and the mutes, and a mute is kept by the server; a page whose socket
was away when a line was deleted drops it once it is back."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

from playwright.sync_api import Browser, WebSocketRoute, expect

from .test_browser import open_page, start_two
from .test_play_chat import say


def test_a_deleted_line_disappears_for_a_spectator_and_in_the_replay(
        browser: Browser, server: str, shots_dir: Path) -> None:
    game_id, pages = start_two(browser, server, "Moderated")
    alice = next(p for p in pages.values()
                 if p.evaluate(f"localStorage.getItem('brass.host.{game_id}')"))
    bob = next(p for p in pages.values() if p is not alice)
    watcher = open_page(browser, f"{server}/#/game/{game_id}")
    expect(watcher.locator("[data-testid=spectating]")).to_be_visible()
    say(bob, "a line to delete")
    say(alice, "welcome")
    for p in (alice, bob, watcher):
        expect(p.locator("[data-testid=chat-players] li[data-chat-id]")).to_have_count(2)
    # only the host moderates
    for p in (bob, watcher):
        expect(p.locator("[data-testid=chat-delete]")).to_have_count(0)
        expect(p.locator("[data-testid=chat-mutes]")).to_have_count(0)
    alice.locator("[data-testid=chat-players] li", has_text="a line to delete").locator(
        "[data-testid=chat-delete]").click()
    for p in (alice, bob, watcher):
        lines = p.locator("[data-testid=chat-players] li[data-chat-id]")
        expect(lines).to_have_count(1)
        expect(lines).to_contain_text("welcome")
        expect(p.locator("[data-testid=chat]")).not_to_contain_text("a line to delete")
    alice.check("[data-testid=chat-mute-spectators]")
    expect(alice.locator("[data-testid=chat-mute-spectators]")).to_be_checked()
    alice.locator("[data-testid=chat]").screenshot(path=str(shots_dir / "chat-host.png"))
    # a muted sender is told so beside the chat box, where the line was typed (it was said
    # only at the top of the side panel, scrolled out of sight)
    expect(watcher.locator("[data-testid=conn]")).to_have_count(0)
    watcher.fill("input[name=chat-text]", "can anyone hear me")
    watcher.click("[data-testid=chat-send]")
    refused = watcher.locator("[data-testid=chat] [data-testid=chat-refused]")
    expect(refused).to_contain_text("muted")
    expect(refused).to_be_in_viewport()
    watcher.locator("[data-testid=chat]").screenshot(path=str(shots_dir / "chat-muted.png"))
    with urllib.request.urlopen(f"{server}/api/games/{game_id}/chat", timeout=10) as reply:
        history = json.loads(reply.read())
    assert history["muted"] == {"seats": [], "spectators": True, "admin_seats": [],
                                "admin_spectators": False}
    assert [m["text"] for m in history["messages"]] == ["welcome"]

    replay = open_page(browser, f"{server}/#/replay/{game_id}")
    expect(replay.locator("[data-testid=replay]")).to_have_attribute("data-frame", "0")
    lines = replay.locator("[data-testid=chat] li[data-chat-id]")
    expect(lines).to_have_count(1)
    expect(lines).to_contain_text("welcome")
    expect(replay.locator("[data-testid=chat-delete]")).to_have_count(0)
    for p in (alice, bob, watcher, replay):
        assert p.errors == [], p.errors  # type: ignore[attr-defined]


def test_a_line_deleted_while_a_page_was_away_is_gone_once_it_is_back(
        browser: Browser, server: str) -> None:
    """The watcher's socket loses the `chat_deleted` message (it drops just then, as on a
    train): the page reconnects, and the line the host deleted meanwhile is gone from it,
    the other lines kept."""
    game_id, pages = start_two(browser, server, "Away")
    alice = next(p for p in pages.values()
                 if p.evaluate(f"localStorage.getItem('brass.host.{game_id}')"))
    connections: list[WebSocketRoute] = []
    lost: list[str | bytes] = []

    def drop_the_deletion(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()
        first = not connections
        connections.append(ws)

        def from_server(message: str | bytes) -> None:
            if first and '"chat_deleted"' in str(message):
                lost.append(message)
                ws.close()  # the page's socket drops: it connects again
            else:
                ws.send(message)
        upstream.on_message(from_server)
        ws.on_message(upstream.send)

    ctx = browser.new_context()
    watcher = ctx.new_page()
    watcher.route_web_socket(re.compile(r"/ws/games/"), drop_the_deletion)
    watcher.goto(f"{server}/#/game/{game_id}")
    expect(watcher.locator("[data-testid=spectating]")).to_be_visible()
    say(alice, "a line to delete")
    say(alice, "a line to keep")
    lines = watcher.locator("[data-testid=chat-players] li[data-chat-id]")
    expect(lines).to_have_count(2)
    alice.locator("[data-testid=chat-players] li", has_text="a line to delete").locator(
        "[data-testid=chat-delete]").click()
    expect(alice.locator("[data-testid=chat-players] li[data-chat-id]")).to_have_count(1)
    expect(lines).to_have_count(1)
    expect(lines).to_contain_text("a line to keep")
    assert lost, "the watcher's deletion message was not the one dropped"
    assert len(connections) >= 2, f"the watcher's page did not connect again: {connections}"
    ctx.close()
