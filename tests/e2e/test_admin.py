"""The admin page in chromium (issue 25): a player the server made an admin finds it in the account
menu (others do not, and the page refuses them); ending a game there is seen at once by a
browser watching it and by its seats, as an ended game (nothing says whose turn it is, also
after a reload), and a waiting game's lobby says the admin called it off, not its host; deleting
a chat line there takes it off a spectator's page; muting a seat there silences it until "Allow
to speak" lets it chat again (the host's mute boxes follow both); a banner set there shows on
another browser's page; the invite policy chosen there makes a code a new creator is asked for;
the backup and figures cards show what the server says. Screenshots at 1280×800 and 390×844."""

from __future__ import annotations

import re
import socket
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from brass.server import policy
from brass.server.playerstore import PlayerStore
from brass.server.storebase import StoreBase

from .test_browser import PHONE, get, open_page, start_two
from .test_play_chat import chat_seen, say


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


def assert_ended(page: Page) -> None:
    """The game page shows a game the admin ended as over: the reason in the top bar, and
    nothing that says whose turn it is or offers a move."""
    bar = page.locator("[data-testid=turnbar]")
    expect(bar.locator("[data-testid=turn-ended]")).to_have_text("Ended by the server's admin")
    expect(bar.locator(".to-move")).to_have_count(0)
    expect(page.locator("[data-testid=game]")).to_have_attribute("data-current", "")
    for gone in ("[data-testid=action-panel]", "[data-testid=waiting]", "[data-testid=undo]",
                 ".player.current", ".player .moving", "[data-testid=clocks]"):
        expect(page.locator(gone), gone).to_have_count(0)
    assert "turn" not in page.title().lower(), page.title()


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
    # its id beside its name: an imported copy of a game looks the same otherwise
    expect(row.locator("[data-testid=game-id]")).to_have_text(game_id)
    expect(row.locator("[data-testid=game-status]")).to_have_text("running")
    admin.screenshot(path=str(shots_dir / "admin-desktop.png"), full_page=True)
    # the figures (games running) and the chat are read again at once, not at their next poll
    with admin.expect_request(re.compile(r"/api/admin/figures"), timeout=5000), \
            admin.expect_request(re.compile(r"/api/admin/chat"), timeout=5000):
        row.locator("[data-testid=end-game]").click()
    expect(row.locator("[data-testid=game-status]")).to_have_text("cancelled")
    assert asked and "Ended by admin" in asked[0], asked
    for p in (watcher, *pages.values()):
        expect(p.locator("[data-testid=game-ended]")).to_be_visible()
        assert_ended(p)
    watcher.screenshot(path=str(shots_dir / "admin-ended-watcher.png"))
    expect(pages[0].locator("[data-testid=chat-send]")).to_have_count(0)
    for p in (watcher, pages[0]):  # a page opened after the end shows it ended too
        p.reload()
        expect(p.locator("[data-testid=game]")).to_be_visible()
        expect(p.locator("[data-testid=game-ended]")).to_be_visible()
        assert_ended(p)
    row.locator("[data-testid=delete-game]").click()
    expect(row).to_have_count(0)
    for p in (watcher, admin, *pages.values()):
        assert p.errors == [], p.errors  # type: ignore[attr-defined]


def test_an_admin_ends_a_waiting_game_its_lobby_names_the_admin(
        browser: Browser, server: str, server_db: str) -> None:
    host = open_page(browser, server + "/")
    host.fill("input[name=game-name]", "Waiting ended by admin")
    host.select_option("select[name=players]", "3")
    host.click("[data-testid=create]")
    expect(host.locator("[data-testid=lobby]")).to_be_visible()
    found = re.search(r"#/game/([^/?&]+)", host.url)
    assert found, host.url
    admin = make_admin(browser, server, server_db)
    accept_confirms(admin, [])
    admin.fill("[data-testid=filter-name]", "Waiting ended by admin")
    row = admin.locator(f"tr[data-game='{found.group(1)}']")
    expect(row.locator("[data-testid=game-status]")).to_have_text("waiting")
    row.locator("[data-testid=end-game]").click()
    expect(row.locator("[data-testid=game-status]")).to_have_text("cancelled")
    closed = host.locator("[data-testid=closed]")
    expect(closed).to_have_text("The server's admin called this game off.")
    expect(host.locator("[data-testid=cancel-game]")).to_have_count(0)
    for p in (host, admin):
        assert p.errors == [], p.errors  # type: ignore[attr-defined]


def test_an_admin_deletes_a_chat_line_and_sets_the_banner(
        browser: Browser, server: str, server_db: str, shots_dir: Path) -> None:
    game_id, pages = start_two(browser, server, "Moderated by admin")
    say(pages[1], "a rude line")
    say(pages[0], "a kind line")
    # both stored before the watcher opens: its page reads the history as its socket opens,
    # and a line stored between that read and the socket's hello reaches it by neither
    try:
        expect(pages[0].locator("[data-testid=chat-players] li[data-chat-id]")
               ).to_have_count(2)
    except AssertionError as exc:
        raise AssertionError(f"{exc}; seat 0 sees {chat_seen(pages[0])}; seat 1 sees "
                             f"{chat_seen(pages[1])}") from None
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
        # typed on two lines: the banner is one (the server refuses a new line); its address
        # is a link, the full stop after it is not, and a javascript: text stays text
        news = "https://example.org/news?a=1"
        shown = f"Back at 22:00 after an upgrade, see {news}. Not javascript:alert(1)"
        admin.fill("[data-testid=banner-text]",
                   f"Back at 22:00\n after an upgrade, see {news}. Not javascript:alert(1) ")
        admin.click("[data-testid=banner-save]")
        expect(admin.locator("[data-testid=site-banner]")).to_have_text(shown)
        link = admin.locator("[data-testid=site-banner] a")
        expect(link).to_have_count(1)
        expect(link).to_have_attribute("href", news)
        expect(link).to_have_text(news)
        expect(link).to_have_attribute("target", "_blank")
        expect(link).to_have_attribute("rel", "noopener noreferrer nofollow")
        admin.screenshot(path=str(shots_dir / "admin-phone.png"), full_page=True)
        other.reload()  # a page opened after the change: the server's copy is 2 s at most
        expect(other.locator("[data-testid=site-banner]")).to_have_text(shown, timeout=10000)
        expect(other.locator("[data-testid=site-banner] a")).to_have_attribute("href", news)
    finally:
        admin.click("[data-testid=banner-clear]")
        expect(admin.locator("[data-testid=site-banner]")).to_have_count(0)
    for p in (watcher, admin, other, *pages.values()):
        assert p.errors == [], p.errors  # type: ignore[attr-defined]


