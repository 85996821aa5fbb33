"""Who looks at a game, across instances (docs/REACH.md): the one writer of `watching`.

A player's socket that says the game is visible (`{"type": "visible"}`, ws.py) holds the
game's notices to that player back (notices.py). The socket is on one instance; the notice
may be sent by another (the one whose write committed the move: a spread deployment, a
steward's bot move). So the instance holding a visible socket keeps a row (player, game,
itself) whose `until` it pushes forward every `REFRESH` seconds while the socket shows the
game, and deletes when the last such socket of the player's hides the game or closes; a row
of an instance that died expires by itself after `TTL`. Only the database clock is compared
(`now()`), as leases.py does, so skewed instance clocks agree.

Postgres only: an SQLite database is served by one instance (it sees every socket), so
there the local check of notices.py is the whole answer and nothing is written."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import TYPE_CHECKING

from sqlalchemy import delete, exists, func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert

from . import outage
from .storebase import StoreBase
from .tables import watching

if TYPE_CHECKING:
    from .runtime import Runtime

TTL = 90.0  # seconds a row holds notices back after its instance last refreshed it
REFRESH = 30.0  # seconds between two refreshes of this instance's rows


def shown_here(rt: Runtime, player_id: str) -> bool:
    """One of the player's sockets for the game on this instance shows it now (another
    instance's: a row of this table, which `Notices.elsewhere` reads)."""
    seats = rt.record.seats
    return any(getattr(sub, "visible", False) and sub.seat is not None
               and seats[sub.seat].player_id == player_id for sub in rt.subscribers)


class WatchStore:
    """The `watching` rows of one instance (synchronous: called in a worker thread)."""

    def __init__(self, base: StoreBase, ttl: float = TTL) -> None:
        self.base, self.ttl = base, dt.timedelta(seconds=ttl)

    def mark(self, player_id: str, game_id: str) -> None:
        row = pg_insert(watching).values(player_id=player_id, game_id=game_id,
                                         instance=self.base.instance,
                                         until=func.now() + self.ttl)
        with self.base._tx() as conn:
            conn.execute(row.on_conflict_do_update(
                index_elements=["player_id", "game_id", "instance"],
                set_={"until": row.excluded.until}))

    def unmark(self, player_id: str, game_id: str) -> None:
        with self.base._tx() as conn:
            conn.execute(delete(watching).where(
                watching.c.player_id == player_id, watching.c.game_id == game_id,
                watching.c.instance == self.base.instance))

    def keep(self, pairs: list[tuple[str, str]]) -> None:
        """This instance's rows are `pairs` (player, game), each until `ttl` from now."""
        with self.base._tx() as conn:
            conn.execute(delete(watching).where(watching.c.instance == self.base.instance))
            if pairs:  # `until` by the database's clock, in the statement: not a parameter
                conn.execute(pg_insert(watching).values(until=func.now() + self.ttl), [
                    {"player_id": p, "game_id": g, "instance": self.base.instance}
                    for p, g in pairs])
            conn.execute(delete(watching).where(watching.c.until < func.now()))

    def looked_at(self, player_id: str, game_id: str) -> bool:
        """A socket of the player's shows the game now, on any instance."""
        with self.base._read() as conn:
            return bool(conn.execute(select(exists().where(
                watching.c.player_id == player_id, watching.c.game_id == game_id,
                watching.c.until > func.now()))).scalar())


class Watching:
    """This instance's visible sockets, kept in `watching` for the others to see."""

    def __init__(self, store: WatchStore, refresh: float = REFRESH) -> None:
        self.store, self.refresh = store, refresh
        self._marked: dict[tuple[str, str], Runtime] = {}  # (player, game): its runtime
        self._lock = asyncio.Lock()  # one write at a time: a hide never passes a show
        self._keeper: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._keeper = asyncio.create_task(self._keep_forever(), name="watching")

    async def changed(self, rt: Runtime, player_id: str) -> None:
        """A socket of the player's said whether it shows the game, or closed: the row
        follows whether one of their sockets here still shows it."""
        key = (player_id, rt.id)
        async with self._lock:
            now_shown = shown_here(rt, player_id)
            if now_shown == (key in self._marked):
                return
            try:
                if now_shown:
                    await asyncio.to_thread(self.store.mark, player_id, rt.id)
                    self._marked[key] = rt
                else:
                    self._marked.pop(key, None)
                    await asyncio.to_thread(self.store.unmark, player_id, rt.id)
            except Exception as exc:  # the database out of reach: the next refresh mends it
                outage.background(exc, f"could not record that player {player_id} "
                                  f"{'looks at' if now_shown else 'left'} game {rt.id}")

    async def elsewhere(self, player_id: str, game_id: str) -> bool:
        """A socket of the player's shows the game on some instance (a failed read: no, so
        a notice is never lost)."""
        try:
            return await asyncio.to_thread(self.store.looked_at, player_id, game_id)
        except Exception as exc:
            outage.background(exc, f"could not read who looks at game {game_id}")
            return False

    async def _keep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.refresh)
            try:
                async with self._lock:
                    self._marked = {key: rt for key, rt in self._marked.items()
                                    if shown_here(rt, key[0])}
                    await asyncio.to_thread(self.store.keep, list(self._marked))
            except Exception as exc:
                outage.background(exc, "could not refresh who looks at games")

    async def close(self) -> None:
        """Stop refreshing and drop this instance's rows (a stop is not a crash: the
        others need not wait for them to expire)."""
        if self._keeper is not None:
            self._keeper.cancel()
            await asyncio.gather(self._keeper, return_exceptions=True)
        self._marked.clear()
        try:
            await asyncio.to_thread(self.store.keep, [])
        except Exception as exc:
            outage.background(exc, "could not drop who looks at games")
