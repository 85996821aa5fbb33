"""The legal moves of the seat to move, as the JSON text its state message carries: computed
once per version and seat (`Runtime.legal_cache`), started while a move's row is written, and
let go of once the seat holds them (they are the largest part of a live game's memory)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from brass.engine import Game

from . import metrics, outbound
from .runtime import Runtime


def compute(game: Game, seat: int) -> asyncio.Future[str]:
    """The legal moves of `seat` in `game` (JSON text), listed in this process by a task
    that runs while the move's row is written. Not in a worker: the listing is bounded
    (about 1 ms at worst on `bench/engine.py`'s corpus, 0.2 ms on average: `legal_groups`,
    encoded from texts kept per action and price) and handing the game to a worker process
    and the list back cost more than listing it (under `bench/server.py` at 1,000 games,
    2.1 ms of server CPU per move with a worker, 1.5 without), and made the next seat wait
    for the worker (legal moves p99 0.4-0.6 s)."""
    async def timed() -> str:
        with metrics.LEGAL_SECONDS.time():
            return outbound.legal(game, seat)

    future = asyncio.ensure_future(timed())
    future.add_done_callback(_consume)
    return future


def ahead(rt: Runtime, after: Game) -> tuple[int, asyncio.Future[str]] | None:
    """Start computing the legal moves of the next seat in `after` if one of its clients is
    connected (its state message carries them); None otherwise."""
    seat = after.current_seat
    if seat is None or rt.record.seats[seat].played_by_bot or not any(
            sub.seat == seat for sub in rt.subscribers):
        return None
    return seat, compute(after, seat)  # dropped if the write fails


async def text(rt: Runtime, seat: int) -> str:
    """The legal moves of `seat` at the current version (computed once per version and
    seat): none unless its player is to move (`Runtime.mover`; not while a bot plays it)."""
    game, version = rt.game, rt.record.version
    if game is None or game.is_over or rt.mover != seat:
        return "[]"
    cached = rt.legal_cache
    if cached is None or cached[:2] != (version, seat):
        cached = rt.legal_cache = (version, seat, compute(game, seat))
    try:
        return await asyncio.shield(cached[2])
    except Exception:
        if rt.legal_cache is cached:
            rt.legal_cache = None  # the next request tries again
        raise


def ready(rt: Runtime, version: int, seat: int | None) -> str | None:
    """The legal moves of `seat` at `version` if they are computed already, else None."""
    cached = rt.legal_cache
    if seat is None or cached is None or cached[:2] != (version, seat):
        return None
    future = cached[2]
    if not future.done() or future.cancelled() or future.exception() is not None:
        return None
    return future.result()


def forget(rt: Runtime, version: int, seat: int | None) -> None:
    """Once the seat to move holds its legal moves, the server lets go of them: they are
    the largest part of a live game's memory (75 KB at the first turn) and are needed
    again only if that seat reconnects or asks `GET /legal`, which computes them anew."""
    cached = rt.legal_cache
    if cached is not None and cached[:2] == (version, seat) and cached[2].done():
        rt.legal_cache = None
    if rt.record.version == version:
        rt.rendered.pop(seat, None)


def _consume(future: asyncio.Future[Any]) -> None:
    """Retrieve a dropped future's exception (it is logged where it is awaited)."""
    if not future.cancelled():
        with contextlib.suppress(Exception):
            future.exception()
