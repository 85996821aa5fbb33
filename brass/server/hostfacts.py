"""What the admin page's cards tell about the server itself: the newest backup in the backup
folder (`BRASS_BACKUP_DIR`, where deploy/backup.sh writes), and this instance's figures read
from the Prometheus registry `/metrics` serves (metrics.py), so nothing is counted twice."""

from __future__ import annotations

import datetime as dt
import time
from collections import deque
from collections.abc import Iterable
from pathlib import Path

from prometheus_client import REGISTRY
from prometheus_client.metrics_core import Metric
from pydantic import BaseModel, Field

from . import metrics

DUMPS = "brass-*Z.dump"  # deploy/backup.sh's finished dumps (a partial one ends in .partial)
RATE_OVER = 60.0  # seconds: moves per minute are counted over at least this long


class Backup(BaseModel):
    folder: str = Field(description="the backup folder this server reads")
    present: bool = Field(description="false: no such folder here (not mounted)")
    latest: str | None = Field(description="the newest dump's file name (null: none yet)")
    time: str | None = Field(description="when the newest dump was written (ISO time)")
    size: int | None = Field(description="its size in bytes")
    count: int = Field(description="dumps in the folder")


def last_backup(folder: Path) -> Backup:
    """The newest finished dump in `folder` (names sort by time)."""
    if not folder.is_dir():
        return Backup(folder=str(folder), present=False, latest=None, time=None, size=None,
                      count=0)
    dumps = sorted(folder.glob(DUMPS))
    if not dumps:
        return Backup(folder=str(folder), present=True, latest=None, time=None, size=None,
                      count=0)
    stat = dumps[-1].stat()
    written = dt.datetime.fromtimestamp(stat.st_mtime, dt.UTC).isoformat()
    return Backup(folder=str(folder), present=True, latest=dumps[-1].name, time=written,
                  size=stat.st_size, count=len(dumps))


class Figures(BaseModel):
    """This instance's figures (each instance counts its own, as on /metrics)."""

    instance: str = Field(description="the instance that counted them: its host name, process "
                                      "id and a tag of its start (as in its leases and its "
                                      "first log line); behind a proxy with several "
                                      "instances, a reload may reach another one")
    games_running: int = Field(description="running games this instance holds")
    sockets: int = Field(description="open game websockets")
    moves: int = Field(description="moves committed since this process started")
    moves_per_minute: float = Field(description="over the last minute or more (since start "
                                                "when younger)")
    errors: int = Field(description="typed errors sent to clients since start")
    errors_by_code: dict[str, int] = Field(description="the same, by error code")
    memory_bytes: int | None = Field(description="the process's resident memory (null: "
                                                 "not known on this system)")
    open_files: int | None = Field(description="its open file descriptors")
    worker_queue: int = Field(description="engine computations waiting or running")
    analysed_moves: int = Field(description="moves judged by analyses since start")
    uptime_seconds: float | None = Field(description="since the process started")


def _samples(families: Iterable[Metric]) -> dict[str, list[tuple[dict[str, str], float]]]:
    found: dict[str, list[tuple[dict[str, str], float]]] = {}
    for family in families:
        for sample in family.samples:
            found.setdefault(sample.name, []).append((sample.labels, sample.value))
    return found


class Rate:
    """Moves per minute from the moves counter: the oldest look kept within `RATE_OVER`
    seconds before now (this instance's looks at the admin page), else the process start."""

    def __init__(self) -> None:
        self.looks: deque[tuple[float, float]] = deque(maxlen=64)

    def per_minute(self, total: float, started: float | None) -> float:
        t = time.time()
        while len(self.looks) > 1 and t - self.looks[1][0] >= RATE_OVER:
            self.looks.popleft()
        self.looks.append((t, total))
        since, then = self.looks[0]
        if t - since < RATE_OVER and started is not None:
            since, then = started, 0.0
        elapsed = t - since
        return round((total - then) * 60.0 / elapsed, 1) if elapsed > 0 else 0.0


def figures(instance: str, games_running: int, rate: Rate) -> Figures:
    metrics.observe(games_running)  # as a scrape of /metrics does
    found = _samples(REGISTRY.collect())

    def total(name: str) -> float:
        return sum(v for _, v in found.get(name, []))

    def one(name: str) -> float | None:
        got = found.get(name)
        return got[0][1] if got else None

    started = one("process_start_time_seconds")
    memory, files = one("process_resident_memory_bytes"), one("process_open_fds")
    moves = total("brass_moves_total")
    return Figures(
        instance=instance, games_running=int(total("brass_live_games")),
        sockets=int(total("brass_open_sockets")),
        moves=int(moves), moves_per_minute=rate.per_minute(moves, started),
        errors=int(total("brass_errors_total")),
        errors_by_code={labels["code"]: int(v) for labels, v in
                        found.get("brass_errors_total", []) if v},
        memory_bytes=None if memory is None else int(memory),
        open_files=None if files is None else int(files),
        worker_queue=int(sum(v for labels, v in found.get("brass_worker_queue_depth", [])
                             if labels.get("pool") != "push")),
        analysed_moves=int(total("brass_analysed_moves_total")),
        uptime_seconds=None if started is None else round(time.time() - started, 1))
