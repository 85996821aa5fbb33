"""The end screen in two browsers (two contexts: nothing shared): a finished game shows the
rating change of a player with an account, linked to their profile page; one player offers a
rematch, the other sees the offer and accepts, and each browser goes to the new game seated
in it (its new seat link stored as any other)."""

from __future__ import annotations

import json
import secrets
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import Browser, expect
from sqlalchemy import create_engine, insert, update

from brass.server.records import now
from brass.server.tables import players, seats

from .test_browser import open_page
from .test_seat_links import post


def test_rematch_across_two_browsers(browser: Browser, server: str, server_db: str,
                                     shots_dir: Path) -> None:
    created = post(server, "/api/games", {"players": 3, "name": "Rematch game", "clock": {
        "kind": "correspondence", "per_turn": 86400}})
    game = created["id"]
    alice = post(server, f"/api/games/{game}/join", {"name": "Alice", "invite": created["invite"]})
    bob = post(server, f"/api/games/{game}/join", {"name": "Bob", "invite": created["invite"]})
    post(server, f"/api/games/{game}/bots", {"level": "easy"}, created["host_token"])
    # Alice has an account and a listed profile (the players' store writes it: a fixture here)
    engine = create_engine(server_db)
    player = secrets.token_hex(16)
    with engine.begin() as conn:
        conn.execute(insert(players).values(id=player, name="Alice", role="player",
                                            email=f"{player}@example.org", listed=True,
                                            email_verified_at=now(),
                                            created_at=now()))
        conn.execute(update(seats).where(seats.c.game_id == game,
                                         seats.c.seat == alice["seat"]).values(player_id=player))
    engine.dispose()
    for who in (alice, bob):
        post(server, f"/api/games/{game}/resign", {}, who["token"])
    seen = ""
    deadline = time.monotonic() + 240
    while seen != "finished":
        assert time.monotonic() < deadline, f"the game did not end: last status {seen}"
        seen = json.loads(urllib.request.urlopen(f"{server}/api/games/{game}",
                                                 timeout=10).read())["status"]
        time.sleep(0.1)

    a = open_page(browser, f"{server}/#/game/{game}/seat/{alice['token']}")
    b = open_page(browser, f"{server}/#/game/{game}/seat/{bob['token']}")
    expect(a.locator("[data-testid=rematch-offer]")).to_be_visible(timeout=15000)
    expect(b.locator("[data-testid=rematch-offer]")).to_be_visible(timeout=15000)
    expect(a.locator(f"[data-testid=rating-{alice['seat']}]")).to_be_visible()
    # the final scores say who resigned (the ratings rank them last), beside their name
    expect(a.locator("[data-testid=summary] [data-testid=summary-resigned]")).to_have_count(2)
    a.select_option("[data-testid=rematch-empty]", "bot")
    a.click("[data-testid=rematch-offer]")
    expect(a.locator("[data-testid=rematch-offered]")).to_be_visible()
    expect(b.locator("[data-testid=rematch-accept]")).to_be_visible(timeout=15000)
    b.click("[data-testid=rematch-accept]")
    for page in (a, b):
        expect(page.locator("[data-testid=rematch-go]")).to_be_visible(timeout=15000)
    b.screenshot(path=str(shots_dir / "rematch.png"))
    new = b.get_attribute("[data-testid=rematch-go]", "href")
    assert new and new.startswith("#/game/") and game not in new, new
    for page in (a, b):
        page.click("[data-testid=rematch-go]")
        expect(page.locator("[data-testid=game]")).to_be_visible(timeout=15000)
        expect(page.locator("[data-testid=spectating]")).to_have_count(0)
        assert page.url.endswith(new), page.url
    assert not a.errors and not b.errors, (a.errors, b.errors)  # type: ignore[attr-defined]

    # Alice's profile, from the finished game's rating change
    a.goto(f"{server}/#/game/{game}")
    link = a.locator(f"[data-testid=rating-{alice['seat']}] a")
    expect(link).to_be_visible(timeout=15000)
    link.click()
    expect(a.locator("[data-testid=profile]")).to_be_visible(timeout=15000)
    expect(a.locator("[data-testid=profile-rating]")).to_contain_text(".")
    a.screenshot(path=str(shots_dir / "profile.png"))
