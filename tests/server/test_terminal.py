"""`brass play`, the terminal client, run as a process against a real server, its input piped:
the board summary, the grouped and priced moves, input that is asked again, the bot's choice
only when asked for, the server address from the settings, and one clear line when no server
answers."""

from __future__ import annotations

import os
import re
import selectors
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from brass.server import Settings

from .conftest import LiveServer, free_port

PLAY = [sys.executable, "-m", "brass.cli", "play"]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    url = f"sqlite:///{tmp_path_factory.mktemp('terminal') / 'brass.db'}"
    with LiveServer(Settings(database_url=url, bot_delay=0.0, join_limit=0,
                             workers=0)) as server:
        yield server


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BRASS_")}
    env.update(extra)
    return env


def play(args: list[str], stdin: str, env: dict[str, str] | None = None
         ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PLAY, *args], input=stdin, capture_output=True, text=True,
                          timeout=180, env=env or clean_env(), check=False)


def game_log(server: LiveServer, output: str) -> dict[str, Any]:
    found = re.search(r"^game (\S+): you are seat 0", output, re.M)
    assert found, output
    reply = httpx.get(f"{server.base}/api/games/{found.group(1)}/log", timeout=30)
    assert reply.status_code == 200
    log: dict[str, Any] = reply.json()
    return log


def my_actions(log: dict[str, Any]) -> list[dict[str, Any]]:
    return [entry["action"] for entry in log["actions"] if entry["seat"] == 0]


def test_bad_input_is_asked_again_and_a_numbered_move_is_played(live: LiveServer) -> None:
    # the second "1" answers "which card" if several cards allow move 1, else it is the next move
    done = play(["--url", live.base], "abc\n0\n999\n\nn\n1\n1\nq\n")
    out = done.stdout
    assert done.returncode == 0, done.stderr
    for answer in ("abc", "0", "999"):
        assert f"'{answer}' is not a choice: type a number from 1 to" in out
    assert "let the bot choose this move? [y/N]" in out
    # the board in short, and the moves grouped by kind, numbered and priced
    assert re.search(r"── Canal era, round 1 · your turn, 1 action left ──", out)
    assert re.search(r"markets: coal \d+ cubes \(next £\d\), iron \d+ \(next £\d\)", out)
    assert re.search(r"^  0 you ◀ +£17 +0 +£0 +0 +0$", out, re.M)
    assert re.search(r"^  your hand: \S", out, re.M)
    assert re.search(r"^Build \(\d+\)$", out, re.M)
    assert re.search(r"^Network \(\d+\)$", out, re.M)
    assert re.search(r"^ +1  build \w[\w ]* I in [A-Z][\w ()-]* — £\d+", out, re.M)
    assert re.search(r"^ +\d+  build a canal link \w[\w-]*–\w[\w ()-]* — £3$", out, re.M)
    assert re.search(r"^ +\d+  take a loan of £30 — receive £30$", out, re.M)
    assert re.search(r"^ +\d+  pass — free$", out, re.M)
    assert "brass play: you left" in done.stderr
    # answer 1 played the first move (a build), the refused answers played nothing
    mine = my_actions(game_log(live, out))
    asked_card = "ways to pay for it:" in out
    assert len(mine) == (1 if asked_card else 2)
    assert mine[0]["kind"] == "build"


def test_the_bot_chooses_only_when_asked(live: LiveServer) -> None:
    done = play(["--url", live.base], "b\n\ny\nq\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("you: ") == 2
    assert len(my_actions(game_log(live, done.stdout))) == 2


def test_the_end_of_the_input_leaves_with_a_line(live: LiveServer) -> None:
    done = play(["--url", live.base], "")
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "brass play: the input ended; the game goes on on the server"]
    assert my_actions(game_log(live, done.stdout)) == []


def test_auto_plays_a_game_to_the_end(live: LiveServer) -> None:
    done = play(["--url", live.base, "--players", "3", "--auto"], "")
    assert done.returncode == 0, done.stderr
    assert re.search(r"^game over, final scores: .+ \d+ VP, .+ \d+ VP, .+ \d+ VP$",
                     done.stdout, re.M)
    assert "── Rail era" in done.stdout
    log = game_log(live, done.stdout)
    assert log["status"] == "finished" and log["players"] == 3


class Session:
    """`brass play` with a pipe to talk to: read until a prompt, answer it."""

    def __init__(self, args: list[str]) -> None:
        self.proc = subprocess.Popen([*PLAY, *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env=clean_env())
        self.selector = selectors.DefaultSelector()
        assert self.proc.stdout is not None
        self.selector.register(self.proc.stdout, selectors.EVENT_READ)
        self.output = ""

    def until(self, text: str, timeout: float = 60) -> str:
        """Everything printed up to `text` (waits for it)."""
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        while text not in self.output:
            left = deadline - time.monotonic()
            assert left > 0, f"no {text!r} in:\n{self.output}"
            if self.selector.select(left):
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                assert chunk, f"brass play ended before {text!r}:\n{self.output}"
                self.output += chunk.decode()
        head, _, self.output = self.output.partition(text)
        return head + text

    def answer(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def close(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        code = self.proc.wait(timeout=60)
        self.selector.close()
        return code


def test_a_move_many_cards_allow_asks_which_card(live: LiveServer) -> None:
    session = Session(["--url", live.base])
    try:
        screen = session.until("your move [")
        # round 1: no wild card in hand, so scouting is legal, with several sets of 3 cards
        scout = re.search(r"^ +(\d+)  scout \(discard 3 cards", screen, re.M)
        assert scout, screen
        session.answer(scout.group(1))
        ways = session.until("which card [")
        options = re.findall(r"^  (\d+)  play (.+)$", ways, re.M)
        assert len(options) >= 2, ways
        session.answer("x")
        assert "'x' is not a choice" in session.until("which card [")
        session.answer("2")
        session.until("you: scout")
        session.until("your move [")
        session.answer("q")
    finally:
        code = session.close()
    assert code == 0
    mine = my_actions(game_log(live, screen))
    assert [a["kind"] for a in mine] == ["scout"]
    # the second way to pay was played: its three cards, by name
    from brass.terminal import and_list, card_name

    assert and_list([card_name(c) for c in mine[0]["cards"]]) == options[1][1]


def test_the_server_address_comes_from_the_settings(live: LiveServer) -> None:
    env = clean_env(BRASS_HOST="127.0.0.1", BRASS_PORT=str(live.port))
    done = play([], "q\n", env=env)
    assert done.returncode == 0, done.stderr
    assert f"http://127.0.0.1:{live.port}/api/games/" in done.stdout


def test_no_server_is_one_line_and_a_failure() -> None:
    port = free_port()
    for args, env in (([], clean_env(BRASS_PORT=str(port))),
                      (["--url", f"http://127.0.0.1:{port}"], clean_env())):
        done = play(args, "", env=env)
        assert done.returncode == 2
        assert done.stdout == ""
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1, done.stderr
        assert lines[0].startswith(f"brass play: no server answers at http://127.0.0.1:{port} ")
        assert "brass serve" in lines[0]
