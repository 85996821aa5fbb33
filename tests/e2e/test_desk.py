"""The desk in a real browser (issue 24): the first visit makes a guest; a seat this browser
kept from before players is claimed on that first load; a game joined on the page is on the
desk too, their turn first. The same player on a second browser (its device cookie, as a
sign-in would give it; no seat links there) sees the same desk, opens the game from it and
plays a move without the seat link. Where the host asks for the server's invite code, the
create form asks for it once refused."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

from playwright.sync_api import Browser, expect

from brass.server import policy
from brass.server.playerstore import PlayerStore
from brass.server.storebase import StoreBase

from .test_browser import actions_done, click_action, my_seat, wait_actions
from .test_seat_links import get, post


def test_the_desk_follows_the_player_to_another_browser(browser: Browser, server: str) -> None:
    # a game joined before players (no cookie), against a bot: its seat link kept here
    old = post(server, "/api/games", {"players": 2, "name": "Old game", "listed": True})
    joined = post(server, f"/api/games/{old['id']}/join",
                  {"name": "Alice", "invite": old["invite"]})
    post(server, f"/api/games/{old['id']}/bots", {}, old["host_token"])
    stored = {old["id"]: {"seat": joined["seat"], "token": joined["token"], "name": "Alice"}}
    laptop_ctx = browser.new_context()
    laptop_ctx.add_init_script(
        f"if (!localStorage.getItem('brass.seats')) localStorage.setItem('brass.seats', "
        f"{json.dumps(json.dumps(stored))});")
    laptop = laptop_ctx.new_page()
    errors: list[str] = []
    laptop.on("pageerror", lambda e: errors.append(str(e)))
    laptop.goto(server + "/")
    desk = laptop.locator("[data-testid=my-games]")
    expect(desk.locator(f"[data-game='{old['id']}']")).to_be_visible(timeout=15000)

    # a game joined on the page: the seat is the player's from the start
    waiting = post(server, "/api/games", {"players": 2, "name": "New game"})
    laptop.goto(f"{server}/#/game/{waiting['id']}/invite/{waiting['invite']}")
    laptop.fill("input[name=name]", "Alice")
    laptop.click("[data-testid=join]")
    expect(laptop.locator("[data-testid=seats]")).to_contain_text("Alice")
    laptop.goto(server + "/")
    waits = desk.locator(f"[data-section=waiting][data-game='{waiting['id']}']")
    expect(waits).to_be_visible(timeout=15000)
    expect(waits.locator("[data-testid=free-seats]")).to_have_text(" · 1 seat free")
    expect(waits).not_to_contain_text("…")  # the free seat was once listed as a nameless player
    expect(desk.locator(f"[data-game='{old['id']}']")).to_contain_text("with Bot 2")
    # the bot moved first or not: once it is Alice's turn, the old game is first, marked
    turn = desk.locator(f"[data-section=turn][data-game='{old['id']}']")
    expect(turn).to_be_visible(timeout=20000)
    expect(turn.locator("[data-testid=my-turn]")).to_be_visible()

    # the same player on a phone: its device cookie (what signing in gives), no seat links
    cookies = [c for c in laptop_ctx.cookies() if c["name"] == "brass_device"]
    assert cookies and cookies[0]["httpOnly"], cookies
    phone_ctx = browser.new_context()
    phone_ctx.add_cookies(cookies)  # type: ignore[arg-type]
    phone = phone_ctx.new_page()
    phone.on("pageerror", lambda e: errors.append(str(e)))
    phone.goto(server + "/")
    phone_desk = phone.locator("[data-testid=my-games]")
    expect(phone_desk.locator(f"[data-game='{waiting['id']}']")).to_be_visible(timeout=15000)
    # the listing offers to play the player's own game here too, not to spectate it
    listed = phone.locator(f"[data-testid=games] tr[data-game='{old['id']}']")
    expect(listed.locator(".actions a").first).to_have_text("Play")
    phone_desk.locator(f"[data-game='{old['id']}'] a").click()
    expect(phone.locator("[data-testid=hand]")).to_be_visible(timeout=15000)
    expect(phone.locator("[data-testid=spectating]")).to_have_count(0)
    assert phone.evaluate("localStorage.getItem('brass.seats')") in (None, "{}")
    expect(phone.locator("[data-testid=game]")).to_have_attribute(
        "data-current", str(joined["seat"]), timeout=15000)
    n = actions_done(phone)
    legal = json.loads(urllib.request.urlopen(urllib.request.Request(
        f"{server}/api/games/{old['id']}/legal",
        headers={"authorization": f"Bearer {joined['token']}"}), timeout=10).read())
    loan = next((e["action"] for e in legal if e["action"]["kind"] == "loan"),
                legal[0]["action"])
    click_action(phone, loan)
    phone.click("[data-testid=confirm]")
    wait_actions(phone, n + 1)
    expect(laptop.locator("[data-testid=my-games]")).to_be_visible()
    assert not errors, errors
    laptop_ctx.close()
    phone_ctx.close()


def test_a_game_is_created_with_the_servers_invite_code(browser: Browser, server: str,
                                                        server_db: str) -> None:
    base = StoreBase(server_db)
    try:
        code = policy.set_policy(PlayerStore(base), "invite")
        assert code
        page = browser.new_context().new_page()
        page.goto(server + "/")
        page.fill("input[name=game-name]", "Invited")
        page.click("[data-testid=create]")
        code_field = page.locator("input[name=invite-code]")
        expect(code_field).to_be_visible(timeout=15000)  # refused: the code is asked for
        code_field.fill(code)
        page.click("[data-testid=create]")
        expect(page.locator("input[name=name]")).to_be_visible(timeout=15000)  # the lobby
        assert "#/game/" in page.url
        page.context.close()
    finally:
        policy.set_policy(PlayerStore(base), "anyone")  # the session's server is shared
        base.close()


def _minutes(text: str) -> int:
    """'2 h 59 min left' as minutes."""
    found = re.search(r"(\d+) h (\d+) min", text)
    assert found, text
    return int(found[1]) * 60 + int(found[2])


def test_the_time_left_counts_down_across_polls(browser: Browser, server: str) -> None:
    """The desk's time left counts down from when its answer came, also through the polls
    that find the desk unchanged (a 304): the browser's cache once gave back the first answer
    each time, and the client counted from then again, so the time stood still. The page's
    clock is Playwright's, moved on by an hour."""
    ctx = browser.new_context()
    page = ctx.new_page()
    page.clock.install()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    created = post(server, "/api/games", {"players": 2, "name": "Three hours a turn",
                                          "clock": {"kind": "correspondence",
                                                    "per_turn": 3 * 3600}})
    page.goto(f"{server}/#/game/{created['id']}/invite/{created['invite']}")
    page.fill("input[name=name]", "Alice")
    page.click("[data-testid=join]")
    expect(page.locator("[data-testid=seats]")).to_contain_text("Alice")
    post(server, f"/api/games/{created['id']}/bots", {}, created["host_token"])
    page.goto(server + "/")
    entry = page.locator(f"[data-testid=my-games] [data-section=turn][data-game='{created['id']}']")
    page.clock.run_for(5000)  # a poll or two, until the bot (if first) has moved
    expect(entry).to_be_visible(timeout=20000)
    with page.expect_response(re.compile(r"/api/desk")):
        page.clock.run_for(5000)  # the poll after the turn came: the answer counted from
    left = entry.locator("[data-testid=time-left]")
    before = _minutes(left.inner_text())
    assert 170 <= before <= 180, before

    with page.expect_response(re.compile(r"/api/desk")) as polled:
        page.clock.fast_forward("01:00:00")  # an hour on: the due poll runs
    page.clock.run_for(2000)  # the page's second ticks show what the poll left
    expect(left).to_contain_text(re.compile(r"^ · 1 h \d+ min"))
    assert before - 62 <= _minutes(left.inner_text()) <= before - 58, left.inner_text()
    assert polled.value.status == 304, polled.value.status  # unchanged, counted from before
    assert not errors, errors
    ctx.close()


