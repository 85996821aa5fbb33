"""Creating and joining games (unauthenticated writes) are limited per client address."""

from __future__ import annotations

from pathlib import Path

import httpx

from brass.server.errors import ApiError
from brass.server.ratelimit import RateLimiter
from brass.server.settings import Settings

from .conftest import LiveServer


def test_joins_and_new_games_beyond_the_limit_get_a_typed_429(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'limit.db'}", join_limit=3)
    with LiveServer(settings) as live, httpx.Client(base_url=live.base) as client:
        created = client.post("/api/games",
                              json={"players": 2, "name": "limited", "listed": True})
        assert created.status_code == 201
        game = created.json()["id"]
        assert client.post(f"/api/games/{game}/join", json={"name": "a"}).status_code == 201
        assert client.post(f"/api/games/{game}/join", json={"name": "b"}).status_code == 201
        refused = client.post("/api/games",
                              json={"players": 2, "name": "one too many", "listed": True})
        assert refused.status_code == 429
        assert refused.json()["code"] == "rate_limited"
        assert "try again" in refused.json()["message"]
        # reading and playing are not limited, and the game is untouched
        assert client.get(f"/api/games/{game}").json()["status"] == "running"
        assert len(client.get("/api/games").json()["games"]) == 1


def test_the_window_slides_and_each_client_has_its_own() -> None:
    now = [0.0]
    limiter = RateLimiter(2, window=60.0, clock=lambda: now[0])
    limiter.check("10.0.0.1")
    limiter.check("10.0.0.1")
    limiter.check("10.0.0.2")  # another client is not affected
    try:
        limiter.check("10.0.0.1")
        raise AssertionError("a third request within the minute must be refused")
    except ApiError as error:
        assert error.code == "rate_limited" and error.status == 429
    now[0] = 60.5  # the first two requests have left the window
    limiter.check("10.0.0.1")


def test_a_limit_of_zero_means_no_limit() -> None:
    limiter = RateLimiter(0)
    for _ in range(1000):
        limiter.check("127.0.0.1")
