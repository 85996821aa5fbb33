"""Accounts in chromium (issue 24): a passkey made on one browser signs a second, fresh one in
(chromium's virtual authenticator, through the DevTools WebAuthn domain on Playwright's CDP
session; the second authenticator is given the first one's credential, as a synced passkey
is), which then sees the first one's game on its desk and plays a move in it; an e-mail link
(a real SMTP server, aiosmtpd) signs a fresh browser in, and the same link opened again, or
an expired one, is refused on the page. The server runs at http://localhost (a secure context
without HTTPS: WebAuthn needs one, and an IP address cannot be a relying party)."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect
from server.mail import Mailbox, smtp_server

from brass.server.accountstore import AccountStore
from brass.server.auth import new_token, token_hash
from brass.server.storebase import StoreBase

from .conftest import _free_port, serve

AUTHENTICATOR = {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                 "hasUserVerification": True, "isUserVerified": True,
                 "automaticPresenceSimulation": True}


@pytest.fixture(scope="module")
def mailbox() -> Iterator[Mailbox]:
    with smtp_server() as box:
        yield box


@pytest.fixture(scope="module")
def site(mailbox: Mailbox,
         tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """The site's address and its database."""
    port = _free_port()
    db = f"sqlite:///{tmp_path_factory.mktemp('accounts') / 'brass.db'}"
    env = {"DATABASE_URL": db, "BRASS_BOT_DELAY": "0", "BRASS_SIGNIN_LIMIT": "0",
           "BRASS_PUBLIC_URL": f"http://localhost:{port}", "BRASS_SMTP_HOST": "127.0.0.1",
           "BRASS_SMTP_PORT": str(mailbox.port), "BRASS_SMTP_TLS": "none",
           "BRASS_MAIL_FROM": "Brass <brass@test.invalid>"}
    with serve(env, port, tmp_path_factory, host="localhost") as base:
        yield base, db


def authenticator(context: Any, page: Any) -> tuple[Any, str]:
    """A virtual authenticator for `page` (the DevTools session and its id)."""
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    made = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return cdp, made["authenticatorId"]


def fetch(page: Any, method: str, path: str, body: Any = None,
          token: str | None = None) -> Any:
    """An API call made by the page (its cookie and Origin go with it): status and body."""
    return page.evaluate("""async ([method, path, body, token]) => {
        const headers = {"Content-Type": "application/json"};
        if (token) headers.Authorization = "Bearer " + token;
        const r = await fetch(path, {method, headers,
                                     body: body === null ? undefined : JSON.stringify(body)});
        const text = await r.text();
        return {status: r.status, body: text ? JSON.parse(text) : null};
    }""", [method, path, body, token])


def not_signed_in(page: Any, account: str) -> bool:
    """The page's browser is not `account`'s, nor any account's (a guest, or nobody)."""
    me = fetch(page, "GET", "/api/me")
    return me["status"] == 401 or (me["body"]["id"] != account and not me["body"]["account"])


def signed_in(page: Any) -> Any:
    """The page's player once its cookie is set (the page makes its guest as it starts),
    else None."""
    me = fetch(page, "GET", "/api/me")
    return me["body"] if me["status"] == 200 else None


def mailed_in(context: Any, mailbox: Mailbox, email: str) -> Any:
    """A page of `context` signed in to `email`'s account by a mailed link, asked for there."""
    page = context.new_page()
    page.goto("/")
    page.get_by_test_id("account-bar").wait_for()
    asked = fetch(page, "POST", "/api/signin/email", {"email": email})
    assert asked["status"] == 202, asked
    page.goto(mailbox.link_for(email))
    page.get_by_test_id("signed-in").wait_for()
    return page


def until(what: str, check: Any, timeout: float = 60.0) -> Any:
    """Wait for `check()` to give something true; fail saying what it last gave."""
    deadline = time.monotonic() + timeout
    while True:
        seen = check()
        if seen:
            return seen
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s; last seen {seen!r}")
        time.sleep(0.2)


