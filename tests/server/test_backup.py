"""Backups and restore against the real local Postgres, with the scripts the compose service
`backup` runs: deploy/backup.sh writes a whole dump and keeps only the newest BACKUP_KEEP (a
failed dump prunes nothing); deploy/restore.sh puts a dump into a fresh database, where a
server serves the same games: the finished one replays, the running one goes on with the
players' own tokens. A restore over a database replaces what it held, and is refused while a
server is connected to it. Dumps are readable by their owner only."""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.engine import make_url

from brass.server import Settings, migrate

from .conftest import POSTGRES, LiveServer, act, auth, legal, make_game, repo_root
from .databases import fresh_postgres
from .test_bots import watch_to_the_end

DEPLOY = repo_root() / "deploy"


def pg_env(database_url: str, **extra: str) -> dict[str, str]:
    """The libpq settings the scripts read, for a database URL."""
    url = make_url(database_url)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PG", "BACKUP_"))}
    env.update(PGHOST=url.host or "127.0.0.1", PGPORT=str(url.port or 5432),
               PGUSER=url.username or "postgres", PGDATABASE=url.database or "")
    if url.password:
        env["PGPASSWORD"] = url.password
    env.update(extra)
    return env


def script(name: str, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(DEPLOY / name), *args], capture_output=True, text=True,
                          env=env, timeout=120, check=False)


@pytest.fixture
def database(postgres_url: str) -> Iterator[str]:
    with fresh_postgres("brass_backup") as url:
        yield url


def dumps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".dump"))


def test_a_backup_keeps_only_the_newest_dumps(database: str, tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    old = [f"brass-2020010{i}T000000Z.dump" for i in range(1, 5)]
    for name in old:
        (folder / name).write_bytes(b"an old dump")
    (folder / "notes.txt").write_text("not a dump: never pruned")
    migrate.upgrade(database)  # the tables a server makes at start
    env = pg_env(database, BACKUP_DIR=str(folder), BACKUP_KEEP="3")
    done = script("backup.sh", "once", env=env)
    assert done.returncode == 0, done.stderr
    kept = dumps(folder)
    assert len(kept) == 3 and kept[:2] == old[2:]  # the two newest old ones and the new one
    new = folder / kept[2]
    assert new.name.startswith("brass-20") and new.name > old[-1]
    assert f"pruned {folder / old[0]}" in done.stdout and f"pruned {folder / old[1]}" in done.stdout
    assert (folder / "notes.txt").exists()
    assert not list(folder.glob("*.partial"))
    assert stat.S_IMODE(new.stat().st_mode) == 0o600  # token hashes and chat: owner only
    # a real dump: pg_restore can list it
    listing = subprocess.run(["pg_restore", "--list", str(new)], capture_output=True,
                             text=True, check=False)
    assert listing.returncode == 0 and "TABLE public games" in listing.stdout


def test_a_failed_backup_prunes_nothing(tmp_path: Path, postgres_url: str) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    for i in range(1, 4):
        (folder / f"brass-2020010{i}T000000Z.dump").write_bytes(b"an old dump")
    before = dumps(folder)
    env = pg_env(f"{POSTGRES}/brass_no_such_database", BACKUP_DIR=str(folder), BACKUP_KEEP="1")
    done = script("backup.sh", "once", env=env)
    assert done.returncode != 0
    assert "pg_dump of brass_no_such_database failed; nothing pruned" in done.stderr
    assert dumps(folder) == before and not list(folder.glob("*.partial"))
    for bad in ("0", "x", "-3"):
        wrong = script("backup.sh", "once", env={**env, "BACKUP_KEEP": bad})
        assert wrong.returncode == 2 and "BACKUP_KEEP must be a whole number" in wrong.stderr


def games_of(http: httpx.Client, ids: list[str]) -> dict[str, dict[str, Any]]:
    """Each game as `GET /api/games/{id}` shows it (the games are unlisted)."""
    return {game_id: http.get(f"/api/games/{game_id}").json() for game_id in ids}


def test_restore_into_a_fresh_database_serves_the_same_games(
        database: str, tmp_path: Path) -> None:
    settings = Settings(database_url=database, bot_delay=0.0, workers=0, join_limit=0)
    with LiveServer(settings) as source, \
            httpx.Client(base_url=source.base, timeout=60) as http:
        finished = make_game(http, players=2, humans=0, bots=2)
        watch_to_the_end(source, finished.id)
        running = make_game(http, players=2, humans=2)
        seat = http.get(running.url()).json()["current_seat"]
        assert act(http, running, seat, legal(http, running, seat)[0]["action"],
                   0).status_code == 200
        waiting = make_game(http, players=3, humans=1)
        ids = [finished.id, running.id, waiting.id]
        listed = games_of(http, ids)
        finished_log = http.get(finished.url("/log")).json()
        running_state = timeless(http.get(running.url("/state"),
                                          headers=auth(running.tokens[seat])).json())

    folder = tmp_path / "backups"
    done = script("backup.sh", "once", env=pg_env(database, BACKUP_DIR=str(folder)))
    assert done.returncode == 0, done.stderr
    (dump,) = folder.glob("brass-*.dump")

    with fresh_postgres("brass_restored") as target:
        restored = script("restore.sh", str(dump), env=pg_env(target))
        assert restored.returncode == 0, restored.stderr
        settings = Settings(database_url=target, bot_delay=0.0, workers=0, join_limit=0)
        with LiveServer(settings) as server, \
                httpx.Client(base_url=server.base, timeout=60) as http:
            assert games_of(http, ids) == listed
            assert http.get(finished.url("/log")).json() == finished_log
            mine = auth(running.tokens[seat])
            assert timeless(http.get(running.url("/state"), headers=mine).json()) == running_state
            # the running game goes on, with the tokens its players hold
            other = 1 - seat
            move = legal(http, running, other)[0]["action"]
            assert act(http, running, other, move, 1).status_code == 200
            # the waiting game still takes players
            joined = http.post(waiting.url("/join"),
                               json={"name": "late", "invite": waiting.invite})
            assert joined.status_code == 201
            # while it serves, a restore is refused and changes nothing
            refused = script("restore.sh", str(dump), env=pg_env(target, RESTORE_WAIT="1"))
            assert refused.returncode == 3, (refused.stdout, refused.stderr)
            assert refused.stderr.startswith(
                "restore.sh: refused: 1 Brass app instance(s) connected to brass_restored"), \
                refused.stderr
            assert "docker compose stop app" in refused.stderr
            assert http.get(running.url()).json()["version"] == listed[running.id]["version"] + 1
            late = [s["name"] for s in http.get(waiting.url()).json()["seats"]]
            assert "late" in late, late

        # restoring again replaces what the database holds: that move is gone
        again = script("restore.sh", str(dump), env=pg_env(target))
        assert again.returncode == 0, again.stderr
        with LiveServer(settings) as server, \
                httpx.Client(base_url=server.base, timeout=60) as http:
            assert timeless(http.get(running.url("/state"), headers=mine).json()) == running_state
            assert games_of(http, ids) == listed


def test_restore_needs_a_dump(tmp_path: Path) -> None:
    done = script("restore.sh", str(tmp_path / "missing.dump"), env=dict(os.environ))
    assert done.returncode == 2 and done.stderr.startswith("usage: restore.sh DUMP")


def timeless(state: dict[str, Any]) -> dict[str, Any]:
    """A state message without the server's time of sending."""
    return {k: v for k, v in state.items() if k != "server_time"}
