"""The host picks each bot's level in the lobby of a real browser (medium unless changed: a
newcomer's first bot should play); the seat list shows it."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from .test_browser import open_page


def test_the_host_adds_bots_at_chosen_levels(browser: Browser, server: str,
                                             shots_dir: Path) -> None:
    host = open_page(browser, server + "/")
    host.fill("input[name=game-name]", "Bot levels")
    host.select_option("select[name=players]", "3")
    host.click("[data-testid=create]")
    expect(host.locator("[data-testid=lobby]")).to_be_visible()
    expect(host.locator("[data-testid=bot-level]")).to_have_value("medium")
    host.click("[data-testid=add-bot]")  # the level as it comes
    expect(host.locator("[data-testid=bot-level-0]")).to_have_text(" medium")
    host.select_option("[data-testid=bot-level]", "hard")
    host.click("[data-testid=add-bot]")
    expect(host.locator("[data-testid=bot-level-1]")).to_have_text(" hard")
    expect(host.locator("[data-testid=seats]")).to_contain_text("(bot)")
    host.screenshot(path=str(shots_dir / "lobby-bot-levels.png"))
    guest = open_page(browser, host.input_value("#invite"))  # what every visitor sees
    expect(guest.locator("[data-testid=bot-level-0]")).to_have_text(" medium")
    expect(guest.locator("[data-testid=bot-level-1]")).to_have_text(" hard")
    for page in (host, guest):
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()
