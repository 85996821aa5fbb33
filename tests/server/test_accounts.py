"""Accounts (issue 24, docs/PLAYERS.md): the e-mail sign-in link through a real SMTP server
(aiosmtpd, started here), its refusals (wrong, expired, reused, for an address its account no
longer has), no enumeration of addresses, the rate limit per address, the account's devices,
signing out and deleting the account, `brass admin grant` and `brass admin link`, and a passkey
answer for another origin. SQLite and Postgres. The passkey ceremonies themselves run in
chromium with a virtual authenticator (tests/e2e/test_accounts.py)."""

from __future__ import annotations

import base64
import contextlib
import datetime as dt
import io
import json
import re
from contextlib import closing
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select

from brass.cli import main as brass
from brass.server.accountstore import AccountStore
from brass.server.auth import new_token, token_hash
from brass.server.storebase import StoreBase
from brass.server.tables import players, signin_links

from .accountsite import Site
from .conftest import run_in_own_loop
from .mail import LINK, Mailbox


def address(tag: str) -> str:
    return f"{tag}-{new_token()[:8].lower().replace('_', 'x').replace('-', 'y')}@test.invalid"


def token_of(link: str) -> str:
    found = LINK.fullmatch(link)
    assert found, link
    return found.group(1)


def guest(site: Site) -> httpx.Client:
    client = site.browser()
    made = client.post("/api/session")
    assert made.status_code == 201, made.text
    return client


def sign_in_by_mail(site: Site, box: Mailbox, email: str,
                    client: httpx.Client | None = None) -> tuple[httpx.Client, dict[str, Any]]:
    """Ask for a link to `email`, and open it in `client` (a fresh browser by default)."""
    with site.browser() as asker:
        asked = asker.post("/api/signin/email", json={"email": email})
        assert asked.status_code == 202, asked.text
    token = token_of(box.link_for(email))
    client = client or site.browser()
    opened = client.post("/api/signin/link", json={"token": token})
    assert opened.status_code == 200, opened.text
    return client, opened.json()


def test_the_server_says_what_it_offers(site: Site, db_url: str) -> None:
    with site.browser() as client:
        assert client.get("/api/signin/options").json() == {"passkey": True, "email": True}
    with Site(db_url, None) as bare, bare.browser() as client:
        # no mail server: no e-mail sign-in (a public URL is set: passkeys are offered)
        assert client.get("/api/signin/options").json() == {"passkey": True, "email": False}
        refused = client.post("/api/signin/email", json={"email": "a@test.invalid"})
        assert refused.status_code == 404 and refused.json()["code"] == "not_offered", refused.text


def test_a_mailed_link_signs_a_fresh_browser_in_once(site: Site, box: Mailbox) -> None:
    email = address("ada")
    with closing(guest(site)) as laptop:
        asked = laptop.post("/api/signin/email", json={"email": email.upper()})
        assert asked.status_code == 202, asked.text
        token = token_of(box.link_for(email))
        # the guest opens its link on the same browser: it becomes the account, games and all
        first = laptop.post("/api/signin/link", json={"token": token})
        assert first.status_code == 200, first.text
        ada = first.json()
        assert ada["account"] is True and ada["email"] == email, ada
        assert laptop.get("/api/me").json()["id"] == ada["id"]
        reused = laptop.post("/api/signin/link", json={"token": token})
        assert reused.status_code == 410 and reused.json()["code"] == "link_used", reused.text
    phone, signed = sign_in_by_mail(site, box, email)
    with closing(phone):
        assert signed["id"] == ada["id"], (signed, ada)
        assert phone.get("/api/me").json()["id"] == ada["id"]
        devices = phone.get("/api/account").json()["devices"]
        assert len(devices) == 2 and sum(d["current"] for d in devices) == 1, devices


def test_wrong_expired_and_reused_links_are_refused_and_change_nothing(
        site: Site, box: Mailbox, db_url: str) -> None:
    email = address("bea")
    token = new_token()
    base = StoreBase(db_url)
    try:
        AccountStore(base).add_secret(token_hash(token), "signin", dt.timedelta(minutes=-1),
                                      email=email)
    finally:
        base.close()
    with site.browser() as client:
        expired = client.post("/api/signin/link", json={"token": token})
        assert expired.status_code == 410 and expired.json()["code"] == "link_expired", (
            expired.text)
        wrong = client.post("/api/signin/link", json={"token": new_token()})
        assert wrong.status_code == 400 and wrong.json()["code"] == "link_invalid", wrong.text
        assert "brass_device" not in client.cookies, "a refused link signs nobody in"
        assert client.get("/api/me").status_code == 401
    assert _player_by_email(db_url, email) is None, "a refused link makes no account"


