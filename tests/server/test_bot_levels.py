"""Bot levels through the server: the host picks a level per bot seat, it is stored and
shown with the seats, a bad level is refused, and a game of search bots plays to the end
in the worker processes within the configured budget."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from brass.server.settings import Settings
from brass.server.storage import Storage

from .conftest import LiveServer, auth
from .test_bots import watch_to_the_end


@pytest.fixture(scope="module")
def levels_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    url = f"sqlite:///{tmp_path_factory.mktemp('levels') / 'brass.db'}"
    with LiveServer(Settings(database_url=url, bot_delay=0.0, join_limit=0, workers=1,
                             bot_budget=0.05)) as live:
        yield live


def test_the_host_picks_each_bots_level_and_the_game_plays_to_the_end(
        levels_server: LiveServer) -> None:
    with httpx.Client(base_url=levels_server.base, timeout=60) as http:
        created = http.post("/api/games", json={"players": 2, "name": "levels"}).json()
        game, host = created["id"], auth(created["host_token"])
        refused = http.post(f"/api/games/{game}/bots", headers=host, json={"level": "expert"})
        assert refused.status_code == 400 and "level" in refused.text, refused.text
        assert http.post(f"/api/games/{game}/bots", headers=host,
                         json={"level": "hard"}).json() == {"seat": 0}
        assert http.post(f"/api/games/{game}/bots", headers=host,
                         json={"level": "medium"}).json() == {"seat": 1}
        seats = http.get(f"/api/games/{game}").json()["seats"]
        assert [(s["bot"], s["bot_level"]) for s in seats] == [(True, "hard"),
                                                               (True, "medium")]
        last = watch_to_the_end(levels_server, game)
        assert last["status"] == "finished"
        log = http.get(f"/api/games/{game}/log").json()
        assert len(log["actions"]) == last["version"]
    stored = Storage(levels_server.settings.database_url)
    try:
        record = stored.load_game(game)
        assert record is not None
        assert [s.bot_level for s in record.seats] == ["hard", "medium"]
    finally:
        stored.close()


def test_a_bot_added_without_a_level_is_medium(levels_server: LiveServer) -> None:
    with httpx.Client(base_url=levels_server.base, timeout=60) as http:
        created = http.post("/api/games", json={"players": 3, "name": "default"}).json()
        game, host = created["id"], auth(created["host_token"])
        assert http.post(f"/api/games/{game}/bots", headers=host).status_code == 201
        seats = http.get(f"/api/games/{game}").json()["seats"]
        assert [s["bot_level"] for s in seats] == ["medium", None, None]  # a first game to enjoy
