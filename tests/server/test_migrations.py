"""Migrations: `upgrade head` gives exactly the tables `storage.py` declares (SQLite and
Postgres), and a database written before 0003 keeps its games (rows without effects), which
get their effects and snapshots the first time the server loads them."""

from __future__ import annotations

import json
import random
from pathlib import Path

import httpx
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

from brass.engine import ENGINE_VERSION, Game, legal_actions, new_game, play, public_events, view
from brass.server import Settings, migrate
from brass.server.storage import Storage, make_engine, metadata

from .conftest import LiveServer


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


def old_game(url: str, moves: int) -> list[tuple[Game, list[object]]]:
    """A running 2-player game 'g' written at revision 0001 (no effects, no snapshots):
    `moves` random legal actions. Each state after them, with the action's public events."""
    command.upgrade(migrate.alembic_config(url), "0001")
    game, rng, played = new_game(2, 5), random.Random(5), []
    engine = make_engine(url)
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO games (id, name, players, status, seed, version, engine_version, "
            "host_token_hash, created_at, updated_at) VALUES ('g', 'old', 2, 'running', 5, "
            f"{moves}, '{ENGINE_VERSION}', 'x', '2026-11-30 10:00:00', '2026-11-30 10:00:00')"))
        for seat in (0, 1):
            conn.execute(text(
                "INSERT INTO seats (game_id, seat, name, token_hash, bot, joined_at) VALUES "
                f"('g', {seat}, 'p{seat}', '{seat}' , false, '2026-11-30 10:00:00')"))
        for seq in range(1, moves + 1):
            seat, action = game.current_seat, rng.choice(legal_actions(game))
            game, events = play(game, action)
            played.append((game, json.loads(json.dumps(list(public_events(events, None))))))
            conn.execute(text(
                "INSERT INTO actions (game_id, seq, seat, action, action_id, undone, created_at)"
                " VALUES ('g', :seq, :seat, :action, :id, false, '2026-11-30 10:00:01')"),
                {"seq": seq, "seat": seat, "action": json.dumps(action.to_json()),
                 "id": f"a{seq}"})
    engine.dispose()
    return played


def test_a_game_stored_before_effects_gets_them_and_its_snapshots_when_loaded(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    played = old_game(url, 9)  # 2 players: the rounds end after actions 2 and 6
    migrate.upgrade(url)
    with LiveServer(Settings(database_url=url, bot_delay=0.0, workers=0)) as server, \
            httpx.Client(base_url=server.base, timeout=60) as http:
        log = http.get("/api/games/g/log").json()
        assert [e["effects"] for e in log["actions"]] == [events for _, events in played]
        frame = http.get("/api/games/g/replay/4").json()
        assert frame["view"] == view(played[3][0], None)
    storage = Storage(url)
    try:
        assert storage.snapshot_marks("g") == [0, 2, 6]
        kept = storage.load_snapshot("g", 6)
        assert kept is not None and Game.from_json(kept.state) == played[5][0]
        assert all(row.effects is not None for row in storage.load_actions("g"))
    finally:
        storage.close()
