"""The pages while the game database is out of reach (a walkthrough with Postgres stopped): the
server serves the client on a Postgres of the test's own, stopped and started again. A page
opened meanwhile on a game the server has not loaded (another instance's, one not played since
a restart: here one it never had) says the database cannot be reached and reconnects ever more
slowly (it did 4-5 times a second, showing "Connecting…"); the admin is not told the page is
not theirs; a chat line the server refused for want of its database waits and goes once, in
order, when it is back (it was lost); and a move's refusal for want of the database is gone
once the game answers again (it stayed until the player acted)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, WebSocket, expect
from server.ownpostgres import OwnPostgres, own_postgres

from .conftest import _free_port, serve
from .test_admin import make_admin
from .test_browser import open_page, start_two
from .test_play_chat import chat_seen, say

UNREACHABLE = "The game database cannot be reached; retrying…"
WINDOW_MS = 6000  # how long the sockets of a page opened in the outage are counted
MOST_SOCKETS = 8  # in that window: 300 ms doubling to 5 s opens about 5 (it opened ~25)


@pytest.fixture
def on_own_postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, OwnPostgres]]:
    """The server on a Postgres the test may stop, and that Postgres."""
    with own_postgres() as pg:
        env = {"DATABASE_URL": pg.url, "BRASS_BOT_DELAY": "0", "BRASS_ANALYSIS_WORKERS": "0"}
        with serve(env, _free_port(), tmp_path_factory) as base:
            yield base, pg


def test_pages_during_a_database_outage(browser: Browser,
                                        on_own_postgres: tuple[str, OwnPostgres]) -> None:
    base, pg = on_own_postgres
    game_id, pages = start_two(browser, base, "Outage")
    alice, bob = pages[0], pages[1]
    admin = make_admin(browser, base, pg.url)

    pg.stop()
    # a line said now is refused (unavailable): it waits, said so, not lost
    alice.fill("input[name=chat-text]", "Said in the outage")
    alice.click("[data-testid=chat-send]")
    unsent = alice.locator("[data-testid=chat-unsent]")
    expect(unsent).to_contain_text("The game database cannot be reached", timeout=15000)
    expect(unsent.locator("li")).to_have_text(["Said in the outage"])
    expect(alice.locator("input[name=chat-text]")).to_have_value("")
    # a move now is refused, said so
    mover = next(p for p in (alice, bob) if p.locator("[data-testid=action-panel]").count())
    mover.click("[data-kind=pass]")
    mover.locator("[data-choose-card]").first.click()
    mover.click("[data-testid=confirm]")
    refusal = mover.locator("[data-testid=message]")
    expect(refusal).to_contain_text("Refused: The game database cannot be reached")

    # a page opened now on a game the server must read from its database says why it waits,
    # and does not hammer the server (a game in play is in its memory: its pages are answered)
    sockets: list[WebSocket] = []
    carol = open_page(browser, f"{base}/#/game/Not-loaded-{game_id}")
    carol.on("websocket", lambda ws: sockets.append(ws))
    expect(carol.locator("[data-testid=conn]")).to_have_text(UNREACHABLE, timeout=15000)
    counted = len(sockets)
    carol.wait_for_timeout(WINDOW_MS)  # a rate: counted over a window, not waited on
    opened = len(sockets) - counted
    assert opened <= MOST_SOCKETS, f"{opened} sockets in {WINDOW_MS} ms of outage"
    expect(carol.locator("[data-testid=conn]")).to_have_text(UNREACHABLE)

    admin.reload()
    expect(admin.locator("[data-testid=admin-unreachable]")).to_have_text(UNREACHABLE,
                                                                           timeout=15000)
    expect(admin.locator("[data-testid=admin-refused]")).to_have_count(0)

    pg.start()
    expect(admin.locator("[data-testid=admin-page]")).to_be_visible(timeout=20000)
    expect(carol.locator("h2")).to_have_text("No such game", timeout=20000)  # read at last
    for p in (alice, bob):
        expect(p.locator("[data-testid=chat-players] .chat-text"), chat_seen(p)).to_have_text(
            ["Said in the outage"], timeout=20000)
    expect(unsent).to_have_count(0)
    expect(alice.locator("[data-testid=chat-refused]")).to_have_count(0)
    # the refused move's words go with the next state: here the greeting of a new connection
    expect(refusal).to_be_visible()
    mover.evaluate("window.__brass.drop(0)")
    expect(refusal).to_have_count(0)
    # sent once: a line said now comes right after it, with no second copy between
    say(alice, "Back again")
    for p in (alice, bob):
        expect(p.locator("[data-testid=chat-players] .chat-text"), chat_seen(p)).to_have_text(
            ["Said in the outage", "Back again"])
    for p in (alice, bob, carol, admin):
        assert p.errors == [], p.errors  # type: ignore[attr-defined]
