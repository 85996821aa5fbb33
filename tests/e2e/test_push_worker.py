"""The service worker shows a Web Push notice (issue 27, web/src/sw.ts), in a real chromium: a
push delivered through the DevTools protocol (`ServiceWorker.deliverPushMessage`, as a push
service would deliver it) becomes a notification (`registration.getNotifications()`) titled
with the game's name, saying the words the page left in the player's language, tagged per
game so that a newer notice replaces it."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from .test_pwa import catalogue, controlled_page

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


def test_a_pushed_turn_is_shown_as_a_notification(context: BrowserContext, server: str) -> None:
    page = controlled_page(context, server)
    page.evaluate(LEAVE_WORDS, {"turn": catalogue("en")["home.your_turn"]})  # as api/push.ts
    cdp = context.new_cdp_session(page)
    registrations: list[dict[str, Any]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated",
           lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 30
    while not (ours := [r for r in registrations if r["scopeURL"] == f"{server}/"]):
        assert time.monotonic() < deadline, f"no registration for {server}/: {registrations}"
        page.wait_for_timeout(50)
    for name in ("First name", "Pushed game"):  # the second replaces the first (one tag)
        notice = {"kind": "turn", "game": "g1", "name": name, "seat": 1, "url": "/#/game/g1"}
        cdp.send("ServiceWorker.deliverPushMessage", {
            "origin": server, "registrationId": ours[0]["registrationId"],
            "data": json.dumps(notice)})
        deadline = time.monotonic() + 30
        while [n["title"] for n in shown_now(page)] != [name]:
            assert time.monotonic() < deadline, f"after the push of {name!r}: {shown_now(page)}"
            page.wait_for_timeout(50)
    shown = shown_now(page)
    assert shown == [{"title": "Pushed game", "body": catalogue("en")["home.your_turn"],
                      "tag": "turn-g1", "data": {"url": "/#/game/g1"}}], shown
