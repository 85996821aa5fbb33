"""Clock reminders and vacations (issue 27, docs/REACH.md) on a real server with short clocks
(`clock_minimum` and `remind_minimum` 1 s), SQLite and Postgres: the push service stand-in
of test_push.py receives each notice, decrypted as the browser would. A reminder comes once
per turn, at a quarter of the turn left; a player away on vacation is not timed out (nor
reminded) until the vacation ends plus the turn's time; the vacation API's refusals and the
yearly allowance. The rules of time (clocks.paused_deadline, clocks.reminders) are checked
as pure functions too. Two instances: test_clock_instances.py."""

from __future__ import annotations

import datetime as dt
import queue
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, delete, insert, select

from brass.server import Settings, clocks
from brass.server.tables import clock_reminders, vacations

from .conftest import LiveServer, Table, auth
from .databases import fresh_like
from .test_push import (  # noqa: F401  (push_service: the fixture)
    Browser,
    PushService,
    push_service,
    start_game,
    subscribed,
)

UTC = dt.UTC
T0 = dt.datetime(2027, 3, 1, tzinfo=UTC)
WAIT = 40.0


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def test_a_vacation_pushes_the_deadline_back_by_the_time_it_overlaps_the_turn() -> None:
    deadline, started = at(100), at(0)
    assert clocks.paused_deadline(deadline, started, []) == deadline
    # away from 10 to 30: 20 s of the turn stood still
    assert clocks.paused_deadline(deadline, started, [(at(10), at(30))]) == at(120)
    # away since before the turn began: only the part from its start counts
    assert clocks.paused_deadline(deadline, started, [(at(-50), at(40))]) == at(140)
    # a vacation beginning after the pushed-back deadline changes nothing; one that begins
    # after the first deadline but before the pushed-back one does
    assert clocks.paused_deadline(deadline, started, [(at(10), at(30)), (at(110), at(150))]
                                  ) == at(160)
    assert clocks.paused_deadline(deadline, started, [(at(130), at(150))]) == deadline
    assert clocks.away_until([(at(10), at(30))], at(20)) == at(30)
    assert clocks.away_until([(at(10), at(30))], at(30)) is None
    assert clocks.pauses(clocks.Clock(kind="correspondence", per_turn=86_400))
    assert not clocks.pauses(clocks.Clock(kind="live", reserve=600))


def test_reminders_come_at_a_quarter_and_at_an_hour_left_when_meaningful() -> None:
    day = 86_400.0
    assert clocks.reminders(day, 600) == [("quarter", day / 4), ("hour", 3600.0)]
    assert clocks.reminders(4 * 3600.0, 600) == [("quarter", 3600.0)]  # no second at 1 h
    assert clocks.reminders(1200.0, 600) == [("quarter", 300.0)]
    assert clocks.reminders(300.0, 600) == []  # a short live turn: the player is there


@pytest.fixture(scope="module")
def reach_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
             db_url: str) -> Iterator[str]:
    with fresh_like(db_url, tmp_path_factory.mktemp("reach")) as url:
        yield url


@pytest.fixture(scope="module")
def reach(reach_db: str) -> Iterator[LiveServer]:
    with LiveServer(Settings(database_url=reach_db, bot_delay=0.0, join_limit=0,
                             push_private_endpoints=True, clock_minimum=1.0,
                             remind_minimum=1.0, vacation_days=14,
                             nudge_after=0.0)) as live:  # a nudge at once
        yield live


def run_sql(server: LiveServer, *statements: Any) -> list[Any]:
    engine = create_engine(server.settings.database_url)
    try:
        with engine.begin() as conn:
            return [conn.execute(s) for s in statements]
    finally:
        engine.dispose()


def rows(server: LiveServer, statement: Any) -> list[Any]:
    engine = create_engine(server.settings.database_url)
    try:
        with engine.connect() as conn:
            return list(conn.execute(statement).all())
    finally:
        engine.dispose()


def new_game(alice: Browser, bob: Browser, per_turn: float,
             name: str = "Reminded") -> tuple[Table, dict[int, Browser]]:
    return start_game(alice, bob, name, clock={"kind": "correspondence", "per_turn": per_turn})


def game_state(client: httpx.Client, table: Table) -> dict[str, Any]:
    got = client.get(table.url("/state"), headers=auth(table.tokens[0]))
    assert got.status_code == 200, got.text
    body: dict[str, Any] = got.json()
    return body


def notices(service: PushService, who: Browser, until: float) -> Iterator[dict[str, Any]]:
    """The notices to `who`'s browser, decrypted, as they come (until `until`)."""
    path = who.endpoint.removeprefix(service.origin)
    while time.monotonic() < until:
        yield who.read(service.next(path))


