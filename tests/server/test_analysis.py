"""The analysis of a finished game: asked for over the API, computed a few moves at a time, stored
once, served; each move judged from what its player could see, with the preferred move a
legal one at that point of the game."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from brass.engine import apply_action, new_game, parse_action
from brass.server.settings import Settings
from brass.server.storage import Storage

from .conftest import LiveServer, auth
from .test_api import error_of
from .test_bots import watch_to_the_end


@pytest.fixture(scope="module")
def analysis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    url = f"sqlite:///{tmp_path_factory.mktemp('analysis') / 'brass.db'}"
    # the analysis in the server process (0 analysis workers): at the analysis pool's lowest
    # priority a busy test machine can starve it for minutes (the pool: test_analysis_jobs.py)
    with LiveServer(Settings(database_url=url, bot_delay=0.0, join_limit=0, workers=1,
                             analysis_budget=0.1, analysis_workers=0)) as live:
        yield live


def wait_for(http: httpx.Client, url: str, status: str, timeout: float = 300) -> dict[str, Any]:
    """Poll the analysis until it has `status` (bounded: fails after `timeout` seconds)."""
    end = time.monotonic() + timeout
    while True:
        body: dict[str, Any] = http.get(url).json()
        if body["status"] == status or time.monotonic() > end:
            assert body["status"] == status, body
            return body
        time.sleep(0.2)


def test_a_finished_game_is_analysed_stored_and_served(analysis_server: LiveServer) -> None:
    with httpx.Client(base_url=analysis_server.base, timeout=60) as http:
        created = http.post("/api/games", json={"players": 2, "name": "analysed"}).json()
        game, host = created["id"], auth(created["host_token"])
        url = f"/api/games/{game}/analysis"
        assert http.get(url).json() == {"status": "none", "done": 0, "total": 0, "moves": []}
        error_of(http.post(url, headers=host), 409, "game_not_running")
        for _ in range(2):
            assert http.post(f"/api/games/{game}/bots", headers=host).status_code == 201
        watch_to_the_end(analysis_server, game)
        log = http.get(f"/api/games/{game}/log").json()
        started = http.post(url, headers=host)
        assert started.status_code == 202 and started.json()["status"] in ("running", "done")
        done = wait_for(http, url, "done")
        assert http.post(url, headers=host).json() == done  # stored: asking again computes nothing
    moves = done["moves"]
    assert done["done"] == done["total"] == len(moves) == len(log["actions"])
    state = new_game(2, log["seed"], log["setup"])
    for entry, judged in zip(log["actions"], moves, strict=True):
        assert (judged["seq"], judged["seat"], judged["played"]) == (
            entry["seq"], entry["seat"], entry["action"])
        apply_action(state, parse_action(judged["preferred"]))  # a legal move then
        if judged["judged"]:  # a move the budget did not reach says so: never loss 0
            assert judged["loss"] >= 0
            assert judged["loss"] == 0 or judged["preferred"] != judged["played"]
        else:
            assert judged["loss"] is None
        assert len(judged["win"]) == 2 and abs(sum(judged["win"]) - 1) < 0.01
        state = apply_action(state, parse_action(entry["action"]))
    assert any((m["loss"] or 0) > 0 for m in moves)  # the easy bots made mistakes it saw
    stored = Storage(analysis_server.settings.database_url)
    try:
        assert stored.load_analysis(game) == moves
    finally:
        stored.close()
