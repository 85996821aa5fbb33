"""Issue 27's notices across two `brass serve` processes on one Postgres database
(docs/REACH.md): a player's socket that shows the game on one instance holds back the turn
notice that the other instance's commit would send (watching.py), and only while it shows the
game; a correspondence turn is mailed exactly once whichever instance committed it; both
instances run the daily digest, and each player gets one. The push service stand-in of
test_push.py and the SMTP server of mail.py (aiosmtpd) receive what is sent."""

from __future__ import annotations

import json
import queue
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, select
from websockets.sync.client import connect

from brass.server.tables import digests_sent, watching

from .conftest import Table
from .mail import Mailbox, smtp_server
from .test_accounts import address, token_of
from .test_clock_instances import heard, player
from .test_instances import Instance, cluster, instance_logs
from .test_notices import play_first_legal, show, socket_at
from .test_push import Browser, PushService, push_service, start_game  # noqa: F401
from .test_ratings import wait_for

WAIT = 60.0


def pushes_to(service: PushService, who: Browser) -> list[dict[str, Any]]:
    """The notices to `who` received so far (others are put back)."""
    path, mine, others = who.endpoint.removeprefix(service.origin), [], []
    while True:
        try:
            got = service.got.get_nowait()
        except queue.Empty:
            break
        (mine if got.path == path else others).append(got)
    for o in others:
        service.got.put(o)
    return [who.read(g) for g in mine]


def rows_of(url: str, game_id: str) -> list[tuple[str, str]]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return [(r.player_id, r.instance) for r in conn.execute(
                select(watching.c.player_id, watching.c.instance).where(
                    watching.c.game_id == game_id))]
    finally:
        engine.dispose()


def held_back(folder: Path, game_id: str, player_id: str) -> int:
    """How many of the game's notices to the player the instances held back (their logs)."""
    line = f"notice turn of game {game_id} to player {player_id} held back"
    return sum(p.read_text().count(line) for p in folder.glob("instance-*.log"))


def test_a_socket_showing_the_game_on_another_instance_holds_the_turn_notice(
        tmp_path: Path, push_service: PushService) -> None:  # noqa: F811
    extra = {"BRASS_PUSH_PRIVATE_ENDPOINTS": "1", "BRASS_LOG_LEVEL": "info"}
    with cluster(tmp_path, 2, bot_delay=0.0, extra=extra) as found:
        try:
            a, b = found.instances
            alice = player(b.base, push_service, "alice")
            bob = player(b.base, push_service, "bob")
            table, by_seat = start_game(alice, bob, "Across")
            # B started it (the joins went there); A may not have heard of the start yet
            first = b.http.get(table.url()).json()["current_seat"]
            watcher = by_seat[1 - first]
            watcher_id = watcher.client.get("/api/me").json()["id"]
            heard(push_service, watcher, "started", table.id)  # the start's notice
            with socket_at(b.ws, b.base, table.id, watcher) as ws, \
                    httpx.Client(base_url=a.base, timeout=60) as on_a:
                # the watcher's socket on B shows the game; A commits the move
                show(ws, True)
                assert [p for p, _ in rows_of(found.url, table.id)] == [watcher_id]
                moved, to = play_first_legal(on_a, table)
                assert (moved, to) == (first, 1 - first), (moved, to)
                wait_for(lambda: held_back(tmp_path, table.id, watcher_id) == 1,
                         "instance A to hold the turn notice back", timeout=WAIT)
                assert pushes_to(push_service, watcher) == [], "pushed while shown on B"

                # hidden: the watcher's next turn, committed on A again, is pushed
                show(ws, False)
                assert rows_of(found.url, table.id) == []
                while True:
                    moved, to = play_first_legal(on_a, table)
                    if to == 1 - first and moved != to:
                        break
                turn = heard(push_service, watcher, "turn", table.id)[-1]
                assert turn["seat"] == 1 - first, turn

                # shown again, then the socket closes: its row goes, the next turn is pushed
                show(ws, True)
                assert len(rows_of(found.url, table.id)) == 1
            wait_for(lambda: rows_of(found.url, table.id) == [],
                     "the closed socket's row to go", timeout=WAIT)
            with httpx.Client(base_url=a.base, timeout=60) as on_a:
                while True:
                    moved, to = play_first_legal(on_a, table)
                    if to == 1 - first and moved != to:
                        break
            heard(push_service, watcher, "turn", table.id)
            assert held_back(tmp_path, table.id, watcher_id) == 1
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{instance_logs(tmp_path)}") from None


