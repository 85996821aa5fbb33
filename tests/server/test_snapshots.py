"""Snapshots: the whole state is stored at the start, after every round end and at the end, so
replay frames and loading a game replay at most one round (in a worker), and a finished game is
shown from its final state even when this server's engine no longer replays its log."""

from __future__ import annotations

import random
import secrets
import threading
from types import FrameType
from typing import Any

import httpx
import pytest
from sqlalchemy import update

from brass.engine import (
    DATA,
    Game,
    IllegalAction,
    apply_action,
    legal_actions,
    new_game,
    parse_action,
    public_events,
    view,
)
from brass.engine import play as engine_play
from brass.server import Settings
from brass.server.auth import token_hash
from brass.server.core import GameCore
from brass.server.outbound import rebuilt_frame
from brass.server.runtime import rebuild
from brass.server.storage import GameRecord, SeatRecord, Storage, actions, now

from .conftest import LiveServer, Table, act, auth, info, legal, make_game
from .test_api import state
from .test_schema_view import random_play


@pytest.fixture
def storage(db_url: str) -> Any:
    store = Storage(db_url)
    yield store
    store.close()


def play(http: httpx.Client, table: Table, count: int, rng: random.Random) -> None:
    """`count` random legal actions by whoever is to move."""
    for _ in range(count):
        game = info(http, table)
        seat, version = game["current_seat"], game["version"]
        pick = rng.choice(legal(http, table, seat))["action"]
        assert act(http, table, seat, pick, version).status_code == 200


def replayed(storage: Storage, game_id: str) -> list[Game]:
    """Every state of the game, replayed from its log by the engine (the oracle)."""
    record = storage.load_game(game_id)
    assert record is not None
    game = new_game(record.players, record.seed, record.setup)
    states = [game]
    for row in storage.load_actions(game_id):
        game = apply_action(game, parse_action(row.action))
        states.append(game)
    return states


def test_a_snapshot_is_kept_at_the_start_after_every_round_end_and_replays_use_them(
        http: httpx.Client, storage: Storage) -> None:
    table = make_game(http, players=2, humans=2)
    play(http, table, 12, random.Random(1))  # round 1 has 2 actions, the next ones 4
    states = replayed(storage, table.id)
    ends = [n for n in range(1, len(states))
            if (states[n].era, states[n].round) != (states[n - 1].era, states[n - 1].round)]
    assert storage.snapshot_marks(table.id) == [0, *ends] == [0, 2, 6, 10]
    for n in [0, *ends]:
        snapshot = storage.load_snapshot(table.id, n)
        assert snapshot is not None and snapshot.actions == n
        assert Game.from_json(snapshot.state) == states[n]
    for n in range(len(states)):
        frame = http.get(table.url(f"/replay/{n}")).json()
        assert frame["view"] == view(states[n], None), n


def test_a_game_loads_from_its_latest_snapshot_and_undo_needs_no_replay(
        http: httpx.Client, storage: Storage, db_url: str) -> None:
    table = make_game(http, players=2, humans=2)
    play(http, table, 7, random.Random(2))  # the last snapshot is after 6 actions
    seat = info(http, table)["current_seat"]
    expected = http.get(table.url("/state"), headers=auth(table.tokens[seat])).json()
    # the first action no longer replays: a load that started from the log's start would fail
    with storage.engine.begin() as conn:
        conn.execute(update(actions).where(actions.c.game_id == table.id, actions.c.seq == 1)
                     .values(action={"kind": "pass", "card": "no such card"}))
    with LiveServer(Settings(database_url=db_url, bot_delay=0.0, join_limit=0)) as fresh, \
            httpx.Client(base_url=fresh.base, timeout=60) as client:
        state = client.get(table.url("/state"), headers=auth(table.tokens[seat])).json()
        assert {**state, "server_time": 0} == {**expected, "server_time": 0}  # sent at its time
        assert state["legal"] and state["older_engine"] is False
        frame = client.get(table.url("/replay/6")).json()
        assert frame["view"] == view(replayed_from(storage, table.id, 6), None)
        version = state["version"]  # the seat is in the middle of its turn: it can undo
        undone = client.post(table.url("/undo"), headers=auth(table.tokens[seat]), json={})
        assert undone.json() == {"version": version + 1}
        after = client.get(table.url("/state"), headers=auth(table.tokens[seat])).json()
        assert after["view"] == view(replayed_from(storage, table.id, 6), seat)
        assert after["undone"] == [version] and after["log"] == []


