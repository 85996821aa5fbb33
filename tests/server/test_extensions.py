"""Extensions: the legal moves list a Sell of one sale and a Network of one link; the seat to
move asks for the next sale (or the second link) over HTTP (`POST legal/extend`) or the
websocket (`extend`), and a bad partial action gets a typed error. The positions are the
engine's worst-case corpus (tests/fixtures/worst_case), stored as a game's first snapshot."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import insert

from brass.engine import ENGINE_VERSION, Game, parse_action, quote
from brass.server.auth import token_hash
from brass.server.schemas import Extensions, WsError
from brass.server.storage import GameRecord, SeatRecord, Storage, now, snapshots

from .conftest import LiveServer, Table, auth, repo_root
from .test_websocket import expect_error, hello, open_socket, receive

CORPUS = repo_root() / "tests" / "fixtures" / "worst_case"


def position(name: str) -> Game:
    return Game.from_json(json.loads((CORPUS / f"{name}.json").read_text()))


@pytest.fixture
def seated(db_url: str) -> Iterator[Any]:
    """Store a position as a running game with every seat human; its table has all tokens."""
    storage = Storage(db_url)

    def seat(game: Game) -> Table:
        table = Table(id=f"pos-{secrets.token_hex(4)}", host=secrets.token_hex(8),
                      tokens={s: secrets.token_hex(8) for s in range(game.num_players)})
        stamp = now()
        storage.create_game(GameRecord(
            id=table.id, name="position", players=game.num_players, status="running",
            seed=game.seed, setup=None, version=0, engine_version=ENGINE_VERSION, created_at=stamp,
            host_token_hash=token_hash(table.host), updated_at=stamp,
            seats=[SeatRecord(seat=s, name=f"p{s}", token_hash=token_hash(t))
                   for s, t in table.tokens.items()]))
        with storage.engine.begin() as conn:
            conn.execute(insert(snapshots).values(game_id=table.id, seq=0, actions=0,
                                                  state=game.to_json(), created_at=stamp))
        return table

    yield seat
    storage.close()


def at(seated: Any, name: str) -> tuple[Game, int, Table]:
    """A corpus position stored as a game: the position, its seat to move and its table."""
    game = position(name)
    assert game.current_seat is not None
    return game, game.current_seat, seated(game)


def extend(http: httpx.Client, table: Table, seat: int, action: dict[str, Any],
           version: int | None = 0) -> httpx.Response:
    return http.post(table.url("/legal/extend"), headers=auth(table.tokens[seat]),
                     json={"action": action, "version": version})


def test_a_sale_of_six_tiles_is_built_one_sale_at_a_time(http: httpx.Client,
                                                         seated: Any) -> None:
    game, seat, table = at(seated, "sell_goods_6")
    entries = http.get(table.url("/legal"), headers=auth(table.tokens[seat])).json()
    sells = [e for e in entries if e["action"]["kind"] == "sell"]
    assert sells and all(len(e["action"]["sales"]) == 1 for e in sells)
    assert len(entries) < 1000  # bounded: the full list has tens of thousands of sells
    move = sells[0]
    while True:
        reply = extend(http, table, seat, move["action"])
        assert reply.status_code == 200, reply.text
        body = Extensions.model_validate_json(reply.text)
        data = reply.json()
        assert data["action"] == move["action"] and body.version == 0
        if not data["moves"]:
            break
        for entry in data["moves"]:
            sales = entry["action"]["sales"]
            assert sales[:-1] == move["action"]["sales"]
            assert entry["quote"] == quote(game, parse_action(entry["action"])).to_json()
        move = data["moves"][0]
    assert len(move["action"]["sales"]) == 6
    done = http.post(table.url("/actions"), headers=auth(table.tokens[seat]), json={
        "action": move["action"], "expected_version": 0, "action_id": "six"})
    assert done.json() == {"version": 1}


def test_a_second_rail_link_comes_from_the_extensions_over_the_websocket(
        http: httpx.Client, server: LiveServer, seated: Any) -> None:
    game, seat, table = at(seated, "double_rail_own_beer")
    with open_socket(server, table.id) as ws:
        state = hello(ws, table.tokens[seat])
        networks = [e for e in state["legal"] if e["action"]["kind"] == "network"]
        assert networks and all(len(e["action"]["links"]) == 1 for e in networks)
        doubles = []
        for entry in networks[:10]:
            ws.send(json.dumps({"type": "extend", "action": entry["action"], "version": 0}))
            reply = receive(ws)
            assert reply["type"] == "extensions" and reply["action"] == entry["action"]
            Extensions.model_validate(reply)
            doubles += reply["moves"]
        assert doubles and all(len(m["action"]["links"]) == 2 for m in doubles)
        second = doubles[0]
        assert second["quote"] == quote(game, parse_action(second["action"])).to_json()


def test_a_bad_partial_action_gets_a_typed_error(http: httpx.Client, server: LiveServer,
                                                 seated: Any) -> None:
    game, seat, table = at(seated, "sell_goods_4")
    entries = http.get(table.url("/legal"), headers=auth(table.tokens[seat])).json()
    sell = next(e["action"] for e in entries if e["action"]["kind"] == "sell")
    loan = next(e["action"] for e in entries if e["action"]["kind"] == "loan")
    other = (seat + 1) % game.num_players
    twice = {**sell, "sales": sell["sales"] * 2}  # the same tile sold twice
    for body, status, code in [
            (loan, 400, "malformed"), ({"kind": "sell", "card": sell["card"]}, 400, "malformed"),
            (twice, 409, "illegal"), ({**sell, "card": "industry:gold"}, 400, "malformed")]:
        reply = extend(http, table, seat, body)
        assert (reply.status_code, reply.json()["code"]) == (status, code), body
        if body is twice:  # the engine's reason comes with it
            assert reply.json()["reason"] == "sell_already_sold", reply.json()
    assert extend(http, table, seat, sell, version=3).json()["code"] == "stale_version"
    assert extend(http, table, other, sell).json()["code"] == "not_your_turn"
    anonymous = http.post(table.url("/legal/extend"), json={"action": sell})
    assert anonymous.status_code == 401
    with open_socket(server, table.id) as mine, open_socket(server, table.id) as watcher:
        hello(mine, table.tokens[seat])
        refusal = expect_error(mine, json.dumps({"type": "extend", "action": twice}), "illegal")
        sale = sell["sales"][0]
        assert (refusal["reason"], refusal["params"]["location"]) == (
            "sell_already_sold", sale["location"])
        WsError.model_validate(refusal)
        assert refusal["version"] == 0  # the version it answers (the request named none)
        stale = expect_error(mine, json.dumps({"type": "extend", "action": sell, "version": 7}),
                             "stale_version")
        assert stale["version"] == 7
        expect_error(mine, json.dumps({"type": "extend", "action": loan}), "malformed")
        expect_error(mine, json.dumps({"type": "extend", "action": {"kind": "sell"}}),
                     "malformed")
        hello(watcher, None)
        expect_error(watcher, json.dumps({"type": "extend", "action": sell}), "unauthorized")
        mine.send(json.dumps({"type": "extend", "action": sell}))  # still answered after
        assert receive(mine)["type"] == "extensions"

