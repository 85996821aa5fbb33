"""The database in parts (BRASS_DB_HOST, _PORT, _USER, _PASSWORD, _NAME), as docker-compose.yml
gives it: any password works (it is URL-encoded, never pasted into a URL), and `brass serve`
started with only these settings serves from that Postgres database. The password is never a
command-line option (the process list shows those): the variable, or a file named by
BRASS_DB_PASSWORD_FILE. (The local Postgres of
the tests trusts loopback connections, so this proves the URL is built right, not that the
password is checked.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from pydantic import ValidationError
from sqlalchemy.engine import make_url

from brass.server import Settings

from .conftest import free_port
from .test_restart import wait_for

PASSWORD = "p@ss:w/rd%?#&= x"


def test_the_parts_make_a_url_with_the_password_as_it_is() -> None:
    settings = Settings(db_host="db", db_port=5433, db_user="brass", db_password=PASSWORD,
                        db_name="games")
    url = make_url(settings.database_url)
    assert (url.drivername, url.host, url.port, url.username, url.password, url.database) == (
        "postgresql+psycopg", "db", 5433, "brass", PASSWORD, "games")
    with pytest.raises(ValidationError, match="set DATABASE_URL or BRASS_DB_HOST, not both"):
        Settings(database_url="sqlite:///x.db", db_host="db")


def clean() -> dict[str, str]:
    return {k: v for k, v in os.environ.items()
            if not k.startswith("BRASS_") and k != "DATABASE_URL"}


def test_secrets_come_from_a_file_and_the_variable_wins(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = tmp_path / "db-password"
    secret.write_text(PASSWORD + "\n")  # as `echo ... > file` writes it
    monkeypatch.setenv("BRASS_DB_PASSWORD_FILE", str(secret))
    monkeypatch.setenv("BRASS_METRICS_TOKEN_FILE", str(secret))
    monkeypatch.delenv("BRASS_DB_PASSWORD", raising=False)
    monkeypatch.delenv("BRASS_METRICS_TOKEN", raising=False)
    settings = Settings(db_host="db")
    assert make_url(settings.database_url).password == PASSWORD
    assert settings.metrics_token is not None
    assert settings.metrics_token.get_secret_value() == PASSWORD
    assert PASSWORD not in repr(settings)
    monkeypatch.setenv("BRASS_DB_PASSWORD", "from the variable")
    assert make_url(Settings(db_host="db").database_url).password == "from the variable"
    # compose's unset variable ("") is unset: the file still gives the secret, and with no
    # file there is none
    monkeypatch.setenv("BRASS_METRICS_TOKEN", "")
    from_file = Settings().metrics_token
    assert from_file is not None and from_file.get_secret_value() == PASSWORD
    monkeypatch.delenv("BRASS_METRICS_TOKEN_FILE")
    assert Settings().metrics_token is None


def serve_once(*options: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "brass.cli", "serve", *options], env=env,
                          cwd=cwd, capture_output=True, text=True, timeout=60, check=False)


def test_a_secret_is_no_option_and_an_unreadable_file_is_one_line(tmp_path: Path) -> None:
    for option in ("--db-password", "--metrics-token"):
        refused = serve_once(option, "hunter2hunter2hunter2", env=clean(), cwd=tmp_path)
        assert refused.returncode == 2 and "unrecognized arguments" in refused.stderr
    helped = serve_once("--help", env=clean(), cwd=tmp_path)
    assert "--db-password" not in helped.stdout and "--db-host" in helped.stdout
    missing = tmp_path / "no-such-file"
    bad = serve_once(env={**clean(), "BRASS_DB_PASSWORD_FILE": str(missing)}, cwd=tmp_path)
    assert bad.returncode == 2, bad.stderr
    assert bad.stderr.startswith(f"brass serve: bad setting BRASS_DB_PASSWORD_FILE='{missing}'")
    assert "Traceback" not in bad.stderr and len(bad.stderr.splitlines()) == 1
    short = serve_once(env={**clean(), "BRASS_METRICS_TOKEN": "short-secret"}, cwd=tmp_path)
    assert short.returncode == 2 and "BRASS_METRICS_TOKEN" in short.stderr
    assert "short-secret" not in short.stderr  # a secret is never repeated


def test_serve_with_the_database_in_parts(postgres_url: str, tmp_path: Path) -> None:
    url = make_url(postgres_url)
    port = free_port()
    secret = tmp_path / "db-password"
    secret.write_text(PASSWORD)
    env = clean()
    env.update(BRASS_DB_HOST=url.host or "127.0.0.1", BRASS_DB_PORT=str(url.port or 5432),
               BRASS_DB_USER=url.username or "postgres", BRASS_DB_PASSWORD_FILE=str(secret),
               BRASS_DB_NAME=url.database or "", BRASS_WORKERS="0")
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "brass.cli", "serve", "--port", str(port),
                                 "--log-level", "warning"], env=env, cwd=tmp_path, stdout=out,
                                stderr=subprocess.STDOUT)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            def created() -> bool:
                try:
                    reply = http.post("/api/games", json={"players": 2, "name": "parts"})
                except httpx.TransportError:
                    return False
                return reply.status_code == 201

            wait_for(created, f"the server on Postgres (see {log})", proc)
            ready = http.get("/ready")
        assert ready.status_code == 200, ready.text
        assert not (tmp_path / "var").exists()  # not the SQLite default
        # the event loop's own connections (the fan-out's, the move writer's) too
        assert "unreachable" not in log.read_text(), log.read_text()[-2000:]
    finally:
        proc.terminate()
        proc.wait(timeout=30)
