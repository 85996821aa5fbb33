"""Keyboard and screen readers: axe-core (web/node_modules/axe-core, injected into the page)
finds no serious or critical violation on the home, lobby, game and replay screens; a build, a
link and a sale are made with the keyboard alone (Tab to a target, Enter to pick it, Escape to
go back a step), on the board's named, focusable targets."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from brass.bots import choose_action
from brass.engine import apply_action, new_game

from .conftest import WEB
from .test_browser import actions_done, click_action, get, open_page, start_two, wait_actions

AXE = WEB / "node_modules" / "axe-core" / "axe.min.js"


CONFIRM = "[data-testid=confirm]"


def axe_problems(page: Page) -> list[str]:
    """The serious and critical violations axe-core finds on the page as it is."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # evaluated by the driver: the page's CSP allows no inline script tag
        page.evaluate(AXE.read_text() + "\n;undefined")
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
          .map(v => v.id + ': ' + v.help + ' @ ' + v.nodes.slice(0, 3)
            .map(n => n.target.join(' ') + ' ' + n.html.slice(0, 120)).join(' | '));
    }""")
    return list(found)


def tab_to(page: Page, selector: str, limit: int = 300) -> None:
    """Press Tab until the focused element matches `selector`, then, if it was not ahead,
    Shift+Tab back through the page (failing after `limit` presses each way)."""
    for key in ("Tab", "Shift+Tab"):
        for _ in range(limit):
            if page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)",
                             selector):
                return
            page.keyboard.press(key)
    raise AssertionError(f"Tab never reached {selector}")


def pick(page: Page, selector: str) -> None:
    """Tab to the target and press Enter, once the page offers it (a later sale's targets
    wait for the server's extensions, Confirm for a whole move)."""
    expect(page.locator(selector).first).to_be_attached()
    if selector == CONFIRM:
        expect(page.locator(selector)).to_be_enabled()
    tab_to(page, selector)
    page.keyboard.press("Enter")


def keyboard_action(page: Page, action: dict[str, Any]) -> None:
    """Make `action` with the keyboard alone, on the board's targets."""
    expect(page.locator(f"[data-kind={action['kind']}]")).to_be_enabled()
    page.locator("body").focus()  # Tab starts from the top of the page
    pick(page, f"[data-kind={action['kind']}]")
    card = action.get("card")
    if card and page.locator(f'[data-choose-card="{card}"]').count():
        pick(page, f'[data-choose-card="{card}"]')
    if action["kind"] == "build":
        pick(page, f'[data-slot="{action["location"]}:{action["slot"]}"] .focus-target')
        if page.locator(f'[data-industry="{action["industry"]}"]').count():
            pick(page, f'[data-industry="{action["industry"]}"]')
    elif action["kind"] == "network":
        # Escape takes a pick back: pick the link, go back, pick it again
        link = action["links"][0]
        pick(page, f'.link-markers [data-link="{link}"] .focus-target')
        expect(page.locator("[data-testid=picks]")).to_have_count(1)
        page.keyboard.press("Escape")
        expect(page.locator("[data-testid=picks]")).to_have_count(0)
        for link in action["links"]:
            pick(page, f'.link-markers [data-link="{link}"] .focus-target')
    elif action["kind"] == "sell":
        for sale in action["sales"]:
            pick(page, f'[data-slot="{sale["location"]}:{sale["slot"]}"] .focus-target')
            pick(page, f'[data-location="{sale["merchant"]}"] .focus-target')
            develop = page.locator(f'[data-sale-develop="{sale.get("develop") or ""}"]')
            if develop.count():
                pick(page, f'[data-sale-develop="{sale.get("develop") or ""}"]')
    pick(page, CONFIRM)


def test_keyboard_play_and_axe(browser: Browser, server: str, plan: tuple[int, list[Any]],
                               shots_dir: Path) -> None:
    home = open_page(browser, server + "/")
    expect(home.locator("[data-testid=create]")).to_be_visible()
    problems = axe_problems(home)
    assert not problems, "\n".join(problems)
    game_id, pages = start_two(browser, server, "Keyboard")
    # the lobby (a third visitor, before the game would start, is not possible: the game has
    # started) — a fresh game's lobby instead
    lobby = open_page(browser, server + "/")
    lobby.fill("input[name=game-name]", "Lobby")
    lobby.click("[data-testid=create]")
    expect(lobby.locator("[data-testid=lobby]")).to_be_visible()
    problems = axe_problems(lobby)
    assert not problems, "\n".join(problems)

    rng = random.Random(11)
    game = new_game(2, plan[0])
    by_keyboard: set[str] = set()
    checked_game = False
    for _ in range(120):
        if {"build", "network", "sell"} <= by_keyboard:
            break
        seat = game.current_seat
        assert seat is not None
        page = pages[seat]
        expect(page.locator("[data-testid=action-panel]")).to_be_visible(timeout=15000)
        if not checked_game:
            page.click("[data-kind=build]")
            problems = axe_problems(page)
            assert not problems, "\n".join(problems)
            page.click("[data-kind=build]")
            checked_game = True
        n = actions_done(page)
        chosen = choose_action(game, rng)
        game = apply_action(game, chosen)
        action = chosen.to_json()
        if action["kind"] in {"build", "network", "sell"} - by_keyboard:
            keyboard_action(page, action)
            by_keyboard.add(action["kind"])
            page.screenshot(path=str(shots_dir / f"keyboard-{action['kind']}.png"))
        else:
            click_action(page, action)
            page.click("[data-testid=confirm]")
        for p in pages.values():
            wait_actions(p, n + 1)
        assert get(server, f"/api/games/{game_id}/log")["actions"][-1]["action"] == action
    assert by_keyboard == {"build", "network", "sell"}, by_keyboard

    replay = open_page(browser, f"{server}/#/replay/{game_id}")
    expect(replay.locator("[data-testid=replay]")).to_be_visible()
    replay.click("[data-testid=step-forward]")
    expect(replay.locator("[data-testid=replay]")).to_have_attribute("data-frame", "1")
    problems = axe_problems(replay)
    assert not problems, "\n".join(problems)
    for p in (home, lobby, replay, *pages.values()):
        assert p.errors == [], p.errors  # type: ignore[attr-defined]