def test_the_answer_is_the_same_for_known_and_unknown_addresses(
        site: Site, box: Mailbox) -> None:
    known = address("cy")
    sign_in_by_mail(site, box, known)[0].close()
    unknown = address("nobody")
    with site.browser() as client:
        answers = [client.post("/api/signin/email", json={"email": e}) for e in (known, unknown)]
    assert [a.status_code for a in answers] == [202, 202], [a.text for a in answers]
    assert answers[0].json() == answers[1].json(), [a.json() for a in answers]
    for email in (known, unknown):  # both get a link: one to sign in, one to make an account
        box.link_for(email)


def test_a_link_cannot_sign_in_to_an_account_that_left_its_address(
        site: Site, box: Mailbox, db_url: str) -> None:
    email = address("dee")
    first, dee = sign_in_by_mail(site, box, email)
    with site.browser() as asker:
        assert asker.post("/api/signin/email", json={"email": email}).status_code == 202
    token = token_of(box.link_for(email))  # a link for Dee's account...
    with closing(first):
        deleted = first.delete("/api/account")  # ...and the account is deleted meanwhile
        assert deleted.status_code == 204, deleted.text
    with site.browser() as other:
        refused = other.post("/api/signin/link", json={"token": token})
        assert refused.status_code == 400 and refused.json()["code"] == "link_invalid", (
            refused.text)
        assert "brass_device" not in other.cookies
    row = _player(db_url, dee["id"])
    assert row.email is None and row.deleted_at is not None, row
    assert re.fullmatch(r"Player \d+", row.name or ""), row.name


def test_links_are_rate_limited_per_address(site: Site, box: Mailbox) -> None:
    email = address("eve")
    with site.browser() as client:
        codes = [client.post("/api/signin/email", json={"email": email}).status_code
                 for _ in range(6)]
        assert codes == [202] * 5 + [429], codes
        other = client.post("/api/signin/email", json={"email": address("fay")})
        assert other.status_code == 202, "another address is not limited: " + other.text


def test_account_devices_sign_out_and_delete(site: Site, box: Mailbox, db_url: str) -> None:
    email = address("gus")
    laptop, gus = sign_in_by_mail(site, box, email)
    phone = sign_in_by_mail(site, box, email)[0]
    with closing(laptop), closing(phone):
        assert laptop.patch("/api/me", json={"name": "Gus"}).json()["name"] == "Gus"
        held = laptop.get("/api/account").json()
        assert held["me"]["name"] == "Gus" and held["passkeys"] == [], held
        phone_id = next(d["id"] for d in held["devices"] if not d["current"])
        removed = laptop.delete(f"/api/account/devices/{phone_id}")
        assert removed.status_code == 204, removed.text
        assert phone.get("/api/me").status_code == 401, "a removed device signs nobody in"
        again = laptop.delete(f"/api/account/devices/{phone_id}")
        assert again.status_code == 404, again.text
        out = laptop.post("/api/account/signout")
        assert out.status_code == 204 and laptop.get("/api/me").status_code == 401, out.text
        forged = httpx.post(f"{site.base}/api/account/signout", headers={
            "Origin": "https://evil.invalid"}, cookies={"brass_device": "x"})
        assert forged.status_code == 403, forged.text
    assert _player(db_url, gus["id"]).email == email, "signing out keeps the account"


