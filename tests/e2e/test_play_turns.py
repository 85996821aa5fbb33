"""Turn awareness: with her tab hidden, Alice gets a chime and a notification when her turn
comes (notifications allowed for the page), none once she mutes (the switch is remembered
when the page is opened again); her turn opens with a numbered summary of Bob's moves since
her last one, and the board numbers where each happened."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from brass.bots import choose_action
from brass.engine import apply_action, new_game

from .test_browser import DESKTOP, actions_done, click_action, my_seat, start_two, wait_actions

HIDDEN = """Object.defineProperty(Document.prototype, 'hidden', {get: () => true});
Object.defineProperty(Document.prototype, 'visibilityState', {get: () => 'hidden'});"""


def alerts(page: Page) -> list[str]:
    return list(page.evaluate("window.__brassAlerts || []"))


def test_turn_alerts_mute_and_the_summary(browser: Browser, server: str,
                                          plan: tuple[int, list[Any]], shots_dir: Path) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    ctx.grant_permissions(["notifications"], origin=server)
    ctx.add_init_script(HIDDEN)
    alice = ctx.new_page()
    errors: list[str] = []
    alice.on("pageerror", lambda e: errors.append(str(e)))
    alice.goto(server + "/")
    game_id, seats = start_two(browser, server, "Alerts", alice)
    bob = next(p for p in seats.values() if p is not alice)
    a_seat = my_seat(alice, game_id)
    game = new_game(2, plan[0])
    rng = random.Random(5)

    def move() -> None:
        nonlocal game
        assert game.current_seat is not None
        page = seats[game.current_seat]
        expect(page.locator("[data-testid=action-panel]")).to_be_visible(timeout=15000)
        n = actions_done(page)
        chosen = choose_action(game, rng)
        game = apply_action(game, chosen)
        click_action(page, chosen.to_json())
        page.click("[data-testid=confirm]")
        for p in (alice, bob):
            wait_actions(p, n + 1)

    def until_alice_moves_after_bob() -> None:
        while game.current_seat == a_seat:
            move()
        while game.current_seat != a_seat:
            move()

    until_alice_moves_after_bob()
    expect(alice.locator("[data-testid=action-panel]")).to_be_visible()
    alice.wait_for_function("(window.__brassAlerts || []).includes('notification')")
    assert alerts(alice)[-2:] == ["chime", "notification"]
    summary = alice.locator("[data-testid=since-last-turn]")
    expect(summary).to_contain_text("Since your last turn")
    expect(summary.locator("li").first).to_contain_text("Bob")  # by name, as the page names him
    expect(alice.locator(".order-badge").first).to_be_visible()
    alice.screenshot(path=str(shots_dir / "since-last-turn.png"))
    expect(alice).to_have_title("▶ Your turn — Brass")

    alice.click("[data-testid=mute]")
    expect(alice.locator("[data-testid=mute]")).to_have_attribute("aria-pressed", "true")
    url = alice.url
    alice.goto("about:blank")
    alice.goto(url)
    expect(alice.locator("[data-testid=game]")).to_be_visible(timeout=10000)
    expect(alice.locator("[data-testid=mute]")).to_have_attribute("aria-pressed", "true")
    until_alice_moves_after_bob()
    alice.wait_for_function("(window.__brassAlerts || []).includes('muted')")
    assert "chime" not in alerts(alice)
    assert errors == [] and bob.errors == [], (errors, bob.errors)  # type: ignore[attr-defined]
    ctx.close()
