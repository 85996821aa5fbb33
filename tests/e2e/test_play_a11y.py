"""Keyboard and screen readers: axe-core (web/node_modules/axe-core, injected into the page)
finds no serious or critical violation on the home, lobby, game and replay screens, nor with
each dialog or menu of the game open (the rules, "Share and links", a details card); a build, a
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


def offered(page: Page, wanted: str, otherwise: str) -> bool:
    """Wait until the page offers `wanted` or `otherwise` (it renders after the key press);
    whether it offers `wanted`."""
    expect(page.locator(f"{wanted}, {otherwise}").first).to_be_attached()
    return page.locator(wanted).count() > 0


def keyboard_action(page: Page, action: dict[str, Any]) -> None:
    """Make `action` with the keyboard alone, on the board's targets."""
    expect(page.locator(f"[data-kind={action['kind']}]")).to_be_enabled()
    page.locator("body").focus()  # Tab starts from the top of the page
    pick(page, f"[data-kind={action['kind']}]")
    kind = action["kind"]
    if kind == "build":
        targets = [f'[data-slot="{action["location"]}:{action["slot"]}"] .focus-target']
    elif kind == "network":
        targets = [f'.link-markers [data-link="{link}"] .focus-target' for link in action["links"]]
    else:
        targets = [f'[data-slot="{s["location"]}:{s["slot"]}"] .focus-target'
                   for s in action["sales"]]
    card = action.get("card")
    if card and offered(page, f'[data-choose-card="{card}"]', targets[0]):
        pick(page, f'[data-choose-card="{card}"]')
        # the card's button gave way to the chosen card: the focus stays in the panel (on
        # the next step), not back at the top of the page
        expect(page.locator("[data-testid=action-panel] :focus")).to_have_count(1)
    if kind == "build":
        pick(page, targets[0])
        industry = f'[data-industry="{action["industry"]}"]'
        if offered(page, industry, CONFIRM):
            pick(page, industry)
    elif kind == "network":
        # Escape takes a pick back: pick the link, go back, pick it again
        pick(page, targets[0])
        expect(page.locator("[data-testid=picks]")).to_have_count(1)
        page.keyboard.press("Escape")
        expect(page.locator("[data-testid=picks]")).to_have_count(0)
        for target in targets:
            pick(page, target)
    else:
        for i, sale in enumerate(action["sales"]):
            pick(page, targets[i])
            pick(page, f'[data-location="{sale["merchant"]}"] .focus-target')
            develop = f'[data-sale-develop="{sale.get("develop") or ""}"]'
            after = targets[i + 1] if i + 1 < len(targets) else CONFIRM
            if offered(page, develop, after):
                pick(page, develop)
    pick(page, CONFIRM)


def check_dialogs(page: Page) -> None:
    """axe-core with each of the game's dialogs and menus open, one at a time."""
    page.click("[data-testid=help]")
    expect(page.locator("[data-testid=rules]")).to_contain_text("Loan: take")
    problems = axe_problems(page)
    assert not problems, "rules: " + "\n".join(problems)
    page.click("[aria-label='Close the rules']")
    expect(page.locator("[data-testid=rules]")).to_have_count(0)
    # a modal dialog: Tab and Shift+Tab stay in it, Escape closes it and focus goes back
    page.click("[data-testid=help]")
    close = page.locator("[aria-label='Close the rules']")
    expect(close).to_be_focused()
    for key in ("Shift+Tab", "Shift+Tab", "Tab", "Tab", "Tab"):
        page.keyboard.press(key)
        focused = page.evaluate("document.activeElement.closest('[data-testid=rules]') !== null")
        assert focused, f"{key} took the focus out of the rules dialog"
    page.keyboard.press("Escape")
    expect(page.locator("[data-testid=rules]")).to_have_count(0)
    expect(page.locator("[data-testid=help]")).to_be_focused()
    page.click("[data-testid=share-menu]")
    expect(page.locator("[data-testid=copy-seat-link]")).to_be_visible()
    problems = axe_problems(page)
    assert not problems, "share menu: " + "\n".join(problems)
    page.click("[data-testid=share-menu]")
    page.locator("[data-slot='birmingham:0']").click()  # not a target: its details card
    expect(page.locator(".details-card")).to_be_visible()
    problems = axe_problems(page)
    assert not problems, "details card: " + "\n".join(problems)
    page.click(".details-card .close")
    page.hover("[data-testid=hand]")  # off the board: no card follows the mouse either
    expect(page.locator(".details-card")).to_have_count(0)


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
            check_dialogs(page)
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