def timed_out(client: httpx.Client, table: Table, seat: int) -> bool:
    return any(s["seat"] == seat and s["stand_in"] == "timeout"
               for s in game_state(client, table)["seats"])


def wait(check: Any, what: str, seen: Any = None) -> None:
    deadline = time.monotonic() + WAIT
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {WAIT} s for {what}; saw {seen() if seen else ''}")
        time.sleep(0.05)


@pytest.fixture
def pair(reach: LiveServer, push_service: PushService  # noqa: F811
         ) -> Iterator[tuple[Browser, Browser]]:
    for alice in subscribed(reach, push_service, "alice"):
        for bob in subscribed(reach, push_service, "bob"):
            yield alice, bob


def test_a_reminder_comes_once_at_a_quarter_of_the_turn_left(
        reach: LiveServer, push_service: PushService,  # noqa: F811
        pair: tuple[Browser, Browser]) -> None:
    alice, bob = pair
    table, by_seat = new_game(alice, bob, per_turn=4.0)
    state = game_state(alice.client, table)
    first = state["view"]["current_seat"]
    mover, other = by_seat[first], by_seat[1 - first]
    started = state["clock"]["turn_started"]
    heard: list[dict[str, Any]] = []
    for told in notices(push_service, mover, time.monotonic() + WAIT):
        heard.append(told)
        if told["kind"] == "clock":
            break
    else:
        raise AssertionError(f"no clock reminder; the mover heard {heard}")
    arrived = time.time()
    assert told == {"kind": "clock", "game": table.id, "name": "Reminded", "seat": first,
                    "threshold": "quarter", "left": 1,
                    "deadline": told["deadline"], "url": f"/#/game/{table.id}"}, told
    assert arrived >= started + 3.0 - 0.5, (arrived - started, told)  # 3 s of 4 gone
    reminded = told
    # the seat times out at 4 s; the turn passes to the other player, who is told
    wait(lambda: timed_out(alice.client, table, first), "the time-out",
         lambda: game_state(alice.client, table)["seats"])
    for told in notices(push_service, other, time.monotonic() + WAIT):
        if told["kind"] == "turn":
            break
    path = mover.endpoint.removeprefix(push_service.origin)
    late = []
    while True:  # what else reached the push service meanwhile: no second reminder
        try:
            got = push_service.got.get_nowait()
        except queue.Empty:
            break
        if got.path == path:
            late.append(mover.read(got))
    # (the notices leave at the lowest priority: on a busy machine the next turns may have
    # begun, and been reminded of, by now; they are not this turn's)
    assert not [n for n in late if n["kind"] == "clock" and n["seat"] == first
                and n["deadline"] == reminded["deadline"]], late
    marks = rows(reach, select(clock_reminders.c.turn_started_at, clock_reminders.c.threshold)
                 .where(clock_reminders.c.game_id == table.id)
                 .order_by(clock_reminders.c.turn_started_at))
    first_turn = [m.threshold for m in marks if m.turn_started_at == marks[0].turn_started_at]
    assert first_turn == ["quarter"], marks  # one mark for the turn timed out


def test_a_player_on_vacation_is_timed_out_only_after_it_plus_the_turn(
        reach: LiveServer, push_service: PushService,  # noqa: F811
        pair: tuple[Browser, Browser]) -> None:
    alice, bob = pair
    # both players away for the next 8 s (the API takes whole days; the table holds times)
    starts = dt.datetime.now(UTC)
    ends = starts + dt.timedelta(seconds=8)
    run_sql(reach, *[insert(vacations).values(player_id=who_id(who), starts_at=starts,
                                              ends_at=ends, created_at=starts)
                     for who in (alice, bob)])
    try:
        table, by_seat = new_game(alice, bob, per_turn=2.0)
        state = game_state(alice.client, table)
        first = state["view"]["current_seat"]
        # everyone (a spectator too) is shown the clock standing still until the return
        with httpx.Client(base_url=reach.base, timeout=60) as spectator:
            shown = spectator.get(table.url("/pause"))
        assert shown.status_code == 200, shown.text
        pause = shown.json()
        assert pause["away_until"] == pytest.approx(ends.timestamp(), abs=0.01), (pause, ends)
        assert pause["deadline"] == pytest.approx(ends.timestamp() + 2, abs=0.01), pause
        assert state["clock"]["deadline"] < pause["deadline"] - 1, (state["clock"], pause)
        heard: list[dict[str, Any]] = []
        for told in notices(push_service, by_seat[first], time.monotonic() + WAIT):
            heard.append(told)
            if told["kind"] == "clock" and told["game"] == table.id:
                break
        else:
            raise AssertionError(f"no clock reminder; the mover heard {heard}")
        reminded = dt.datetime.now(UTC)
        wait(lambda: timed_out(alice.client, table, first), "the time-out after the vacation",
             lambda: game_state(alice.client, table)["seats"])
        came = dt.datetime.now(UTC)
    finally:
        run_sql(reach, delete(vacations))
    # the turn's 2 s run only once the 8 s away are over: the reminder at 1.5 s of them,
    # the time-out at 2 s (a little slack for the test's own clock reads)
    slack = dt.timedelta(seconds=0.3)
    assert reminded >= ends + dt.timedelta(seconds=1.5) - slack, (reminded, ends)
    assert came >= ends + dt.timedelta(seconds=2) - slack, (came, ends)


