"""A guest who signs in to an existing account brings its games along (issue 24,
docs/PLAYERS.md "Guest to account"): the guest's seats, push subscriptions and notification
switches move to the account in one transaction (the account's own switches win), the guest is
retired (`deleted_at`), and a seat in a game where the account already sits stays the account's
too. Through the e-mail link over a real SMTP server (aiosmtpd); the passkey sign-in goes
through the same `sign_in_browser` (tests/e2e/test_accounts.py signs in by passkey a browser
that had joined a game as a guest). SQLite and Postgres."""

from __future__ import annotations

from contextlib import closing
from typing import Any

import httpx
from sqlalchemy import create_engine, select

from brass.server.playerstore import PlayerStore
from brass.server.pushstore import DEFAULTS, PushStore, Subscription
from brass.server.storebase import StoreBase
from brass.server.tables import devices, players, push_subscriptions, seats

from .accountsite import Site
from .mail import Mailbox
from .test_accounts import address, guest, sign_in_by_mail, token_of


def new_game(client: httpx.Client, name: str, seat_name: str) -> tuple[str, int]:
    """A 2-player game made by `client`, who takes a seat with its cookie: (id, seat)."""
    made = client.post("/api/games", json={"players": 2, "name": name})
    assert made.status_code == 201, made.text
    game = made.json()
    joined = client.post(f"/api/games/{game['id']}/join",
                         json={"name": seat_name, "invite": game["invite"]})
    assert joined.status_code == 201, joined.text
    return game["id"], joined.json()["seat"]


def desk_ids(client: httpx.Client) -> set[str]:
    desk = client.get("/api/desk")
    assert desk.status_code == 200, desk.text
    return {g["id"] for g in desk.json()["games"]}


def rows(db_url: str, query: Any) -> list[Any]:
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            return list(conn.execute(query))
    finally:
        engine.dispose()


def stores(db_url: str) -> tuple[StoreBase, PushStore]:
    base = StoreBase(db_url)
    return base, PushStore(base)


def test_a_guest_signing_in_by_mail_brings_its_seats_pushes_and_switches(
        site: Site, box: Mailbox, db_url: str) -> None:
    email = address("ivy")
    laptop, ivy = sign_in_by_mail(site, box, email)
    with closing(laptop), closing(guest(site)) as phone:
        own_game, _ = new_game(laptop, "Ivy's own game", "Ivy")
        guest_me = phone.get("/api/me").json()
        guest_game, guest_seat = new_game(phone, "Played as a guest", "Ivy on the phone")
        guest_device = phone.get("/api/account").json()["devices"][0]["id"]
        old_cookie = phone.cookies["brass_device"]
        base, push = stores(db_url)
        try:
            push.subscribe(guest_me["id"], guest_device, Subscription(
                "https://push.test.invalid/phone", "key", "auth"))
            push.set_prefs(guest_me["id"], {"turn": False})
        finally:
            base.close()

        signed = phone.post("/api/signin/email", json={"email": email})
        assert signed.status_code == 202, signed.text
        opened = phone.post("/api/signin/link", json={"token": token_of(box.link_for(email))})
        assert opened.status_code == 200 and opened.json()["id"] == ivy["id"], opened.text

        assert desk_ids(phone) == desk_ids(laptop) == {own_game, guest_game}, (
            desk_ids(phone), own_game, guest_game)
        state = phone.get(f"/api/games/{guest_game}/state")  # the cookie acts for the seat
        assert state.status_code == 200 and state.json()["seat"] == guest_seat, state.text
        stale = httpx.get(f"{site.base}/api/me", cookies={"brass_device": old_cookie})
        assert stale.status_code == 401, "the guest's device signs nobody in: " + stale.text

    (retired,) = rows(db_url, select(players).where(players.c.id == guest_me["id"]))
    assert retired.deleted_at is not None and retired.name is None, retired
    assert not rows(db_url, select(devices).where(devices.c.player_id == guest_me["id"]))
    moved = rows(db_url, select(push_subscriptions).where(
        push_subscriptions.c.endpoint == "https://push.test.invalid/phone"))
    assert [(m.player_id, m.device_id is not None) for m in moved] == [(ivy["id"], True)], moved
    base, push = stores(db_url)
    try:
        assert push.prefs(ivy["id"]) == {**DEFAULTS, "turn": False}, "the guest's switch fills in"
        assert push.prefs(guest_me["id"]) == DEFAULTS, "the guest keeps none (defaults)"
    finally:
        base.close()


