"""Undo: the state message's `undoable` is true exactly when `POST /undo` by the seat to move
succeeds, asked at every version of a whole 2-player game played through the API (canal round
1, where a turn is one action; later rounds of both eras; the rail era's empty deck, where a
turn ends with no card drawn), and while a bot stands in for the seat to move. The oracle is
the server's own undo path."""

from __future__ import annotations

import random

import httpx

from .conftest import LiveServer, act, auth, make_game
from .test_api import error_of, play_first_round, state
from .test_websocket import hello, open_socket, receive


def test_undoable_is_true_exactly_when_undo_succeeds(http: httpx.Client) -> None:
    table = make_game(http, players=2, humans=2)
    rng = random.Random(3)
    undone_at: set[int] = set()  # action counts at which an undo was made (then played again)
    seen: set[str] = set()  # the cases met
    while True:
        public = state(http, table, None)
        if public["view"]["is_over"]:
            assert not public["undoable"]
            break
        seat = public["view"]["current_seat"]
        mine = state(http, table, seat)
        view, version = mine["view"], mine["version"]
        # every client hears the same (whether the seat to move may undo is public)
        assert (mine["version"], mine["undoable"]) == (public["version"], public["undoable"])
        where = f'{view["era"]} round {view["round"]} (version {version})'
        undo = http.post(table.url("/undo"), headers=auth(table.tokens[seat]),
                         json={"expected_version": version})
        if mine["undoable"]:
            assert undo.status_code == 200, f"{where}: undoable, but undo said {undo.text}"
            assert undo.json() == {"version": version + 1}
            undone_at.add(view["action_count"])
            back = state(http, table, seat)
            assert back["undone"] and not back["undoable"], where  # a turn has two actions
            assert back["view"]["actions_left"] == view["actions_left"] + 1, where
            seen.add(f'undone in {view["era"]}')
            version, view = back["version"], back["view"]
        else:
            assert undo.status_code == 409, f"{where}: not undoable, but undo said {undo.text}"
            assert undo.json()["code"] == "illegal", where
            if view["era"] == "canal" and view["round"] == 1:
                seen.add("canal round 1")
            made = [e["type"] for entry in mine["log"] for e in entry["effects"]]
            if made == ["move", "turn_end"]:  # no card drawn: the deck is empty
                seen.add("a turn ended with the move alone")
        # the seat plays on; after an undo, another move (it is then undone no more)
        moves = state(http, table, seat)["legal"]
        assert moves, where
        pick = rng.choice(moves)["action"]
        played = act(http, table, seat, pick, version)
        assert played.status_code == 200, played.text
        after = state(http, table, seat)
        if after["undoable"] and view["action_count"] + 1 in undone_at:
            # this state was undone already: play its turn's second move
            moves = after["legal"]
            played = act(http, table, seat, rng.choice(moves)["action"], after["version"])
            assert played.status_code == 200, played.text
    assert seen == {"canal round 1", "undone in canal", "undone in rail",
                    "a turn ended with the move alone"}, seen


def test_no_undo_while_a_bot_stands_in_for_the_seat_to_move(http: httpx.Client,
                                                             server: LiveServer) -> None:
    table = make_game(http, players=2, humans=2)
    play_first_round(http, table)
    public = state(http, table, None)
    seat, version = public["view"]["current_seat"], public["version"]
    moves = state(http, table, seat)["legal"]
    assert act(http, table, seat, moves[0]["action"], version).status_code == 200
    assert state(http, table, seat)["undoable"]  # its first action of two
    with open_socket(server, table.id) as ws:
        heard = [hello(ws, None)]
        resigned = http.post(table.url("/resign"), headers=auth(table.tokens[seat]),
                             json={"expected_version": version + 1})
        assert resigned.json() == {"version": version + 2}, resigned.text
        while heard[-1].get("version") != version + 2:  # the version the resignation made
            heard.append(receive(ws))
    st = heard[-1]
    said = [(m.get("version"), m.get("undoable")) for m in heard]
    assert st["seats"][seat]["stand_in"] == "resigned", said
    assert (st["view"]["current_seat"], st["view"]["actions_left"]) == (seat, 1), said
    assert st["undoable"] is False, said  # mid-turn, but a bot plays the seat now
    error_of(http.post(table.url("/undo"), headers=auth(table.tokens[seat])), 409,
             "stand_in_playing")
