"""Migrations: `upgrade head` gives exactly the tables `storage.py` declares (SQLite and
Postgres), and a database written before 0002 keeps its games (rows without effects)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

from brass.server import migrate
from brass.server.storage import Storage, make_engine, metadata


def test_the_migrations_make_the_declared_tables(db_url: str) -> None:
    migrate.upgrade(db_url)
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
    finally:
        engine.dispose()


def test_a_log_written_before_effects_still_loads(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    command.upgrade(migrate.alembic_config(url), "0001")
    engine = make_engine(url)
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO games (id, name, players, status, seed, version, engine_version, "
            "host_token_hash, created_at, updated_at) VALUES ('g', 'old', 2, 'running', 5, 1, "
            "'1', 'x', '2026-11-30 10:00:00', '2026-11-30 10:00:00')"))
        conn.execute(text(
            "INSERT INTO actions (game_id, seq, seat, action, action_id, undone, created_at) "
            "VALUES ('g', 1, 0, '{\"kind\": \"loan\", \"card\": \"wild:location\"}', 'a', 0, "
            "'2026-11-30 10:00:01')"))
    engine.dispose()
    migrate.upgrade(url)
    storage = Storage(url)
    try:
        [row] = storage.load_actions("g")
        assert row.action == {"kind": "loan", "card": "wild:location"}
        assert row.effects is None and row.undone_at is None
        assert storage.load_snapshot("g") is None and storage.snapshot_marks("g") == []
    finally:
        storage.close()
