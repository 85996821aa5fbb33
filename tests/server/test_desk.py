"""The desk (issue 24): every game of the player's on any device, their turn first (with the
clock's time left), then running, waiting, and finished with results; rematch offers as
invitations; paged; an unchanged page is a 304 for its ETag. SQLite and Postgres."""

from __future__ import annotations

import datetime as dt
from typing import Any

import httpx
from sqlalchemy import create_engine, insert, update

from brass.server.tables import games, rematches

from . import test_players
from .conftest import LiveServer, Table, auth

alice, bob = test_players.alice, test_players.bob  # two guests (fixtures)


def create(http: httpx.Client, name: str, clock: dict[str, Any] | None = None) -> Table:
    made = http.post("/api/games", json={"players": 2, "name": name,
                                         "clock": clock or {"kind": "none"}})
    assert made.status_code == 201, made.text
    body = made.json()
    return Table(id=body["id"], host=body["host_token"], invite=body["invite"])


def join(client: httpx.Client, table: Table, name: str) -> int:
    joined = client.post(table.url("/join"), json={"name": name, "invite": table.invite})
    assert joined.status_code == 201, joined.text
    table.tokens[joined.json()["seat"]] = joined.json()["token"]
    seat: int = joined.json()["seat"]
    return seat


def write(server: LiveServer, statement: Any) -> None:
    """A state the test cannot reach quickly by play (a finished game, a rematch offer)."""
    engine = create_engine(server.settings.database_url)
    try:
        with engine.begin() as conn:
            conn.execute(statement)
    finally:
        engine.dispose()


def test_the_desk_lists_the_players_games_their_turn_first(
        server: LiveServer, http: httpx.Client, alice: httpx.Client,
        bob: httpx.Client) -> None:
    clocked = create(http, "clocked", {"kind": "correspondence", "per_turn": 86_400})
    seats = {"alice": join(alice, clocked, "Alice"), "bob": join(bob, clocked, "Bob")}
    mover = http.get(clocked.url("/state"), headers=auth(clocked.tokens[0])).json()
    to_move = mover["view"]["current_seat"]
    waiting = create(http, "waiting")
    join(alice, waiting, "Alice")
    done = create(http, "done")
    done_seat = join(alice, done, "Alice")
    join(bob, done, "Bob")
    scores = [50, 30] if done_seat == 0 else [30, 50]  # Alice first: place 1
    write(server, update(games).where(games.c.id == done.id).values(
        status="finished", scores=scores, finished_at=dt.datetime.now(dt.UTC)))
    called_off = create(http, "called off")
    join(alice, called_off, "Alice")
    assert http.post(called_off.url("/cancel"), headers=auth(called_off.host)).status_code == 200
    write(server, insert(rematches).values(
        game_id=done.id, offered_by=1 - done_seat, answers={str(1 - done_seat): True},
        empty_seats="open", version=0, created_at=dt.datetime.now(dt.UTC)))

    mover_client = alice if seats["alice"] == to_move else bob
    other_client = bob if mover_client is alice else alice
    desk = mover_client.get("/api/desk").json()
    first = desk["games"][0]
    assert first["id"] == clocked.id and first["section"] == "turn", desk
    assert 0 < first["time_left"] <= 86_400 and first["deadline"], first
    assert [s["you"] for s in first["seats"]].count(True) == 1, first
    theirs = other_client.get("/api/desk").json()
    assert {g["id"]: g["section"] for g in theirs["games"]}[clocked.id] == "running", theirs

    full = alice.get("/api/desk").json()
    sections = {g["id"]: g["section"] for g in full["games"]}
    assert sections.get(waiting.id) == "waiting" and sections.get(done.id) == "finished", full
    waits = next(g for g in full["games"] if g["id"] == waiting.id)
    assert [(s["taken"], s["you"]) for s in waits["seats"]] == [(True, True), (False, False)], \
        waits  # Alice in the first seat, the second free
    assert all(s["taken"] for s in first["seats"]), first
    assert called_off.id not in sections, "a game never played is not on the desk"
    order = [g["section"] for g in full["games"]]
    rank = ["turn", "running", "waiting", "finished"]
    assert order == sorted(order, key=rank.index), order
    finished = next(g for g in full["games"] if g["id"] == done.id)
    assert finished["scores"] == scores and finished["place"] == 1, finished
    assert full["total"] == 3 and full["next"] is None, full
    invited = bob.get("/api/desk").json()["invitations"]
    assert invited == [], "Bob offered the rematch: nothing to answer"
    invitations = alice.get("/api/desk").json()["invitations"]
    assert [{k: v for k, v in i.items() if k != "clock"} for i in invitations] == [
        {"game_id": done.id, "name": "done", "offered_by": 1 - done_seat, "seat": done_seat}]


