"""Moves you can watch: when a move arrives, a watching page animates it on the board (the
steps of the move's effects, in their order), and a page under prefers-reduced-motion does not.
The position is the engine's corpus of a big sale, stored as a game; the seat sells one tile."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Browser, Page, expect

from brass.engine import Game, legal_actions

from .test_browser import actions_done, click_action, wait_actions
from .test_composed_sale import CORPUS, store_position

# records every value the board's data-animating takes (set while a move plays, then removed)
WATCH = """() => { window.__anims = [];
  const svg = document.querySelector('svg.board');
  new MutationObserver(() => {
    if (svg.dataset.animating) window.__anims.push(svg.dataset.animating);
  }).observe(svg, {attributes: true, attributeFilter: ['data-animating']}); }"""


def opened(browser: Browser, url: str, reduced: bool) -> Page:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800},
                              reduced_motion="reduce" if reduced else "no-preference")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(url)
    expect(page.locator("[data-testid=game]")).to_be_visible(timeout=15000)
    page.evaluate(WATCH)
    return page


def test_a_move_animates_for_a_watcher_but_not_under_reduced_motion(
        browser: Browser, server: str, server_db: str) -> None:
    game = Game.from_json(json.loads((CORPUS / "sell_goods_4.json").read_text()))
    seat = game.current_seat
    assert seat is not None
    sale: Any = next(a for a in legal_actions(game) if a.kind == "sell" and len(a.sales) == 1)
    game_id, tokens = store_position(server_db, game)
    player = opened(browser, f"{server}/#/game/{game_id}/seat/{tokens[seat]}", reduced=True)
    watcher = opened(browser, f"{server}/#/game/{game_id}", reduced=False)
    expect(player.locator("[data-testid=action-panel]")).to_be_visible(timeout=15000)
    n = actions_done(player)
    click_action(player, sale.to_json())
    player.click("[data-testid=confirm]")
    for page in (player, watcher):
        wait_actions(page, n + 1)
    # the sale's steps: beer carried (if any), the tile sold and flipped, the seat's counters
    watcher.wait_for_function("() => window.__anims.length > 0", timeout=5000)
    steps = int(watcher.evaluate("window.__anims[0]"))
    assert steps >= 3, watcher.evaluate("window.__anims")
    # it ends by itself (about a second), leaving the board as after the move
    watcher.wait_for_function("() => !document.querySelector('svg.board').dataset.animating",
                              timeout=5000)
    where = f'{sale.sales[0].location}:{sale.sales[0].slot}'
    expect(watcher.locator(f'[data-tile="{where}"]')).to_have_class("tile flipped")
    assert player.evaluate("window.__anims") == []  # reduced motion: nothing played
    for page in (player, watcher):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()