def replayed_from(storage: Storage, game_id: str, n: int) -> Game:
    snapshot = storage.load_snapshot(game_id, n)
    assert snapshot is not None and snapshot.actions == n
    return Game.from_json(snapshot.state)


def test_a_finished_game_of_an_older_engine_is_shown_from_its_stored_end(
        http: httpx.Client, storage: Storage) -> None:
    states, played = random_play(2, 7)
    final, first = states[-1], states[0]
    log = [action.to_json() for action in played]
    seat = first.current_seat
    assert seat is not None
    foreign = next(c for c in DATA.cards if c not in first.players[seat].hand)
    log[0] = {"kind": "loan", "card": foreign}  # this engine refuses the log from move 1
    with pytest.raises(IllegalAction):
        rebuild(2, final.seed, None, None, log)
    game_id, stamp = f"old-{secrets.token_hex(4)}", now()
    storage.create_game(GameRecord(
        id=game_id, name="old", players=2, status="running", seed=final.seed, setup=None,
        version=0, engine_version="0", host_token_hash=token_hash("host"), created_at=stamp,
        updated_at=stamp, seats=[SeatRecord(seat=s, name=f"p{s}", bot=True) for s in (0, 1)]))
    effects = [[{"type": "move", "seat": states[i].current_seat, "paid": i}]
               for i in range(len(log))]
    for i, action in enumerate(log):
        last = i == len(log) - 1
        storage.append_action(game_id, i, states[i].current_seat or 0, action, f"a{i}",
                              effects[i], list(final.scores) if last else None,
                              (len(log), final.to_json()) if last else None)
    table = Table(id=game_id, host="host")
    shown = info(http, table)
    assert shown["status"] == "finished" and shown["scores"] == list(final.scores)
    assert shown["older_engine"] is True and shown["engine_version"] == "0"
    stored = http.get(table.url("/log")).json()
    assert stored["older_engine"] is True and stored["engine_version"] == "0"
    assert [e["action"] for e in stored["actions"]] == log
    assert [e["effects"] for e in stored["actions"]] == effects
    state = http.get(table.url("/state")).json()
    assert state["older_engine"] is True and state["status"] == "finished"
    assert state["view"] == view(final, None) and state["legal"] is None
    end = http.get(table.url(f"/replay/{len(log)}?seat=0")).json()
    assert end["view"] == view(final, 0)
    refused = http.get(table.url("/replay/1"))
    assert refused.status_code == 404 and "engine 0" in refused.json()["message"]


def test_a_game_stored_under_engine_1_plays_on_undoes_and_replays_every_frame(
        http: httpx.Client, storage: Storage) -> None:
    """Engine 2 only added the `turn_end` event: a game stored under engine 1 (its rows'
    effects without it) is not of an older engine. Held mid-turn, its seat to move may undo
    (the rule reads the old rows alike), plays on, and every replay frame is shown."""
    rng, game = random.Random(5), new_game(2, 11)
    states, log, effects, snapshots = [game], [], [], {0: game.to_json()}
    while True:
        seat = game.current_seat
        action = rng.choice(legal_actions(game))
        game, events = engine_play(game, action)
        states.append(game)
        log.append((seat, action.to_json()))
        effects.append([e for e in public_events(events, None) if e["type"] != "turn_end"])
        if any(e["type"] == "round_end" for e in events):
            snapshots[len(log)] = game.to_json()
        if game.round >= 2 and not any(e["type"] == "turn_end" for e in events):
            break  # mid-turn: the seat to move made the first of its two actions
    game_id, stamp, tokens = f"v1-{secrets.token_hex(4)}", now(), {0: "seat-0", 1: "seat-1"}
    storage.create_game(GameRecord(
        id=game_id, name="v1", players=2, status="running", seed=11, setup=None,
        version=0, engine_version="1", host_token_hash=token_hash("host"), created_at=stamp,
        updated_at=stamp, seats=[SeatRecord(seat=s, name=f"p{s}", token_hash=token_hash(t))
                                 for s, t in tokens.items()]))
    for i, (seat, action_json) in enumerate(log):
        snapshot = snapshots.get(i + 1)
        storage.append_action(game_id, i, seat, action_json, f"a{i}", effects[i], None,
                              None if snapshot is None else (i + 1, snapshot))
    table = Table(id=game_id, host="host", tokens=tokens)
    mover = game.current_seat
    assert mover is not None
    shown = state(http, table, mover)
    assert shown["older_engine"] is False and info(http, table)["engine_version"] == "1"
    assert shown["view"] == view(game, mover) and shown["undoable"] is True, shown["undoable"]
    undo = http.post(table.url("/undo"), headers=auth(tokens[mover]),
                     json={"expected_version": len(log)})
    assert undo.status_code == 200, undo.text
    back = state(http, table, mover)
    assert back["view"] == view(states[-2], mover) and back["undoable"] is False
    moves = back["legal"]
    played = act(http, table, mover, moves[0]["action"], back["version"])
    assert played.status_code == 200, played.text
    for n in range(1, len(log)):  # between the snapshots too
        frame = http.get(table.url(f"/replay/{n}"))
        assert frame.status_code == 200, f"frame {n}: {frame.text}"
        assert frame.json()["view"] == view(states[n], None), f"frame {n}"