# -- e-mail: the turn mail and the daily digest, each once across instances ----------------

SITE = "http://brass.test"  # both instances' public URL (behind one proxy): the Origin
CORRESPONDENCE = {"kind": "correspondence", "per_turn": 86_400.0}


def mail_env(box: Mailbox) -> dict[str, str]:
    return {"BRASS_SMTP_HOST": "127.0.0.1", "BRASS_SMTP_PORT": str(box.port),
            "BRASS_SMTP_TLS": "none", "BRASS_MAIL_FROM": "Brass <brass@test.invalid>",
            "BRASS_PUBLIC_URL": SITE, "BRASS_SIGNIN_LIMIT": "1000",
            "BRASS_MAIL_DIGEST_HOUR": "0", "BRASS_MAIL_DIGEST_EVERY": "0.2",
            "BRASS_LOG_LEVEL": "info"}


def browser(inst: Instance) -> httpx.Client:
    return httpx.Client(base_url=inst.base, timeout=60, headers={"Origin": SITE})


def mail_player(inst: Instance, box: Mailbox, tag: str,
                **switches: bool) -> tuple[httpx.Client, str]:
    """A player signed in on `inst` by the link mailed to a new address (and it), with
    these switches."""
    email = address(tag)
    with browser(inst) as asker:
        asked = asker.post("/api/signin/email", json={"email": email})
        assert asked.status_code == 202, asked.text
    client = browser(inst)
    opened = client.post("/api/signin/link", json={"token": token_of(box.link_for(email))})
    assert opened.status_code == 200, opened.text
    put = client.put("/api/me/email-notices", json=switches)
    assert put.status_code == 200, put.text
    return client, email


def guest(inst: Instance) -> httpx.Client:
    client = browser(inst)
    assert client.post("/api/session").status_code == 201
    return client


def joined(name: str, *players: httpx.Client) -> tuple[Table, list[int]]:
    """A running correspondence game of these players (each joins with its cookie): the
    table and each player's seat."""
    made = players[0].post("/api/games", json={"players": len(players), "name": name,
                                               "clock": CORRESPONDENCE})
    assert made.status_code == 201, made.text
    table = Table(id=made.json()["id"], host=made.json()["host_token"],
                  invite=made.json()["invite"])
    seats = []
    for i, client in enumerate(players):
        got = client.post(table.url("/join"), json={"name": f"P{i}", "invite": table.invite})
        assert got.status_code == 201, got.text
        table.tokens[got.json()["seat"]] = got.json()["token"]
        seats.append(got.json()["seat"])
    return table, seats


def about(game: Table) -> Any:
    return lambda m: game.id in m.get_body(("plain",)).get_content()


def mails_about(box: Mailbox, email: str, game: Table) -> int:
    with box.arrived:
        return sum(1 for m in box.notices.get(email, []) if about(game)(m))


