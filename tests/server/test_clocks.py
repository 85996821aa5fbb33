"""Seat life cycle on SQLite and Postgres: turn clocks (their deadlines survive a real restart;
a seat that runs out of time is played by a bot, marked in the log, until its player takes it
back), resign, hand-over after inactivity, and every new setting refused with a clear error.
Times are short (the server's `clock_minimum` is 1 s here); every wait is on a condition."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from brass.server import Settings
from brass.server.storage import StaleVersion, Storage

from .conftest import LiveServer, Table, act, auth, legal
from .databases import fresh_database
from .test_api import error_of
from .test_restart import server_process, wait_for

CLOCKED = {"BRASS_CLOCK_MINIMUM": "1", "BRASS_BOT_DELAY": "0.05"}


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def clock_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
             ) -> Iterator[str]:
    if request.param == "postgres":
        request.getfixturevalue("postgres_url")  # skips (or fails under CI) without Postgres
    with fresh_database(request.param, tmp_path_factory.mktemp("clocks")) as url:
        yield url


@pytest.fixture(scope="module")
def clocked(clock_db: str) -> Iterator[httpx.Client]:
    settings = Settings(database_url=clock_db, bot_delay=0.05, join_limit=0,
                        clock_minimum=1.0)
    with LiveServer(settings) as live, httpx.Client(base_url=live.base, timeout=60) as http:
        yield http


def new_table(http: httpx.Client, humans: int, bots: int = 0, players: int = 2,
              **options: Any) -> Table:
    created = http.post("/api/games", json={"players": players, "name": "clocked",
                                            **options})
    assert created.status_code == 201, created.text
    body = created.json()
    table = Table(id=body["id"], host=body["host_token"], invite=body["invite"])
    for i in range(humans):
        joined = http.post(table.url("/join"), json={"name": f"p{i}", "invite": table.invite})
        assert joined.status_code == 201, joined.text
        table.tokens[joined.json()["seat"]] = joined.json()["token"]
    for _ in range(bots):
        assert http.post(table.url("/bots"), headers=auth(table.host), json={}).status_code == 201
    return table


def state(http: httpx.Client, table: Table, seat: int | None = None) -> dict[str, Any]:
    headers = auth(table.tokens[seat]) if seat is not None else {}
    reply = http.get(table.url("/state"), headers=headers)
    assert reply.status_code == 200, reply.text
    body: dict[str, Any] = reply.json()
    return body


def game_log(http: httpx.Client, table: Table) -> dict[str, Any]:
    body: dict[str, Any] = http.get(table.url("/log")).json()
    return body


def correspondence(seconds: float) -> dict[str, Any]:
    return {"clock": {"kind": "correspondence", "per_turn": seconds}}


# -- invitations and seats -------------------------------------------------------------------
def test_an_unlisted_game_is_joined_only_with_its_current_invite(clocked: httpx.Client) -> None:
    http = clocked
    table = new_table(http, humans=0, players=3)
    assert table.invite and table.invite != table.id
    error_of(http.post(table.url("/join"), json={"name": "a"}), 401, "unauthorized")
    error_of(http.post(table.url("/join"), json={"name": "a", "invite": "guess"}), 401,
             "unauthorized")
    error_of(http.post(table.url("/join"), json={"name": "a", "invite": table.id}), 401,
             "unauthorized")
    first = http.post(table.url("/join"), json={"name": "a", "invite": table.invite})
    assert first.status_code == 201
    # only the host renews it; then the old link is refused and the new one works
    error_of(http.post(table.url("/invite"), headers=auth(first.json()["token"])), 401,
             "unauthorized")
    renewed = http.post(table.url("/invite"), headers=auth(table.host))
    assert renewed.status_code == 200
    fresh = renewed.json()["invite"]
    assert fresh != table.invite
    error_of(http.post(table.url("/join"), json={"name": "b", "invite": table.invite}), 401,
             "unauthorized")
    # a page asks before a name is typed: the same rule as the join's
    for invite, valid in ((table.invite, False), (fresh, True), ("guess", False)):
        checked = http.post(table.url("/invite/check"), json={"invite": invite})
        assert checked.status_code == 200 and checked.json() == {"valid": valid}, checked.text
    assert http.post(table.url("/join"),
                     json={"name": "b", "invite": fresh}).json()["seat"] == 1
    assert [s["taken"] for s in http.get(table.url()).json()["seats"]] == [True, True, False]


def test_a_listed_game_is_public_and_needs_no_invite(clocked: httpx.Client) -> None:
    table = new_table(clocked, humans=0, listed=True)
    joined = clocked.post(table.url("/join"), json={"name": "from the listing"})
    assert joined.status_code == 201, joined.text
    checked = clocked.post(table.url("/invite/check"), json={"invite": "any old link"})
    assert checked.json() == {"valid": True}, "a listed game needs no invite"


def test_one_browser_takes_one_seat_unless_the_screen_is_shared(clocked: httpx.Client) -> None:
    http = clocked
    browser = "b" * 24
    table = new_table(http, humans=0, players=3)
    me = {"name": "a", "invite": table.invite, "browser": browser}
    assert http.post(table.url("/join"), json=me).status_code == 201
    error_of(http.post(table.url("/join"), json={**me, "name": "again"}), 409,
             "one_seat_per_browser")
    assert [s["taken"] for s in http.get(table.url()).json()["seats"]] == [True, False, False]
    other = http.post(table.url("/join"), json={**me, "name": "c", "browser": "c" * 24})
    assert other.status_code == 201
    error_of(http.post(table.url("/join"), json={**me, "browser": "short"}), 400, "malformed")
    # a player the host removed may join again from the same browser
    assert http.delete(table.url("/seats/0"), headers=auth(table.host)).status_code == 200
    assert http.post(table.url("/join"), json={**me, "name": "back"}).json()["seat"] == 0
    shared = new_table(http, humans=0, players=2, shared_screen=True)
    assert http.get(shared.url()).json()["shared_screen"] is True
    for name in ("left", "right"):
        joined = http.post(shared.url("/join"),
                           json={"name": name, "invite": shared.invite, "browser": browser})
        assert joined.status_code == 201, joined.text
    assert http.get(shared.url()).json()["status"] == "running"


@pytest.mark.parametrize(("clock", "says"), [
    ({"kind": "live", "reserve": 0.5}, "reserve must be between 1"),
    ({"kind": "live", "reserve": 60, "increment": -1}, "greater than or equal"),
    ({"kind": "live", "reserve": 60, "per_turn": 10}, "per_turn is for"),
    ({"kind": "correspondence", "per_turn": 0}, "per_turn must be between"),
    ({"kind": "correspondence", "per_turn": 10 ** 9}, "less than or equal"),
    ({"kind": "correspondence", "per_turn": 60, "reserve": 5}, "reserve and increment"),
    ({"kind": "correspondence", "per_turn": 60, "handoff_after": 60}, "handoff_after is for"),
    ({"kind": "none", "handoff_after": 0.2}, "handoff_after must be between"),
    ({"kind": "blitz"}, "kind"),
    ({"kind": "live", "reserve": "lots"}, "reserve"),
    ({"kind": "none", "extra": 1}, "extra"),
])
def test_every_clock_setting_is_validated(clocked: httpx.Client, clock: dict[str, Any],
                                          says: str) -> None:
    reply = clocked.post("/api/games", json={"players": 2, "name": "bad", "clock": clock})
    assert says in error_of(reply, 400, "malformed")


@pytest.mark.parametrize(("clock", "params"), [
    ({"kind": "live", "reserve": 0.5, "increment": 30},
     {"field": "reserve", "value": 0.5, "least": 1.0, "most": 30 * 86_400.0}),
    ({"kind": "live", "reserve": 60, "increment": 86_401},
     {"field": "increment", "value": 86_401, "least": 0.0, "most": 86_400.0}),
    ({"kind": "correspondence", "per_turn": 0},
     {"field": "per_turn", "value": 0, "least": 1.0, "most": 30 * 86_400.0}),
    ({"kind": "none", "handoff_after": 0.2},
     {"field": "handoff_after", "value": 0.2, "least": 1.0, "most": 30 * 86_400.0}),
])
def test_a_clock_value_out_of_range_is_named_with_its_range(
        clocked: httpx.Client, clock: dict[str, Any], params: dict[str, Any]) -> None:
    """The page says it in minutes, in the player's language: the field and its range come
    as data (`clock_range`, seconds) beside the English message."""
    reply = clocked.post("/api/games", json={"players": 2, "name": "bad", "clock": clock})
    error_of(reply, 400, "malformed")
    assert (reply.json()["reason"], reply.json()["params"]) == ("clock_range", params), reply.text


def test_the_server_clock_minimum_is_validated() -> None:
    with pytest.raises(ValueError, match="clock_minimum"):
        Settings(clock_minimum=0)
    error_of(httpx.Response(400, json={"code": "malformed", "message": "x"}), 400, "malformed")


# -- clocks ----------------------------------------------------------------------------------
def test_a_deadline_is_refused_by_the_database_before_it_passes(clocked: httpx.Client,
                                                               clock_db: str) -> None:
    table = new_table(clocked, humans=2, **correspondence(600))
    st = state(clocked, table)
    assert st["clock"]["deadline"] - st["server_time"] > 590
    mover = st["view"]["current_seat"]
    storage = Storage(clock_db)
    try:
        row = storage.load_game(table.id)
        assert row is not None
        with pytest.raises(StaleVersion):
            storage.change_seat(table.id, st["version"], mover, "timeout", row.clock, True,
                                None, "deadline")
    finally:
        storage.close()
    assert state(clocked, table)["seats"][mover]["stand_in"] is None


def test_a_seat_out_of_time_is_played_by_a_bot_until_its_player_takes_over(
        clocked: httpx.Client) -> None:
    http = clocked
    table = new_table(http, humans=1, bots=1, **correspondence(2))
    seat = next(iter(table.tokens))
    wait_for(lambda: state(http, table)["seats"][seat]["stand_in"] == "timeout",
             "the seat to time out")
    # a bot plays for the player: its moves are marked in the log, as the time-out is
    wait_for(lambda: any(e["stand_in"] == "timeout" and e["seat"] == seat
                         for e in game_log(http, table)["actions"]), "a bot move for the seat")
    changes = game_log(http, table)["seat_changes"]
    assert changes[0]["seat"] == seat and changes[0]["change"] == "timeout"
    # while it does, the player cannot act (a coded refusal, not "not your turn"), and is
    # offered no move; then they take their seat back
    st = state(http, table, seat)
    if st["view"]["current_seat"] == seat and st["legal"]:
        error_of(act(http, table, seat, st["legal"][0]["action"], st["version"]), 409,
                 "stand_in_playing")
        error_of(http.post(table.url("/legal/preview"), headers=auth(table.tokens[seat]),
                           json={"action": st["legal"][0]["action"]}), 409, "stand_in_playing")
    offered = http.get(table.url("/legal"), headers=auth(table.tokens[seat]))
    assert offered.status_code == 200 and offered.json() == [], offered.text
    back = http.post(table.url("/takeover"), headers=auth(table.tokens[seat]), json={})
    assert back.status_code == 200, back.text
    st = state(http, table, seat)
    assert st["seats"][seat]["stand_in"] is None and st["status"] == "running"
    assert game_log(http, table)["seat_changes"][-1]["change"] == "returned"
    error_of(http.post(table.url("/takeover"), headers=auth(table.tokens[seat])), 409,
             "illegal")
    # and play on themselves: their next move is theirs, not the bot's
    wait_for(lambda: state(http, table)["view"]["current_seat"] == seat, "the player's turn")
    st = state(http, table, seat)
    reply = act(http, table, seat, st["legal"][0]["action"], st["version"])
    if reply.status_code == 409:  # 2 s passed: it timed out again, which is the clock working
        assert state(http, table)["seats"][seat]["stand_in"] == "timeout"
        return
    assert reply.status_code == 200, reply.text
    mine = [e for e in game_log(http, table)["actions"] if e["seq"] == reply.json()["version"]]
    assert mine[0]["stand_in"] is None


def test_clocks_survive_a_real_restart(clock_db: str, tmp_path: Path) -> None:
    server_log = tmp_path / "server.log"
    clock = {"clock": {"kind": "live", "reserve": 6, "increment": 1}}
    with server_process(clock_db, server_log, **CLOCKED) as client:
        table = new_table(client, humans=2, **clock)
        st = state(client, table)
        first = st["view"]["current_seat"]
        reply = act(client, table, first, legal(client, table, first)[0]["action"],
                    st["version"])
        assert reply.status_code == 200, reply.text
        before = state(client, table)
        second = before["view"]["current_seat"]
        assert second != first  # canal round 1: one action a turn
        assert before["clock"]["deadline"] is not None
        reserve = before["seats"][first]["reserve"]
        assert 1 < reserve <= 7  # what was left of 6 s, plus the increment
    with server_process(clock_db, server_log, **CLOCKED) as client:
        after = state(client, table)
        assert after["seats"][first]["reserve"] == reserve
        if after["seats"][second]["stand_in"] is None:  # the restart took less than 6 s
            assert after["clock"]["deadline"] == before["clock"]["deadline"]
        # the restarted server enforces the stored deadline: the seat to move times out
        wait_for(lambda: state(client, table)["seats"][second]["stand_in"] == "timeout",
                 "the time-out after the restart")
        timed_out = state(client, table)
        assert timed_out["server_time"] >= before["clock"]["deadline"]
        assert timed_out["seats"][second]["reserve"] == 0


# -- resign and hand-over --------------------------------------------------------------------
def test_a_player_resigns_and_a_bot_plays_their_seat_to_the_end(clocked: httpx.Client) -> None:
    http = clocked
    table = new_table(http, humans=2)
    st = state(http, table)
    quitter = 1 - st["view"]["current_seat"]  # resigns while the other is to move
    error_of(http.post(table.url("/resign"), json={"expected_version": st["version"] + 5},
                       headers=auth(table.tokens[quitter])), 409, "stale_version")
    error_of(http.post(table.url("/resign")), 401, "unauthorized")
    done = http.post(table.url("/resign"), json={"expected_version": st["version"]},
                     headers=auth(table.tokens[quitter]))
    assert done.json() == {"version": st["version"] + 1}
    assert state(http, table)["seats"][quitter]["stand_in"] == "resigned"
    error_of(http.post(table.url("/takeover"), headers=auth(table.tokens[quitter])), 409,
             "illegal")
    error_of(http.post(table.url("/resign"), headers=auth(table.tokens[quitter])), 409,
             "illegal")
    # the other player moves; then the bot moves for the resigned seat, marked in the log
    other = 1 - quitter
    st = state(http, table, other)
    assert act(http, table, other, st["legal"][0]["action"], st["version"]).status_code == 200
    wait_for(lambda: any(e["seat"] == quitter and e["stand_in"] == "resigned"
                         for e in game_log(http, table)["actions"]), "the bot's move")
    changes = game_log(http, table)["seat_changes"]
    assert [(c["seat"], c["change"]) for c in changes] == [(quitter, "resigned")]


def test_an_idle_seat_is_handed_to_a_bot_after_the_stated_time(clocked: httpx.Client) -> None:
    http = clocked
    table = new_table(http, humans=2, clock={"kind": "none", "handoff_after": 1})
    st = state(http, table)
    idle = st["view"]["current_seat"]
    other = 1 - idle
    asked = {"seat": idle, "expected_version": st["version"]}
    error_of(http.post(table.url("/handover"), json=asked), 401, "unauthorized")
    error_of(http.post(table.url("/handover"), json={**asked, "seat": other},
                       headers=auth(table.tokens[other])), 409, "illegal")
    error_of(http.post(table.url("/handover"), json={**asked, "seat": 3},
                       headers=auth(table.tokens[other])), 404, "not_found")
    started = time.monotonic()
    reply = http.post(table.url("/handover"), json=asked, headers=auth(table.tokens[other]))
    while reply.status_code == 409 and reply.json()["code"] == "not_yet":
        assert time.monotonic() - started < 60, "the seat never became idle enough"
        time.sleep(0.05)
        reply = http.post(table.url("/handover"), json=asked, headers=auth(table.tokens[other]))
    assert reply.status_code == 200, reply.text
    assert time.monotonic() - started >= 0.9  # the database waited the stated second
    wait_for(lambda: any(e["seat"] == idle and e["stand_in"] == "handover"
                         for e in game_log(http, table)["actions"]), "the bot's move")
    # its owner takes it back
    back = http.post(table.url("/takeover"), headers=auth(table.tokens[idle]))
    assert back.status_code == 200, back.text
    assert state(http, table)["seats"][idle]["stand_in"] is None


def test_hand_over_is_only_for_games_that_allow_it(clocked: httpx.Client) -> None:
    http = clocked
    for options in ({}, correspondence(600)):
        table = new_table(http, humans=2, **options)
        st = state(http, table)
        idle = st["view"]["current_seat"]
        error_of(http.post(table.url("/handover"), json={"seat": idle},
                           headers=auth(table.tokens[1 - idle])), 409, "illegal")


@pytest.mark.parametrize(("start", "increment", "left", "back"), [
    (30.0, 0.0, 0.0, 30.0),  # a 30 s reserve: all of it (a tenth, 3 s, timed out at once)
    (600.0, 0.0, 0.0, 150.0),  # a quarter
    (120.0, 0.0, 0.0, 60.0),  # at least a minute
    (600.0, 200.0, 0.0, 200.0),  # the increment when it is more
    (600.0, 0.0, 400.0, 400.0)])  # what was left, if more (a hand-over keeps the reserve)
def test_a_live_player_back_from_a_time_out_has_time_to_move(
        start: float, increment: float, left: float, back: float) -> None:
    from brass.server.clocks import Clock, reserve_on_return

    clock = Clock(kind="live", reserve=start, increment=increment)
    assert reserve_on_return(clock, left) == back
    assert reserve_on_return(Clock(kind="correspondence", per_turn=600.0), None) is None
