"""The service worker shows a Web Push notice (issue 27, web/src/sw.ts), in a real chromium: a
push delivered through the DevTools protocol (`ServiceWorker.deliverPushMessage`, as a push
service would deliver it) becomes a notification (`registration.getNotifications()`) titled
with the game's name, saying the words the page left in the player's language, tagged per
game so that a newer notice replaces it; and a click on a notice shows its game in a window of
the app (the page's answer to the worker, not `Client.url`, says what a window shows)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from .test_pwa import catalogue, controlled_page
from .test_seat_links import post

NOTIFICATIONS = """async () => {
    const r = await navigator.serviceWorker.getRegistration();
    return (await r.getNotifications()).map((n) => ({title: n.title, body: n.body, tag: n.tag,
                                                     data: n.data}));
}"""
LEAVE_WORDS = """async (words) => {
    const cache = await caches.open("brass-push");
    await cache.put("/push-words.json", new Response(JSON.stringify(words)));
}"""


def shown_now(page: Page) -> list[dict[str, Any]]:
    shown: list[dict[str, Any]] = page.evaluate(NOTIFICATIONS)
    return shown


@pytest.fixture
def context(browser: Browser, server: str) -> Iterator[BrowserContext]:
    ctx = browser.new_context(locale="en-GB")
    ctx.grant_permissions(["notifications"], origin=server)
    yield ctx
    ctx.close()


def registration(context: BrowserContext, page: Page, server: str) -> tuple[Any, str]:
    """A DevTools session on `page` and the id of the site's worker registration (to push to)."""
    cdp = context.new_cdp_session(page)
    registrations: list[dict[str, Any]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated",
           lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 30
    while not (ours := [r for r in registrations if r["scopeURL"] == f"{server}/"]):
        assert time.monotonic() < deadline, f"no registration for {server}/: {registrations}"
        page.wait_for_timeout(50)
    return cdp, ours[0]["registrationId"]


def push(cdp: Any, page: Page, server: str, registration_id: str,
         notice: dict[str, Any]) -> None:
    """Deliver `notice` as a push service would; wait until it is shown. The worker is woken
    first: under load, a push that DevTools handed to a worker stopped idle was seen to show
    nothing for 30 s (once in five soaked runs). A push not shown in 10 s is delivered again,
    as a push service does with a message it holds unacknowledged (RFC 8030): the notice's
    tag makes a second delivery replace the first, never add one."""
    tries = 0
    while True:
        running_worker(page.context, page)
        cdp.send("ServiceWorker.deliverPushMessage", {
            "origin": server, "registrationId": registration_id, "data": json.dumps(notice)})
        tries += 1
        deadline = time.monotonic() + 10
        while [n["title"] for n in shown_now(page)] != [notice["name"]]:
            if time.monotonic() > deadline:
                break
            page.wait_for_timeout(50)
        else:
            return
        assert tries < 3, f"after {tries} pushes of {notice}: {shown_now(page)}"


def test_a_pushed_turn_is_shown_as_a_notification(context: BrowserContext, server: str) -> None:
    page = controlled_page(context, server)
    page.evaluate(LEAVE_WORDS, {"turn": catalogue("en")["home.your_turn"]})  # as api/push.ts
    cdp, ours = registration(context, page, server)
    for name in ("First name", "Pushed game"):  # the second replaces the first (one tag)
        push(cdp, page, server, ours,
             {"kind": "turn", "game": "g1", "name": name, "seat": 1, "url": "/#/game/g1"})
    shown = shown_now(page)
    assert shown == [{"title": "Pushed game", "body": catalogue("en")["home.your_turn"],
                      "tag": "turn-g1", "data": {"url": "/#/game/g1"}}], shown


# A notice shown and clicked, as the browser dispatches the click (DevTools cannot click a
# notification): the handler's waitUntil promise is kept, so the test waits until it is done.
CLICK = """async ([tag, url]) => {
    await self.registration.showNotification("Clicked game", {tag, data: {url}});
    const [notice] = await self.registration.getNotifications({tag});
    const event = new NotificationEvent("notificationclick", {notification: notice});
    let done = Promise.resolve();
    event.waitUntil = (promise) => { done = promise; };
    self.dispatchEvent(event);
    await done;
}"""
# what the worker says to a page, by its type
HEAR = """() => navigator.serviceWorker.addEventListener("message",
    (e) => (window.heard ??= []).push(e.data?.type))"""


def running_worker(context: BrowserContext, page: Page) -> Any:
    """The site's service worker, started by a message from `page` if it was stopped idle."""
    deadline = time.monotonic() + 30
    while not context.service_workers:
        assert time.monotonic() < deadline, "no service worker running after 30 s"
        page.evaluate("navigator.serviceWorker.controller.postMessage('wake')")
        page.wait_for_timeout(100)
    return context.service_workers[-1]


def test_a_clicked_notice_shows_its_game_in_the_apps_window(context: BrowserContext,
                                                             server: str) -> None:
    """`Client.url` is the address a tab loaded with; hash navigation leaves it. The worker
    matched it, so a click focused a tab loaded at the game that had moved on to the desk (and
    left it there), or opened a second tab beside one that went to the game from `/`. Now the
    window showing the game is told to show it; else the app's window is sent to the game."""
    game = post(server, "/api/games", {"players": 2, "name": "Clicked game"})["id"]
    first = controlled_page(context, server)  # the worker is active: later pages are controlled
    desk = context.new_page()  # loaded at the game, then gone to the desk
    desk.goto(f"{server}/#/game/{game}")
    desk.evaluate("location.hash = '#/'")
    table = context.new_page()  # loaded at /, then gone to the game
    table.goto(f"{server}/")
    table.evaluate(f"location.hash = '#/game/{game}'")
    first.close()
    for page in (desk, table):
        assert page.evaluate("navigator.serviceWorker.controller !== null"), page.url
        page.evaluate(HEAR)
    click = [f"turn-{game}", f"/#/game/{game}"]  # the notice's tag and address, as pushed

    running_worker(context, table).evaluate(CLICK, click)
    deadline = time.monotonic() + 30
    while "brass-open" not in (table.evaluate("window.heard ?? []")):
        assert time.monotonic() < deadline, f"the table heard {table.evaluate('window.heard')}"
        table.wait_for_timeout(50)
    heard = desk.evaluate("window.heard ?? []")
    assert "brass-open" not in heard and desk.evaluate("location.hash") == "#/", heard
    assert table.evaluate("location.hash") == f"#/game/{game}"

    table.close()  # the desk is the app's only window: it goes to the game
    running_worker(context, desk).evaluate(CLICK, click)
    deadline = time.monotonic() + 30
    while (hash_ := desk.evaluate("location.hash")) != f"#/game/{game}":
        assert time.monotonic() < deadline, f"the desk shows {hash_}, heard " \
            f"{desk.evaluate('window.heard')}"
        desk.wait_for_timeout(50)
    assert len(context.pages) == 1, [p.url for p in context.pages]


# A push as the browser dispatches it, inside the worker: the handler's waitUntil promise is
# kept and awaited, so what it decided is known when this returns (the tags shown then).
PUSHED = """async (notice) => {
    const event = new PushEvent("push", {data: JSON.stringify(notice)});
    let done = Promise.resolve();
    event.waitUntil = (promise) => { done = promise; };
    self.dispatchEvent(event);
    await done;
    return (await self.registration.getNotifications()).map((n) => n.tag);
}"""
LOOKED_AT = """async () => (await self.clients.matchAll({type: "window"}))
    .map((c) => [c.visibilityState, c.focused])"""


def test_no_notification_for_the_game_the_player_looks_at(context: BrowserContext,
                                                           server: str) -> None:
    """A push can race the page's socket: the player who fills a game was told it started
    while looking at it. A notice about the game a visible, focused window shows is not shown;
    one about another game is, and so is the same once the window shows something else."""
    page = controlled_page(context, server)
    page.evaluate(LEAVE_WORDS, {"turn": catalogue("en")["home.your_turn"]})
    page.evaluate("location.hash = '#/game/g1'")
    page.bring_to_front()
    worker = running_worker(context, page)
    seen = worker.evaluate(LOOKED_AT)
    assert seen == [["visible", True]], f"the worker sees the window as {seen}"

    def notice(game: str) -> dict[str, Any]:
        return {"kind": "turn", "game": game, "name": f"Game {game}", "seat": 0,
                "url": f"/#/game/{game}"}

    assert worker.evaluate(PUSHED, notice("g1")) == []
    assert worker.evaluate(PUSHED, notice("g2")) == ["turn-g2"]
    page.evaluate("location.hash = '#/'")
    shown = worker.evaluate(PUSHED, notice("g1"))
    assert sorted(shown) == ["turn-g1", "turn-g2"], shown


def test_an_ended_notice_says_the_players_place(context: BrowserContext, server: str) -> None:
    """The end's place comes as data (`place` of `players`); the words for it are the page's
    (NoticeSwitches.tsx `noticeWords`), left for the worker in the player's language."""
    page = controlled_page(context, server)
    said = catalogue("en")["notices.said_ended"]
    page.evaluate(LEAVE_WORDS, {"ended": said, "ended.2.4": "place 2 of 4"})
    cdp, ours = registration(context, page, server)
    push(cdp, page, server, ours, {"kind": "ended", "game": "g2", "name": "Ended game",
                                   "seat": 0, "url": "/#/game/g2", "place": 2, "players": 4})
    shown = shown_now(page)
    assert [(n["title"], n["body"]) for n in shown] == [
        ("Ended game", f"{said}\nplace 2 of 4")], shown
