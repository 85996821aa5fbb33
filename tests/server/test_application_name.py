"""Every Postgres connection of an instance says whose it is (`application_name`): the main
pool's too (issue 25), so restore.sh's check for connected instances sees an instance that
has only its main pool's connections open (e.g. with the listener between reconnects)."""

from __future__ import annotations

import re

import httpx
from sqlalchemy import create_engine, text

from brass.server.settings import Settings

from .conftest import LiveServer
from .databases import fresh_postgres


def test_the_main_pool_names_its_connections() -> None:
    with fresh_postgres("brass_named") as url, LiveServer(Settings(
            database_url=url, bot_delay=0.0, join_limit=0, workers=0)) as live:
        with httpx.Client(base_url=live.base, timeout=30) as http:
            assert http.post("/api/games", json={"players": 2, "name": "n"}).status_code == 201
        instance = live.server.config.app.state.service.storage.instance
        admin = create_engine(url)
        try:
            with admin.connect() as conn:
                names = set(conn.execute(text(
                    "SELECT application_name FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()")).scalars())
        finally:
            admin.dispose()
    assert f"brass-main {instance}"[:63] in names, names
    # restore.sh's pattern (deploy/restore.sh) matches each of the instance's connections
    mine = [n for n in names if instance[:20] in n]
    assert mine and all(re.match(r"^brass-(main|fanout|moves) ", n) for n in mine), names
