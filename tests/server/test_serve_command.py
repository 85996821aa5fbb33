"""`brass serve` as a command: its help lists every setting, a bad setting or database stops it
with one line and a non-zero exit, and its logs (JSON here) carry time, level and request ids
and never a token, even at debug level, where the websocket library logs every frame."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from brass import __version__
from brass.server.logs import TextFormatter
from brass.server.settings import setting_infos

from .conftest import free_port

BRASS = [sys.executable, "-m", "brass.cli"]


def brass(*args: str, env: dict[str, str] | None = None,
          cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*BRASS, *args], capture_output=True, text=True, timeout=120,
                          env=env, cwd=cwd, check=False)


def test_version() -> None:
    done = brass("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"brass {__version__}"


def test_serve_help_lists_every_setting_with_its_variable_and_default() -> None:
    done = brass("serve", "--help")
    assert done.returncode == 0
    flat = " ".join(done.stdout.split())
    for info in setting_infos():
        if info.secret:  # the environment or a file only: never in the process list
            assert f"--{info.name.replace('_', '-')}" not in flat
            assert f"{info.env} (or a file named by {info.env}_FILE)" in flat, info
            continue
        assert f"--{info.name.replace('_', '-')}" in flat
        assert f"(env {info.env}; default {info.default})" in flat, info


def test_an_unknown_log_level_is_refused_by_the_command_line() -> None:
    done = brass("serve", "--log-level", "bogus")
    assert done.returncode == 2
    assert "invalid choice: 'bogus'" in done.stderr


@pytest.mark.parametrize(("setting", "value", "says"), [
    ("BRASS_PORT", "abc", "bad setting BRASS_PORT='abc': Input should be a valid integer"),
    ("BRASS_BOT_DELAY", "-1", "bad setting BRASS_BOT_DELAY='-1': Input should be greater"),
    ("BRASS_LOG_FORMAT", "xml", "bad setting BRASS_LOG_FORMAT='xml': Input should be"),
    ("BRASS_WEB_DIST", "/", "bad setting BRASS_WEB_DIST='/': / has no index.html"),
    ("DATABASE_URL", "mysql://me:s3cret@db/brass",
     "bad setting DATABASE_URL: DATABASE_URL must be a postgresql:// or sqlite:// URL"),
    ("BRASS_METRICS_TOKEN", "short",  # a token is counted in characters (not "items")
     "bad setting BRASS_METRICS_TOKEN: Value should have at least 16 characters"),
])
def test_a_bad_setting_stops_the_start_with_one_line(
        tmp_path: Path, setting: str, value: str, says: str) -> None:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("BRASS_") and k != "DATABASE_URL"}
    done = brass("serve", env={**env, setting: value}, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [done.stderr.strip()], done.stderr
    assert done.stderr.startswith(f"brass serve: {says}"), done.stderr
    assert "s3cret" not in done.stderr
    assert not (tmp_path / "var").exists()  # nothing was started


@pytest.mark.parametrize("url", [
    "postgresql://brass:s3cret@127.0.0.1:{port}/brass",
    "sqlite:////proc/no/such/folder/brass.db"])
def test_a_database_that_does_not_answer_stops_the_start_with_one_line(
        tmp_path: Path, url: str) -> None:
    # nothing listens on a free port
    done = brass("serve", "--database-url", url.format(port=free_port()), cwd=tmp_path)
    assert done.returncode == 1
    lines = (done.stdout + done.stderr).splitlines()
    assert len(lines) == 1, lines
    assert " CRITICAL brass.server cannot use the database " in lines[0]
    assert "Error: " in lines[0] and "Traceback" not in lines[0]
    assert "s3cret" not in lines[0]


def test_logs_carry_time_level_request_ids_and_never_a_token(
        tmp_path: Path, serve_command: Callable[..., Any]) -> None:
    served = serve_command([*BRASS, "serve"], tmp_path, BRASS_LOG_LEVEL="debug",
                           BRASS_LOG_FORMAT="json",
                           DATABASE_URL=f"sqlite:///{tmp_path / 'logs.db'}")
    with httpx.Client(base_url=served.base, timeout=30) as http:
        game = http.post("/api/games", json={"players": 2, "name": "logged"}).json()
        gid = game["id"]
        tokens = [http.post(f"/api/games/{gid}/join",
                            json={"name": n, "invite": game["invite"]}).json()["token"]
                  for n in ("a", "b")]
        secrets_ = [game["host_token"], *tokens]
        state = http.get(f"/api/games/{gid}/state").json()
        seat = state["view"]["current_seat"]
        mine = {"Authorization": f"Bearer {tokens[seat]}", "X-Request-ID": "legal-call-1"}
        entries = http.get(f"/api/games/{gid}/legal", headers=mine).json()
        with connect(f"ws://127.0.0.1:{served.port}/ws/games/{gid}", open_timeout=30,
                     additional_headers={"X-Request-ID": "socket-call-1"}) as ws:
            ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
            assert json.loads(ws.recv(timeout=30))["type"] == "state"
            ws.send(json.dumps({"type": "action", "action": entries[0]["action"],
                                "expected_version": state["version"], "action_id": "log-1"}))
            while json.loads(ws.recv(timeout=30))["type"] != "ack":
                pass
        wrong = http.get(f"/api/games/{gid}/state",
                         headers={"Authorization": "Bearer not-a-real-token-0123456789"})
        assert wrong.status_code == 401
    served.stop()
    log = served.log()
    for secret in [*secrets_, "not-a-real-token-0123456789"]:
        assert secret not in log
    # everything the server prints is JSON: nothing else (no resource tracker warning of
    # semaphores left at shutdown by the analyses' workers, analyses.py)
    lines = log.splitlines()
    assert not [line for line in lines if not line.startswith("{")], log[-2000:]
    records = [json.loads(line) for line in lines]
    assert all({"time", "level", "logger", "message"} <= set(r) for r in records)
    assert all(r["time"].endswith("Z") and r["level"] in logging.getLevelNamesMapping()
               for r in records)
    access = [r for r in records if r["logger"] == "uvicorn.access"]
    assert access and all(len(r.get("request_id", "")) >= 1 and r["status"] for r in access)
    assert any(r.get("request_id") == "legal-call-1" and r["path"].endswith("/legal")
               for r in access)
    assert any(r.get("request_id") == "socket-call-1" and "[accepted]" in r["message"]
               for r in records)
    # the websockets library logs every frame at debug level: the hello's token is blanked
    hello_frames = [r for r in records if '"type": "hello"' in r["message"]]
    assert hello_frames and all('"token": "[redacted]"' in r["message"] for r in hello_frames)


def test_a_text_log_line_has_time_level_logger_and_request_id() -> None:
    record = logging.LogRecord("brass.server", logging.WARNING, __file__, 1,
                               "seat %s sent %s", (2, '{"token": "abc"}'), None)
    record.request_id = "r-1"
    line = TextFormatter().format(record)
    stamp, level, logger, rest = line.split(" ", 3)
    assert stamp.endswith("Z") and stamp[10] == "T"
    assert (level, logger) == ("WARNING", "brass.server")
    assert rest == '[req r-1] seat 2 sent {"token": "[redacted]"}'
