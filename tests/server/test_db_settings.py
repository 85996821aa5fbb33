"""The database in parts (BRASS_DB_HOST, _PORT, _USER, _PASSWORD, _NAME), as docker-compose.yml
gives it: any password works (it is URL-encoded, never pasted into a URL), and `brass serve`
started with only these settings serves from that Postgres database. (The local Postgres of
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


def test_serve_with_the_database_in_parts(postgres_url: str, tmp_path: Path) -> None:
    url = make_url(postgres_url)
    port = free_port()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("BRASS_") and k != "DATABASE_URL"}
    env.update(BRASS_DB_HOST=url.host or "127.0.0.1", BRASS_DB_PORT=str(url.port or 5432),
               BRASS_DB_USER=url.username or "postgres", BRASS_DB_PASSWORD=PASSWORD,
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
    finally:
        proc.terminate()
        proc.wait(timeout=30)
