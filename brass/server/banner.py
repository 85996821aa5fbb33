"""The banner: one line the server's admin sets on the admin page (adminpage.py) that every page
of the web client shows at the top (a planned stop, a rule of the house). It is kept in
`server_settings` (key `banner`), so every instance shows the same; each instance reads it at
most once per `FRESH` seconds, so `GET /api/banner` costs no database read per request and a
change reaches every instance within `FRESH` seconds."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from .playerstore import PlayerStore
from .schemas import ERRORS

KEY = "banner"
FRESH = 2.0  # seconds an instance answers from its copy

router = APIRouter(prefix="/api", tags=["server"], responses=ERRORS)


class Banner(BaseModel):
    text: str | None = Field(description="the admin's message for every page (null: none)")
    updated_at: str | None = Field(description="when it was set (ISO time; null: never)")


class BannerCache:
    """This instance's copy of the banner, read again once older than `fresh` seconds."""

    def __init__(self, store: PlayerStore, fresh: float = FRESH) -> None:
        self.store, self.fresh = store, fresh
        self._held: Banner | None = None
        self._read_at = 0.0
        self._lock = asyncio.Lock()

    async def get(self) -> Banner:
        if self._held is not None and time.monotonic() - self._read_at < self.fresh:
            return self._held
        async with self._lock:  # one read for every request that waits meanwhile
            if self._held is None or time.monotonic() - self._read_at >= self.fresh:
                self._held = _banner(await asyncio.to_thread(self.store.setting, KEY))
                self._read_at = time.monotonic()
        return self._held

    async def set(self, text: str | None, stamp: str) -> Banner:
        """Store the banner (None: none); this instance shows it at once, the others within
        `fresh` seconds."""
        value = {"text": text, "updated_at": stamp}
        await asyncio.to_thread(self.store.set_setting, KEY, value)
        self._held, self._read_at = _banner(value), time.monotonic()
        return self._held


def _banner(value: Any) -> Banner:
    value = value if isinstance(value, dict) else {}
    return Banner(text=value.get("text") or None, updated_at=value.get("updated_at"))


def cache(request: Request) -> BannerCache:
    held: BannerCache | None = getattr(request.app.state, "banner", None)
    if held is None:  # one per app, made at its first use (the store exists once started)
        held = request.app.state.banner = BannerCache(request.app.state.players)
    return held


@router.get("/banner", response_model=Banner)
async def banner(request: Request) -> Banner:
    """The admin's banner for every page (null text: none). Read from a copy at most
    2 seconds old."""
    return await cache(request).get()
