"""The issue's "Bad input and security" items not shown elsewhere (issue 24, docs/PLAYERS.md):
sign-in links limited per account (not only per address) with the same answer as for any
address; a link sent to another address never signs in to an account; a deleted account's
seats stay in their games, anonymised; the desk and a profile hold no hand. Through the real
app, a real SMTP server (aiosmtpd) and real databases (SQLite and Postgres)."""

from __future__ import annotations

import datetime as dt
import json
from contextlib import closing
from typing import Any

from sqlalchemy import create_engine, func, select

from brass.server.accountstore import AccountStore
from brass.server.auth import new_token, token_hash
from brass.server.signin import LINKS_PER_ACCOUNT
from brass.server.storebase import StoreBase
from brass.server.tables import players, seats, signin_links

from .accountsite import Site
from .mail import Mailbox
from .test_accounts import address, guest, sign_in_by_mail
from .test_leaks import SECRET_KEYS, keys_in


def scalar(db_url: str, query: Any) -> Any:
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            return conn.execute(query).scalar()
    finally:
        engine.dispose()


def links_to(db_url: str, email: str) -> int:
    return int(scalar(db_url, select(func.count()).select_from(signin_links).where(
        signin_links.c.email == email)))


def test_links_are_limited_per_account_with_the_answer_any_address_gets(
        site: Site, box: Mailbox, db_url: str) -> None:
    """An account whose links went to other addresses (it changed its address) is over its
    own limit: no link is made or mailed, and the answer is the one every address gets."""
    email = address("max")
    client, signed = sign_in_by_mail(site, box, email)
    client.close()
    max_id = signed["id"]
    base = StoreBase(db_url)
    try:
        for n in range(LINKS_PER_ACCOUNT):
            AccountStore(base).add_secret(token_hash(new_token()), "signin",
                                          dt.timedelta(minutes=15),
                                          email=f"old-{n}-{email}", player_id=max_id)
    finally:
        base.close()
    before = links_to(db_url, email)
    with site.browser() as client:
        limited = client.post("/api/signin/email", json={"email": email})
        unknown = client.post("/api/signin/email", json={"email": address("nobody")})
    assert limited.status_code == unknown.status_code == 202, (limited.text, unknown.text)
    assert limited.json() == unknown.json(), (limited.json(), unknown.json())
    assert links_to(db_url, email) == before, "over the account's limit: no new link"


def test_a_link_sent_to_another_address_never_signs_in_to_an_account(
        site: Site, box: Mailbox, db_url: str) -> None:
    """Ada's browser opens a link sent to another address: it becomes that address's own
    account; Ada's account keeps its address, and the link cannot reach it."""
    ada_email, other = address("ada"), address("mallory")
    laptop, ada = sign_in_by_mail(site, box, ada_email)
    with closing(laptop):
        _, signed = sign_in_by_mail(site, box, other, laptop)
        assert signed["id"] != ada["id"] and signed["email"] == other, (signed, ada)
        assert laptop.get("/api/me").json()["id"] == signed["id"]
    assert scalar(db_url, select(players.c.email).where(players.c.id == ada["id"])) == ada_email
    with closing(guest(site)) as stranger:
        _, taken = sign_in_by_mail(site, box, other, stranger)
        assert taken["id"] == signed["id"] != ada["id"], (taken, ada)


def test_a_deleted_accounts_seats_stay_in_their_games_anonymised(
        site: Site, box: Mailbox, db_url: str) -> None:
    email = address("zoe")
    zoe, me = sign_in_by_mail(site, box, email)
    with closing(zoe), closing(guest(site)) as other:
        made = zoe.post("/api/games", json={"players": 2, "name": "Zoe's last game"})
        assert made.status_code == 201, made.text
        game = made.json()
        for client, name in ((zoe, "Zoe Real-Name"), (other, "Other")):
            joined = client.post(f"/api/games/{game['id']}/join",
                                 json={"name": name, "invite": game["invite"]})
            assert joined.status_code == 201, joined.text
        assert zoe.delete("/api/account").status_code == 204
        shown = other.get(f"/api/games/{game['id']}")
        assert shown.status_code == 200, shown.text
        anonymous = scalar(db_url, select(players.c.name).where(players.c.id == me["id"]))
        assert anonymous.startswith("Player "), anonymous
        assert "Zoe Real-Name" not in shown.text and anonymous in shown.text, shown.text
        desk = other.get("/api/desk").json()["games"]
        names = [s["name"] for g in desk if g["id"] == game["id"] for s in g["seats"]]
        assert sorted(names) == sorted([anonymous, "Other"]), names
    kept = scalar(db_url, select(func.count()).select_from(seats).where(
        seats.c.game_id == game["id"], seats.c.player_id == me["id"]))
    assert kept == 1, "the seat stays, still the (deleted) player's"


def test_the_desk_and_a_profile_hold_no_hand(site: Site, box: Mailbox) -> None:
    email = address("hal")
    hal = sign_in_by_mail(site, box, email)[0]
    with closing(hal), closing(guest(site)) as bob:
        assert hal.patch("/api/me", json={"listed": True}).json()["listed"] is True
        made = hal.post("/api/games", json={"players": 2, "name": "Hands stay hidden"})
        assert made.status_code == 201, made.text
        game = made.json()
        for client, name in ((hal, "Hal"), (bob, "Bob")):
            joined = client.post(f"/api/games/{game['id']}/join",
                                 json={"name": name, "invite": game["invite"]})
            assert joined.status_code == 201, joined.text
        hands: list[str] = []
        for client in (hal, bob):
            state = client.get(f"/api/games/{game['id']}/state")
            assert state.status_code == 200, state.text
            view = state.json()["view"]
            hands += view["players"][state.json()["seat"]]["hand"]
        assert len(hands) >= 2 * 8, hands
        hal_id = hal.get("/api/me").json()["id"]
        pages = {"hal's desk": hal.get("/api/desk"), "bob's desk": bob.get("/api/desk"),
                 "hal's profile": bob.get(f"/api/players/{hal_id}")}
        for what, page in pages.items():
            assert page.status_code == 200, (what, page.text)
            assert not keys_in(page.json()) & (SECRET_KEYS | {"hand", "view", "legal"}), (
                what, page.text)
            leaked = [card for card in set(hands) if json.dumps(card) in page.text]
            assert not leaked, f"{what} names cards of a hand: {leaked}: {page.text}"