def test_a_correspondence_turn_is_mailed_once_across_instances(
        tmp_path: Path) -> None:
    with smtp_server() as box, cluster(tmp_path, 2, bot_delay=0.0,
                                       extra=mail_env(box)) as found:
        try:
            a, b = found.instances
            ada, email = mail_player(a, box, "ada", turn=True)
            bob = guest(b)
            table, (ada_seat, _) = joined("Posted", ada, bob)
            # the instance of the last join started the game (and told Ada if she is to
            # move); the other one may not have heard of the start yet
            started = bob.get(table.url()).json()
            assert started["status"] == "running", started
            told = int(started["current_seat"] == ada_seat)
            with connect(f"{a.ws}/ws/games/{table.id}", open_timeout=30) as on_a, \
                    connect(f"{b.ws}/ws/games/{table.id}", open_timeout=30) as on_b:
                for ws in (on_a, on_b):  # spectators: both instances hold the game
                    ws.send(json.dumps({"type": "hello", "token": None}))
                    assert json.loads(ws.recv(timeout=30))["type"] == "state"
                for inst in (a, b, a, b, a, b, a, b):  # each move through the other one
                    with httpx.Client(base_url=inst.base, timeout=60) as http:
                        moved, to = play_first_legal(http, table)
                        told += to == ada_seat and moved != to
                        version = http.get(table.url()).json()["version"]
                    for ws in (on_a, on_b):  # each instance caught up with the move
                        while (json.loads(ws.recv(timeout=30)).get("version") or 0) < version:
                            pass
            assert told >= 2, told
            wait_for(lambda: mails_about(box, email, table) >= told,
                     f"{told} turn mails to Ada", timeout=WAIT)
            # a later game's turn mail, committed on each instance: a second mail of a turn
            # of the first game, started before it, would have come before it
            later, (ada_later, _) = joined("Later", ada, bob)
            for inst in (a, b):
                with httpx.Client(base_url=inst.base, timeout=60) as http:
                    while True:
                        moved, to = play_first_legal(http, later)
                        if to == ada_later and moved != to:
                            break
            wait_for(lambda: mails_about(box, email, later) >= 2, "the later game's mails",
                     timeout=WAIT)
            assert mails_about(box, email, table) == told, box.subjects(email)
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{instance_logs(tmp_path)}") from None


def test_both_instances_run_the_digest_and_each_player_gets_one(tmp_path: Path) -> None:
    players = 6
    with smtp_server() as box, cluster(tmp_path, 2, bot_delay=0.0,
                                       extra=mail_env(box)) as found:
        try:
            a, b = found.instances
            waiting = []  # (client, address): a player whose turn it is, digest off yet
            for i in range(players + 1):
                inst = (a, b)[i % 2]
                me, email = mail_player(inst, box, f"digest{i}", digest=False)
                table, (mine, _) = joined(f"Digest {i}", me, guest(inst))
                with httpx.Client(base_url=inst.base, timeout=60) as http:
                    while http.get(table.url()).json()["current_seat"] != mine:
                        play_first_legal(http, table)
                waiting.append((me, email))
            *racing, (last, last_email) = waiting
            for me, _ in racing:  # all due at once: both instances look 5 times a second
                assert me.put("/api/me/email-notices", json={"digest": True}).status_code == 200

            def digests(email: str) -> list[str]:
                return [s for s in box.subjects(email) if s.startswith("Brass:")]

            wait_for(lambda: all(digests(e) for _, e in racing), "a digest to each player",
                     timeout=WAIT)
            # one more player, after: every digest claimed before it has come by then
            assert last.put("/api/me/email-notices", json={"digest": True}).status_code == 200
            box.notice_for(last_email, lambda m: str(m["Subject"]).startswith("Brass:"))
            assert {e: len(digests(e)) for _, e in waiting} == {e: 1 for _, e in waiting}
            engine = create_engine(found.url)
            try:
                with engine.connect() as conn:
                    claims = conn.execute(select(digests_sent.c.player_id)).scalars().all()
            finally:
                engine.dispose()
            assert len(claims) == len(set(claims)) == players + 1, claims
            sent_by = [p.read_text().count("sent the digest of") for p in
                       sorted(tmp_path.glob("instance-*.log"))]
            assert sum(sent_by) == players + 1, sent_by
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{instance_logs(tmp_path)}") from None
