"""Every instance's figures on the admin page: behind a proxy with several instances, a page
reaches one of them, and its own figures (hostfacts.py) say nothing of the others. Each
instance writes its figures to its row of `instances` every `every` seconds (and at start),
and deletes the row when it stops; the admin page lists every row, this instance's counted
now. A row not written for `STALE` reports is listed as silent (its instance was killed, or
cannot reach the database); one silent for `FORGET` is deleted by whichever instance reports
next. This module is the table's one writer."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections.abc import Callable

from pydantic import BaseModel, Field, ValidationError
from sqlalchemy import delete, insert, select

from . import jsontext
from .hostfacts import Figures
from .records import now
from .storebase import StoreBase
from .tables import instances

log = logging.getLogger("brass.server")
EVERY = 15.0  # seconds between an instance's reports
STALE = 3  # reports missed before an instance is listed as silent
FORGET = dt.timedelta(days=1)  # a row silent this long is deleted


class InstanceEntry(BaseModel):
    figures: Figures
    seen_at: str = Field(description="when the instance last wrote its figures (ISO time); "
                                     "this instance's: now")
    seconds_ago: float = Field(description="how long ago that was, by this instance's clock")
    this: bool = Field(description="true: the instance that answered this request")
    silent: bool = Field(description="true: no figures from it for three of its reports "
                                     "or more (killed, or cut off from the database)")


class InstanceList(BaseModel):
    instances: list[InstanceEntry] = Field(description="this instance first, then the "
                                                       "others by name")
    report_every: float = Field(description="seconds between each instance's reports")


class InstanceStore:
    """The `instances` rows (synchronous: called in a worker thread)."""

    def __init__(self, base: StoreBase) -> None:
        self.base = base

    def report(self, figures: Figures, now: dt.datetime) -> None:
        """This instance's row is `figures` as of `now`; rows silent since `FORGET` go."""
        with self.base._tx() as conn:
            conn.execute(delete(instances).where(instances.c.id == figures.instance))
            conn.execute(insert(instances).values(id=figures.instance,
                                                  figures=figures.model_dump(mode="json"),
                                                  seen_at=now))
            conn.execute(delete(instances).where(instances.c.seen_at < now - FORGET))

    def forget(self, instance: str) -> None:
        with self.base._tx() as conn:
            conn.execute(delete(instances).where(instances.c.id == instance))

    def rows(self) -> list[tuple[Figures, dt.datetime]]:
        """Every instance's last figures and when they were written (a row that no longer
        parses, written by another version, is left out)."""
        with self.base.engine.connect() as conn:
            found = conn.execute(select(instances.c.figures, instances.c.seen_at)).all()
        rows = []
        for figures, seen_at in found:
            try:
                parsed = Figures.model_validate(figures if isinstance(figures, dict)
                                                else jsontext.loads(figures))
            except (ValidationError, ValueError):
                continue
            rows.append((parsed, _aware(seen_at)))
        return rows


def listing(mine: Figures, rows: list[tuple[Figures, dt.datetime]], now: dt.datetime,
            every: float) -> InstanceList:
    """This instance's figures (`mine`, counted now) and the others' last `rows`."""
    entries = [InstanceEntry(figures=mine, seen_at=now.isoformat(), seconds_ago=0.0,
                             this=True, silent=False)]
    for figures, seen_at in sorted(rows, key=lambda r: r[0].instance):
        if figures.instance == mine.instance:
            continue
        ago = max(0.0, (now - seen_at).total_seconds())
        entries.append(InstanceEntry(figures=figures, seen_at=seen_at.isoformat(),
                                     seconds_ago=round(ago, 1), this=False,
                                     silent=ago > STALE * every))
    return InstanceList(instances=entries, report_every=every)


class Reporter:
    """Writes this instance's figures (`count()`) every `every` seconds until closed, then
    deletes its row. A failed write (the database away) is logged and tried at the next."""

    def __init__(self, store: InstanceStore, count: Callable[[], Figures],
                 every: float = EVERY) -> None:
        self.store, self.count, self.every = store, count, every
        self._task: asyncio.Task[None] | None = None
        self._instance: str | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="report-figures")

    async def close(self) -> None:
        if self._task is None:
            return
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None
        if self._instance is not None:
            try:
                await asyncio.to_thread(self.store.forget, self._instance)
            except Exception as exc:  # the database away: the row goes silent, then is forgotten
                log.warning("could not remove this instance's figures: %s", exc)

    async def _run(self) -> None:
        while True:
            figures = self.count()
            self._instance = figures.instance
            try:
                await asyncio.to_thread(self.store.report, figures, now())
            except Exception as exc:
                log.warning("could not write this instance's figures: %s", exc)
            await asyncio.sleep(self.every)


def _aware(stamp: dt.datetime) -> dt.datetime:
    """SQLite gives back a naive time (written in UTC)."""
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=dt.UTC)
