"""Racing submissions and retried action ids: exactly one lands; nothing applies twice."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError

from brass.server.storage import (
    DuplicateActionId,
    GameRecord,
    SeatRecord,
    StaleVersion,
    Storage,
    actions,
)

from .conftest import LiveServer, Table, auth, info, legal, make_game


def together(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads released at the same moment; their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        results[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def post_from_own_client(server: LiveServer, table: Table, seat: int,
                         body: dict[str, Any]) -> Callable[[], httpx.Response]:
    def call() -> httpx.Response:
        with httpx.Client(base_url=server.base, timeout=60) as client:
            return client.post(table.url("/actions"), headers=auth(table.tokens[seat]),
                               json=body)
    return call


def test_two_racing_submissions_exactly_one_lands(http: httpx.Client,
                                                  server: LiveServer) -> None:
    for _ in range(3):
        table = make_game(http, players=2, humans=2)
        seat = info(http, table)["current_seat"]
        entries = legal(http, table, seat)
        bodies = [{"action": entries[i]["action"], "expected_version": 0,
                   "action_id": f"race-{i}"} for i in (0, -1)]
        replies = together([post_from_own_client(server, table, seat, b) for b in bodies])
        codes = sorted(r.status_code for r in replies)
        assert codes == [200, 409], [r.text for r in replies]
        loser = next(r for r in replies if r.status_code == 409).json()
        assert loser["code"] == "stale_version"
        assert info(http, table)["version"] == 1
        assert len(http.get(table.url("/log")).json()["actions"]) == 1


def test_a_double_clicked_loan_is_taken_once(http: httpx.Client, server: LiveServer) -> None:
    table = make_game(http, players=2, humans=2)
    seat = info(http, table)["current_seat"]
    money = http.get(table.url("/state"), headers=auth(table.tokens[seat])).json()[
        "view"]["players"][seat]["money"]
    loan = next(e["action"] for e in legal(http, table, seat) if e["action"]["kind"] == "loan")
    body = {"action": loan, "expected_version": 0, "action_id": "double-click"}
    replies = together([post_from_own_client(server, table, seat, body) for _ in range(3)])
    assert [r.json() for r in replies] == [{"version": 1}] * 3
    # a later retry (the turn has moved on) still gives the original answer
    again = post_from_own_client(server, table, seat, body)()
    assert again.json() == {"version": 1}
    log = http.get(table.url("/log")).json()["actions"]
    assert [a["action"]["kind"] for a in log] == ["loan"]
    after = http.get(table.url("/state"), headers=auth(table.tokens[seat])).json()["view"]
    assert after["players"][seat]["money"] == money + 30


def _record(game_id: str) -> GameRecord:
    stamp = dt.datetime.now(dt.UTC)
    return GameRecord(id=game_id, name="t", players=2, status="running", seed=1, setup=None,
                      version=0, engine_version="test", host_token_hash="0" * 64,
                      created_at=stamp, updated_at=stamp,
                      seats=[SeatRecord(seat=0), SeatRecord(seat=1)])


def test_storage_versioned_write_and_unique_constraints(db_url: str) -> None:
    """The database itself refuses a second action of the same version, even from a writer
    that skipped the version check."""
    storage = Storage(db_url)
    game_id = f"storage-{threading.get_ident()}-{id(storage)}"[:32]
    try:
        storage.create_game(_record(game_id))
        loan = {"kind": "loan", "card": "wild:location"}

        def append(i: int) -> Callable[[], Any]:
            return lambda: _try(lambda: storage.append_action(game_id, 0, 0, loan, f"id-{i}"))

        results = together([append(i) for i in range(4)])
        assert sorted(type(r).__name__ for r in results) == [
            "ActionRecord", "StaleVersion", "StaleVersion", "StaleVersion"]
        with pytest.raises(DuplicateActionId):
            storage.append_action(game_id, 1, 1, loan, next(
                r.action_id for r in results if not isinstance(r, Exception)))
        with pytest.raises(StaleVersion):
            storage.append_action(game_id, 0, 1, loan, "late")
        with pytest.raises(IntegrityError), storage.engine.begin() as conn:
            conn.execute(insert(actions).values(
                game_id=game_id, seq=1, seat=1, action=loan, action_id="sneaky",
                undone=False, created_at=dt.datetime.now(dt.UTC)))
        assert [a.seq for a in storage.load_actions(game_id)] == [1]
    finally:
        storage.close()


def _try(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except Exception as exc:
        return exc
