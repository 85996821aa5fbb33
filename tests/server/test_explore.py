"""The analysis board: from any position of a finished game, a line of other moves shows
where it leads (the position, its legal moves, the evaluation, a bot's reply) and is never
stored; a running game's position is explored by no one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from brass.engine import apply_action, new_game, parse_action
from brass.server.schemas import Explored
from brass.server.settings import Settings

from .conftest import LiveServer, auth, make_game
from .test_api import error_of
from .test_bots import watch_to_the_end


@pytest.fixture(scope="module")
def explore_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    url = f"sqlite:///{tmp_path_factory.mktemp('explore') / 'brass.db'}"
    with LiveServer(Settings(database_url=url, bot_delay=0.0, join_limit=0, workers=1,
                             analysis_budget=0.1)) as live:
        yield live


def explored(http: httpx.Client, game: str, frame: int, line: list[dict[str, Any]]
             ) -> dict[str, Any]:
    reply = http.post(f"/api/games/{game}/explore", json={"frame": frame, "line": line})
    assert reply.status_code == 200, reply.text
    body: dict[str, Any] = Explored.model_validate(reply.json()).model_dump(mode="json")
    assert body["frame"] == frame and body["line"] == line, body
    return reply.json()  # type: ignore[no-any-return]


def test_a_running_game_is_never_explored(explore_server: LiveServer) -> None:
    """Not by a spectator, not by a seat: its position would show what is hidden."""
    with httpx.Client(base_url=explore_server.base, timeout=60) as http:
        table = make_game(http, players=2, humans=2)
        assert http.get(table.url()).json()["status"] == "running"
        for headers in ({}, auth(table.tokens[0]), auth(table.host)):
            error_of(http.post(table.url("/explore"), json={"frame": 0, "line": []},
                               headers=headers), 409, "game_not_running")


def test_a_line_from_a_finished_game_is_shown_and_not_stored(
        explore_server: LiveServer) -> None:
    with httpx.Client(base_url=explore_server.base, timeout=60) as http:
        table = make_game(http, players=2, humans=0, bots=2)
        watch_to_the_end(explore_server, table.id)
        log = http.get(table.url("/log")).json()
        actions = [entry["action"] for entry in log["actions"]]
        frame = 9
        here = explored(http, table.id, frame, [])
        game = new_game(2, log["seed"], log["setup"])
        for action in actions[:frame]:
            game = apply_action(game, parse_action(action))
        assert here["to_move"] == game.current_seat == log["actions"][frame]["seat"]
        assert here["view"]["action_count"] == frame
        assert abs(sum(here["win"]) - 1) < 0.01 and len(here["vp"]) == 2
        assert here["moves"], here
        for action in [*here["moves"], here["reply"]]:  # every move offered is legal there
            apply_action(game, parse_action(action))

        other = next(m for m in here["moves"] if m != actions[frame])  # not the game's move
        line = [other]
        after = explored(http, table.id, frame, line)
        assert after["view"]["action_count"] == frame + 1
        line.append(after["reply"])  # the bot's reply, played on
        further = explored(http, table.id, frame, line)
        assert further["view"]["action_count"] == frame + 2

        error_of(http.post(table.url("/explore"), json={"frame": frame, "line": [actions[0]]}),
                 409, "illegal")  # the first move again: not a legal move there
        error_of(http.post(table.url("/explore"), json={"frame": len(actions) + 1,
                                                        "line": []}), 404, "not_found")
        end = explored(http, table.id, len(actions), [])
        assert end["to_move"] is None and end["moves"] == [] and end["reply"] is None
        final = new_game(2, log["seed"], log["setup"])
        for action in actions:
            final = apply_action(final, parse_action(action))
        # the winner by the rules' order (VP, then income, then money): on equal VP, the first
        # seat with the most VP may have lost on the tie-break
        assert end["win"][final.winner_order[0]] >= 0.5

        assert http.get(table.url("/log")).json() == log  # the game is untouched
