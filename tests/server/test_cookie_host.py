"""The host's powers follow the player who created the game to their other devices, by their
player cookie, as their seats do (docs/PLAYERS.md "Hosting from any device"): the host link
stays in the browser that made the game, and another device of the same account adds bots,
renews the invite, moderates the chat and cancels without it; the desk lists a game its
player hosts without a seat; a guest who signs in brings the games it hosts; a rematch is its
offerer's. Nobody else's cookie, a wrong token, or a write from another site hosts anything.
SQLite and Postgres, signed in through mailed links over a real SMTP server (aiosmtpd)."""

from __future__ import annotations

from contextlib import closing
from typing import Any

import httpx

from .accountsite import Site
from .mail import Mailbox
from .test_accounts import address, guest, sign_in_by_mail
from .test_rematch import Ended


def hosting(client: httpx.Client, game: str, token: str | None = None) -> Any:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    answer = client.get(f"/api/games/{game}/hosting", headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()["host"]


def hosted_on_desk(client: httpx.Client) -> list[dict[str, Any]]:
    desk = client.get("/api/desk")
    assert desk.status_code == 200, desk.text
    hosted: list[dict[str, Any]] = desk.json()["hosting"]
    return hosted


def refused(answer: httpx.Response, code: str, status: int) -> None:
    assert answer.status_code == status, (answer.status_code, answer.text)
    assert answer.json()["code"] == code, answer.text


def test_the_creators_other_device_hosts_by_its_cookie(site: Site, box: Mailbox) -> None:
    email = address("hal")
    laptop, hal = sign_in_by_mail(site, box, email)
    phone, same = sign_in_by_mail(site, box, email)
    with closing(laptop), closing(phone), closing(guest(site)) as stranger:
        assert same["id"] == hal["id"]
        made = laptop.post("/api/games", json={"players": 3, "name": "Hal hosts"})
        assert made.status_code == 201, made.text
        game = made.json()["id"]
        url = f"/api/games/{game}"
        assert hosting(laptop, game, made.json()["host_token"]) is True
        assert hosting(phone, game) is True, "the phone holds no host link, but is Hal's"
        assert hosting(stranger, game) is False
        assert hosting(phone, game, "not-the-host-token") is False, "a token is read alone"
        assert [(g["id"], g["status"], g["free"]) for g in hosted_on_desk(phone)] == [
            (game, "waiting", 3)], "hosted without a seat: on the desk all the same"
        assert hosted_on_desk(stranger) == []

        # the phone hosts: a bot, the invite renewed, the chat moderated
        added = phone.post(f"{url}/bots", json={"level": "easy"})
        assert added.status_code == 201, added.text
        renewed = phone.post(f"{url}/invite", json={})
        assert renewed.status_code == 200, renewed.text
        muted = phone.post(f"{url}/chat/mute", json={"seat": None, "muted": True})
        assert muted.status_code == 200, muted.text
        # nobody else: another player's cookie, a wrong token, a write from another site
        refused(stranger.post(f"{url}/bots", json={}), "unauthorized", 401)
        refused(phone.post(f"{url}/bots", json={}, headers={"Authorization": "Bearer nope"}),
                "unauthorized", 401)
        refused(phone.post(f"{url}/bots", json={}, headers={"Origin": "https://evil.test"}),
                "forbidden", 403)
        info = phone.get(url).json()
        assert [s["bot"] for s in info["seats"]].count(True) == 1, info

        # a stranger takes a seat with the new invite: the game waits for one more
        joined = stranger.post(f"{url}/join", json={"name": "Stranger",
                                                    "invite": renewed.json()["invite"]})
        assert joined.status_code == 201, joined.text
        assert [(g["id"], g["free"]) for g in hosted_on_desk(laptop)] == [(game, 1)]
        cancelled = phone.post(f"{url}/cancel", json={})
        assert cancelled.status_code == 200, cancelled.text
        assert cancelled.json()["status"] == "cancelled", cancelled.text
        assert hosted_on_desk(phone) == [], "a cancelled game is hosted no more"


def test_a_seated_host_finds_the_game_among_their_seats(site: Site, box: Mailbox) -> None:
    """A host with a seat sees the game where their seats are, once: not twice."""
    laptop, _ = sign_in_by_mail(site, box, address("ida"))
    with closing(laptop):
        made = laptop.post("/api/games", json={"players": 2, "name": "Ida plays"}).json()
        joined = laptop.post(f"/api/games/{made['id']}/join",
                             json={"name": "Ida", "invite": made["invite"]})
        assert joined.status_code == 201, joined.text
        desk = laptop.get("/api/desk").json()
        assert [g["id"] for g in desk["games"]] == [made["id"]] and desk["hosting"] == [], desk


def test_a_guest_who_signs_in_brings_the_games_it_hosts(site: Site, box: Mailbox) -> None:
    email = address("jo")
    laptop, jo = sign_in_by_mail(site, box, email)
    with closing(laptop), closing(guest(site)) as phone:
        made = phone.post("/api/games", json={"players": 2, "name": "Made as a guest"})
        assert made.status_code == 201, made.text
        game = made.json()["id"]
        assert hosting(phone, game) is True and hosting(laptop, game) is False
        _, signed = sign_in_by_mail(site, box, email, phone)
        assert signed["id"] == jo["id"]
        assert hosting(laptop, game) is True, "the account hosts what its guest made"
        assert hosting(phone, game) is True
        assert [g["id"] for g in hosted_on_desk(laptop)] == [game]
        added = laptop.post(f"/api/games/{game}/bots", json={})
        assert added.status_code == 201, added.text


def test_a_rematch_is_hosted_by_its_offerers_player(site: Site, box: Mailbox) -> None:
    """The rematch's host token goes to the offerer's browser; their player hosts it on
    their other devices too."""
    email = address("kit")
    laptop, _ = sign_in_by_mail(site, box, email)
    phone, _ = sign_in_by_mail(site, box, email)
    with closing(laptop), closing(phone), closing(guest(site)) as stranger:
        ended = Ended(laptop, 1, 1)  # the laptop's seat is its player's (the cookie)
        ended.finished()
        (seat,) = ended.tokens
        offered = ended.post(seat, "/rematch", {"empty_seats": "bot"})
        assert offered.status_code == 200, offered.text
        new = offered.json()["new_game_id"]
        assert new, offered.text  # nobody else to answer: made at once
        assert hosting(phone, new) is True and hosting(stranger, new) is False
        assert hosting(phone, ended.id) is True and hosting(stranger, ended.id) is False
