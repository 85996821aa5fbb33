"""The admin page in chromium (issue 25): a player the server made an admin finds it in the
account menu (others do not, and the page refuses them); ending a game there is seen at once by
a browser watching it; deleting a chat line there takes it off a spectator's page; a banner set
there shows on another browser's page. Screenshots at 1280×800 and 390×844."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from brass.server.playerstore import PlayerStore
from brass.server.storebase import StoreBase

from .test_browser import PHONE, open_page, start_two
from .test_play_chat import say


def make_admin(browser: Browser, server: str, server_db: str,
               viewport: dict[str, int] | None = None) -> Page:
    """A browser whose player is made an admin (as `brass admin grant` does), on the admin
    page reached from the account menu."""
    page = open_page(browser, server + "/", **({"viewport": viewport} if viewport else {}))
    expect(page.locator("[data-testid=account-bar]")).to_be_visible()
    # the page makes its player (POST /api/session) as it opens: /api/me answers once it has
    seen: list[Any] = []
    deadline = time.monotonic() + 30
    while not seen or "id" not in seen[-1]:
        assert time.monotonic() < deadline, f"the page has no player: /api/me said {seen[-3:]}"
        if seen:
            page.wait_for_timeout(100)
        seen.append(page.evaluate("fetch('/api/me').then((r) => r.json())"))
    me = seen[-1]
    base = StoreBase(server_db)
    try:
        PlayerStore(base).set_role(me["id"], "admin")
    finally:
        base.close()
    page.reload()
    page.click("[data-testid=admin-link]")
    expect(page.locator("[data-testid=admin-page]")).to_be_visible()
    return page


def accept_confirms(page: Page, asked: list[str]) -> None:
    def answer(dialog: object) -> None:
        asked.append(dialog.message)  # type: ignore[attr-defined]
        dialog.accept()  # type: ignore[attr-defined]
    page.on("dialog", answer)


def test_only_admins_see_it(browser: Browser, server: str) -> None:
    guest = open_page(browser, server + "/")
    expect(guest.locator("[data-testid=account-link]")).to_be_visible()
    expect(guest.locator("[data-testid=admin-link]")).to_have_count(0)
    guest.goto(server + "/#/admin")
    expect(guest.locator("[data-testid=admin-refused]")).to_be_visible()
    expect(guest.locator("[data-testid=admin-page]")).to_have_count(0)
    assert guest.errors == [], guest.errors  # type: ignore[attr-defined]


def test_an_admin_ends_a_game_a_watcher_sees_it(browser: Browser, server: str,
                                                server_db: str, shots_dir: Path) -> None:
    game_id, pages = start_two(browser, server, "Ended by admin")
    watcher = open_page(browser, f"{server}/#/game/{game_id}")
    expect(watcher.locator("[data-testid=spectating]")).to_be_visible()
    admin = make_admin(browser, server, server_db)
    asked: list[str] = []
    accept_confirms(admin, asked)
    admin.fill("[data-testid=filter-name]", "Ended by admin")
    row = admin.locator(f"tr[data-game='{game_id}']")
    expect(row.locator("[data-testid=game-status]")).to_have_text("running")
    admin.screenshot(path=str(shots_dir / "admin-desktop.png"), full_page=True)
    row.locator("[data-testid=end-game]").click()
    expect(row.locator("[data-testid=game-status]")).to_have_text("cancelled")
    assert asked and "Ended by admin" in asked[0], asked
    for p in (watcher, *pages.values()):
        expect(p.locator("[data-testid=game-ended]")).to_be_visible()
    watcher.screenshot(path=str(shots_dir / "admin-ended-watcher.png"))
    expect(pages[0].locator("[data-testid=chat-send]")).to_have_count(0)
    row.locator("[data-testid=delete-game]").click()
    expect(row).to_have_count(0)
    for p in (watcher, admin, *pages.values()):
        assert p.errors == [], p.errors  # type: ignore[attr-defined]


def test_an_admin_deletes_a_chat_line_and_sets_the_banner(
        browser: Browser, server: str, server_db: str, shots_dir: Path) -> None:
    game_id, pages = start_two(browser, server, "Moderated by admin")
    say(pages[1], "a rude line")
    say(pages[0], "a kind line")
    watcher = open_page(browser, f"{server}/#/game/{game_id}")
    lines = watcher.locator("[data-testid=chat-players] li[data-chat-id]")
    expect(lines).to_have_count(2)
    admin = make_admin(browser, server, server_db, viewport=PHONE)
    asked: list[str] = []
    accept_confirms(admin, asked)
    rude = admin.locator("[data-testid=admin-chat] tr[data-line]", has_text="a rude line")
    expect(rude).to_have_count(1)
    rude.locator("[data-testid=delete-line]").click()
    expect(rude).to_have_count(0)
    expect(lines).to_have_count(1)
    expect(lines).to_contain_text("a kind line")
    expect(watcher.locator("[data-testid=chat]")).not_to_contain_text("a rude line")

    other = open_page(browser, server + "/")
    expect(other.locator("[data-testid=account-bar]")).to_be_visible()
    expect(other.locator("[data-testid=site-banner]")).to_have_count(0)
    try:
        admin.fill("[data-testid=banner-text]", "Back at 22:00 after an upgrade")
        admin.click("[data-testid=banner-save]")
        expect(admin.locator("[data-testid=site-banner]")).to_have_text(
            "Back at 22:00 after an upgrade")
        admin.screenshot(path=str(shots_dir / "admin-phone.png"), full_page=True)
        other.reload()  # a page opened after the change: the server's copy is 2 s at most
        expect(other.locator("[data-testid=site-banner]")).to_have_text(
            "Back at 22:00 after an upgrade", timeout=10000)
    finally:
        admin.click("[data-testid=banner-clear]")
        expect(admin.locator("[data-testid=site-banner]")).to_have_count(0)
    for p in (watcher, admin, other, *pages.values()):
        assert p.errors == [], p.errors  # type: ignore[attr-defined]
