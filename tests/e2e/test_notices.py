"""Notices in a real browser (issue 27, docs/REACH.md): the player waiting for another person
sees "Nudge" (the server says it is allowed), nudges once and is then told they did; the
player to move has no button; the desk's switches set the player's notice kinds."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, BrowserContext, expect

from .test_pwa import catalogue
from .test_seat_links import get, post


def player(browser: Browser, server: str) -> BrowserContext:
    """A browser context whose device cookie is a player's."""
    ctx = browser.new_context()
    made = ctx.request.post(server + "/api/session", headers={"Origin": server})
    assert made.status == 201, made.text()
    return ctx


def join(ctx: BrowserContext, server: str, game: dict[str, Any], name: str) -> dict[str, Any]:
    joined = ctx.request.post(f"{server}/api/games/{game['id']}/join", headers={
        "Origin": server}, data={"name": name, "invite": game["invite"]})
    assert joined.status == 201, joined.text()
    found: dict[str, Any] = joined.json()
    return found


def test_the_waiting_player_nudges_once_and_sets_the_switches(browser: Browser,
                                                               server: str) -> None:
    game = post(server, "/api/games", {"players": 2, "name": "Nudge game"})
    contexts = [player(browser, server), player(browser, server)]
    seats = [join(ctx, server, game, name) for ctx, name in zip(
        contexts, ("Ann", "Ben"), strict=True)]
    mover = get(server, f"/api/games/{game['id']}/state", seats[0]["token"])["view"][
        "current_seat"]
    waiter = next(i for i, s in enumerate(seats) if s["seat"] != mover)
    errors: list[str] = []
    pages = []
    for ctx in contexts:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server}/#/game/{game['id']}")
        pages.append(page)
    waiting, moving = pages[waiter], pages[1 - waiter]
    expect(waiting.locator("[data-testid=waiting]")).to_be_visible(timeout=15000)
    nudge = waiting.locator("[data-testid=nudge]")
    expect(nudge).to_be_visible(timeout=15000)
    nudge.click()
    expect(waiting.locator("[data-testid=nudged]")).to_be_visible(timeout=15000)
    expect(nudge).to_have_count(0)
    again = contexts[waiter].request.post(f"{server}/api/games/{game['id']}/nudge",
                                          headers={"Origin": server})
    assert again.status == 429 and again.json()["code"] == "nudge_too_soon", again.text()
    expect(moving.locator("[data-testid=hand]")).to_be_visible(timeout=15000)
    expect(moving.locator("[data-testid=nudge]")).to_have_count(0)

    # the desk's switches: "chat" is off by default; turned on, the server keeps it
    moving.goto(server + "/")
    switches = moving.locator("[data-testid=notice-switches]")
    expect(switches).to_be_visible(timeout=15000)
    switches.locator("summary").click()
    chat = switches.locator("input[data-kind=chat]")
    expect(chat).not_to_be_checked()
    chat.click()
    expect(chat).to_be_checked()
    expect(chat).to_be_enabled()  # the PUT answered
    kept = contexts[1 - waiter].request.get(server + "/api/me/notices").json()
    assert kept["chat"] is True and kept["turn"] is True, kept
    assert not errors, errors
    for ctx in contexts:
        ctx.close()


def test_notify_me_says_why_it_cannot_turn_on(browser: Browser, server: str) -> None:
    """Where the browser blocks the site's notifications, "Notify me" unchecked itself without a
    word, and every later click did nothing: now each click says they are blocked in the
    browser's settings (in the page's language); where subscribing fails otherwise (this
    chromium has no push service), it says the browser's reason."""
    blocked = catalogue("en")["desk.notify_blocked"]
    failed = catalogue("en")["desk.notify_failed"].split("{")[0]
    errors: list[str] = []
    for allowed in (False, True):
        ctx = player(browser, server)  # a fresh context: no notifications permission
        if allowed:
            ctx.grant_permissions(["notifications"], origin=server)
        game = post(server, "/api/games", {"players": 2, "name": "Notify game"})
        join(ctx, server, game, "Ann")
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server + "/")
        notify = page.locator("[data-testid=desk-notify] input")
        said = page.locator("[data-testid=notify-said]")
        for _ in range(2):  # the second click too
            notify.click()
            expect(notify).to_be_enabled(timeout=15000)
            expect(said).to_be_visible(timeout=15000)
            expect(notify).not_to_be_checked()
            if allowed:
                expect(said).to_contain_text(failed)
            else:
                expect(said).to_have_text(blocked)
        if not allowed:
            assert page.evaluate("Notification.permission") == "denied"
            page.select_option("[data-testid=language]", "pl")
            expect(said).to_have_text(catalogue("pl")["desk.notify_blocked"])
        assert not errors, errors
        ctx.close()


def test_a_player_with_no_game_finds_the_notifications_on_the_account_page(
        browser: Browser, server: str) -> None:
    """The notifications' switches lived on the desk alone, which a player with no game yet
    does not have: the account page has them too, saying they are not the e-mails'."""
    ctx = player(browser, server)
    try:
        page = ctx.new_page()
        page.goto(server + "/#/account")
        panel = page.locator("[data-testid=push-notices]")
        expect(panel.locator("[data-testid=desk-notify]")).to_contain_text(
            catalogue("en")["desk.notify"], timeout=15000)
        switches = panel.locator("[data-testid=notice-switches]")
        switches.locator("summary").click()
        # the e-mails' switches are on this very page: it says so, not "on your account page"
        expect(switches).to_contain_text("e-mails have their own switches further down this page")
        expect(switches.locator("input[data-kind]")).to_have_count(8)
        expect(page.locator("[data-testid=my-games]")).to_have_count(0)
    finally:
        ctx.close()
