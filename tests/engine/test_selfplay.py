"""`python -m brass.engine.selfplay`: random legal games played to the end, with a report."""

from __future__ import annotations

import doctest
import io
import re
import subprocess
import sys

from brass.engine import replay, selfplay


def test_selfplay_plays_one_small_game_to_the_end_and_reports_it() -> None:
    out = io.StringIO()
    [result] = selfplay.run(players=2, games=1, seed=5, out=out)
    assert result.final.is_over
    assert result.rounds == {"canal": 10, "rail": 10}
    assert len(result.log) == result.final.action_count
    assert replay(2, 5, None, [a.to_json() for a in result.log]) == result.final
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    scores = " ".join(f"{vp:3d}" for vp in result.scores)
    assert f"scores {scores}" in lines[0]
    assert "rounds canal 10 rail 10" in lines[0]
    assert f"actions {len(result.log)}" in lines[0]
    assert re.search(r"1 games of 2 players, \d+ actions in [\d.]+ s: "
                     r"[\d.]+ games/s, \d+ actions/s$", lines[1])


def test_selfplay_is_reproducible_from_its_seed() -> None:
    a = selfplay.play_random_game(3, seed=11)
    b = selfplay.play_random_game(3, seed=11)
    assert a.log == b.log and a.final == b.final


def test_selfplay_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "brass.engine.selfplay", "--players", "2", "--games", "1",
         "--seed", "1"], capture_output=True, text=True, timeout=120, check=True)
    assert "game   1  seed 1  scores" in done.stdout
    assert "games/s" in done.stdout and "actions/s" in done.stdout


def test_selfplay_docstring_examples() -> None:
    assert doctest.testmod(selfplay).failed == 0