def test_an_admin_mutes_a_seat_then_lets_it_speak(browser: Browser, server: str,
                                                   server_db: str) -> None:
    game_id, pages = start_two(browser, server, "Muted by admin")
    seated = {s["name"]: s["seat"] for s in get(server, f"/api/games/{game_id}")["seats"]}
    bob, alice = pages[seated["Bob"]], pages[seated["Alice"]]
    say(bob, "a loud line")
    heard = alice.locator("[data-testid=chat-players] li[data-chat-id]")
    expect(heard).to_have_count(1)
    admin = make_admin(browser, server, server_db)
    asked: list[str] = []
    accept_confirms(admin, asked)
    loud = admin.locator("[data-testid=admin-chat] tr[data-line]", has_text="a loud line")
    loud.locator("[data-testid=mute-sender]").click()
    muted = admin.locator(f"[data-testid=admin-muted] li[data-muted-game='{game_id}']")
    expect(muted).to_contain_text("Muted by admin")
    expect(muted.locator("[data-muted-seat]")).to_have_count(1)
    expect(muted.locator("[data-muted-seat]")).to_contain_text("Bob")
    assert asked and "Bob" in asked[-1], asked
    # the host's mute box follows the admin's mute, without a reload, and the host cannot
    # lift it (the player muted often hosts the game): it says whose mute it is
    host_box = alice.locator(f"[data-testid=chat-mute-{seated['Bob']}]")
    expect(host_box).to_be_checked()
    expect(host_box).to_be_disabled()
    expect(alice.locator("[data-testid=chat-mutes]")).to_contain_text(
        "muted by the server's admin")

    say(bob, "am I heard?")  # refused: the page says so, nobody gets the line
    expect(bob.locator("[data-testid=chat-refused]")).to_contain_text("muted in this game's chat")
    expect(bob.locator("[data-testid=seat-lost]")).to_have_count(0)  # not a lost seat link
    say(alice, "only Alice speaks")
    expect(heard).to_have_count(2)
    expect(alice.locator("[data-testid=chat]")).not_to_contain_text("am I heard?")

    muted.locator("[data-testid=allow-speak]").click()
    expect(muted).to_have_count(0)
    expect(host_box).not_to_be_checked()
    expect(host_box).to_be_enabled()
    say(bob, "heard again")
    expect(heard).to_have_count(3)
    expect(heard.last).to_contain_text("heard again")
    for p in (alice, bob, admin):
        assert p.errors == [], p.errors  # type: ignore[attr-defined]


def test_an_admin_closes_creating_to_an_invite_code(browser: Browser, server: str,
                                                    server_db: str) -> None:
    admin = make_admin(browser, server, server_db)
    expect(admin.locator("[data-testid=admin-backup]")).to_contain_text("No backup folder")
    figures = admin.locator("[data-testid=admin-figures] dl > div")
    # the instance that counted them first (a reload behind a proxy may reach another one)
    expect(figures.first).to_contain_text(f"This instance{socket.gethostname()[:40]}:")
    expect(figures.nth(1)).to_contain_text("Games running")
    expect(figures).to_have_count(10)
    # every instance on the database, this one first and said to be this one
    rows = admin.locator("[data-testid=admin-instances] [data-testid=instance-row]")
    expect(rows.first).to_contain_text(f"{socket.gethostname()[:40]}:")
    expect(rows.first.locator("[data-testid=instance-heard]")).to_have_text("this one")
    try:
        admin.select_option("[data-testid=policy-select]", "invite")
        shown = admin.locator("[data-testid=invite-code] code")
        expect(shown).to_be_visible()
        code = shown.inner_text()
        assert len(code) >= 16, code
        creator = open_page(browser, server + "/")
        creator.fill("input[name=game-name]", "Invited by the admin")
        creator.click("[data-testid=create]")
        field = creator.locator("input[name=invite-code]")
        expect(field).to_be_visible(timeout=15000)  # refused: the code is asked for
        field.fill(code)
        creator.click("[data-testid=create]")
        expect(creator.locator("input[name=name]")).to_be_visible(timeout=15000)  # the lobby
        assert "#/game/" in creator.url
        admin.select_option("[data-testid=policy-select]", "anyone")
        expect(admin.locator("[data-testid=invite-code]")).to_have_count(0)
        base = StoreBase(server_db)
        try:
            assert policy.current(PlayerStore(base))[0] == "anyone"
        finally:
            base.close()
    finally:
        base = StoreBase(server_db)  # the session's server is shared: open again whatever came
        try:
            policy.set_policy(PlayerStore(base), "anyone")
        finally:
            base.close()
    for p in (admin, creator):
        assert p.errors == [], p.errors  # type: ignore[attr-defined]
