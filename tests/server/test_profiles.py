"""Profiles (profiles.py): a listed player's public page after real games (rating and its
history, games, wins, average VP, favourite industries, recent listed games), nothing of an
unlisted or unknown player (the same 404), nothing private in it, and a game's rating
changes shown to everyone for a listed player but only to their own seat otherwise."""

from __future__ import annotations

import httpx
from sqlalchemy import create_engine, update

from brass.server.tables import players

from .conftest import LiveServer
from .test_ratings import account, finished_game


def test_a_listed_players_profile_and_nothing_of_an_unlisted_one(server: LiveServer,
                                                                 db_url: str) -> None:
    ada = account(db_url, "Ada")
    with httpx.Client(base_url=server.base, timeout=60) as http:
        assert http.get(f"/api/players/{ada}").json()["rating"] is None
        listed = finished_game(http, db_url, ada, level="medium", listed=True)
        unlisted = finished_game(http, db_url, ada)
        reply = http.get(f"/api/players/{ada}")
        assert reply.status_code == 200, reply.text
        page = reply.json()
        assert page["name"] == "Ada" and page["games"] == 2
        assert page["wins"] == 0, "resigned: last, whatever the bot that stood in did"
        assert page["rating"]["games"] == 2 and page["rating"]["provisional"] is True
        assert [p["game_id"] for p in page["history"]] == [listed, None], page["history"]
        assert page["history"][-1]["ordinal"] == page["rating"]["ordinal"]
        assert [g["id"] for g in page["recent"]] == [listed], "an unlisted game is not linked"
        assert page["recent"][0]["place"] == 2 and page["recent"][0]["vp"] >= 0
        assert page["average_vp"] is not None
        assert all(i in {"cotton", "coal", "iron", "manufacturer", "pottery", "brewery"}
                   for i in page["favourite_industries"]), page["favourite_industries"]
        assert "@" not in reply.text, "no e-mail address"
        # unlisted: the same 404 as an unknown player; the end screen shows their change
        # only to their own seat
        engine = create_engine(db_url)
        with engine.begin() as conn:
            conn.execute(update(players).where(players.c.id == ada).values(listed=False))
        engine.dispose()
        hidden, unknown = http.get(f"/api/players/{ada}"), http.get("/api/players/nobody")
        assert hidden.status_code == unknown.status_code == 404
        assert hidden.json() == unknown.json()
        assert http.get(f"/api/games/{unlisted}/ratings").json()["changes"] == []
