"""Which instance runs each game's background work (table `leases`; docs/OWNERSHIP.md)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    and_,
    delete,
    func,
    literal,
    or_,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert

from .records import GameRecord
from .storebase import StoreBase
from .tables import games, leases, seats, status_is


def _needs_work() -> Any:
    """The games that have background work (steward.py, due.py): running, and with a turn
    clock's deadline, a bot seat or a seat a bot plays for its player (`stand_in`)."""
    return and_(status_is("running"), or_(
        games.c.deadline.is_not(None),
        select(seats.c.seat).where(seats.c.game_id == games.c.id,
                                   or_(seats.c.bot.is_(True),
                                       seats.c.stand_in.is_not(None))).exists()))


def needs_work(record: GameRecord) -> bool:
    """`_needs_work` of a game's record in memory: a game that starts without it (no turn
    clock, no bot) is not claimed at its start, which would write nothing but cost a
    transaction of every opened game; a bot standing in later pokes the steward again."""
    return record.status == "running" and (record.deadline is not None or any(
        s.played_by_bot for s in record.seats))


class Leases:
    """Which instance runs each game's background work: a row per game in `leases`, held by
    `owner` until `expires_at`. Only the database clock (`now()`) is compared, so instances
    with skewed clocks agree. Postgres only (SQLite is one process: steward.LocalLeases)."""

    def __init__(self, storage: StoreBase, owner: str, ttl: float) -> None:
        self.storage, self.owner, self.ttl = storage, owner, dt.timedelta(seconds=ttl)

    def renew(self) -> set[str]:
        """Extend every lease this instance still holds; the games they are for."""
        with self.storage._tx() as conn:
            return set(conn.execute(
                update(leases).where(leases.c.owner == self.owner)
                .values(expires_at=func.now() + self.ttl).returning(leases.c.game_id)
            ).scalars())

    def census(self) -> tuple[int, int]:
        """(games that need background work, other instances holding a live lease)."""
        with self.storage._tx() as conn:
            needing = conn.execute(select(func.count()).select_from(games)
                                   .where(_needs_work())).scalar_one()
            others = conn.execute(select(func.count(func.distinct(leases.c.owner))).where(
                leases.c.expires_at >= func.now(), leases.c.owner != self.owner)).scalar_one()
        return int(needing), int(others)

    def claim(self, limit: int, game_id: str | None = None) -> dict[str, int]:
        """Take up to `limit` games that need work and whose lease is free or expired (just
        `game_id`, if given): {game id: epoch}. Of two instances claiming one game, one wins
        (the conflict is decided on the row)."""
        free = select(games.c.id, literal(self.owner), literal(1),
                      func.now() + self.ttl).where(
            _needs_work(),
            ~select(leases.c.game_id).where(leases.c.game_id == games.c.id,
                                            leases.c.expires_at >= func.now()).exists(),
        ).limit(limit)
        if game_id is not None:
            free = free.where(games.c.id == game_id)
        new = pg_insert(leases).from_select(["game_id", "owner", "epoch", "expires_at"], free)
        sql = new.on_conflict_do_update(
            index_elements=[leases.c.game_id],
            set_={"owner": new.excluded.owner, "epoch": leases.c.epoch + 1,
                  "expires_at": new.excluded.expires_at},
            where=leases.c.expires_at < func.now(),
        ).returning(leases.c.game_id, leases.c.epoch)
        with self.storage._tx() as conn:
            return {row.game_id: row.epoch for row in conn.execute(sql)}

    def drop(self, game_ids: Sequence[str]) -> None:
        """Give up the leases of these games (no work left, or this instance stops)."""
        if game_ids:
            with self.storage._tx() as conn:
                conn.execute(delete(leases).where(leases.c.owner == self.owner,
                                                  leases.c.game_id.in_(list(game_ids))))
