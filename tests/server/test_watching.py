"""watching.py on Postgres: an instance's refresh (`WatchStore.keep`) renews its rows of who
looks at which game, several at once, by the database's clock, and drops the rows of games no
longer shown here; `looked_at` reads them. (The refresh ran only every 30 s in a live server,
so no other test reached it: on Postgres it failed every time, and the rows lapsed.)"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, insert, select

from brass.server.migrate import upgrade
from brass.server.storebase import StoreBase
from brass.server.tables import games, players, watching
from brass.server.watching import WatchStore

from .databases import fresh_postgres


@pytest.fixture
def base() -> Iterator[StoreBase]:
    with fresh_postgres("brass_watching") as url:
        upgrade(url)
        now = dt.datetime.now(dt.UTC)
        engine = create_engine(url)
        with engine.begin() as conn:
            conn.execute(insert(players), [
                {"id": p, "role": "player", "listed": False, "created_at": now}
                for p in ("alice", "bob")])
            conn.execute(insert(games), [
                {"id": g, "name": g, "players": 2, "status": "running", "seed": 1,
                 "version": 0, "engine_version": "test", "host_token_hash": "x",
                 "created_at": now, "updated_at": now, "listed": False}
                for g in ("g1", "g2")])
        engine.dispose()
        store = StoreBase(url, instance="here")
        try:
            yield store
        finally:
            store.engine.dispose()


def rows(base: StoreBase) -> dict[tuple[str, str, str], dt.datetime]:
    with base.engine.connect() as conn:
        return {(r.player_id, r.game_id, r.instance): r.until
                for r in conn.execute(select(watching))}


def test_a_refresh_renews_several_rows_and_drops_the_rest(base: StoreBase) -> None:
    store, other = WatchStore(base, ttl=90), WatchStore(StoreBase(base.url, "there"), ttl=90)
    try:
        store.mark("alice", "g1")
        other.mark("bob", "g1")
        first = rows(base)
        store.keep([("alice", "g2"), ("bob", "g2")])
        kept = rows(base)
        assert set(kept) == {("alice", "g2", "here"), ("bob", "g2", "here"),
                             ("bob", "g1", "there")}, kept
        assert kept[("bob", "g1", "there")] == first[("bob", "g1", "there")]  # not its rows
        with base.engine.connect() as conn:
            now = conn.exec_driver_sql("select now()").scalar_one()
        for key in (("alice", "g2", "here"), ("bob", "g2", "here")):
            left = (kept[key] - now).total_seconds()
            assert 80 < left <= 90, (key, left)
        assert store.looked_at("alice", "g2") and not store.looked_at("alice", "g1")
        assert other.looked_at("bob", "g1")
        store.keep([])
        assert set(rows(base)) == {("bob", "g1", "there")}
    finally:
        other.base.engine.dispose()
