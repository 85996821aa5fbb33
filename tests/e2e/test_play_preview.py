"""The whole effect before Confirm: two players click the engine bot's moves; before each
Confirm the preview's money total must be the money the move then costs (its log entry's
received − paid, and the mover's money on screen when no round ended with it)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from brass.bots import choose_action
from brass.engine import apply_action, new_game

from .test_browser import actions_done, click_action, get, start_two, wait_actions


def shown_money(page: Page, seat: int) -> int:
    text = page.locator(f"[data-testid=player-{seat}] [data-testid=money]").inner_text()
    m = re.fullmatch(r"(-?)£(\d+)", text.strip())
    assert m, text
    return -int(m.group(2)) if m.group(1) else int(m.group(2))


def test_the_preview_total_is_what_the_move_costs(browser: Browser, server: str,
                                                  plan: tuple[int, list[Any]],
                                                  shots_dir: Path) -> None:
    game_id, pages = start_two(browser, server, "Preview")
    rng = random.Random(7)
    game = new_game(2, plan[0])
    kinds: set[str] = set()
    shot = set()
    for _ in range(24):
        seat = game.current_seat
        assert seat is not None
        page = pages[seat]
        expect(page.locator("[data-testid=action-panel]")).to_be_visible(timeout=15000)
        n = actions_done(page)
        chosen = choose_action(game, rng)
        game = apply_action(game, chosen)
        action = chosen.to_json()
        click_action(page, action)
        total = page.locator("[data-testid=preview-total]")
        expect(total).to_be_visible()
        amount = int(total.get_attribute("data-amount") or "x")
        if action["kind"] not in shot:
            shot.add(action["kind"])
            page.locator("[data-testid=action-panel]").screenshot(
                path=str(shots_dir / f"preview-{action['kind']}.png"))
        before = shown_money(page, seat)
        page.click("[data-testid=confirm]")
        for p in pages.values():
            wait_actions(p, n + 1)
        entry = get(server, f"/api/games/{game_id}/log")["actions"][-1]
        move = entry["effects"][0]
        assert entry["action"] == action
        assert amount == move["received"] - move["paid"], (action, move)
        if not any(e["type"] == "round_end" for e in entry["effects"]):
            assert shown_money(page, seat) == before + amount
        kinds.add(action["kind"])
    assert {"build", "network"} <= kinds, kinds
    for p in pages.values():
        assert p.errors == [], p.errors  # type: ignore[attr-defined]
