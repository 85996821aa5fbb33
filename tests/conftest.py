"""Fixtures for every test folder: `brass serve` run as a real command (a subprocess on a free
loopback port), for the tests of the installed wheel, the logs and the start-up checks."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def clean_env(**settings: str) -> dict[str, str]:
    """This process's environment without any Brass setting, plus `settings`."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("BRASS_") and k != "DATABASE_URL"}
    return {**env, "BRASS_BOT_DELAY": "0", "BRASS_WORKERS": "0", "BRASS_JOIN_LIMIT": "0",
            **settings}


class Served:
    """`brass serve` running in a subprocess; its stdout and stderr go to a file."""

    def __init__(self, command: list[str], cwd: Path, env: dict[str, str], log: Path) -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = log
        with log.open("w") as out:
            self.proc = subprocess.Popen([*command, "--host", "127.0.0.1", "--port",
                                          str(self.port)], cwd=cwd, env=env, stdout=out,
                                         stderr=subprocess.STDOUT)

    def wait_healthy(self, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"brass serve exited with {self.proc.returncode}:\n{self.log()}")
            try:
                if httpx.get(self.base + "/health", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.05)  # poll the condition again
        pytest.fail(f"brass serve did not answer /health in {timeout} s:\n{self.log()}")

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


@pytest.fixture
def serve_command(tmp_path: Path) -> Iterator[Callable[..., Served]]:
    """`start(command, cwd, **settings)`: `brass serve` running and healthy, with no setting
    from this environment but `settings` (and no bot delay, no workers, no join limit);
    stopped at the end of the test."""
    started: list[Served] = []

    def start(command: list[str], cwd: Path, **settings: str) -> Served:
        served = Served(command, cwd, clean_env(**settings),
                        tmp_path / f"serve-{len(started)}.log")
        started.append(served)
        served.wait_healthy()
        return served

    yield start
    for served in started:
        served.stop()
