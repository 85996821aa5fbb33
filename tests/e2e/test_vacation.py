"""Taking a vacation from the desk in a real browser (issue 27, docs/REACH.md): a player with
a game on the desk opens "Vacation", books three days, sees them listed and the year's days
left go down, is refused a booking longer than what is left (in words), and cancels it. A
spectator of a correspondence game whose mover is away sees the clock paused, "on vacation
until …", the time left frozen."""

from __future__ import annotations

import datetime as dt

import httpx
from playwright.sync_api import Browser, expect
from sqlalchemy import create_engine, delete, insert

from brass.server.tables import vacations
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


def test_a_mover_on_vacation_is_shown_paused_to_a_spectator(browser: Browser, server: str,
                                                            server_db: str) -> None:
    made = post(server, "/api/games", {"players": 2, "name": "Paused game", "clock": {
        "kind": "correspondence", "per_turn": 3600}})
    ids = []
    for name in ("Ada", "Bo"):  # two players (device cookies): their seats have player ids
        with httpx.Client(base_url=server, timeout=30, headers={"Origin": server}) as who:
            assert who.post("/api/session").status_code == 201
            joined = who.post(f"/api/games/{made['id']}/join",
                              json={"name": name, "invite": made["invite"]})
            assert joined.status_code == 201, joined.text
            ids.append(who.get("/api/me").json()["id"])
    # both away for an hour from now (the API books whole days from tomorrow; the table
    # holds times)
    now = dt.datetime.now(dt.UTC)
    engine = create_engine(server_db)
    try:
        with engine.begin() as conn:
            conn.execute(insert(vacations), [
                {"player_id": p, "starts_at": now, "ends_at": now + dt.timedelta(hours=1),
                 "created_at": now} for p in ids])
        page = browser.new_page()
        page.goto(f"{server}/#/game/{made['id']}")
        mover = page.locator("[data-testid=game]").get_attribute("data-current", timeout=15000)
        shown = page.locator(f"[data-testid=on-vacation-{mover}]")
        expect(shown).to_contain_text("on vacation until", timeout=15000)
        # the time left stands still at what was left when the vacation began (under an
        # hour: it began a moment after the turn); running, it would show the vacation's
        # hour on top of it
        pause = httpx.get(f"{server}/api/games/{made['id']}/pause", timeout=30).json()
        left = int(pause["deadline"] - pause["away_until"])
        assert 3000 < left <= 3600, pause
        expect(page.locator(f"[data-testid=clock-{mover}] .time")).to_have_text(
            f"{left // 60}:{left % 60:02d}")
        page.close()
    finally:
        with engine.begin() as conn:
            conn.execute(delete(vacations).where(vacations.c.player_id.in_(ids)))
        engine.dispose()
