"""A clock reminder is sent once across two `brass serve` processes on one Postgres database,
and across the loss of the instance that sent it: the instance holding the game's lease sends
the reminder at a quarter of the turn left; it is then stopped, the other takes the game over
before the deadline, finds the reminder due and marked sent (`clock_reminders`), and sends
nothing more; it times the seat out at the deadline. The push service stand-in of
test_push.py receives every notice (docs/REACH.md)."""

from __future__ import annotations

import os
import queue
import secrets
import time
from pathlib import Path
from typing import Any

import httpx
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import create_engine, select

from brass.server.tables import clock_reminders

from .conftest import Table, auth
from .test_instances import cluster, instance_logs
from .test_push import Browser, PushService, push_service  # noqa: F401  (the fixture)

PER_TURN = 24.0  # seconds: the reminder at 18 s, the deadline at 24 s (time to take over)
WAIT = 40.0


def player(base: str, service: PushService, name: str) -> Browser:
    client = httpx.Client(base_url=base, timeout=30, headers={"Origin": base})
    assert client.post("/api/session").status_code == 201
    me = Browser(client, ec.generate_private_key(ec.SECP256R1()), os.urandom(16),
                 f"{service.origin}/push/{name}-{secrets.token_hex(4)}")
    made = client.post("/api/push/subscription", json=me.subscription())
    assert made.status_code == 204, made.text
    return me


def heard(service: PushService, who: Browser, kind: str, game: str) -> list[dict[str, Any]]:
    """The notices to `who` until one of `kind` for `game` (the last); fails after WAIT."""
    got: list[dict[str, Any]] = []
    path = who.endpoint.removeprefix(service.origin)
    until = time.monotonic() + WAIT
    while time.monotonic() < until:
        got.append(who.read(service.next(path)))
        if got[-1]["kind"] == kind and got[-1]["game"] == game:
            return got
    raise AssertionError(f"no {kind} notice for {game}; heard {got}")


def test_a_reminder_is_sent_once_across_instances_and_a_takeover(
        tmp_path: Path, push_service: PushService) -> None:  # noqa: F811
    extra = {"BRASS_PUSH_PRIVATE_ENDPOINTS": "1", "BRASS_REMIND_MINIMUM": "1",
             "BRASS_CLOCK_MINIMUM": "1", "BRASS_LOG_LEVEL": "info"}
    with cluster(tmp_path, 2, bot_delay=0.0, extra=extra) as found:
        try:
            a, b = found.instances
            alice, bob = player(a.base, push_service, "alice"), player(b.base, push_service,
                                                                       "bob")
            made = alice.client.post("/api/games", json={
                "players": 2, "name": "Two instances",
                "clock": {"kind": "correspondence", "per_turn": PER_TURN}})
            assert made.status_code == 201, made.text
            table = Table(id=made.json()["id"], host=made.json()["host_token"],
                          invite=made.json()["invite"])
            by_seat = {}
            for who, name in ((alice, "Alice"), (bob, "Bob")):
                joined = who.client.post(table.url("/join"), json={"name": name,
                                                                   "invite": table.invite})
                assert joined.status_code == 201, joined.text
                table.tokens[joined.json()["seat"]] = joined.json()["token"]
                by_seat[joined.json()["seat"]] = who
            first = a.http.get(table.url("/state"), headers=auth(table.tokens[0])
                               ).json()["view"]["current_seat"]
            mover, other = by_seat[first], by_seat[1 - first]
            told = heard(push_service, mover, "clock", table.id)[-1]
            assert told["threshold"] == "quarter" and told["seat"] == first, told
            # the sender goes (a graceful stop gives its leases up): the other takes over
            owner = found.owners()[table.id]
            (sender,) = [i for i in found.instances if i.proc.pid == owner]
            (survivor,) = [i for i in found.instances if i is not sender]
            sender.proc.terminate()
            sender.proc.wait(timeout=30)
            heard(push_service, other, "turn", table.id)  # after the time-out, the bot moved
            seats = survivor.http.get(table.url("/state")).json()["seats"]
            assert seats[first]["stand_in"] == "timeout", seats
            late = []
            path = mover.endpoint.removeprefix(push_service.origin)
            while True:
                try:
                    got = push_service.got.get_nowait()
                except queue.Empty:
                    break
                if got.path == path:
                    late.append(mover.read(got))
            assert not [n for n in late if n["kind"] == "clock"
                        and n["game"] == table.id and n["seat"] == first], late
            engine = create_engine(found.url)
            try:
                with engine.connect() as conn:
                    marks = conn.execute(select(clock_reminders.c.threshold).where(
                        clock_reminders.c.game_id == table.id)).scalars().all()
            finally:
                engine.dispose()
            assert list(marks) == ["quarter"], marks
            # the survivor took the game over before the deadline and found it marked
            port = survivor.base.rsplit(":", 1)[1]
            said = (tmp_path / f"instance-{port}.log").read_text()
            assert f"clock reminder quarter of game {table.id} was sent already" in said
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{instance_logs(tmp_path)}") from None
