"""The host controls the lobby in a real browser: removes a player (whose page says so in words
and offers to join again) and calls the game off."""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Browser, expect

from .test_browser import open_page


def test_the_host_removes_a_player_then_cancels(browser: Browser, server: str,
                                                shots_dir: Path) -> None:
    host = open_page(browser, server + "/")
    host.fill("input[name=game-name]", "Lobby control")
    host.select_option("select[name=players]", "3")
    host.click("[data-testid=create]")
    expect(host.locator("[data-testid=lobby]")).to_be_visible()
    invite = host.input_value("#invite")

    guest = open_page(browser, invite)
    expect(guest.locator("[data-testid=join]")).to_be_visible()
    # a player who chose a display name finds it in the join form (the page makes its
    # player, POST /api/session, as it opens: /api/me answers once it has)
    deadline = time.monotonic() + 30
    while (seen := guest.evaluate("fetch('/api/me').then((r) => r.status)")) != 200:
        assert time.monotonic() < deadline, f"the page has no player: /api/me said {seen}"
        guest.wait_for_timeout(100)
    named = guest.evaluate("""fetch('/api/me', {method: 'PATCH', headers: {'content-type':
        'application/json'}, body: JSON.stringify({name: 'Mallory'})}).then((r) => r.status)""")
    assert named == 200, named
    guest.reload()
    expect(guest.locator("input[name=name]")).to_have_value("Mallory")
    guest.click("[data-testid=join]")
    expect(host.locator("[data-testid=seats]")).to_contain_text("Mallory")
    expect(guest.locator("[data-testid=seats]")).to_contain_text("you")

    asked: list[str] = []

    def answer(dialog: object) -> None:
        asked.append(dialog.message)  # type: ignore[attr-defined]
        dialog.accept()  # type: ignore[attr-defined]
    host.once("dialog", answer)
    host.click("[data-testid=remove-0]")  # a person: asked first, by name
    expect(host.locator("[data-testid=seats]")).not_to_contain_text("Mallory")
    assert len(asked) == 1 and "Remove Mallory from this game?" in asked[0], asked
    expect(host.locator("[data-testid=seats]")).not_to_contain_text("Mallory")
    expect(guest.locator("[data-testid=join]")).to_be_visible()  # no longer seated
    expect(guest.locator("[data-testid=seat-lost]")).to_contain_text("The host removed you")
    host.screenshot(path=str(shots_dir / "lobby-removed.png"))

    host.once("dialog", lambda d: d.accept())
    host.click("[data-testid=cancel-game]")
    expect(host.locator("[data-testid=closed]")).to_contain_text("called this game off")
    expect(guest.locator("[data-testid=closed]")).to_be_visible()
    expect(guest.locator("[data-testid=join]")).to_have_count(0)
    # called off: still told they were removed (not that a link was renewed), and no invite
    # link is offered on a game nobody can join
    expect(guest.locator("[data-testid=seat-lost]")).to_contain_text("The host removed you")
    for page in (host, guest):
        expect(page.locator("[data-testid=copy-invite]")).to_have_count(0)
    for page in (host, guest):
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_a_renewed_invite_link_says_so_before_a_name_is_typed(browser: Browser,
                                                               server: str) -> None:
    """The host makes a new invite link: the old one's lobby offers no join form and says
    why, where it used to refuse only once a name was typed and Join pressed."""
    host = open_page(browser, server + "/")
    host.fill("input[name=game-name]", "Renewed invite")
    host.click("[data-testid=create]")
    expect(host.locator("[data-testid=lobby]")).to_be_visible()
    # the form's first choice: no clock, and an absent player's seat may go to a bot after
    # three days, so the game cannot stall for good
    expect(host.locator("[data-testid=clock-setting]")).to_have_text(
        "Clock: none (an idle seat may go to a bot after 3 d 0 h)")
    old = host.input_value("#invite")
    host.once("dialog", lambda d: d.accept())
    host.click("[data-testid=renew-invite]")
    expect(host.locator("#invite")).not_to_have_value(old)
    new = host.input_value("#invite")

    late = open_page(browser, old)
    expect(late.locator("[data-testid=needs-invite]")).to_contain_text("no longer valid")
    expect(late.locator("[data-testid=join]")).to_have_count(0)
    expect(late.locator("[data-testid=copy-invite]")).to_have_count(0)
    fresh = open_page(browser, new)
    expect(fresh.locator("[data-testid=join]")).to_be_visible()
    for page in (host, late, fresh):
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()
