"""FastAPI builds an included router's routes at the first request that walks them (up to a
second of CPU on a loaded machine, which the first requests after a start wait for); the
server builds them at start-up (app.warm_routes), so no request after the start pays it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fastapi.routing
import httpx
import pytest

from brass.server import Settings

from .conftest import LiveServer, make_game


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The paths of the routes FastAPI builds from now on (its private step; a FastAPI
    without it builds nothing this way, and the test holds trivially)."""
    built: list[str] = []
    original = getattr(fastapi.routing, "_populate_api_route_state", None)
    if original is None:
        pytest.skip("this FastAPI builds its routes another way")

    def counted(*args: Any, **kwargs: Any) -> Any:
        built.append(str(kwargs.get("path", args[1] if len(args) > 1 else "?")))
        return original(*args, **kwargs)

    monkeypatch.setattr(fastapi.routing, "_populate_api_route_state", counted)
    yield built


def test_no_request_after_the_start_builds_a_route(tmp_path: Path, builds: list[str]) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'brass.db'}", bot_delay=60.0,
                        workers=0, join_limit=0)
    with LiveServer(settings) as live, httpx.Client(base_url=live.base, timeout=60) as http:
        started = len(builds)
        assert started > 0, "no route was built at start-up"
        table = make_game(http, players=2, humans=2)
        assert http.get(table.url()).status_code == 200
        assert http.get("/api/games").status_code == 200
        assert http.get("/openapi.json").status_code == 200
    assert builds[started:] == [], f"built by requests: {builds[started:]}"