def test_the_desk_names_whose_time_it_shows(browser: Browser, server: str) -> None:
    """On another player's turn the time left is theirs: the desk says whose ("Bob to move:
    … left"), where it once read as the player's own."""
    ctx = browser.new_context()
    page = ctx.new_page()
    created = post(server, "/api/games", {"players": 2, "name": "Whose clock",
                                          "clock": {"kind": "correspondence",
                                                    "per_turn": 3 * 3600}})
    game = created["id"]
    page.goto(f"{server}/#/game/{game}/invite/{created['invite']}")
    page.fill("input[name=name]", "Alice")
    page.click("[data-testid=join]")
    expect(page.locator("[data-testid=seats]")).to_contain_text("Alice")
    bob = post(server, f"/api/games/{game}/join", {"name": "Bob", "invite": created["invite"]})
    state = get(server, f"/api/games/{game}/state", bob["token"])
    if state["view"]["current_seat"] != bob["seat"]:  # Alice first: her one action, then Bob
        alice = 1 - bob["seat"]
        my_seat(page, game)  # once the join's answer has stored it
        token = json.loads(page.evaluate("localStorage.getItem('brass.seats')"))[game]["token"]
        move = get(server, f"/api/games/{game}/legal", token)[0]["action"]
        post(server, f"/api/games/{game}/actions", {
            "action": move, "expected_version": state["version"],
            "action_id": f"desk-{alice}"}, token)
    page.goto(server + "/")
    entry = page.locator(f"[data-testid=my-games] [data-section=running][data-game='{game}']")
    expect(entry.locator("[data-testid=time-left]")).to_have_text(
        re.compile(r"^ · Bob to move: 2 h \d+ min left"), timeout=15000)
    ctx.close()


