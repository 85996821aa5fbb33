"""The state message's `may` (what the viewing seat may do: resign, take its seat back, hand an
idle seat to a bot, from when) is true exactly when the route accepts: every flag that is false
is checked refused by its route, every one that is true is then done through its route, and a
hand-over is accepted only from the time the message gave. Through a game's life: at the start,
a seat handed over and taken back, a resignation, a game with a clock. The
oracle is the server's own routes (SQLite and Postgres)."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from brass.server import Settings

from .conftest import LiveServer, Table, auth
from .databases import fresh_like
from .test_clocks import new_table


@pytest.fixture(scope="module")
def patient(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    # bots wait long before they move: what a seat may do stays put while it is checked; on a
    # database of its own (databases.fresh_like), where no earlier test's games run
    with fresh_like(db_url, tmp_path_factory.mktemp("permissions")) as url, \
            LiveServer(Settings(database_url=url, bot_delay=60, join_limit=0,
                                clock_minimum=1.0)) as live, \
            httpx.Client(base_url=live.base, timeout=60) as http:
        yield http


def may(http: httpx.Client, table: Table, seat: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The seat's state message and its `may`."""
    st = http.get(table.url("/state"), headers=auth(table.tokens[seat])).json()
    assert st["seat"] == seat and st["may"] is not None, st.get("may")
    return st, st["may"]


def post(http: httpx.Client, table: Table, seat: int, path: str,
         body: dict[str, Any]) -> httpx.Response:
    return http.post(table.url(path), headers=auth(table.tokens[seat]), json=body)


def refused_where_not_allowed(http: httpx.Client, table: Table) -> None:
    """For every seat: each action its `may` does not allow is refused by its route (409 or
    404, never `not_yet` nor `stale_version`: a rule refused it, not the time or a race)."""
    for seat in table.tokens:
        st, allowed = may(http, table, seat)
        at = {"expected_version": st["version"]}
        tries = []
        if not allowed["resign"]:
            tries.append(("/resign", at))
        if not allowed["take_over"]:
            tries.append(("/takeover", at))
        listed = {h["seat"] for h in allowed["hand_over"]}
        tries += [("/handover", {**at, "seat": other}) for other in range(len(st["seats"]))
                  if other not in listed]
        for path, body in tries:
            reply = post(http, table, seat, path, body)
            assert reply.status_code in (404, 409), f"seat {seat} {path} {body}: {reply.text}"
            assert reply.json()["code"] not in ("not_yet", "stale_version"), (
                f"seat {seat} {path} {body}: {reply.text}")


def test_may_is_what_the_routes_accept(patient: httpx.Client) -> None:
    http = patient
    table = new_table(http, humans=2, clock={"kind": "none", "handoff_after": 1})
    st = http.get(table.url("/state")).json()
    assert st["may"] is None  # a spectator may do none of these
    idle = st["view"]["current_seat"]
    other = 1 - idle
    refused_where_not_allowed(http, table)
    # the other player may hand the idle seat over from the time given, not before
    st, allowed = may(http, table, other)
    assert allowed["resign"] and not allowed["take_over"], allowed
    [offer] = allowed["hand_over"]
    assert offer["seat"] == idle
    assert offer["since"] == pytest.approx(st["clock"]["turn_started"] + 1, abs=0.002), offer
    assert may(http, table, idle)[1]["hand_over"] == []  # not one's own seat
    body = {"seat": idle, "expected_version": st["version"]}
    started = time.monotonic()
    reply = post(http, table, other, "/handover", body)
    while reply.status_code == 409 and reply.json()["code"] == "not_yet":
        assert time.monotonic() - started < 60, f"never idle enough: {reply.text}"
        assert time.time() < offer["since"] + 5, "refused well after the time given"
        time.sleep(0.05)
        reply = post(http, table, other, "/handover", body)
    assert reply.status_code == 200, reply.text
    handed = http.get(table.url("/log")).json()["seat_changes"][-1]
    assert dt.datetime.fromisoformat(handed["time"]).timestamp() >= offer["since"] - 0.002
    # a bot plays the idle seat now: its player may take it back (or resign), nobody may
    # hand it over again
    _, allowed = may(http, table, idle)
    assert allowed == {"resign": True, "take_over": True, "hand_over": []}, allowed
    assert may(http, table, other)[1]["hand_over"] == []
    refused_where_not_allowed(http, table)
    st, _ = may(http, table, idle)
    back = post(http, table, idle, "/takeover", {"expected_version": st["version"]})
    assert back.status_code == 200, back.text
    refused_where_not_allowed(http, table)
    # a resignation: then that seat may do nothing more, the other may still resign
    st, allowed = may(http, table, idle)
    assert allowed["resign"] and not allowed["take_over"], allowed
    quit_ = post(http, table, idle, "/resign", {"expected_version": st["version"]})
    assert quit_.status_code == 200, quit_.text
    assert may(http, table, idle)[1] == {"resign": False, "take_over": False,
                                         "hand_over": []}
    assert may(http, table, other)[1]["resign"]
    refused_where_not_allowed(http, table)
    # the other resigns too: bots play both seats, neither player may do anything more
    st, _ = may(http, table, other)
    assert post(http, table, other, "/resign",
                {"expected_version": st["version"]}).status_code == 200
    for seat in table.tokens:
        assert may(http, table, seat)[1] == {"resign": False, "take_over": False,
                                             "hand_over": []}
    refused_where_not_allowed(http, table)


def test_a_game_with_a_clock_offers_no_hand_over(patient: httpx.Client) -> None:
    http = patient
    table = new_table(http, humans=2, clock={"kind": "correspondence", "per_turn": 600})
    for seat in table.tokens:
        _, allowed = may(http, table, seat)
        assert allowed == {"resign": True, "take_over": False, "hand_over": []}, allowed
    refused_where_not_allowed(http, table)
