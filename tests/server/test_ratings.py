"""Ratings (ratings.py, docs/PLAYERS.md "Ratings"): the places (a seat a bot plays for at the
end ranks last), which games count, the model's direction, and a real game on SQLite and
Postgres whose end writes its ratings once, in the move that ends it, shown by
`GET /api/games/{id}/ratings`."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, insert, select, update

from brass.server import ratings
from brass.server.records import now
from brass.server.tables import players, seats
from brass.server.tables import ratings as ratings_table

from .conftest import LiveServer, auth

CLOCKED = {"kind": "correspondence", "per_turn": 86400}


def ranking(*ranks: int) -> list[dict[str, int]]:
    return [{"seat": seat, "rank": rank} for seat, rank in enumerate(ranks)]


def test_a_seat_a_bot_plays_for_at_the_end_ranks_last_and_ties_stay() -> None:
    assert ratings.places(ranking(1, 2, 3), {}) == {0: 1, 1: 2, 2: 3}
    assert ratings.places(ranking(1, 2, 3), {0: "resigned"}) == {0: 3, 1: 1, 2: 2}
    assert ratings.places(ranking(1, 1, 3, 4), {3: None}) == {0: 1, 1: 1, 2: 2, 3: 3}
    # two seats put last share last place; a player who came back (None) keeps theirs
    assert ratings.places(ranking(1, 2, 3, 4), {0: "timeout", 1: "handover", 2: None}) == {
        0: 3, 1: 3, 2: 1, 3: 2}


def entrant(seat: int, rank: int, player: str | None = None,
            fixed: tuple[float, float] | None = None) -> ratings.Entrant:
    return ratings.Entrant(seat, rank, player, None if player else fixed or ratings.GUEST)


def test_which_games_count() -> None:
    one = [entrant(0, 1, "a"), entrant(1, 2, fixed=ratings.BOT_RATINGS["easy"])]
    assert ratings.counts({"clock": CLOCKED}, one)
    assert ratings.counts({"clock": {"kind": "none", "handoff_after": 600}}, one)
    assert not ratings.counts({"clock": {"kind": "none"}}, one), "a stall holds it hostage"
    assert not ratings.counts(None, one)
    assert not ratings.counts({"clock": CLOCKED}, [entrant(0, 1), entrant(1, 2)]), "no account"
    assert not ratings.counts({"clock": CLOCKED}, [entrant(0, 1, "a"), entrant(1, 2, "a")])


def test_the_winner_gains_the_loser_loses_and_bots_never_move() -> None:
    before = {"a": ratings.Rating(25.0, 5.0, 7), "b": ratings.Rating(25.0, 5.0, 7)}
    changes = ratings.rate([entrant(0, 2, "a"), entrant(1, 1, "b"),
                            entrant(2, 3, fixed=ratings.BOT_RATINGS["hard"])], before)
    by = {c.player_id: c for c in changes}
    assert set(by) == {"a", "b"}
    assert by["b"].after.mu > by["a"].after.mu, changes
    assert by["b"].after.mu > 25.0, "second of three after a hard bot's loss still gains"
    assert by["a"].after.games == 8 and not by["a"].after.provisional
    # a tie moves two equal players alike
    tie = ratings.rate([entrant(0, 1, "a"), entrant(1, 1, "b")], before)
    assert abs(tie[0].after.mu - tie[1].after.mu) < 1e-9
    # beating an easy bot gains less than beating a hard one
    easy = ratings.rate([entrant(0, 1, "a"), entrant(1, 2, fixed=ratings.BOT_RATINGS["easy"])],
                        before)[0]
    hard = ratings.rate([entrant(0, 1, "a"), entrant(1, 2, fixed=ratings.BOT_RATINGS["hard"])],
                        before)[0]
    assert hard.after.mu - hard.before.mu > easy.after.mu - easy.before.mu


def wait_for(check: Callable[[], Any], what: str, timeout: float = 240.0) -> Any:
    """Poll `check` until it returns something true; fail saying `what` and the last value."""
    end, last = time.monotonic() + timeout, None
    while time.monotonic() < end:
        last = check()
        if last:
            return last
        time.sleep(0.05)
    raise AssertionError(f"waited {timeout:.0f} s for {what}; last saw {last!r}")


def account(url: str, name: str, listed: bool = True) -> str:
    """A player with an account (a test fixture writes the row: playerstore.py owns it)."""
    engine = create_engine(url)
    player_id = secrets.token_hex(16)
    with engine.begin() as conn:
        conn.execute(insert(players).values(id=player_id, name=name, role="player",
                                            email=f"{player_id}@example.org",
                                            email_verified_at=now(), listed=listed,
                                            created_at=now()))
    engine.dispose()
    return player_id


def seat_player(url: str, game_id: str, seat: int, player_id: str) -> None:
    """Give a seat its player (what joining from a browser with a device does)."""
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat)
                     .values(player_id=player_id))
    engine.dispose()


def finished_game(http: httpx.Client, url: str, player_id: str, level: str = "easy",
                  clock: dict[str, Any] = CLOCKED, listed: bool = False) -> str:
    """A 2-player game of `player_id` against a bot, which the player resigns at once: the
    bots play it to its end."""
    created = http.post("/api/games", json={"players": 2, "name": "rated", "clock": clock,
                                            "listed": listed})
    assert created.status_code == 201, created.text
    game, host = created.json()["id"], created.json()["host_token"]
    joined = http.post(f"/api/games/{game}/join", json={"name": "Ada",
                                                        "invite": created.json()["invite"]})
    assert joined.status_code == 201, joined.text
    seat, token = joined.json()["seat"], joined.json()["token"]
    seat_player(url, game, seat, player_id)
    added = http.post(f"/api/games/{game}/bots", headers=auth(host), json={"level": level})
    assert added.status_code == 201, added.text
    resigned = http.post(f"/api/games/{game}/resign", headers=auth(token), json={})
    assert resigned.status_code == 200, resigned.text
    seen: list[str] = []

    def over() -> bool:
        seen.append(http.get(f"/api/games/{game}").json()["status"])
        return seen[-1] == "finished"

    wait_for(over, f"the game's end (statuses seen: {sorted(set(seen))})")
    return game


def test_a_finished_game_is_rated_once_and_shown(server: LiveServer, db_url: str) -> None:
    ada = account(db_url, "Ada")
    with httpx.Client(base_url=server.base, timeout=60) as http:
        game = finished_game(http, db_url, ada)
        engine = create_engine(db_url)
        with engine.connect() as conn:
            rows = conn.execute(select(ratings_table).where(
                ratings_table.c.game_id == game)).all()
        engine.dispose()
        assert [(r.player_id, r.games) for r in rows] == [(ada, 1)], rows
        assert rows[0].mu < ratings.MODEL.mu, "resigned: last, below the newcomer's mu"
        shown = http.get(f"/api/games/{game}/ratings")
        assert shown.status_code == 200, shown.text
        (entry,) = shown.json()["changes"]
        assert entry["player_id"] == ada and entry["name"] == "Ada"
        assert entry["before"]["games"] == 0 and entry["after"]["games"] == 1
        assert entry["after"]["provisional"] is True
        assert entry["after"]["mu"] == pytest.approx(rows[0].mu)
        # a game without a clock (nor hand-over) is not rated
        unrated = finished_game(http, db_url, ada, clock={"kind": "none"})
        assert http.get(f"/api/games/{unrated}/ratings").json()["changes"] == []
