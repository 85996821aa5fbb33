"""E-mail notices (issue 27, docs/REACH.md) through a real SMTP server (aiosmtpd: mail.py):
a player who turned them on, with an address proved by the sign-in link, is mailed when their
turn comes in a correspondence game, not in a live one, not when off; the daily digest lists
the games where it is their turn; every mail has the one-click unsubscribe headers (RFC 8058)
and a link that, without any cookie, shows a page (GET) and unsubscribes (POST). SQLite and
Postgres."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from contextlib import closing
from email.message import EmailMessage
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from websockets.sync.client import connect

from brass.server.mailstore import MailStore
from brass.server.storebase import StoreBase

from .accountsite import Site
from .conftest import auth
from .mail import Mailbox
from .test_accounts import address, sign_in_by_mail
from .test_notices import show
from .test_ratings import wait_for

CORRESPONDENCE = {"kind": "correspondence", "per_turn": 86_400.0}
LIVE = {"kind": "live", "reserve": 600.0}


@pytest.fixture(scope="module")
def site(db_url: str, box: Mailbox) -> Iterator[Site]:
    # the digest is due from midnight UTC, looked for 5 times a second
    with Site(db_url, box.port, mail_digest_hour=0, mail_digest_every=0.2) as live:
        yield live


def player(site: Site, box: Mailbox, tag: str, **switches: Any) -> tuple[httpx.Client, str]:
    """A signed-in player with a verified address and these e-mail switches."""
    email = address(tag)
    client, _me = sign_in_by_mail(site, box, email)
    if switches:
        put = client.put("/api/me/email-notices", json=switches)
        assert put.status_code == 200, put.text
    return client, email


def game_of(site: Site, clock: dict[str, Any], name: str,
            *players: httpx.Client) -> tuple[str, dict[int, str]]:
    """A running game of these players (each joins with its cookie): id, seat tokens."""
    with site.browser() as anyone:
        made = anyone.post("/api/games", json={"players": len(players), "name": name,
                                               "clock": clock})
        assert made.status_code == 201, made.text
    game, invite = made.json()["id"], made.json()["invite"]
    tokens = {}
    for i, client in enumerate(players):
        joined = client.post(f"/api/games/{game}/join", json={"name": f"P{i}", "invite": invite})
        assert joined.status_code == 201, joined.text
        tokens[joined.json()["seat"]] = joined.json()["token"]
    return game, tokens


def move(site: Site, game: str, tokens: dict[int, str]) -> int:
    """The seat to move plays its first legal move; the seat to move next."""
    with site.browser() as http:
        state = http.get(f"/api/games/{game}").json()
        seat = state["current_seat"]
        options = http.get(f"/api/games/{game}/legal", headers=auth(tokens[seat])).json()
        done = http.post(f"/api/games/{game}/actions", headers=auth(tokens[seat]), json={
            "action": options[0]["action"], "expected_version": state["version"],
            "action_id": secrets.token_hex(8)})
        assert done.status_code == 200, done.text
        after: int = http.get(f"/api/games/{game}").json()["current_seat"]
        return after


def pass_turn_to(site: Site, game: str, tokens: dict[int, str], seat: int) -> None:
    """Moves until `seat` is to move (none if it moved first: the start told it)."""
    with site.browser() as http:
        if http.get(f"/api/games/{game}").json()["current_seat"] == seat:
            return
    for _ in range(20):
        if move(site, game, tokens) == seat:
            return
    raise AssertionError(f"seat {seat} never came to move in game {game}")


def about(game: str) -> Any:
    return lambda m: game in m.get_body(("plain",)).get_content()


def parts(message: EmailMessage) -> tuple[str, str]:
    plain, html = message.get_body(("plain",)), message.get_body(("html",))
    assert plain is not None and html is not None, message.as_string()[:2000]
    return plain.get_content(), html.get_content()


def test_a_correspondence_turn_is_mailed_with_one_click_unsubscribe(site: Site,
                                                                    box: Mailbox) -> None:
    ada, email = player(site, box, "ada", turn=True, lang="pl")
    with closing(ada), site.browser() as bob:
        bob.post("/api/session")
        game, tokens = game_of(site, CORRESPONDENCE, "Listowna", ada, bob)
        seats = bob.get(f"/api/games/{game}").json()["seats"]
        ada_seat = next(s["seat"] for s in seats if s["name"] == "P0")
        pass_turn_to(site, game, tokens, ada_seat)
        mail = box.notice_for(email, about(game))
        plain, html = parts(mail)
        assert mail["Subject"] == "Twój ruch w Listowna", mail["Subject"]
        assert f"{site.base}/#/game/{game}" in plain and f"/#/game/{game}" in html, plain
        stop = str(mail["List-Unsubscribe"]).strip("<>")
        assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert urlsplit(stop).path.startswith("/api/mail/unsubscribe/"), stop
        assert stop in plain and stop in html
        # as sent: the header one line, unencoded (a mail client reads no URL from encoded
        # words, RFC 2369), and a Date (RFC 5322)
        raw = box.raw[email][box.notices[email].index(mail)]
        head = raw.split(b"\r\n\r\n", 1)[0].decode("ascii").split("\r\n")
        assert f"List-Unsubscribe: <{stop}>" in head, head
        assert parsedate_to_datetime(str(mail["Date"])).tzinfo is not None, head

        # the link works without any cookie: a page that asks, then the one-click POST
        with httpx.Client(timeout=60) as mail_client:
            page = mail_client.get(stop)
            assert page.status_code == 200 and '<form method="post">' in page.text, page.text
            assert email in page.text, page.text
            assert ada.get("/api/me/email-notices").json()["turn"] is True  # a GET asks only
            done = mail_client.post(stop, data={"List-Unsubscribe": "One-Click"})
            assert done.status_code == 200, done.text
            again = mail_client.get(stop)  # the link opened again: nothing left to ask
            assert again.status_code == 200 and "<form" not in again.text, again.text
            assert "Nie dostajesz już" in again.text and 'href="/#/account"' in again.text
            bad = mail_client.post(stop[:-4] + "AAAA")
            assert bad.status_code == 404, bad.text
            bad = mail_client.get(stop[:-4] + "AAAA", headers={"Accept-Language": "pl-PL,en"})
            assert bad.status_code == 404 and "nieprawidłowy" in bad.text, bad.text
        switches = ada.get("/api/me/email-notices").json()
        assert switches == {"turn": False, "digest": False, "lang": "pl", "offered": True,
                            "email": email}, switches


def test_no_turn_mail_while_the_player_looks_at_the_game(site: Site, box: Mailbox) -> None:
    ada, email = player(site, box, "looker", turn=True)
    with closing(ada), site.browser() as bob:
        bob.post("/api/session")
        game, tokens = game_of(site, CORRESPONDENCE, "Watched", ada, bob)
        seats = bob.get(f"/api/games/{game}").json()["seats"]
        ada_seat = next(s["seat"] for s in seats if s["name"] == "P0")
        with connect(f"{site.base.replace('http', 'ws', 1)}/ws/games/{game}",
                     open_timeout=30, additional_headers={
                         "Cookie": f"brass_device={ada.cookies['brass_device']}",
                         "Origin": site.base}) as ws:
            ws.send(json.dumps({"type": "hello"}))
            assert json.loads(ws.recv(timeout=30))["type"] == "state"
            sender = site.server.config.app.state.mail_notices  # type: ignore[attr-defined]

            def mails() -> int:  # about this game, once the mails in hand are done
                wait_for(lambda: not sender._tasks, "the turn mails in hand to be done")
                return len([m for m in box.notices.get(email, []) if about(game)(m)])
            before = mails()  # one if her turn began the game
            show(ws, True)
            turn_to(site, game, tokens, ada_seat)  # her turn while she looks: no mail
            assert mails() == before, box.subjects(email)
            show(ws, False)
            turn_to(site, game, tokens, ada_seat)  # her next turn, unwatched
        wait_for(lambda: mails() == before + 1, "her next turn, unwatched, to be mailed")


def turn_to(site: Site, game: str, tokens: dict[int, str], seat: int) -> None:
    """Moves until a new turn of `seat` begins: it finishes its turn if it is moving (a turn
    may be two actions), then the others move until the turn passes to it."""
    with site.browser() as http:
        moving = http.get(f"/api/games/{game}").json()["current_seat"]
    for _ in range(4):
        if moving != seat:
            break
        moving = move(site, game, tokens)
    for _ in range(20):
        if move(site, game, tokens) == seat:
            return
    raise AssertionError(f"seat {seat} never came to move in game {game}")


def test_no_mail_for_a_live_game_or_when_off_and_none_without_an_address(
        site: Site, box: Mailbox) -> None:
    cy, email = player(site, box, "cy", turn=True)
    dee, dee_email = player(site, box, "dee")  # switches off
    with closing(cy), closing(dee), site.browser() as bob:
        bob.post("/api/session")
        live, live_tokens = game_of(site, LIVE, "Live", cy, bob)
        off, off_tokens = game_of(site, CORRESPONDENCE, "Off", dee, bob)
        post, post_tokens = game_of(site, CORRESPONDENCE, "Post", cy, bob)
        for game, tokens in ((live, live_tokens), (off, off_tokens), (post, post_tokens)):
            seats = bob.get(f"/api/games/{game}").json()["seats"]
            pass_turn_to(site, game, tokens, next(s["seat"] for s in seats
                                                  if s["name"] == "P0"))
        # the last game's mail has come: the earlier turns (sent first, if at all) did not
        box.notice_for(email, about(post))
        assert box.subjects(email) == ["Your turn in Post"], box.subjects(email)
        assert box.subjects(dee_email) == [], box.subjects(dee_email)
    with site.browser() as guest:
        guest.post("/api/session")
        refused = guest.put("/api/me/email-notices", json={"turn": True})
        assert refused.status_code == 403, refused.text
        assert refused.json()["reason"] == "email_unverified", refused.text
        assert guest.get("/api/me/email-notices").json()["email"] is None


def test_the_daily_digest_lists_the_games_where_it_is_your_turn(site: Site,
                                                                box: Mailbox) -> None:
    eve, email = player(site, box, "eve")
    with closing(eve), site.browser() as bob, site.browser() as fay:
        bob.post("/api/session")
        fay.post("/api/session")
        first, first_tokens = game_of(site, CORRESPONDENCE, "Canal", eve, bob)
        second, second_tokens = game_of(site, CORRESPONDENCE, "Rail", eve, fay)
        for game, tokens in ((first, first_tokens), (second, second_tokens)):
            seats = bob.get(f"/api/games/{game}").json()["seats"]
            pass_turn_to(site, game, tokens, next(s["seat"] for s in seats
                                                  if s["name"] == "P0"))
        assert eve.put("/api/me/email-notices", json={"digest": True}).status_code == 200
        digest = box.notice_for(email, lambda m: "2 games" in str(m["Subject"]))
        plain, html = parts(digest)
        assert digest["Subject"] == "Brass: your turn in 2 games", digest["Subject"]
        lines = plain.splitlines()
        for name, other in (("Canal", "P1"), ("Rail", "P1")):
            line = next((x for x in lines if x.startswith(f"- {name}:")), None)
            assert line is not None, plain
            # "1 d 0 h" or "23 h 59 min" left, against the other seat's player
            assert " left against " in line and line.endswith(other), line
            assert name in html
        assert digest["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert "/api/mail/unsubscribe/" in str(digest["List-Unsubscribe"])


def test_a_digest_is_claimed_once_a_day(db_url: str, site: Site, box: Mailbox) -> None:
    """Two instances looking at once: the database gives the player's digest to one."""
    gus, _email = player(site, box, "gus")
    with closing(gus):
        gus_id = gus.get("/api/me").json()["id"]
    store = MailStore(StoreBase(db_url))
    assert store.claim_digest(gus_id, "2026-01-02") is True
    assert store.claim_digest(gus_id, "2026-01-02") is False
    assert store.claim_digest(gus_id, "2026-01-03") is True