def test_a_passkey_signs_a_fresh_browser_in_to_its_games(browser: Any,
                                                         site: tuple[str, str]) -> None:
    base = site[0]
    laptop = browser.new_context(base_url=base)
    phone = browser.new_context(base_url=base)
    try:
        first = laptop.new_page()
        cdp, first_id = authenticator(laptop, first)
        first.goto("/#/account")
        first.get_by_test_id("add-passkey").click()
        first.locator("[data-passkey]").first.wait_for()
        me = fetch(first, "GET", "/api/me")["body"]
        assert me["account"] is True, me
        # a game joined on the laptop, against a bot
        made = fetch(first, "POST", "/api/games", {"players": 2, "name": "Passkey game"})
        assert made["status"] == 201, made
        game = made["body"]["id"]
        joined = fetch(first, "POST", f"/api/games/{game}/join",
                       {"name": "Ada", "invite": made["body"]["invite"]})
        assert joined["status"] == 201, joined
        bot = fetch(first, "POST", f"/api/games/{game}/bots", {}, made["body"]["host_token"])
        assert bot["status"] == 201, bot

        # the phone: a fresh browser, holding the same passkey (synced), whose guest (made on
        # its first visit) joins a game of its own before signing in
        second = phone.new_page()
        phone_cdp, second_id = authenticator(phone, second)
        second.goto("/")
        second.get_by_test_id("account-bar").wait_for()
        guest = until("the phone's guest (its first visit's cookie)", lambda: signed_in(second))
        own = fetch(second, "POST", "/api/games", {"players": 2, "name": "Phone game"})
        assert own["status"] == 201, own
        phone_game = own["body"]["id"]
        took = fetch(second, "POST", f"/api/games/{phone_game}/join",
                     {"name": "Ada on the phone", "invite": own["body"]["invite"]})
        assert took["status"] == 201, took
        held = cdp.send("WebAuthn.getCredentials", {"authenticatorId": first_id})["credentials"]
        assert len(held) == 1 and held[0]["isResidentCredential"], held
        phone_cdp.send("WebAuthn.addCredential",
                       {"authenticatorId": second_id, "credential": held[0]})
        second.goto("/#/signin")
        second.get_by_test_id("passkey-signin").click()
        second.get_by_test_id("account-bar").wait_for()  # back home, signed in
        assert fetch(second, "GET", "/api/me")["body"]["id"] == me["id"]
        assert guest["id"] != me["id"] and guest["account"] is False, guest
        # its desk: the account's game and the one the phone joined as a guest
        for wanted in (game, phone_game):
            second.locator(f'[data-testid="my-games"] [data-game="{wanted}"]').wait_for()
        desk = until("the laptop's game on the phone's desk, its turn", lambda: [
            g for g in fetch(second, "GET", "/api/desk")["body"]["games"]
            if g["id"] == game and g["section"] == "turn"])
        seat = desk[0]["seat"]
        state = fetch(second, "GET", f"/api/games/{game}/state")["body"]
        moves = fetch(second, "GET", f"/api/games/{game}/legal")["body"]
        assert state["seat"] == seat and moves, (state.get("seat"), moves)
        played = fetch(second, "POST", f"/api/games/{game}/actions", {
            "action": moves[0]["action"], "expected_version": state["version"],
            "action_id": "phone-1"})
        assert played["status"] == 200, played
        assert played["body"]["version"] == state["version"] + 1, played
        devices = fetch(second, "GET", "/api/account")["body"]["devices"]
        assert len(devices) == 2, devices
    finally:
        laptop.close()
        phone.close()


