"""Players who share one screen (the host allowed it at creation): the lobby takes a seat for
each of them from one browser, and once the game runs the page plays the seat to move. Before
it shows another player's hand it asks for the screen to be passed, and shows no hand until
that player takes it. (The join form went once the first seat was taken, so a second player
could not sit down at that screen.)"""

from __future__ import annotations

import json

from playwright.sync_api import Browser, Page, expect

from .test_browser import actions_done, click_action, open_page
from .test_seat_links import get


def held_tokens(page: Page, game_id: str) -> dict[int, str]:
    """The seats this browser holds, first and shared, with their tokens (once the second
    join's answer has stored its seat: the game's start may be heard first)."""
    page.wait_for_function(
        "id => JSON.parse(localStorage.getItem(`brass.shared.${id}`) || '[]').length", arg=game_id,
        timeout=15000)
    first = json.loads(page.evaluate("localStorage.getItem('brass.seats')"))[game_id]
    others = json.loads(page.evaluate(f"localStorage.getItem('brass.shared.{game_id}')") or "[]")
    return {s["seat"]: s["token"] for s in [first, *others]}


def test_two_players_take_their_turns_at_one_screen(browser: Browser, server: str) -> None:
    page = open_page(browser, server + "/")
    page.fill("input[name=game-name]", "Hot seat")
    page.select_option("select[name=players]", "2")
    page.check("input[name=shared-screen]")
    page.click("[data-testid=create]")
    page.fill("input[name=name]", "Alice")
    page.click("[data-testid=join]")
    expect(page.locator("[data-testid=seats]")).to_contain_text("Alice")
    # the form stays for the next player at this screen, empty for their name
    expect(page.locator("input[name=name]")).to_have_value("")
    page.fill("input[name=name]", "Bob")
    page.click("[data-testid=join]")  # the last seat: the game starts
    expect(page.locator("[data-testid=pass-screen], [data-testid=game]").first).to_be_visible(
        timeout=15000)
    game_id = page.url.split("#/game/", 1)[1].split("/")[0]
    held = held_tokens(page, game_id)
    assert sorted(held) == [0, 1], held
    names = {s["seat"]: s["name"] for s in get(server, f"/api/games/{game_id}", held[0])["seats"]}
    passing = page.locator("[data-testid=pass-screen]")
    movers: list[int] = []
    for turn in range(2):  # the canal era's first round: one action each
        expect(page.locator("[data-testid=pass-screen], [data-testid=action-panel]").first
               ).to_be_visible(timeout=15000)
        if passing.count():
            to = int(passing.get_attribute("data-seat") or "-1")
            expect(passing).to_contain_text(f"Pass the screen to {names[to]}")
            expect(page.locator("[data-testid=hand]")).to_have_count(0)  # nobody's cards
            page.click("[data-testid=take-screen]")
        expect(page.locator("[data-testid=action-panel]")).to_be_visible(timeout=15000)
        mover = int(page.get_attribute("[data-testid=game]", "data-current") or "-1")
        movers.append(mover)
        legal = get(server, f"/api/games/{game_id}/legal", held[mover])
        loan = next(e["action"] for e in legal if e["action"]["kind"] == "loan")
        n = actions_done(page)
        click_action(page, loan)
        page.click("[data-testid=confirm]")
        if turn == 0:  # the turn passes to the other player at this screen
            expect(passing).to_have_attribute("data-seat", str(1 - mover), timeout=15000)
        else:  # the next round: this page again, or the screen passed on
            after = f"[data-testid=pass-screen], [data-testid=game][data-actions='{n + 1}']"
            expect(page.locator(after).first).to_be_visible(timeout=15000)
    assert sorted(movers) == [0, 1], movers  # each played their own seat, in turn
    assert get(server, f"/api/games/{game_id}", held[0])["version"] == 2
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
