"""Taking a vacation from the desk in a real browser (issue 27, docs/REACH.md): a player with
a game on the desk opens "Vacation", books three days, sees them listed and the year's days
left go down, is refused a booking longer than what is left (in words), and cancels it."""

from __future__ import annotations

import datetime as dt

from playwright.sync_api import Browser, expect

from brass.server.vacations import days_in

from .test_seat_links import post


def test_a_player_books_and_cancels_a_vacation_from_the_desk(browser: Browser,
                                                             server: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    waiting = post(server, "/api/games", {"players": 2, "name": "Away game"})
    page.goto(f"{server}/#/game/{waiting['id']}/invite/{waiting['invite']}")
    page.fill("input[name=name]", "Vera")
    page.click("[data-testid=join]")
    expect(page.locator("[data-testid=seats]")).to_contain_text("Vera", timeout=15000)
    page.goto(server + "/")
    panel = page.locator("[data-testid=vacation]")
    expect(panel).to_be_visible(timeout=15000)
    panel.locator("summary").click()
    start = dt.datetime.now(dt.UTC).date() + dt.timedelta(days=2)
    page.fill("input[name=vacation-start]", start.isoformat())
    page.fill("input[name=vacation-days]", "3")
    page.click("[data-testid=vacation-take]")
    entries = panel.locator("[data-testid=vacation-list] li")
    expect(entries).to_have_count(1, timeout=15000)
    expect(entries.first).to_contain_text("3 days")
    left = 14 - days_in(start, 3, start.year)
    expect(panel.locator("[data-testid=vacation-left]")).to_contain_text(
        f"Days left in {start.year}: {left}")
    # more than the year has left: refused, in words, nothing booked
    page.fill("input[name=vacation-start]", (start + dt.timedelta(days=5)).isoformat())
    page.fill("input[name=vacation-days]", "30")
    page.click("[data-testid=vacation-take]")
    expect(panel.locator("[data-testid=vacation-error]")).to_contain_text("vacation days left")
    expect(entries).to_have_count(1)
    panel.locator("[data-testid^=vacation-cancel-]").click()
    expect(entries).to_have_count(0, timeout=15000)
    expect(panel.locator("[data-testid=vacation-left]")).to_contain_text(
        f"Days left in {start.year}: 14")
    assert not errors, errors
    context.close()