def test_the_desk_shows_the_time_left_standing_still_while_the_mover_is_away(
        reach: LiveServer, pair: tuple[Browser, Browser]) -> None:
    alice, bob = pair
    table, by_seat = new_game(alice, bob, per_turn=3600.0, name="Desk pause")
    first = game_state(alice.client, table)["view"]["current_seat"]
    mover, other = by_seat[first], by_seat[1 - first]

    def entry(who: Browser) -> dict[str, Any]:
        got = who.client.get("/api/desk")
        assert got.status_code == 200, got.text
        return next(g for g in got.json()["games"] if g["id"] == table.id)

    here = entry(mover)
    assert here["section"] == "turn" and here["away_until"] is None, here
    assert 0 < here["time_left"] <= 3600, here
    # the mover away for the next 2 hours (the API takes whole days; the table holds times)
    starts = dt.datetime.now(UTC)
    ends = starts + dt.timedelta(hours=2)
    run_sql(reach, insert(vacations).values(player_id=who_id(mover), starts_at=starts,
                                            ends_at=ends, created_at=starts))
    try:
        away = entry(mover)
        with httpx.Client(base_url=reach.base, timeout=60) as spectator:
            pause = spectator.get(table.url("/pause")).json()
        # the steward's clock (the pause endpoint): the deadline pushed back, the time left
        # the one the mover will have on their return
        assert dt.datetime.fromisoformat(away["away_until"]) == ends, (away, ends)
        assert dt.datetime.fromisoformat(away["deadline"]).timestamp() == pytest.approx(
            pause["deadline"], abs=0.01), (away, pause)
        frozen = pause["deadline"] - pause["away_until"]
        assert away["time_left"] == pytest.approx(frozen, abs=0.01), (away, pause)
        assert entry(mover)["time_left"] == away["time_left"], "it ran down while away"
        seen = entry(other)  # the other player's desk: the same clock, standing still
        assert seen["section"] == "running", seen
        assert (seen["time_left"], seen["away_until"]) == (away["time_left"],
                                                           away["away_until"]), seen
    finally:
        run_sql(reach, delete(vacations))
    back = entry(mover)
    assert back["away_until"] is None and back["time_left"] <= here["time_left"], back


def who_id(who: Browser) -> str:
    me = who.client.get("/api/me")
    assert me.status_code == 200, me.text
    found: str = me.json()["id"]
    return found


