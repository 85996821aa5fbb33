"""The admin page's list of instances (instancelist.py): each instance writes its figures every
`BRASS_INSTANCE_REPORT_EVERY` seconds and deletes them when it stops; the list shows this
instance's counted now, the others' as each last wrote them, one silent for three reports as
silent, and forgets one silent for a day. Two real instances on one Postgres see each other,
and one that stops leaves the other's list."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

import httpx

from brass.server import Settings
from brass.server.hostfacts import Figures
from brass.server.instancelist import InstanceStore
from brass.server.storebase import StoreBase

from .conftest import LiveServer
from .databases import fresh_postgres
from .test_admin_page import make_admin
from .test_players import browser


def listed(client: httpx.Client) -> list[dict[str, Any]]:
    got = client.get("/api/admin/instances")
    assert got.status_code == 200, got.text
    entries: list[dict[str, Any]] = got.json()["instances"]
    return entries


def test_only_an_admin_may_list_them(server: LiveServer) -> None:
    with browser(server) as guest, httpx.Client(base_url=server.base, timeout=60) as stranger:
        assert guest.post("/api/session").status_code == 201
        assert guest.get("/api/admin/instances").status_code == 403
        assert stranger.get("/api/admin/instances").status_code == 401


def test_this_instance_first_a_silent_one_said_and_a_day_old_one_forgotten(
        server: LiveServer) -> None:
    with make_admin(server) as admin:
        mine = admin.get("/api/admin/figures").json()
        first = listed(admin)[0]
        assert first["this"] is True and first["silent"] is False, first
        assert first["figures"]["instance"] == mine["instance"], (first, mine)
        assert first["seconds_ago"] == 0.0, first
        base = StoreBase(server.settings.database_url)
        try:
            store = InstanceStore(base)
            now = dt.datetime.now(dt.UTC)
            other = Figures.model_validate({**mine, "instance": "elsewhere:1:a", "sockets": 7})
            gone = Figures.model_validate({**mine, "instance": "gone:2:b"})
            store.report(gone, now - dt.timedelta(days=2))  # its own cleanup keeps it
            assert "gone:2:b" in [f.instance for f, _ in store.rows()]
            # the next report of any instance deletes a row silent for more than a day
            store.report(other, now - dt.timedelta(minutes=5))
            entries = {e["figures"]["instance"]: e for e in listed(admin)}
            assert "gone:2:b" not in entries, entries.keys()
            seen = entries["elsewhere:1:a"]
            assert seen["this"] is False and seen["silent"] is True, seen
            assert seen["figures"]["sockets"] == 7 and 299 <= seen["seconds_ago"] < 400, seen
            store.report(other, dt.datetime.now(dt.UTC))  # it writes again: heard from
            again = {e["figures"]["instance"]: e for e in listed(admin)}["elsewhere:1:a"]
            assert again["silent"] is False and again["seconds_ago"] < 60, again
            store.forget("elsewhere:1:a")
        finally:
            base.close()


def test_two_instances_list_each_other_and_a_stopped_one_leaves(tmp_path: Any) -> None:
    with fresh_postgres("brass_instances") as url:
        made = [Settings(database_url=url, bot_delay=0.0, join_limit=0,
                         instance_report_every=0.2) for _ in range(2)]
        with LiveServer(made[0]) as a, make_admin(a) as admin:
            b = LiveServer(made[1]).__enter__()
            try:
                with httpx.Client(base_url=b.base, timeout=60, cookies=admin.cookies,
                                  headers={"Origin": b.base}) as admin_on_b:
                    on_a, on_b = listed(admin), listed(admin_on_b)
                    deadline = time.monotonic() + 20
                    while len(on_a) < 2 or len(on_b) < 2:
                        assert time.monotonic() < deadline, f"A lists {on_a}, B lists {on_b}"
                        time.sleep(0.05)
                        on_a, on_b = listed(admin), listed(admin_on_b)
                    assert [e["this"] for e in on_a] == [True, False], on_a
                    assert on_a[0]["figures"]["instance"] == on_b[1]["figures"]["instance"]
                    assert on_b[0]["figures"]["instance"] == on_a[1]["figures"]["instance"]
                    assert not any(e["silent"] for e in on_a + on_b), (on_a, on_b)
                    assert listed(admin)[0]["figures"]["instance"] != on_b[0]["figures"][
                        "instance"], "each instance answers with itself first"
            finally:
                b.__exit__(None, None, None)
            # B deleted its row as it stopped: A no longer lists it
            entries = listed(admin)
            deadline = time.monotonic() + 20
            while len(entries) != 1:
                assert time.monotonic() < deadline, f"A still lists {entries}"
                time.sleep(0.05)
                entries = listed(admin)
            assert entries[0]["this"] is True, entries
