"""Turn clocks, resign and invitations in a real browser: a player who does not move in time
is played by a bot (the page says so), comes back with "I'm back" and plays on; a player
resigns and a bot plays their seat; an unlisted game's plain link offers no join, its invite
link does. The server's clock minimum is 1 s here (conftest); every wait is on a condition."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from .test_browser import actions_done, click_action, my_seat, open_page, wait_actions

LONG = 60_000  # ms: only stops a broken run from hanging


def token_of(page: Page, game_id: str) -> tuple[int, str]:
    my_seat(page, game_id)  # once the join's answer has stored it
    held = json.loads(page.evaluate("localStorage.getItem('brass.seats')"))[game_id]
    return int(held["seat"]), str(held["token"])


def api(base: str, path: str, token: str | None = None) -> Any:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    request = urllib.request.Request(base + path, headers=headers)
    return json.loads(urllib.request.urlopen(request, timeout=10).read())


def create(page: Page, name: str, clock: str | None = None, per_turn_hours: str = "",
           handoff_days: str = "") -> str:
    """Create a 2-player game from the home page, join it as `name`; its id (the form asks a
    correspondence turn in hours, an idle seat's hand-over in days)."""
    page.fill("input[name=game-name]", name)
    page.select_option("select[name=players]", "2")
    if clock:
        page.select_option("select[name=clock]", clock)
        page.fill("input[name=per-turn]", per_turn_hours)
    if handoff_days:
        page.fill("input[name=handoff-after]", handoff_days)
    page.click("[data-testid=create]")
    expect(page.locator("[data-testid=lobby]")).to_be_visible()
    page.fill("input[name=name]", name)
    page.click("[data-testid=join]")
    expect(page.locator("[data-testid=seats]")).to_contain_text(name)
    return page.input_value("#invite").split("#/game/", 1)[1].split("/")[0]


def play_loan(page: Page, base: str, game_id: str) -> None:
    """Play the seat's first legal loan by clicking, and wait for it to be logged."""
    _, token = token_of(page, game_id)
    loan = next(e["action"] for e in api(base, f"/api/games/{game_id}/legal", token)
                if e["action"]["kind"] == "loan")
    n = actions_done(page)
    click_action(page, loan)
    page.click("[data-testid=confirm]")
    wait_actions(page, n + 1)


def test_out_of_time_a_bot_plays_then_the_player_takes_over(
        browser: Browser, server: str, shots_dir: Path) -> None:
    alice = open_page(browser, server + "/")
    game_id = create(alice, "Alice", "correspondence", "0.0033334")  # 12 s a turn
    expect(alice.locator("[data-testid=clock-setting]")).to_contain_text("0:12 per turn")
    # joining needs the invite: the game's plain link offers no join
    stranger = open_page(browser, f"{server}/#/game/{game_id}")
    expect(stranger.locator("[data-testid=needs-invite]")).to_be_visible()
    expect(stranger.locator("[data-testid=join]")).to_have_count(0)
    stranger.context.close()
    bob = open_page(browser, alice.input_value("#invite"))
    bob.fill("input[name=name]", "Bob")
    bob.click("[data-testid=join]")
    for p in (alice, bob):
        expect(p.locator("[data-testid=game]")).to_be_visible()
        expect(p.locator("[data-testid=clocks]")).to_be_visible()
    current = int(alice.get_attribute("[data-testid=game]", "data-current") or "-1")
    pages = {token_of(p, game_id)[0]: p for p in (alice, bob)}
    sleeper, awake = pages[current], pages[1 - current]
    expect(awake.locator(f"[data-testid=clock-{current}] .time")).to_be_visible()

    # the sleeper's time runs out: a bot plays for them, and every page says so
    for p in (sleeper, awake):
        expect(p.locator(f"[data-testid=stand-in-{current}]")).to_contain_text(
            "ran out of time", timeout=LONG)
    wait_actions(awake, 1)
    entries = api(server, f"/api/games/{game_id}/log")["actions"]
    assert entries[0]["seat"] == current and entries[0]["stand_in"] == "timeout"
    expect(awake.locator("[data-testid=log] li[data-n='1']")).to_contain_text(
        "a bot played for them: out of time")
    sleeper.screenshot(path=str(shots_dir / "clock-timed-out.png"))

    # they come back and take over; the awake player moves; then the sleeper plays themself
    sleeper.click("[data-testid=take-over]")
    for p in (sleeper, awake):
        expect(p.locator(f"[data-testid=stand-in-{current}]")).to_have_count(0)
    expect(sleeper.locator("[data-testid=resign]")).to_be_visible()
    for _ in range(4):  # round 2's order is by spending: the awake player may move twice
        play_loan(awake, server, game_id)
        if awake.get_attribute("[data-testid=game]", "data-current") == str(current):
            break
    expect(sleeper.locator("[data-testid=game]")).to_have_attribute("data-current", str(current))
    play_loan(sleeper, server, game_id)
    entries = api(server, f"/api/games/{game_id}/log")["actions"]
    assert entries[-1]["seat"] == current and entries[-1]["stand_in"] is None
    changes = api(server, f"/api/games/{game_id}/log")["seat_changes"]
    assert [c["change"] for c in changes] == ["timeout", "returned"]
    for p in (alice, bob):
        assert not p.errors  # type: ignore[attr-defined]
        p.context.close()


def test_a_player_resigns_and_a_bot_plays_their_seat(
        browser: Browser, server: str, shots_dir: Path) -> None:
    alice = open_page(browser, server + "/")
    game_id = create(alice, "Quitter")
    alice.click("[data-testid=add-bot]")
    expect(alice.locator("[data-testid=game]")).to_be_visible()
    seat, _ = token_of(alice, game_id)
    alice.once("dialog", lambda d: d.accept())
    alice.locator("[data-testid=resign]").scroll_into_view_if_needed()  # the side column scrolled
    alice.click("[data-testid=resign]")
    expect(alice.locator(f"[data-testid=stand-in-{seat}]")).to_contain_text("resigned")
    expect(alice.locator("[data-testid=resign]")).to_have_count(0)
    expect(alice.locator("[data-testid=take-over]")).to_have_count(0)
    # said where the actions are too, with no way back from a resignation
    expect(alice.locator("[data-testid=stand-in-notice]")).to_contain_text("resigned")
    expect(alice.locator("[data-testid=take-over-notice]")).to_have_count(0)
    # the bot plays Alice's seat now: the game goes on without her
    alice.wait_for_function(
        "() => Number(document.querySelector('[data-testid=game]')?.dataset.actions) >= 4",
        timeout=LONG)
    entries = api(server, f"/api/games/{game_id}/log")["actions"]
    assert any(e["seat"] == seat and e["stand_in"] == "resigned" for e in entries)
    alice.screenshot(path=str(shots_dir / "clock-resigned.png"))
    # the bots play it to its end: the result comes into view by itself (the side column was
    # scrolled down to Resign), the page's header with it
    expect(alice.locator("[data-testid=game-result]")).to_be_in_viewport(timeout=3 * LONG)
    expect(alice.locator("[data-testid=winner]")).to_be_in_viewport()
    expect(alice.locator("[data-testid=game-result]")).to_be_focused()
    expect(alice.locator("[data-testid=turnbar]")).to_be_in_viewport()
    expect(alice.locator("[data-testid=stand-in-notice]")).to_have_count(0)
    alice.screenshot(path=str(shots_dir / "clock-resigned-end.png"))
    assert not alice.errors  # type: ignore[attr-defined]
    alice.context.close()


def test_an_idle_seat_is_handed_to_a_bot_and_taken_back(
        browser: Browser, server: str, shots_dir: Path) -> None:
    alice = open_page(browser, server + "/")
    game_id = create(alice, "Idle", handoff_days="0.0000139")  # no clock; idle 1.2 s: to a bot
    bob = open_page(browser, alice.input_value("#invite"))
    bob.fill("input[name=name]", "Bob")
    bob.click("[data-testid=join]")
    for p in (alice, bob):
        expect(p.locator("[data-testid=game]")).to_be_visible()
    current = int(alice.get_attribute("[data-testid=game]", "data-current") or "-1")
    pages = {token_of(p, game_id)[0]: p for p in (alice, bob)}
    idle, other = pages[current], pages[1 - current]
    expect(idle.locator(f"[data-testid=hand-over-{current}]")).to_have_count(0)  # not oneself
    other.click(f"[data-testid=hand-over-{current}]", timeout=LONG)  # shown once idle enough
    for p in (idle, other):
        expect(p.locator(f"[data-testid=stand-in-{current}]")).to_contain_text("was away")
    wait_actions(other, 1)  # the bot moved for the idle seat
    entries = api(server, f"/api/games/{game_id}/log")["actions"]
    assert entries[0]["seat"] == current and entries[0]["stand_in"] == "handover"
    # the idle player reads it where the actions are, and takes the seat back from there
    notice = idle.locator("[data-testid=stand-in-notice]")
    expect(notice).to_contain_text("A bot plays this seat for you now")
    expect(notice).to_contain_text("was away")
    expect(notice).to_be_in_viewport()
    expect(other.locator("[data-testid=stand-in-notice]")).to_have_count(0)  # not the others'
    idle.screenshot(path=str(shots_dir / "clock-stand-in-notice.png"))
    idle.click("[data-testid=take-over-notice]")
    expect(notice).to_have_count(0)
    for p in (idle, other):
        expect(p.locator(f"[data-testid=stand-in-{current}]")).to_have_count(0)
    other.screenshot(path=str(shots_dir / "clock-handed-back.png"))
    changes = api(server, f"/api/games/{game_id}/log")["seat_changes"]
    assert [c["change"] for c in changes] == ["handover", "returned"]
    for p in (alice, bob):
        assert not p.errors  # type: ignore[attr-defined]
        p.context.close()



def test_a_clock_out_of_range_is_refused_in_the_forms_words(
        browser: Browser, server: str) -> None:
    """The server's range is in seconds and its field names; the page says it as the picker
    does: the field's label, and the range as durations (the server's minimum is 1 s here)."""
    page = open_page(browser, server + "/")
    page.select_option("select[name=clock]", "correspondence")
    page.fill("input[name=per-turn]", "0")
    page.click("[data-testid=create]")
    expect(page.get_by_test_id("home").locator(".message.bad")).to_have_text(
        "Per turn (hours): from 0:01 to 30 d 0 h")
    expect(page.get_by_test_id("lobby")).to_have_count(0)
    page.context.close()
