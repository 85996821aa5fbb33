"""The replay of a finished game offers its analysis; once the bot has judged every move it
shows the judgement of the move on screen, the win-chance chart and the biggest mistakes."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
from playwright.sync_api import Browser, expect

from .test_browser import open_page


def test_the_replay_shows_the_analysis(browser: Browser, server: str, shots_dir: Path) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        created = http.post("/api/games", json={"players": 2, "name": "Analysed"}).json()
        game = created["id"]
        for _ in range(2):
            http.post(f"/api/games/{game}/bots",
                      headers={"Authorization": f"Bearer {created['host_token']}"})
        for _ in range(600):  # the bots play it out (bot delay 0): bounded wait
            if http.get(f"/api/games/{game}").json()["status"] == "finished":
                break
            time.sleep(0.2)
    page = open_page(browser, f"{server}/#/replay/{game}")
    page.click("[data-testid=analyse]")
    expect(page.locator("[data-testid=win-chart]")).to_be_visible(timeout=240_000)
    expect(page.locator("[data-testid=win-chart] polyline")).to_have_count(2)
    page.click("[data-testid=step-forward]")
    expect(page.locator("[data-testid=analysis-move]")).to_contain_text("Move 1")
    page.screenshot(path=str(shots_dir / "replay-analysis.png"))
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
