"""The start-up line counts the running games in the database: the steward loads them in the
background after the start, so the games in memory then were not all of them (it said "0
running games" while games ran)."""

from __future__ import annotations

import logging
from pathlib import Path

import httpx
import pytest

from brass.server import Settings

from .conftest import LiveServer, make_game


def started_line(caplog: pytest.LogCaptureFixture) -> str:
    lines = [r.getMessage() for r in caplog.records
             if r.name == "brass.server" and " running games, web client " in r.getMessage()]
    assert len(lines) == 1, [r.getMessage() for r in caplog.records]
    return lines[0]


def test_the_start_up_line_counts_the_running_games(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'brass.db'}", bot_delay=60.0,
                        workers=0, join_limit=0)
    with caplog.at_level(logging.INFO, logger="brass.server"):
        with LiveServer(settings) as first, httpx.Client(base_url=first.base) as http:
            assert ", 0 running games," in started_line(caplog)
            for _ in range(2):
                make_game(http, players=2, humans=2)  # full: running
            make_game(http, players=3, humans=1)  # waiting: not counted
        caplog.clear()
        with LiveServer(settings):
            line = started_line(caplog)
    assert ", 2 running games," in line, line