def test_the_vacation_api_keeps_the_allowance_and_refuses_what_breaks_the_rules(
        reach: LiveServer, push_service: PushService,  # noqa: F811
        pair: tuple[Browser, Browser]) -> None:
    client = pair[0].client
    today = dt.datetime.now(UTC).date()
    # the next 1 March after today: within the year ahead, March and April in one year
    first = dt.date(today.year + (today >= dt.date(today.year, 3, 1)), 3, 1)
    year = first.year

    def take(start: dt.date, days: int) -> httpx.Response:
        return client.post("/api/me/vacations", json={"start": start.isoformat(),
                                                       "days": days})

    def code(reply: httpx.Response) -> str:
        found: str = reply.json()["code"]
        return found

    listed = client.get("/api/me/vacations").json()
    assert listed["days_per_year"] == 14 and listed["vacations"] == [], listed
    refused = take(today, 1)
    assert refused.status_code == 400 and code(refused) == "vacation_in_past", refused.text
    refused = take(today + dt.timedelta(days=400), 1)
    assert refused.status_code == 400 and code(refused) == "malformed", refused.text
    refused = take(first, 15)
    assert refused.status_code == 409 and code(refused) == "vacation_too_long", refused.text
    made = take(first, 10)
    assert made.status_code == 201, made.text
    assert made.json() == {"id": made.json()["id"], "start": first.isoformat(), "days": 10,
                           "back": dt.date(year, 3, 11).isoformat(), "started": False}
    refused = take(dt.date(year, 3, 5), 2)
    assert refused.status_code == 409 and code(refused) == "vacation_overlaps", refused.text
    refused = take(dt.date(year, 4, 1), 5)
    assert code(refused) == "vacation_too_long", refused.text
    assert refused.json()["params"] == {"year": year, "left": 4}, refused.json()
    second = take(dt.date(year, 4, 1), 4)
    assert second.status_code == 201, second.text
    listed = client.get("/api/me/vacations").json()
    assert {y["year"]: y["days"] for y in listed["left"]}[year] == 0, listed
    assert [v["start"] for v in listed["vacations"]] == [first.isoformat(), f"{year}-04-01"]
    gone = client.delete(f"/api/me/vacations/{made.json()['id']}")
    assert gone.status_code == 204, gone.text
    assert client.delete(f"/api/me/vacations/{made.json()['id']}").status_code == 404
    other = pair[1].client.delete(f"/api/me/vacations/{second.json()['id']}")
    assert other.status_code == 404, other.text  # not theirs
    listed = client.get("/api/me/vacations").json()
    assert {y["year"]: y["days"] for y in listed["left"]}[year] == 10, listed
    # one under way cannot be cancelled (the API never makes one that starts today)
    # (whole days from midnight, as the API books them: a row from an hour ago ran over
    # midnight once and was listed as ended)
    now = dt.datetime.now(UTC)
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    (result,) = run_sql(reach, insert(vacations).values(
        player_id=who_id(pair[0]), starts_at=midnight,
        ends_at=midnight + dt.timedelta(days=2), created_at=now))
    started = client.delete(f"/api/me/vacations/{result.inserted_primary_key[0]}")
    assert started.status_code == 409 and code(started) == "vacation_started", started.text
    assert any(v["started"] for v in client.get("/api/me/vacations").json()["vacations"])
    run_sql(reach, delete(vacations))
    with httpx.Client(base_url=reach.base) as stranger:
        assert stranger.get("/api/me/vacations").status_code == 401


def test_a_server_without_vacation_days_refuses_them(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'off.db'}", join_limit=0,
                        vacation_days=0)
    with LiveServer(settings) as live, httpx.Client(
            base_url=live.base, timeout=60, headers={"Origin": live.base}) as client:
        assert client.post("/api/session").status_code == 201
        start = (dt.datetime.now(UTC) + dt.timedelta(days=3)).date().isoformat()
        refused = client.post("/api/me/vacations", json={"start": start, "days": 1})
        assert refused.status_code == 403 and refused.json()["code"] == "vacation_off", (
            refused.text)


def test_a_player_on_vacation_is_not_nudged(
        reach: LiveServer, push_service: PushService,  # noqa: F811
        pair: tuple[Browser, Browser]) -> None:
    """While the player to move is away their clock stands still: a nudge is not offered,
    and refused (`on_vacation`); once they are back it is."""
    alice, bob = pair
    table, by_seat = new_game(alice, bob, per_turn=3600.0)
    first = game_state(alice.client, table)["view"]["current_seat"]
    mover, other = by_seat[first], by_seat[1 - first]
    starts = dt.datetime.now(UTC)
    run_sql(reach, insert(vacations).values(player_id=who_id(mover), starts_at=starts,
                                            ends_at=starts + dt.timedelta(hours=1),
                                            created_at=starts))
    offered = other.client.get(table.url("/nudge")).json()
    assert offered["allowed"] is False, offered
    refused = other.client.post(table.url("/nudge"))
    assert refused.status_code == 409, refused.text
    assert (refused.json()["code"], refused.json()["reason"]) == (
        "nudge_not_allowed", "on_vacation"), refused.text
    run_sql(reach, delete(vacations))
    assert other.client.get(table.url("/nudge")).json()["allowed"] is True
    assert other.client.post(table.url("/nudge")).status_code == 200


def test_a_live_game_offers_no_nudge(
        reach: LiveServer, push_service: PushService,  # noqa: F811
        pair: tuple[Browser, Browser]) -> None:
    """A live game is one sitting and its reserve runs out within it: a nudge (which opens an
    hour into a turn) is neither offered nor taken (`live_clock`)."""
    alice, bob = pair
    table, by_seat = start_game(alice, bob, "Live, no nudge",
                                clock={"kind": "live", "reserve": 1800.0, "increment": 0.0})
    first = game_state(alice.client, table)["view"]["current_seat"]
    other = by_seat[1 - first]
    offered = other.client.get(table.url("/nudge")).json()
    assert (offered["allowed"], offered["seat"]) == (False, None), offered
    refused = other.client.post(table.url("/nudge"))
    assert refused.status_code == 409, refused.text
    assert (refused.json()["code"], refused.json()["reason"]) == (
        "nudge_not_allowed", "live_clock"), refused.text
