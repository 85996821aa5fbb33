"""Seat links in a real browser: a player takes their seat back from another browser (a new
context: no shared storage) with their seat link and plays on; renewing the link turns the
other browser into a spectator, which says so in words (also after a reload, whose hello the
server refuses) and offers to watch; the home page's "my games" lists the seat."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from .test_browser import PHONE, actions_done, click_action, open_page, wait_actions


def post(base: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                     headers=headers, method="POST")
    return json.loads(urllib.request.urlopen(request, timeout=10).read())


def get(base: str, path: str, token: str) -> Any:
    request = urllib.request.Request(base + path, headers={"authorization": f"Bearer {token}"})
    return json.loads(urllib.request.urlopen(request, timeout=10).read())


def test_a_seat_link_takes_the_seat_back_in_another_browser(
        browser: Browser, server: str, shots_dir: Path) -> None:
    created = post(server, "/api/games", {"players": 2, "name": "Seat link game"})
    game = created["id"]
    joined = post(server, f"/api/games/{game}/join", {"name": "Alice", "invite": created["invite"]})
    post(server, f"/api/games/{game}/bots", {}, created["host_token"])
    link = f"{server}/#/game/{game}/seat/{joined['token']}"

    phone = open_page(browser, link)  # a new browser: nothing in its storage
    expect(phone.locator("[data-testid=game]")).to_be_visible(timeout=15000)
    expect(phone.locator("[data-testid=hand]")).to_be_visible()
    expect(phone.locator("[data-testid=spectating]")).to_have_count(0)
    assert joined["token"] not in phone.url  # the secret left the address bar
    stored = json.loads(phone.evaluate("localStorage.getItem('brass.seats')"))
    assert stored[game]["seat"] == joined["seat"]

    # play on: the bot moves at once, so it is soon this seat's turn
    expect(phone.locator("[data-testid=game]")).to_have_attribute(
        "data-current", str(joined["seat"]), timeout=15000)
    n = actions_done(phone)
    entries = get(server, f"/api/games/{game}/legal", joined["token"])
    loan = next((e["action"] for e in entries if e["action"]["kind"] == "loan"),
                entries[0]["action"])
    click_action(phone, loan)
    phone.click("[data-testid=confirm]")
    wait_actions(phone, n + 1)
    phone.screenshot(path=str(shots_dir / "seat-link.png"))

    # the first browser holds the same seat; renewing on the phone makes it a spectator
    desk = open_page(browser, link)
    expect(desk.locator("[data-testid=hand]")).to_be_visible(timeout=15000)
    phone.once("dialog", lambda d: d.accept())
    phone.click("[data-testid=share-menu]")  # the header's "Share and links" menu
    phone.click("[data-testid=renew-seat-link]")
    shown = phone.locator("[data-testid=seat-link]")
    expect(shown).not_to_have_value(link)  # the renewed link is shown...
    expect(shown).to_have_value(re.compile(f"/#/game/{game}/seat/"))
    renewed = phone.evaluate(f"JSON.parse(localStorage.getItem('brass.seats'))['{game}'].token")
    assert renewed != joined["token"] and shown.input_value().endswith(renewed)  # ...and kept
    expect(desk.locator("[data-testid=spectating]")).to_be_visible(timeout=15000)
    expect(desk.locator("[data-testid=seat-lost]")).to_contain_text("link was renewed")
    # the lost seat's link is no longer offered (nor is the menu: it held nothing else)
    expect(desk.locator("[data-testid=copy-seat-link]")).to_have_count(0)
    desk.reload()  # the stored token is refused at hello: said in words, not "Connecting…"
    expect(desk.locator("[data-testid=seat-lost]")).to_contain_text("link was renewed")
    desk.click("[data-testid=watch]")
    expect(desk.locator("[data-testid=spectating]")).to_be_visible(timeout=15000)
    expect(desk.locator("[data-testid=seat-lost]")).to_have_count(0)
    expect(phone.locator("[data-testid=hand]")).to_be_visible(timeout=15000)
    expect(phone.locator("[data-testid=spectating]")).to_have_count(0)

    phone.goto(f"{server}/#/")
    expect(phone.locator(f"[data-testid=my-games] [data-game='{game}']")).to_be_visible()
    for page in (phone, desk):
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_the_share_menu_closes_as_a_menu_does(browser: Browser, server: str) -> None:
    """Open over the table, the "Share and links" menu closes on a press outside it and on
    Escape (which then does not also step the table's choice back); a press inside it, as on
    "Copy my seat link", leaves it open."""
    created = post(server, "/api/games", {"players": 2, "name": "Share menu game"})
    game = created["id"]
    joined = post(server, f"/api/games/{game}/join", {"name": "Alice", "invite": created["invite"]})
    post(server, f"/api/games/{game}/bots", {}, created["host_token"])
    page = open_page(browser, f"{server}/#/game/{game}/seat/{joined['token']}")
    expect(page.locator("[data-testid=game]")).to_have_attribute(
        "data-current", str(joined["seat"]), timeout=15000)
    menu = page.locator("[data-testid=seat-links]")

    page.click("[data-testid=share-menu]")
    expect(menu).to_have_attribute("open", "")
    page.click("[data-testid=copy-seat-link]")  # inside: stays open, the link shown
    expect(page.locator("[data-testid=seat-link]")).to_be_visible()
    expect(menu).to_have_attribute("open", "")
    page.click("[data-testid=hand]")  # outside
    expect(menu).not_to_have_attribute("open", "")

    page.click("[data-kind=loan]")  # a choice begun, which Escape would step back
    expect(page.locator("[data-kind=loan].selected")).to_be_visible()
    page.click("[data-testid=share-menu]")
    expect(menu).to_have_attribute("open", "")
    page.keyboard.press("Escape")
    expect(menu).not_to_have_attribute("open", "")
    expect(page.locator("[data-testid=share-menu]")).to_be_focused()
    expect(page.locator("[data-kind=loan].selected")).to_be_visible()  # the choice stands
    page.keyboard.press("Escape")  # the menu closed: Escape is the table's again
    expect(page.locator("[data-kind=loan].selected")).to_have_count(0)
    assert not page.errors  # type: ignore[attr-defined]


def test_the_share_menu_stays_on_the_screen(browser: Browser, server: str) -> None:
    """The menu opens towards the middle of the page: from the lobby's button (top left) and
    from a phone's wrapped header it ran off the screen's left edge, its labels cut."""
    def on_screen(page: Any) -> None:
        page.click("[data-testid=share-menu]")
        items = page.locator(".share-items")
        expect(items).to_be_visible()
        box = items.bounding_box()
        width = page.evaluate("document.documentElement.clientWidth")
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, \
            (box, width)

    created = post(server, "/api/games", {"players": 2, "name": "Share menu places"})
    game = created["id"]
    joined = post(server, f"/api/games/{game}/join", {"name": "Alice", "invite": created["invite"]})
    lobby = open_page(browser, f"{server}/#/game/{game}/host/{created['host_token']}")
    expect(lobby.locator("[data-testid=share-menu]")).to_be_visible(timeout=15000)
    on_screen(lobby)
    post(server, f"/api/games/{game}/bots", {}, created["host_token"])
    phone = open_page(browser, f"{server}/#/game/{game}/seat/{joined['token']}", PHONE)
    expect(phone.locator("[data-testid=game]")).to_be_visible(timeout=15000)
    on_screen(phone)
    for page in (lobby, phone):
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()


CATALOGUES = Path(__file__).resolve().parents[2] / "web" / "src" / "i18n"


def wait_my_turn_after(page: Page, n: int, seat: int) -> None:
    """Until more than `n` actions are done and it is `seat`'s turn again, its choice reset."""
    page.wait_for_function(
        """([n, seat]) => {
             const g = document.querySelector('[data-testid=game]');
             return g && Number(g.dataset.actions) > n && g.dataset.current === String(seat)
               && document.querySelector('[data-kind]')
               && !document.querySelector('[data-kind].selected');
           }""", arg=[n, seat], timeout=15000)


def test_a_choice_cleared_by_a_move_on_another_device_is_said(
        browser: Browser, server: str, shots_dir: Path) -> None:
    """One seat open in two browsers: a Build half made on the laptop is cleared when the phone
    moves, and the laptop says so in a live region until its next click or until dismissed;
    the laptop's own move, and the phone's, say nothing."""
    en = json.loads((CATALOGUES / "en.json").read_text())
    created = post(server, "/api/games", {"players": 2, "name": "Two devices"})
    game = created["id"]
    joined = post(server, f"/api/games/{game}/join", {"name": "Alice", "invite": created["invite"]})
    post(server, f"/api/games/{game}/bots", {}, created["host_token"])
    seat, token = joined["seat"], joined["token"]
    link = f"{server}/#/game/{game}/seat/{token}"
    laptop, phone = open_page(browser, link), open_page(browser, link)
    for page in (laptop, phone):
        expect(page.locator("[data-testid=game]")).to_have_attribute(
            "data-current", str(seat), timeout=15000)
    notice = laptop.locator("[data-testid=choice-dropped] [role=status]")

    # the laptop starts a Build (kind, card, slot, industry), not confirmed
    entries = get(server, f"/api/games/{game}/legal", token)
    build = next(e["action"] for e in entries if e["action"]["kind"] == "build")
    click_action(laptop, build)
    expect(laptop.locator("[data-kind=build].selected")).to_have_count(1)
    expect(notice).to_have_count(0)

    def phone_moves() -> int:
        """The phone takes a loan (or its first listed move); the actions done before."""
        n = actions_done(phone)
        entries = get(server, f"/api/games/{game}/legal", token)
        loan = next((e["action"] for e in entries if e["action"]["kind"] == "loan"),
                    entries[0]["action"])
        click_action(phone, loan)
        phone.click("[data-testid=confirm]")
        return n

    # the phone moves: the laptop's Build is gone, and it says why until its next click
    n = phone_moves()
    expect(notice).to_have_text(en["game.choice_dropped"], timeout=15000)
    wait_my_turn_after(laptop, n, seat)  # the bot's move too, if it was its turn
    expect(laptop.locator("[data-testid=picks] li")).to_have_count(0)
    expect(notice).to_have_text(en["game.choice_dropped"])  # still said: nothing done here since
    laptop.screenshot(path=str(shots_dir / "choice-dropped.png"))
    expect(phone.locator("[data-testid=choice-dropped]")).to_have_count(0)  # it moved itself
    laptop.click("[data-kind=loan]")
    expect(laptop.locator("[data-testid=choice-dropped]")).to_have_count(0)

    # the phone moves again, the laptop's Loan half made: said again, until dismissed
    n = phone_moves()
    expect(notice).to_have_text(en["game.choice_dropped"], timeout=15000)
    wait_my_turn_after(laptop, n, seat)
    laptop.click("[data-testid=choice-dropped-close]")
    expect(laptop.locator("[data-testid=choice-dropped]")).to_have_count(0)

    # the laptop's own move, chosen and confirmed there: nothing to say, on either device
    n = actions_done(laptop)
    entries = get(server, f"/api/games/{game}/legal", token)
    loan = next((e["action"] for e in entries if e["action"]["kind"] == "loan"),
                entries[0]["action"])
    click_action(laptop, loan)
    laptop.click("[data-testid=confirm]")
    wait_my_turn_after(laptop, n, seat)
    wait_my_turn_after(phone, n, seat)
    expect(laptop.locator("[data-testid=choice-dropped]")).to_have_count(0)
    expect(phone.locator("[data-testid=choice-dropped]")).to_have_count(0)
    for page in (laptop, phone):
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        page.context.close()