def test_brass_admin_link_and_grant(site: Site, box: Mailbox, db_url: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert brass(["admin", "--database", db_url, "link", "--url", site.base]) == 0
    printed = capsys.readouterr().out.strip()
    assert printed.startswith(f"{site.base}/#/signin/"), printed
    with site.browser() as client:
        opened = client.post("/api/signin/link", json={"token": LINK.search(printed)[1]})
        assert opened.status_code == 200 and opened.json()["role"] == "admin", opened.text
    email = address("hal")
    hal = sign_in_by_mail(site, box, email)[0]
    with closing(hal):
        assert hal.get("/api/me").json()["role"] == "player"
        with contextlib.redirect_stdout(io.StringIO()):
            assert brass(["admin", "--database", db_url, "grant", email]) == 0
        assert hal.get("/api/me").json()["role"] == "admin"
        hal_id = hal.get("/api/me").json()["id"]
        capsys.readouterr()
        # `--database` after the subcommand too; the admins listed; an admin revoked
        assert brass(["admin", "list", "--database", db_url]) == 0
        assert f"{hal_id}  {email}" in capsys.readouterr().out.splitlines()
        assert brass(["admin", "revoke", hal_id, "--database", db_url]) == 0
        assert capsys.readouterr().out.strip() == (
            f"player {hal_id} ({email}) is no longer an admin")
        assert hal.get("/api/me").json()["role"] == "player"
        assert brass(["admin", "list", "--database", db_url]) == 0
        left = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
        assert hal_id not in left and left, left  # the link's admin at least
        for n, other in enumerate(left, 1):  # the last one revoked is told none is left
            assert brass(["admin", "revoke", other, "--database", db_url]) == 0
            warned = "no admins left" in capsys.readouterr().err
            assert warned == (n == len(left)), (n, left)
    assert brass(["admin", "--database", db_url, "grant", "no-such-player"]) == 1


def test_only_an_admin_passes_the_admin_dependency() -> None:
    from brass.server.deps import admin
    from brass.server.errors import ApiError
    from brass.server.playerstore import Player

    def player(role: str) -> Player:
        return Player(id="p", name=None, email=None, account=True, role=role, listed=False,
                      device_id="d")

    assert run_in_own_loop(admin(player("admin"))).role == "admin"
    with pytest.raises(ApiError) as refused:
        run_in_own_loop(admin(player("player")))
    assert refused.value.code == "forbidden" and refused.value.status == 403


def test_a_passkey_answer_for_another_origin_is_refused(site: Site) -> None:
    with closing(guest(site)) as client:
        options = client.post("/api/passkeys/signin/options")
        assert options.status_code == 200, options.text
        challenge = options.json()["challenge"]
        data = json.dumps({"type": "webauthn.get", "challenge": challenge,
                           "origin": "https://evil.invalid"}).encode()
        answer = {"id": "AA", "rawId": "AA", "type": "public-key", "response": {
            "clientDataJSON": base64.urlsafe_b64encode(data).decode().rstrip("="),
            "authenticatorData": "AA", "signature": "AA"}}
        refused = client.post("/api/passkeys/signin", json={"credential": answer})
        assert refused.status_code == 400 and refused.json()["code"] == "wrong_origin", (
            refused.text)
        me = client.get("/api/me").json()
        assert me["account"] is False, "nothing changed: " + json.dumps(me)


def _player(db_url: str, player_id: str) -> Any:
    return _first(db_url, select(players).where(players.c.id == player_id))


def _player_by_email(db_url: str, email: str) -> Any:
    """The player with this address (None), its links all unspent."""
    spent = _first(db_url, select(signin_links.c.used_at).where(
        signin_links.c.email == email, signin_links.c.used_at.is_not(None)))
    assert spent is None, spent
    return _first(db_url, select(players).where(players.c.email == email))


def _first(db_url: str, query: Any) -> Any:
    engine = create_engine(db_url)
    with engine.connect() as conn:
        found = conn.execute(query).first()
    engine.dispose()
    return found


@pytest.mark.parametrize(("url", "rp_id", "offered"), [
    ("https://brass.example.org", None, "brass.example.org"),
    ("https://play.brass.example.org", "brass.example.org", "brass.example.org"),
    ("http://localhost:8000", None, "localhost"),
    ("http://brass.localhost:8000", None, "brass.localhost"),
    ("http://127.0.0.1:8815", None, None),  # an address: no browser makes a passkey for it
    ("https://192.0.2.7", None, None),
    ("https://[2001:db8::1]:8443", None, None),
    ("http://brass.example.org", None, None),  # not a secure context
    (None, None, None)])
def test_passkeys_are_offered_only_where_a_browser_can_make_one(
        url: str | None, rp_id: str | None, offered: str | None) -> None:
    """A public URL that names an address, or a site on plain HTTP but localhost, offers no
    passkeys (the page's "Add a passkey" did nothing there), and the start says why."""
    from brass.server import Settings
    from brass.server.signin import passkeys_refused, relying_party

    settings = Settings(database_url="sqlite://", public_url=url, rp_id=rp_id)
    party = relying_party(settings)
    assert (party and party[0]) == offered, party
    refused = passkeys_refused(settings)
    assert (refused is None) == (offered is not None or url is None), refused
    if refused is not None:
        assert url is not None and url in refused, refused
