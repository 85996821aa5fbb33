"""Browser tests: a real server (temporary SQLite) serving the built client, driven by Debian's
chromium through Playwright. Screenshots go to $BRASS_E2E_SHOTS (default test-artifacts/e2e),
printed at the start of the run."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
DIST = WEB / "dist"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "e2e: browser tests (chromium + the real server)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/e2e" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.slow)


def _missing(reason: str) -> None:
    """No browser or no build: fail in CI (they are part of the test command), skip elsewhere."""
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


def _build_web() -> None:
    if (DIST / "index.html").exists():
        return
    npm = shutil.which("npm")
    if npm is None:
        _missing("web/dist is not built and npm is not installed (make web)")
    if not (WEB / "node_modules").exists():
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=WEB, check=True)
    subprocess.run([npm, "run", "build"], cwd=WEB, check=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


SHOTS = Path(os.environ.get("BRASS_E2E_SHOTS", ROOT / "test-artifacts" / "e2e")).resolve()
_used: list[Path] = []


@pytest.fixture(scope="session")
def shots_dir() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for old in SHOTS.glob("*.png"):
        old.unlink()
    _used.append(SHOTS)
    return SHOTS


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say where the browser tests left their screenshots (shown even with -q)."""
    shots = sorted(SHOTS.glob("*.png")) if _used else []
    if shots:
        terminalreporter.write_line(
            f"E2E screenshots ({len(shots)}): {SHOTS}")


@pytest.fixture(scope="session")
def plan() -> tuple[int, list[Any]]:
    from .plan import find_plan

    return find_plan()


@pytest.fixture(scope="session")
def server_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The test server's database (a test may store a position there as a game)."""
    return f"sqlite:///{tmp_path_factory.mktemp('db') / 'brass.db'}"


@pytest.fixture(scope="session")
def server(server_db: str, plan: tuple[int, list[Any]],
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    env = {"DATABASE_URL": server_db, "BRASS_BOT_DELAY": "0",
           "BRASS_ANALYSIS_BUDGET": "0.05",  # CPU seconds per move: a quick analysis
           # analyses in the server process: at the analysis pool's lowest priority a busy
           # test machine can starve one for minutes (its pace: tests/server/test_analysis_jobs)
           "BRASS_ANALYSIS_WORKERS": "0",
           "BRASS_E2E_SEED": str(plan[0]), "BRASS_CLOCK_MINIMUM": "1"}
    with serve(env, _free_port(), tmp_path_factory) as base:
        yield base


@contextmanager
def serve(settings: dict[str, str], port: int, tmp_path_factory: pytest.TempPathFactory,
          host: str = "127.0.0.1") -> Iterator[str]:
    """The server (serve.py) with the built client on `port`, with these settings (environment
    variables) over the environment's; its address (on `host`: a name for it, such as
    localhost) once it answers."""
    _build_web()
    env = {**os.environ, **settings,
           # this checkout's brass, not whichever the interpreter has installed
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    log = (tmp_path_factory.mktemp("log") / "server.log").open("w")
    proc = subprocess.Popen([sys.executable, str(Path(__file__).with_name("serve.py")), str(port)],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://{host}:{port}"
    try:
        # a loaded machine (CI's, or five soaks at once on two cores) can take well over 15 s
        # to import the server: wait for it to answer, up to a minute
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited: see {log.name}")
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=1).read()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"server did not answer within 60 s: see {log.name}") from None
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed (pip install playwright)")
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        _missing("chromium is not installed (apt-get install -y chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        yield b
        b.close()