def test_the_accounts_own_switches_win_and_a_shared_game_keeps_both_seats(
        site: Site, box: Mailbox, db_url: str) -> None:
    email = address("jon")
    laptop, jon = sign_in_by_mail(site, box, email)
    with closing(laptop), closing(guest(site)) as phone:
        made = laptop.post("/api/games", json={"players": 2, "name": "Both seats"})
        assert made.status_code == 201, made.text
        game = made.json()
        seats_taken = [c.post(f"/api/games/{game['id']}/join", json={
            "name": n, "invite": game["invite"]}) for c, n in ((laptop, "Jon"), (phone, "J"))]
        assert [s.status_code for s in seats_taken] == [201, 201], [s.text for s in seats_taken]
        guest_id = phone.get("/api/me").json()["id"]
        base, push = stores(db_url)
        try:
            push.set_prefs(jon["id"], {"turn": True})
            push.set_prefs(guest_id, {"turn": False})
        finally:
            base.close()
        sign_in_by_mail(site, box, email, phone)
        assert phone.get("/api/me").json()["id"] == jon["id"]
    owners = {r.seat: r.player_id for r in rows(db_url, select(seats.c.seat, seats.c.player_id)
                                                .where(seats.c.game_id == game["id"]))}
    assert owners == {0: jon["id"], 1: jon["id"]}, owners
    base, push = stores(db_url)
    try:
        assert push.prefs(jon["id"]) == {**DEFAULTS, "turn": True}, "the account's own switch wins"
    finally:
        base.close()


def test_an_account_signing_in_to_another_keeps_its_own_seats(
        site: Site, box: Mailbox, db_url: str) -> None:
    """Only a guest is merged: an account's browser signing in elsewhere just leaves it."""
    kim = sign_in_by_mail(site, box, address("kim"))[0]
    with closing(kim):
        game, _ = new_game(kim, "Kim's game", "Kim")
        kim_id = kim.get("/api/me").json()["id"]
        lee_email = address("lee")
        lee = sign_in_by_mail(site, box, lee_email)[0]
        lee.close()
        sign_in_by_mail(site, box, lee_email, kim)
        assert game not in desk_ids(kim), "Lee's desk holds none of Kim's games"
    (row,) = rows(db_url, select(players).where(players.c.id == kim_id))
    assert row.deleted_at is None and row.email is not None, row
    owners = [r.player_id for r in rows(db_url, select(seats.c.player_id).where(
        seats.c.game_id == game, seats.c.player_id.is_not(None)))]
    assert owners == [kim_id], owners


def test_merge_guest_alone_gives_the_browser_a_device_and_retires_the_guest(
        db_url: str, site: Site) -> None:
    """The store's merge on its own: the browser's new device, the seats, the guest retired."""
    base = StoreBase(db_url)
    store = PlayerStore(base)
    try:
        account = store.create_guest("a" * 64, "laptop")
        ghost = store.create_guest("b" * 64, "phone")
        assert store.merge_guest(ghost.id, account.id, "c" * 64, "phone") == []
        assert store.by_device("b" * 64) is None, "the guest's device is gone"
        signed = store.by_device("c" * 64)
        assert signed is not None and signed.id == account.id, signed
        assert store.get(ghost.id) is not None
    finally:
        base.close()
    (row,) = rows(db_url, select(players.c.deleted_at).where(players.c.id == ghost.id))
    assert row.deleted_at is not None, row
