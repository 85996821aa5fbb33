"""The wheel is all a server needs: built from this checkout, installed into a fresh virtualenv,
`brass serve` starts in an empty folder (SQLite there), serves the web client at `/`, answers
`/health` and `/ready`, and plays a move.

No network: the wheel is built with the installed hatchling (`--no-build-isolation`) and the
new virtualenv finds the dependencies in this one's site-packages (a `.pth` line; the
checkout's editable `brass` there is not on that path, so the wheel's `brass` is the one run).
"""

from __future__ import annotations

import signal
import subprocess
import sys
import sysconfig
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


def run(*command: str | Path, cwd: Path | None = None) -> str:
    done = subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, f"{command}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
        "--quiet", "-w", out, ROOT)
    (built,) = out.glob("brass-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Path:
    env = tmp_path_factory.mktemp("venv") / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", env)
    run(sys.executable, "-m", "pip", "--python", env / "bin" / "python", "install",
        "--quiet", "--no-deps", "--no-index", wheel)
    purelib = Path(run(env / "bin" / "python", "-c",
                       "import sysconfig; print(sysconfig.get_paths()['purelib'])").strip())
    (purelib / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return env


def test_the_wheel_carries_migrations_client_license_and_types(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "brass/_migrations/env.py" in names
    assert any(n.startswith("brass/_migrations/versions/0001_") for n in names)
    assert "brass/_web/index.html" in names
    assert any(n.startswith("brass/_web/assets/") for n in names)
    assert "brass/_data/board.json" in names
    assert "brass/py.typed" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert not any("__pycache__" in n for n in names)


def test_the_installed_wheel_serves_a_game_from_an_empty_folder(
        venv: Path, tmp_path: Path, serve_command: Callable[..., Any]) -> None:
    where = run(venv / "bin" / "python", "-c", "import brass; print(brass.__file__)",
                cwd=tmp_path)
    assert where.startswith(str(venv)), where  # the wheel's brass, not the checkout's
    folder = tmp_path / "empty"
    folder.mkdir()
    served = serve_command([str(venv / "bin" / "brass"), "serve"], folder,
                           BRASS_METRICS_TOKEN="wheel-metrics-token-0123")
    with httpx.Client(base_url=served.base, timeout=30) as http:
        page = http.get("/")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert page.text == (ROOT / "web" / "dist" / "index.html").read_text()
        asset = page.text.split('src="', 1)[1].split('"', 1)[0]
        assert http.get(asset).status_code == 200
        assert http.get("/health").json() == {"status": "ok"}
        assert http.get("/ready").status_code == 200
        version = play_one_move(http)
        assert 'brass_moves_total{kind="' in http.get("/metrics", headers={
            "Authorization": "Bearer wheel-metrics-token-0123"}).text
        assert http.get(f"/api/games/{version[0]}/state").json()["version"] >= version[1]
    assert (folder / "var" / "brass.db").is_file()
    # uvicorn stops cleanly on SIGTERM, then re-raises it: the exit status says SIGTERM
    assert served.stop() in (0, -signal.SIGTERM), served.log()
    assert "Application shutdown complete" in served.log()


def play_one_move(http: httpx.Client) -> tuple[str, int]:
    """Create a game against a bot, wait for our turn, play the first legal move; returns the
    game id and the version it made."""
    game = http.post("/api/games", json={"players": 2, "name": "wheel"}).json()
    me = http.post(f"/api/games/{game['id']}/join",
                   json={"name": "me", "invite": game["invite"]}).json()
    mine = {"Authorization": f"Bearer {me['token']}"}
    added = http.post(f"/api/games/{game['id']}/bots", json={},
                      headers={"Authorization": f"Bearer {game['host_token']}"})
    assert added.status_code == 201, added.text
    state = wait_for(http, game["id"], lambda s: s["view"]["current_seat"] == me["seat"])
    entries = http.get(f"/api/games/{game['id']}/legal", headers=mine).json()
    done = http.post(f"/api/games/{game['id']}/actions", headers=mine, json={
        "action": entries[0]["action"], "expected_version": state["version"],
        "action_id": "wheel-1"})
    assert done.status_code == 200, done.text
    assert done.json()["version"] == state["version"] + 1
    return game["id"], state["version"] + 1


def wait_for(http: httpx.Client, game_id: str, condition: Callable[[dict[str, Any]], bool],
             timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        state: dict[str, Any] = http.get(f"/api/games/{game_id}/state").json()
        if condition(state):
            return state
        if time.monotonic() > deadline:
            pytest.fail(f"game {game_id} never reached the condition: {state}")
        time.sleep(0.05)  # poll the condition again
