"""A live game holds only the end of its log (runtime.RECENT rows, IDS_KEPT action ids), so its
memory does not grow with its length; everything that needs older rows reads them from the
database: the log, replay frames, a resent older move (its original result) and a resent
undone one (refused)."""

from __future__ import annotations

import httpx

from brass.server.runtime import IDS_KEPT, RECENT

from .conftest import LiveServer, act, auth, legal, make_game

MOVES = 3 * IDS_KEPT  # well past what is held


def test_a_long_game_holds_the_end_of_its_log_and_reads_the_rest(
        http: httpx.Client, server: LiveServer) -> None:
    table = make_game(http, players=2, humans=2)
    version = 0

    def move(kind: str, action_id: str) -> tuple[int, dict[str, object]]:
        nonlocal version
        seat = http.get(table.url()).json()["current_seat"]
        pick = next(e["action"] for e in legal(http, table, seat) if e["action"]["kind"] == kind)
        reply = act(http, table, seat, pick, version, action_id)
        assert reply.status_code == 200, reply.text
        version = reply.json()["version"]
        return seat, pick

    first_seat, first = move("pass", "move-0")
    move("pass", "move-1")
    loan_seat, loan = move("loan", "loan-1")  # then undone
    undone = http.post(table.url("/undo"), headers=auth(table.tokens[loan_seat]),
                       json={"expected_version": version})
    assert undone.status_code == 200, undone.text
    version = undone.json()["version"]
    for i in range(2, MOVES):
        move("pass", f"move-{i}")

    rt = server.server.config.app.state.service.games[table.id]
    assert rt.count == MOVES
    assert [r.action_id for r in rt.recent] == [f"move-{i}" for i in range(MOVES - RECENT,
                                                                              MOVES)]
    assert len(rt.action_ids) <= IDS_KEPT and "move-0" not in rt.action_ids

    log = http.get(table.url("/log")).json()
    assert log["version"] == version
    assert [e["action"] for e in log["actions"]][:1] == [first]
    assert len(log["actions"]) == MOVES and all(e["effects"] for e in log["actions"])
    seqs = [e["seq"] for e in log["actions"]]
    assert seqs == sorted(seqs) and 3 not in seqs  # the undone loan is left out

    again = act(http, table, first_seat, first, 0, "move-0")  # its original result
    assert again.status_code == 200 and again.json() == {"version": 1}, again.text
    refused = act(http, table, loan_seat, loan, 2, "loan-1")
    assert refused.status_code == 409 and refused.json()["code"] == "action_undone"
    assert http.get(table.url()).json()["version"] == version  # neither moved the game

    frame = http.get(table.url("/replay/1")).json()
    assert frame["n"] == 1 and frame["actions"] == MOVES
    assert frame["view"]["action_count"] == 1