def test_an_emailed_link_signs_a_fresh_browser_in_once(
        browser: Any, site: tuple[str, str], mailbox: Mailbox) -> None:
    base, db = site
    email = f"bea-{new_token()[:6].lower()}@test.invalid".replace("_", "x").replace("-", "y", 1)
    asker, reader, again = (browser.new_context(base_url=base) for _ in range(3))
    try:
        page = asker.new_page()
        page.goto("/")  # this server mails links: the menu offers to sign in
        page.get_by_test_id("signin-link").click()
        page.get_by_test_id("email-form").locator("input").fill(email)
        page.get_by_test_id("email-form").locator("button").click()
        page.get_by_test_id("email-sent").wait_for()
        link = mailbox.link_for(email)
        assert link.startswith(f"{base}/#/signin/"), link

        opened = reader.new_page()
        opened.goto(link)
        opened.get_by_test_id("signed-in").wait_for()
        assert "/signin/link" in opened.url, "the secret left the address bar: " + opened.url
        me = fetch(opened, "GET", "/api/me")["body"]
        assert me["email"] == email and me["account"] is True, me
        # on to the games, no reload: the menu no longer offers to sign in
        opened.click("a[href='#/']")
        expect(opened.get_by_test_id("account-link")).to_be_visible()
        expect(opened.get_by_test_id("signin-link")).to_have_count(0)
        opened.get_by_test_id("account-link").click()  # the id `brass admin grant` takes
        expect(opened.get_by_test_id("player-id")).to_contain_text(me["id"])
        # each device says when it signed in and was last used (two alike were one name twice)
        expect(opened.get_by_test_id("device-used").first).to_contain_text("last used")

        reused = again.new_page()
        reused.goto(link)
        refusal = reused.get_by_test_id("link-error")
        refusal.wait_for()
        assert "used" in refusal.inner_text(), refusal.inner_text()
        # the page's own guest (every first visit makes one), not Bea
        assert not_signed_in(reused, me["id"]), "a reused link signs nobody in"

        token = new_token()
        store = StoreBase(db)
        try:
            AccountStore(store).add_secret(token_hash(token), "signin",
                                           dt.timedelta(seconds=-1), email=email)
        finally:
            store.close()
        late = again.new_page()
        late.goto(f"{base}/#/signin/{token}")
        refusal = late.get_by_test_id("link-error")
        refusal.wait_for()
        assert "expired" in refusal.inner_text(), refusal.inner_text()
        assert not_signed_in(late, me["id"]), "an expired link signs nobody in"
    finally:
        for context in (asker, reader, again):
            context.close()


def test_an_admin_link_opens_the_admin_page_without_a_reload(
        browser: Any, site: tuple[str, str]) -> None:
    """`brass admin link`'s link (its secret made here as the command makes it): once it has
    signed the browser in, the admin page and the menu's Admin entry are there at once (they
    said "only an admin" until a reload)."""
    base, db = site
    token = new_token()
    store = StoreBase(db)
    try:
        AccountStore(store).add_secret(token_hash(token), "admin", dt.timedelta(hours=1))
    finally:
        store.close()
    context = browser.new_context(base_url=base)
    try:
        page = context.new_page()
        page.goto(f"/#/signin/{token}")
        page.get_by_test_id("signed-in").wait_for()
        # the landing says what the link made of this player, with the way to the page
        expect(page.get_by_test_id("signed-in-admin")).to_contain_text(
            "You are an admin of this server")
        page.get_by_test_id("landing-admin-link").click()
        expect(page.get_by_test_id("admin-page")).to_be_visible()
        page.click("a[href='#/']")
        page.get_by_test_id("admin-link").click()
        expect(page.get_by_test_id("admin-page")).to_be_visible()
    finally:
        context.close()


