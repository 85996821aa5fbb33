"""Bots: the heuristic beats random play; a game of bots plays to the end by itself; its log
downloads as one JSON record that `brass replay FILE` replays to the same final scores."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from brass.bots import choose_action, choose_entry
from brass.engine import apply_action, legal_actions, new_game, parse_action, replay, view

from .conftest import LiveServer, make_game, repo_root


def test_the_heuristic_bot_scores_more_than_random_play() -> None:
    bot_vp = random_vp = 0
    for i in range(6):
        game, rng, bot_seat = new_game(2, 500 + i), random.Random(i), i % 2
        while not game.is_over:
            action = (choose_action(game, rng) if game.current_seat == bot_seat
                      else rng.choice(legal_actions(game)))
            game = apply_action(game, action)
        bot_vp += game.scores[bot_seat]
        random_vp += game.scores[1 - bot_seat]
    assert bot_vp > random_vp


def test_the_bot_builds_links_and_sells_and_beats_the_cheap_heuristic() -> None:
    """In 2-player games against the `GET /legal` heuristic (`choose_entry`), the server's
    one-move-ahead bot plays every productive kind of move and scores more."""
    kinds: Counter[str] = Counter()
    bot_vp = other_vp = 0
    for i in range(4):
        game, rng, bot_seat = new_game(2, 700 + i), random.Random(i), i % 2
        while not game.is_over:
            if game.current_seat == bot_seat:
                action = choose_action(game, rng)
                kinds[action.kind] += 1
            else:
                entries = [{"action": a.to_json(), "quote": None} for a in legal_actions(game)]
                money = game.players[1 - bot_seat].money
                action = parse_action(choose_entry(entries, rng, money)["action"])
            game = apply_action(game, action)
        bot_vp += game.scores[bot_seat]
        other_vp += game.scores[1 - bot_seat]
    assert kinds["build"] and kinds["network"] and kinds["sell"]
    assert bot_vp > other_vp


def watch_to_the_end(server: LiveServer, game_id: str) -> dict[str, object]:
    """Follow a game on a spectator socket until it is over; the last state message."""
    with connect(f"{server.ws_base}/ws/games/{game_id}", max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "token": None}))
        while True:
            msg = json.loads(ws.recv(timeout=120))
            if msg["type"] == "state" and msg["status"] == "finished":
                assert isinstance(msg, dict)
                return msg


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_of_bots_plays_to_the_end_and_replays(
        http: httpx.Client, server: LiveServer, players: int, tmp_path: Path) -> None:
    table = make_game(http, players=players, humans=0, bots=players)
    last = watch_to_the_end(server, table.id)
    log = http.get(table.url("/log")).json()
    assert log["status"] == "finished" and log["seed"] is not None
    assert len(log["actions"]) == last["version"]
    assert http.get(table.url()).json()["scores"] == log["scores"]
    actions = [parse_action(entry["action"]) for entry in log["actions"]]
    for n in (0, 5, len(actions) // 2, len(actions)):
        frame = http.get(table.url(f"/replay/{n}?seat={n % players}")).json()
        expected = view(replay(players, log["seed"], log["setup"], actions[:n]), n % players)
        assert frame["view"] == json.loads(json.dumps(expected))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    done = run_cli("replay", str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["scores"] == log["scores"]
    if any(log["scores"]):
        path.write_text(json.dumps({**log, "scores": [s + 1 for s in log["scores"]]}))
        assert run_cli("replay", str(path)).returncode == 1


def test_replay_refuses_the_log_of_a_running_game(http: httpx.Client, tmp_path: Path) -> None:
    table = make_game(http, players=2, humans=2)
    path = tmp_path / "running.json"
    path.write_text(http.get(table.url("/log")).text)
    done = run_cli("replay", str(path))
    assert done.returncode == 2 and "seed" in done.stderr


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "brass.cli", *args], capture_output=True,
                          text=True, cwd=repo_root(), timeout=120, check=False)


def test_brass_play_plays_a_whole_game_against_bots(server: LiveServer) -> None:
    done = run_cli("play", "--url", server.base, "--players", "3", "--auto")
    assert done.returncode == 0, done.stderr
    assert "final scores" in done.stdout