def test_the_lists_of_games_say_each_games_clock(browser: Browser, server: str,
                                                  shots_dir: Path) -> None:
    """How fast a game is, in the lobby's words for its clock (without an untimed game's
    hand-over): on the home page's list of games, and on the desk's entries and the games it
    hosts."""
    live = post(server, "/api/games", {"players": 2, "name": "Quick game", "listed": True,
                                       "clock": {"kind": "live", "reserve": 600,
                                                 "increment": 30}})
    daily = post(server, "/api/games", {"players": 2, "name": "Daily game", "listed": True,
                                        "clock": {"kind": "correspondence",
                                                  "per_turn": 86_400}})
    plain = post(server, "/api/games", {"players": 2, "name": "Plain game", "listed": True,
                                        "clock": {"kind": "none", "handoff_after": 86_400}})
    page = browser.new_context().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/#/game/{live['id']}/invite/{live['invite']}")
    page.fill("input[name=name]", "Alice")
    page.click("[data-testid=join]")
    expect(page.locator("[data-testid=seats]")).to_contain_text("Alice")
    # a game this browser's player hosts without a seat: the desk's "hosting"
    hosted = page.evaluate("""() => fetch('/api/games', {method: 'POST',
        headers: {'content-type': 'application/json'}, body: JSON.stringify({players: 2,
        name: 'Hosted game', clock: {kind: 'correspondence', per_turn: 7200}})})
        .then((r) => r.json())""")
    page.goto(server + "/")

    rows = page.locator("[data-testid=games]")
    for game, words in ((live, "live, 10:00 each + 0:30 a turn"),
                        (daily, "1 d 0 h per turn"), (plain, "none")):
        expect(rows.locator(f"tr[data-game='{game['id']}'] [data-testid=clock]")).to_have_text(
            words, timeout=15000)
    expect(rows.locator("th").nth(3)).to_have_text("Turn clock")
    desk = page.locator("[data-testid=my-games]")
    expect(desk.locator(f"[data-game='{live['id']}'] [data-testid=clock]")).to_have_text(
        " · Clock: live, 10:00 each + 0:30 a turn", timeout=15000)
    expect(desk.locator(f"[data-testid=desk-hosting] [data-game='{hosted['id']}'] "
                        "[data-testid=clock]")).to_have_text(" · Clock: 2 h 0 min per turn")
    page.screenshot(path=str(shots_dir / "lists-clocks.png"), full_page=True)
    assert not errors, errors
    page.context.close()
