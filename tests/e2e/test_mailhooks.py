"""E-mail switches and the game webhook in chromium (issue 27, docs/REACH.md): a player signed
in by an e-mail link (a real SMTP server, aiosmtpd) turns the turn mail on from the account
page, and the server keeps it with the page's language; a guest sees the switches disabled
with the reason; the host sets a game's webhook from the "Share and links" menu, sees a
refused (private) address's reason, and removes it; the mails follow a language chosen on any
page."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect
from server.mail import Mailbox, smtp_server

from brass.server.auth import new_token

from .conftest import _free_port, serve
from .test_accounts import fetch, until


@pytest.fixture(scope="module")
def mailbox() -> Iterator[Mailbox]:
    with smtp_server() as box:
        yield box


@pytest.fixture(scope="module")
def site(mailbox: Mailbox, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    db = f"sqlite:///{tmp_path_factory.mktemp('mailhooks') / 'brass.db'}"
    env = {"DATABASE_URL": db, "BRASS_BOT_DELAY": "0", "BRASS_SIGNIN_LIMIT": "0",
           "BRASS_PUBLIC_URL": f"http://localhost:{port}", "BRASS_SMTP_HOST": "127.0.0.1",
           "BRASS_SMTP_PORT": str(mailbox.port), "BRASS_SMTP_TLS": "none",
           "BRASS_MAIL_FROM": "Brass <brass@test.invalid>"}
    with serve(env, port, tmp_path_factory, host="localhost") as base:
        yield base


def signed_in_by_mail(page: Any, mailbox: Mailbox, who: str) -> str:
    """Sign the page's browser in with a link mailed to a new address for `who`; the address."""
    email = f"{who}-{new_token()[:6].lower()}@test.invalid".replace("_", "x")
    page.goto("/#/signin")
    page.get_by_test_id("email-form").locator("input").fill(email)
    page.get_by_test_id("email-form").locator("button").click()
    page.get_by_test_id("email-sent").wait_for()
    page.goto(mailbox.link_for(email))
    page.get_by_test_id("signed-in").wait_for()
    return email


def test_the_account_page_turns_the_turn_mail_on(browser: Any, site: str,
                                                 mailbox: Mailbox) -> None:
    context = browser.new_context(base_url=site)
    try:
        page = context.new_page()
        page.goto("/#/account")
        panel = page.get_by_test_id("email-notices")
        expect(panel).to_be_visible(timeout=15000)
        expect(page.get_by_test_id("email-turn")).to_be_disabled()  # a guest: no address
        email = signed_in_by_mail(page, mailbox, "ida")
        page.goto("/#/account")
        turn = page.get_by_test_id("email-turn")
        expect(turn).to_be_enabled(timeout=15000)
        expect(panel).to_contain_text(email)
        turn.check()
        got = until("the turn mail switched on", lambda: (
            s := fetch(page, "GET", "/api/me/email-notices")["body"]) and s["turn"] and s)
        assert got == {"turn": True, "digest": False, "lang": "en", "offered": True,
                       "email": email}, got
        page.reload()
        expect(page.get_by_test_id("email-turn")).to_be_checked(timeout=15000)
    finally:
        context.close()


def test_the_host_sets_and_removes_the_games_webhook(browser: Any, site: str) -> None:
    context = browser.new_context(base_url=site)
    try:
        page = context.new_page()
        page.goto("/")
        made = fetch(page, "POST", "/api/games", {"players": 2, "name": "Hooked"})
        assert made["status"] == 201, made
        game, host = made["body"]["id"], made["body"]["host_token"]
        page.goto(f"/#/game/{game}/host/{host}")
        page.get_by_test_id("share-menu").click()
        form = page.get_by_test_id("webhook")
        field = form.locator("input[name=webhook]")
        field.fill("https://10.0.0.7/hook")
        page.get_by_test_id("webhook-save").click()
        expect(form.locator(".message.bad")).to_be_visible(timeout=15000)
        url = "https://discord.com/api/webhooks/1/secret"
        field.fill(url)
        page.get_by_test_id("webhook-save").click()
        expect(page.get_by_test_id("webhook-saved")).to_be_visible(timeout=15000)
        assert fetch(page, "GET", f"/api/games/{game}/webhook", None, host)["body"] == {
            "url": url}
        page.get_by_test_id("webhook-remove").click()
        expect(page.get_by_test_id("webhook-remove")).to_have_count(0, timeout=15000)
        assert fetch(page, "GET", f"/api/games/{game}/webhook", None, host)["body"] == {
            "url": None}
    finally:
        context.close()


def test_the_mails_follow_a_language_chosen_on_another_page(browser: Any, site: str,
                                                            mailbox: Mailbox) -> None:
    """Only a visit to the account page told the server the page's language: a player who
    switched it on the desk kept getting mails in the old one. Now each change is told, once."""
    context = browser.new_context(base_url=site, locale="en-GB")
    try:
        page = context.new_page()
        signed_in_by_mail(page, mailbox, "lea")
        page.goto("/#/account")
        turn = page.get_by_test_id("email-turn")
        expect(turn).to_be_enabled(timeout=15000)
        turn.check()
        until("the turn mail switched on", lambda: fetch(
            page, "GET", "/api/me/email-notices")["body"]["turn"])
        page.goto("/")
        page.get_by_test_id("account-bar").wait_for()
        told: list[Any] = []
        page.on("request", lambda r: told.append(r.post_data_json) if r.method == "PUT"
                and r.url.endswith("/api/me/email-notices") else None)
        for lang in ("pl", "ko"):
            page.select_option("[data-testid=language]", lang)
            got = until(f"the mails' language {lang}", lambda lang=lang: (
                s := fetch(page, "GET", "/api/me/email-notices")["body"])["lang"] == lang
                and s, timeout=15)
            assert got["turn"] is True, got
        assert told == [{"lang": "pl"}, {"lang": "ko"}], told  # once per change
    finally:
        context.close()