def test_loading_a_game_and_its_replay_frames_rebuild_in_a_worker_not_on_the_event_loop(
        http: httpx.Client, storage: Storage, db_url: str) -> None:
    """The server's own thread (its event loop) never replays a log: a profile hook on it
    records every call of the rebuilding functions, and of `_load` (which does run there:
    the hook is seen to work). The frames are checked against the engine's own replay."""
    table = make_game(http, players=2, humans=2)
    play(http, table, 9, random.Random(4))
    watched = {rebuild.__code__, rebuilt_frame.__code__, GameCore._load.__code__}
    calls: list[str] = []

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call" and frame.f_code in watched:
            calls.append(frame.f_code.co_name)

    threading.setprofile(profile)  # for the threads started now: the server's
    try:
        fresh = LiveServer(Settings(database_url=db_url, bot_delay=0.0, join_limit=0,
                                    workers=1))
        fresh.__enter__()
    finally:
        threading.setprofile(None)  # type: ignore[arg-type]
    try:
        with httpx.Client(base_url=fresh.base, timeout=60) as client:
            assert client.get(table.url("/state")).json()["version"] == 9
            for n in (1, 5, 8):
                frame = client.get(table.url(f"/replay/{n}")).json()
                assert frame["view"] == view(replayed(storage, table.id)[n], None)
    finally:
        fresh.__exit__()
    # (a coroutine's every resumption counts as a call: `_load` shows up more than once)
    assert "_load" in calls and set(calls) == {"_load"}, set(calls)


def test_a_late_replay_frame_reads_only_the_rows_after_its_snapshot(
        http: httpx.Client, storage: Storage) -> None:
    """A replay frame is rebuilt from the nearest snapshot and the log rows after it, never
    from the whole log (stepping through a game read O(N²) rows): the rows a frame reads
    (`Storage.rows_after`, what `Replays.replay_frame` asks for) are at most one round's,
    late in the game as early, with undone rows left out; and every frame is the engine's
    own replay."""
    table = make_game(http, players=2, humans=2)
    rng = random.Random(3)
    play(http, table, 3, rng)  # round 2 has begun: its first seat has one action of two left
    game = info(http, table)
    undone = http.post(table.url("/undo"), json={"expected_version": game["version"]},
                       headers=auth(table.tokens[game["current_seat"]]))
    assert undone.status_code == 200, undone.text
    play(http, table, 13, rng)
    states, live = replayed(storage, table.id), storage.load_actions(table.id)
    record, marks = storage.load_game(table.id), storage.snapshot_marks(table.id)
    assert record is not None and len(live) == len(states) - 1 == 15
    assert len(storage.load_actions(table.id, include_undone=True)) == 16
    reads = {}
    for n in range(len(states)):
        base = max(m for m in marks if m <= n)
        snapshot = storage.load_snapshot(table.id, base)
        assert snapshot is not None and snapshot.actions == base
        rows = storage.rows_after(table.id, record.version, snapshot.seq, n - base)
        assert [r.seq for r in rows] == [r.seq for r in live[base:n]], n
        reads[n] = len(rows)
        frame = http.get(table.url(f"/replay/{n}")).json()
        assert frame["view"] == view(states[n], None), n
    # a round is 4 actions here; frame 13 is 3 after the snapshot at 10 (the whole log
    # before it was 13 rows)
    assert max(reads.values()) <= 4 and reads[13] == 3, reads
