"""The terminal client grows a sale tile by tile and a railway by a second link through the
server's extensions (`POST /legal/extend`), at positions of the worst-case corpus stored as
games, and the move it then sends is accepted."""

from __future__ import annotations

import io
from typing import Any

import httpx

from brass.terminal import Api, Prompter, grow

from .conftest import LiveServer, auth
from .test_extensions import at, seated  # noqa: F401  (the fixture)


def scripted(answers: list[str]) -> tuple[Prompter, io.StringIO]:
    out = io.StringIO()
    lines = iter(answers)
    return Prompter(lambda: next(lines) + "\n", out), out


def first_of(http: httpx.Client, table: Any, seat: int, kind: str) -> dict[str, Any]:
    entries = http.get(table.url("/legal"), headers=auth(table.tokens[seat])).json()
    return next(e for e in entries if e["action"]["kind"] == kind)


def test_a_sale_grows_until_the_player_stops(http: httpx.Client, server: LiveServer,
                                            seated: Any) -> None:  # noqa: F811
    game, seat, table = at(seated, "sell_goods_6")
    view = http.get(table.url("/state"), headers=auth(table.tokens[seat])).json()["view"]
    said: list[str] = []
    answers = iter(["abc", "1", "1"])  # a bad answer is asked again; then two more sales

    def read() -> str:
        # then the player stops: the last line offered is "N  no more: play it as it is"
        return next(answers, said[-1].split()[0]) + "\n"

    out = io.StringIO()
    pick = grow(Api(server.base, table.tokens[seat]), table.id,
                first_of(http, table, seat, "sell"), view, seat,
                [f"p{s}" for s in range(game.num_players)], 0, Prompter(read, out), said.append)
    assert len(pick["action"]["sales"]) == 3
    assert any("add to it" in line for line in said) and "no more" in said[-1]
    assert "is not a choice" in out.getvalue()
    done = http.post(table.url("/actions"), headers=auth(table.tokens[seat]), json={
        "action": pick["action"], "expected_version": 0, "action_id": "grown"})
    assert done.json() == {"version": 1}


def test_a_railway_takes_a_second_link(http: httpx.Client, server: LiveServer,
                                       seated: Any) -> None:  # noqa: F811
    game, seat, table = at(seated, "double_rail_own_beer")
    view = http.get(table.url("/state"), headers=auth(table.tokens[seat])).json()["view"]
    ask, _ = scripted(["1"])
    pick = grow(Api(server.base, table.tokens[seat]), table.id,
                first_of(http, table, seat, "network"), view, seat,
                [f"p{s}" for s in range(game.num_players)], 0, ask, lambda _line: None)
    assert len(pick["action"]["links"]) == 2
    done = http.post(table.url("/actions"), headers=auth(table.tokens[seat]), json={
        "action": pick["action"], "expected_version": 0, "action_id": "two-links"})
    assert done.json() == {"version": 1}
