"""The analysis board in a replay: from a position of a finished game the player tries
another move and the bot's reply, sees the board and the win chances change, and goes back
to the game, which is unchanged."""

from __future__ import annotations

from pathlib import Path

import httpx
from playwright.sync_api import Browser, expect

from .test_analysis import play_out
from .test_browser import open_page

FRAME = 10  # the position explored: after this many moves


def test_a_line_explored_from_a_replay_leaves_the_game_unchanged(
        browser: Browser, server: str, shots_dir: Path) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        game, _ = play_out(http, "Explored")
        log = http.get(f"/api/games/{game}/log").json()
    page = open_page(browser, f"{server}/#/replay/{game}")
    page.locator("[data-testid=scrub]").fill(str(FRAME))
    replay = page.locator("[data-testid=replay]")
    expect(replay).to_have_attribute("data-frame", str(FRAME))
    page.click("[data-testid=explore-start]")
    panel = page.locator("[data-testid=explore]")
    expect(panel).to_have_attribute("data-ready", "true", timeout=60_000)
    expect(panel).to_contain_text(f"From move {FRAME}:")
    win = page.locator("[data-testid=explore-win]")
    expect(win).to_contain_text("%")
    before = win.inner_text()

    moves = page.locator("[data-testid=explore-moves] option")
    assert moves.count() > 1, "no move offered to try"
    tried = moves.nth(moves.count() - 1).inner_text()  # the easy bot's least liked move
    page.locator("[data-testid=explore-moves]").select_option(str(moves.count() - 1))
    page.click("[data-testid=explore-play]")
    expect(panel).to_have_attribute("data-line", "1")
    expect(panel).to_have_attribute("data-ready", "true", timeout=60_000)
    expect(page.locator("[data-testid=explore-line]")).to_contain_text(tried)
    expect(replay).to_have_attribute("data-exploring", str(FRAME))

    reply = page.locator("[data-testid=explore-reply]")
    expect(reply).to_contain_text("The bot would play:")
    page.click("[data-testid=explore-play-reply]")
    expect(panel).to_have_attribute("data-line", "2")
    expect(panel).to_have_attribute("data-ready", "true", timeout=60_000)
    expect(page.locator("[data-testid=explore-line] li")).to_have_count(2)
    after = win.inner_text()
    page.screenshot(path=str(shots_dir / "replay-explore.png"))
    assert before and after, (before, after)

    page.click("[data-testid=explore-back]")
    expect(panel).to_have_count(0)
    expect(replay).not_to_have_attribute("data-exploring", str(FRAME))
    expect(replay).to_have_attribute("data-frame", str(FRAME))
    expect(page.locator("[data-testid=position]")).to_contain_text(
        f"move {FRAME} / {len(log['actions'])}")
    with httpx.Client(base_url=server, timeout=30) as http:
        assert http.get(f"/api/games/{game}/log").json() == log  # nothing was stored
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