def test_the_listed_switch_shows_and_hides_the_profile(
        browser: Any, site: tuple[str, str], mailbox: Mailbox) -> None:
    base = site[0]
    email = f"cal-{new_token()[:6].lower()}@test.invalid".replace("_", "x").replace("-", "y", 1)
    context = browser.new_context(base_url=base)
    try:
        page = mailed_in(context, mailbox, email)
        me = fetch(page, "GET", "/api/me")["body"]
        assert me["account"] is True and me["listed"] is False, me
        profile = f"/api/players/{me['id']}"
        assert fetch(page, "GET", profile)["status"] == 404, "unlisted at first"
        page.goto("/#/account")
        switch = page.get_by_test_id("listed-switch")
        assert not switch.is_checked()
        switch.click()
        page.get_by_test_id("profile-link").wait_for()
        until("the profile public", lambda: fetch(page, "GET", profile)["status"] == 200)
        assert switch.is_checked()
        switch.click()
        page.get_by_test_id("profile-link").wait_for(state="detached")
        until("the profile hidden", lambda: fetch(page, "GET", profile)["status"] == 404)
        assert not switch.is_checked()
    finally:
        context.close()


def test_no_sign_in_offered_by_a_server_that_has_no_way(browser: Any, server: str) -> None:
    """The default server (no public URL: no passkeys; no SMTP: no mailed links) offered
    "Sign in" all the same, to a page that said there is none. The menu keeps the account."""
    page = browser.new_page()
    try:
        with page.expect_response("**/api/signin/options") as asked:
            page.goto(server + "/")
        assert asked.value.json() == {"passkey": False, "email": False}, asked.value.json()
        expect(page.get_by_test_id("account-link")).to_be_visible()
        expect(page.get_by_test_id("signin-link")).to_have_count(0)
    finally:
        page.close()


def test_the_host_hosts_from_another_device_without_the_host_link(
        browser: Any, site: tuple[str, str], mailbox: Mailbox) -> None:
    """The host link stays in the browser that created the game; the same player's phone
    finds the game on its desk ("Games you host", no seat in it), adds a bot and makes an
    invite link from the lobby by its cookie. A stranger's lobby offers none of it."""
    base = site[0]
    email = f"hal-{new_token()[:6].lower()}@test.invalid".replace("_", "x").replace("-", "y", 1)
    laptop, phone, stranger = (browser.new_context(base_url=base) for _ in range(3))
    try:
        # the laptop makes the game, and takes no seat in it
        made = fetch(mailed_in(laptop, mailbox, email), "POST", "/api/games",
                     {"players": 3, "name": "Hal hosts"})
        assert made["status"] == 201, made
        game = made["body"]["id"]
        page = mailed_in(phone, mailbox, email)

        page.click("a[href='#/']")  # the phone's desk
        hosted = page.get_by_test_id("desk-hosting").locator(f'[data-game="{game}"]')
        expect(hosted).to_contain_text("3 seats free")
        hosted.locator("a").click()
        page.get_by_test_id("lobby").wait_for()
        page.get_by_test_id("add-bot").click()
        expect(page.get_by_test_id("bot-level-0")).to_be_visible()
        renew = page.get_by_test_id("renew-invite")  # no invite secret here: it makes one
        page.once("dialog", lambda dialog: dialog.accept())
        renew.click()
        page.get_by_test_id("copy-invite").wait_for()
        assert game in page.locator("#invite").input_value(), page.locator("#invite").input_value()
        page.get_by_test_id("share-menu").click()
        expect(page.get_by_test_id("webhook")).to_be_visible()
        expect(page.get_by_test_id("copy-host-link")).to_have_count(0)  # it has no host link

        other = stranger.new_page()
        with other.expect_response(f"**/api/games/{game}/hosting") as asked_host:
            other.goto(f"/#/game/{game}")
        assert asked_host.value.json() == {"host": False}, asked_host.value.json()
        expect(other.get_by_test_id("bot-level-0")).to_be_visible()  # the lobby, as it is now
        expect(other.get_by_test_id("add-bot")).to_have_count(0)
        expect(other.get_by_test_id("cancel-game")).to_have_count(0)
    finally:
        for context in (laptop, phone, stranger):
            context.close()
