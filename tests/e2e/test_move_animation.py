"""Moves you can watch: when a move arrives, a watching page animates it on the board (the
steps of the move's effects, in their order), and a page under prefers-reduced-motion does not;
a replay's step forward animates the move it adds, the same way, and a key pressed while it plays
ends it at once.
The position is the engine's corpus of a big sale, stored as a game; the seat sells one tile, with
a merchant's beer: the watcher sees a barrel carried, and that merchant's barrel is gone from the
board after the move (the board draws the merchants' beer from the view alone)."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Browser, Page, expect

from brass.engine import Game, apply_action, legal_actions, view
from brass.server.transfer import import_record

from .test_browser import actions_done, click_action, wait_actions
from .test_composed_sale import CORPUS, store_position
from .test_screenshots import GOLDEN, finished_record

# records every value the board's data-animating takes (set while a move plays, then removed),
# and each piece the animation layer carries
WATCH = """() => { window.__anims = []; window.__carried = [];
  const svg = document.querySelector('svg.board');
  new MutationObserver(() => {
    if (svg.dataset.animating) window.__anims.push(svg.dataset.animating);
  }).observe(svg, {attributes: true, attributeFilter: ['data-animating']});
  new MutationObserver((records) => records.forEach(r => r.addedNodes.forEach(
    n => window.__carried.push(n.dataset && n.dataset.piece))),
  ).observe(svg.querySelector('.anim-layer'), {childList: true}); }"""

# presses a key the moment a move starts to play, and records how many of the board's animations
# were running just before and just after (the skip finishes them all, synchronously)
SKIP = """() => { window.__skip = null;
  const svg = document.querySelector('svg.board');
  const running = () => svg.getAnimations({subtree: true})
    .filter(a => a.playState === 'running').length;
  new MutationObserver(() => {
    if (!svg.dataset.animating || window.__skip) return;
    const before = running();
    dispatchEvent(new KeyboardEvent('keydown', {key: 'x'}));
    window.__skip = [before, running()];
  }).observe(svg, {attributes: true, attributeFilter: ['data-animating']}); }"""


def opened(browser: Browser, url: str, reduced: bool, ready: str = "[data-testid=game]") -> Page:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800},
                              reduced_motion="reduce" if reduced else "no-preference")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(url)
    expect(page.locator(ready)).to_be_visible(timeout=15000)
    expect(page.locator("svg.board .anim-layer")).to_be_attached(timeout=15000)
    page.evaluate(WATCH)
    return page


def test_a_move_animates_for_a_watcher_but_not_under_reduced_motion(
        browser: Browser, server: str, server_db: str) -> None:
    game = Game.from_json(json.loads((CORPUS / "sell_goods_4.json").read_text()))
    seat = game.current_seat
    assert seat is not None
    sale: Any = next(a for a in legal_actions(game) if a.kind == "sell" and len(a.sales) == 1)
    beer_before = {(m["location"], m["slot"]) for m in view(game, None)["merchants"] if m["beer"]}
    beer_after = {(m["location"], m["slot"]) for m in view(apply_action(game, sale),
                                                           None)["merchants"] if m["beer"]}
    drunk = beer_before - beer_after
    assert drunk, "the sale takes no merchant's beer: pick another"
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
    carried = watcher.evaluate("window.__carried")
    assert "beer" in carried, carried
    for page in (player, watcher):  # the merchant's barrel gone, the others still there
        for loc, slot in beer_before:
            tile = page.locator(f'[data-merchant="{loc}:{slot}"]')
            gone = (loc, slot) in drunk
            expect(tile).to_have_attribute("data-beer", "0" if gone else "1")
            expect(tile.locator(".merchant-beer")).to_have_count(0 if gone else 1)
    assert player.evaluate("window.__anims") == []  # reduced motion: nothing played
    for page in (player, watcher):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_a_replay_step_forward_animates_the_move_it_adds(browser: Browser, server: str,
                                                         server_db: str) -> None:
    record = finished_record()  # under its own id: the screenshot test imports the same game
    record["id"] = "animation-replay"
    game_id = import_record(server_db, record)
    golden = json.loads(GOLDEN.read_text())
    # the first move that changes the board (a build, a link or a sale), and the frame before it
    at = next(i for i, a in enumerate(golden["actions"])
              if a["kind"] in ("build", "network", "sell"))
    watcher = opened(browser, f"{server}/#/replay/{game_id}", reduced=False,
                     ready="[data-testid=replay][data-frame='0']")
    still = opened(browser, f"{server}/#/replay/{game_id}", reduced=True,
                   ready="[data-testid=replay][data-frame='0']")
    skipper = opened(browser, f"{server}/#/replay/{game_id}", reduced=False,
                     ready="[data-testid=replay][data-frame='0']")
    skipper.evaluate(SKIP)
    for page in (watcher, still, skipper):
        replay = page.locator("[data-testid=replay]")
        if at:  # the slider straight to the frame before it (a jump plays nothing)
            page.locator("[data-testid=scrub]").evaluate(
                "(e, n) => { e.value = String(n);"
                " e.dispatchEvent(new Event('input', {bubbles: true})) }", at)
            expect(replay).to_have_attribute("data-frame", str(at), timeout=15000)
        page.click("[data-testid=step-forward]")
        expect(replay).to_have_attribute("data-frame", str(at + 1), timeout=15000)
    watcher.wait_for_function("() => window.__anims.length > 0", timeout=5000)
    assert int(watcher.evaluate("window.__anims[0]")) >= 2, (golden["actions"][at],
                                                             watcher.evaluate("window.__anims"))
    watcher.wait_for_function("() => !document.querySelector('svg.board').dataset.animating",
                              timeout=5000)
    assert still.evaluate("window.__anims") == []  # reduced motion: nothing played
    # a key while it plays: every animation of the board ends there and then
    skipper.wait_for_function("() => window.__skip !== null", timeout=5000)
    before, after = skipper.evaluate("window.__skip")
    assert before > 0 and after == 0, (before, after)
    skipper.wait_for_function("() => !document.querySelector('svg.board').dataset.animating",
                              timeout=5000)
    for page in (watcher, still, skipper):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()
