"""The analyses being computed (table `analysis_jobs`, migration 0009), shared by every instance:
one row per game whose analysis is under way, held by the instance computing it (`owner`)
until `expires_at`, with the moves judged so far. The row makes the job one per game across
instances, lets any instance show its progress, lets another instance resume it where it
stopped when its owner dies, and is what the caps count (all jobs; those one address started).

Only the database clock is compared (as leases.py). A claim counts and inserts under one lock
(Postgres: a transaction-scoped advisory lock; SQLite is one process: a thread lock), so two
instances asked at once never both start a job past the cap."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import and_, delete, func, insert, select, text, update
from sqlalchemy.engine import Connection

from .records import _utc
from .storebase import StoreBase
from .tables import analysis_jobs
from .timing import _db_now

ADVISORY_KEY = 0x62726173_00000009  # "bras" + the migration: this table's claim lock
Outcome = Literal["claimed", "running", "server_busy", "address_busy"]


@dataclass(frozen=True)
class JobRow:
    game_id: str
    total: int
    moves: list[dict[str, Any]]
    failed: bool
    live: bool  # its owner's lease has not expired


class AnalysisJobs:
    """The `analysis_jobs` table's one writer; `owner` names this instance."""

    def __init__(self, storage: StoreBase, owner: str, ttl: float) -> None:
        self.storage, self.owner, self.ttl = storage, owner, dt.timedelta(seconds=ttl)
        self._lock = threading.Lock()  # SQLite: the claim's count and insert in one step

    def _locked(self, conn: Connection) -> None:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": ADVISORY_KEY})

    def claim(self, game_id: str, address: str, total: int, server_cap: int,
              address_cap: int) -> Outcome:
        """Take the game's job for this instance: a new one (within both caps), or one whose
        owner's lease ran out or that failed (asked again: retried from the start)."""
        with self._lock, self.storage._tx() as conn:
            self._locked(conn)
            t = _db_now(conn)
            row = conn.execute(select(analysis_jobs).where(
                analysis_jobs.c.game_id == game_id)).first()
            if row is not None and not row.failed and _utc(row.expires_at) >= t:
                return "running"
            if row is None:
                live = and_(analysis_jobs.c.expires_at >= t, analysis_jobs.c.failed.is_(False))
                count = select(func.count()).select_from(analysis_jobs).where(live)
                if conn.execute(count).scalar_one() >= server_cap:
                    return "server_busy"
                if conn.execute(count.where(
                        analysis_jobs.c.address == address)).scalar_one() >= address_cap:
                    return "address_busy"
                conn.execute(insert(analysis_jobs).values(
                    game_id=game_id, owner=self.owner, expires_at=t + self.ttl,
                    address=address[:64], total=total, moves=[], failed=False, created_at=t))
            else:
                values: dict[str, Any] = {"owner": self.owner, "expires_at": t + self.ttl,
                                          "failed": False}
                if row.failed:
                    values.update(moves=[], address=address[:64])
                conn.execute(update(analysis_jobs).where(
                    analysis_jobs.c.game_id == game_id).values(**values))
            return "claimed"

    def orphans(self, limit: int) -> list[str]:
        """Take up to `limit` jobs whose owner stopped renewing (it died): resumed here."""
        with self._lock, self.storage._tx() as conn:
            self._locked(conn)
            t = _db_now(conn)
            found = list(conn.execute(select(analysis_jobs.c.game_id).where(
                analysis_jobs.c.expires_at < t, analysis_jobs.c.failed.is_(False))
                .order_by(analysis_jobs.c.created_at).limit(limit)).scalars())
            if found:
                conn.execute(update(analysis_jobs).where(analysis_jobs.c.game_id.in_(found))
                             .values(owner=self.owner, expires_at=t + self.ttl))
            return found

    def renew(self) -> set[str]:
        """Extend the leases of this instance's jobs; the games they are for."""
        with self.storage._tx() as conn:
            t = _db_now(conn)
            return set(conn.execute(
                update(analysis_jobs).where(analysis_jobs.c.owner == self.owner,
                                            analysis_jobs.c.failed.is_(False))
                .values(expires_at=t + self.ttl).returning(analysis_jobs.c.game_id)).scalars())

    def progress(self, game_id: str, moves: Sequence[Mapping[str, Any]]) -> bool:
        """Store the moves judged so far; False if the job is no longer this instance's."""
        with self.storage._tx() as conn:
            done = conn.execute(update(analysis_jobs).where(
                analysis_jobs.c.game_id == game_id, analysis_jobs.c.owner == self.owner)
                .values(moves=list(moves)))
            return bool(done.rowcount)

    def fail(self, game_id: str) -> None:
        """The log does not replay on this engine: shown as failed until asked again."""
        with self.storage._tx() as conn:
            conn.execute(update(analysis_jobs).where(
                analysis_jobs.c.game_id == game_id, analysis_jobs.c.owner == self.owner)
                .values(failed=True))

    def finish(self, game_id: str) -> None:
        """The analysis is stored (storage.save_analysis): the job is over."""
        with self.storage._tx() as conn:
            conn.execute(delete(analysis_jobs).where(analysis_jobs.c.game_id == game_id))

    def release(self) -> None:
        """This instance stops: its jobs' leases end now, so another instance resumes them at
        its next look instead of after the lease's time."""
        with self.storage._tx() as conn:
            conn.execute(update(analysis_jobs).where(analysis_jobs.c.owner == self.owner)
                         .values(expires_at=_db_now(conn) - self.ttl))

    def get(self, game_id: str) -> JobRow | None:
        with self.storage._tx() as conn:
            t = _db_now(conn)
            row = conn.execute(select(analysis_jobs).where(
                analysis_jobs.c.game_id == game_id)).first()
        if row is None:
            return None
        return JobRow(game_id=row.game_id, total=row.total, moves=list(row.moves),
                      failed=row.failed, live=_utc(row.expires_at) >= t)