def test_a_tie_on_points_is_placed_as_the_rules_rank(
        server: LiveServer, http: httpx.Client, alice: httpx.Client,
        bob: httpx.Client) -> None:
    """Two players equal on points are not both first: the places the move that ended the
    game stored (`ranks`: income, then money) decide; a game finished before they were
    stored is placed by points alone."""
    tied, older = create(http, "tied"), create(http, "older")
    mine = {"alice": join(alice, tied, "Alice"), "bob": join(bob, tied, "Bob")}
    join(alice, older, "Alice")
    join(bob, older, "Bob")
    ranks = [0, 0]
    ranks[mine["bob"]], ranks[mine["alice"]] = 1, 2  # Bob has more income
    write(server, update(games).where(games.c.id == tied.id).values(
        status="finished", scores=[60, 60], ranks=ranks, finished_at=dt.datetime.now(dt.UTC)))
    write(server, update(games).where(games.c.id == older.id).values(
        status="finished", scores=[60, 60], finished_at=dt.datetime.now(dt.UTC)))
    for client, place in ((alice, 2), (bob, 1)):
        places = {g["id"]: g["place"] for g in client.get("/api/desk").json()["games"]}
        assert (places[tied.id], places[older.id]) == (place, 1), places


def test_the_desk_is_paged_and_tagged(server: LiveServer, http: httpx.Client,
                                      alice: httpx.Client, bob: httpx.Client) -> None:
    tables = [create(http, f"game {i}") for i in range(3)]
    for table in tables:
        join(alice, table, "Alice")
    page = alice.get("/api/desk", params={"limit": 2})
    body = page.json()
    assert len(body["games"]) == 2 and body["next"] == 2 and body["total"] == 3, body
    rest = alice.get("/api/desk", params={"limit": 2, "offset": 2}).json()
    assert len(rest["games"]) == 1 and rest["next"] is None, rest
    assert {g["id"] for g in body["games"] + rest["games"]} == {t.id for t in tables}
    tag = page.headers["etag"]
    same = alice.get("/api/desk", params={"limit": 2}, headers={"If-None-Match": tag})
    assert same.status_code == 304 and same.content == b"", same.text
    for table in tables:
        join(bob, table, "Bob")  # every game starts: the desk changed
    changed = alice.get("/api/desk", params={"limit": 2}, headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["etag"] != tag, changed.text
    assert all(g["section"] in ("turn", "running") for g in changed.json()["games"])


def test_the_desk_is_the_players_own(server: LiveServer, http: httpx.Client,
                                     alice: httpx.Client, bob: httpx.Client) -> None:
    table = create(http, "hers")
    join(alice, table, "Alice")
    assert table.id not in {g["id"] for g in bob.get("/api/desk").json()["games"]}
    refused = http.get("/api/desk")
    assert refused.status_code == 401 and refused.json()["code"] == "unauthorized", refused.text


def test_the_desk_says_each_games_clock(server: LiveServer, http: httpx.Client,
                                        alice: httpx.Client, bob: httpx.Client) -> None:
    """Each game on the desk, each rematch offered and each game hosted without a seat says
    its turn clock as chosen (the lists show how fast a game is); an older game that stored
    none has no clock."""
    daily = create(http, "daily", {"kind": "correspondence", "per_turn": 86_400})
    live = create(http, "live", {"kind": "live", "reserve": 600, "increment": 30})
    plain = create(http, "plain")
    for table in (daily, live, plain):
        join(alice, table, "Alice")
    done = create(http, "done", {"kind": "live", "reserve": 300, "increment": 10})
    done_seat = join(alice, done, "Alice")
    join(bob, done, "Bob")
    write(server, update(games).where(games.c.id == done.id).values(
        status="finished", scores=[50, 30], finished_at=dt.datetime.now(dt.UTC)))
    write(server, insert(rematches).values(
        game_id=done.id, offered_by=1 - done_seat, answers={str(1 - done_seat): True},
        empty_seats="open", version=0, created_at=dt.datetime.now(dt.UTC)))
    write(server, update(games).where(games.c.id == plain.id).values(settings=None))
    hers = alice.post("/api/games", json={"players": 2, "name": "hers", "clock": {
        "kind": "correspondence", "per_turn": 7_200}})
    assert hers.status_code == 201, hers.text

    desk = alice.get("/api/desk").json()
    clocks = {g["name"]: g["clock"] for g in desk["games"]}
    assert clocks["daily"] == {"kind": "correspondence", "reserve": 0.0, "increment": 0.0,
                               "per_turn": 86_400.0, "handoff_after": 0.0}, clocks
    assert (clocks["live"]["kind"], clocks["live"]["reserve"],
            clocks["live"]["increment"]) == ("live", 600.0, 30.0), clocks
    assert clocks["plain"]["kind"] == "none", clocks
    assert [(i["name"], i["clock"]["kind"], i["clock"]["reserve"])
            for i in desk["invitations"]] == [("done", "live", 300.0)], desk["invitations"]
    assert [(h["name"], h["clock"]["kind"], h["clock"]["per_turn"])
            for h in desk["hosting"]] == [("hers", "correspondence", 7_200.0)], desk["hosting"]
