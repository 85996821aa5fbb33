"""A Postgres server a test owns (initdb and pg_ctl into a folder of its own, on a free
port), so that it can stop and start it: the shared server at `conftest.POSTGRES` is never
stopped. As root (the test machine) the server runs as the `postgres` user, as initdb asks."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import free_port


def _as_postgres(args: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


@dataclass
class OwnPostgres:
    folder: Path
    port: int

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _ctl(self, *args: str) -> None:
        done = subprocess.run(_as_postgres(["pg_ctl", "-D", str(self.folder / "data"), *args]),
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"pg_ctl {' '.join(args)}: {done.stdout}{done.stderr}"

    def start(self) -> None:
        """Start it and wait until it accepts connections (`pg_ctl -w`)."""
        self._ctl("-w", "-l", str(self.folder / "postgres.log"), "-o",
                  f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off",
                  "start")

    def stop(self) -> None:
        """Stop it now: every connection is cut (`-m fast`), as in a restart or a crash."""
        self._ctl("-w", "-m", "fast", "stop")


@contextmanager
def own_postgres() -> Iterator[OwnPostgres]:
    """A new Postgres cluster, started; stopped and removed afterwards."""
    if shutil.which("initdb") is None or shutil.which("pg_ctl") is None:
        pytest.skip("initdb and pg_ctl are not installed")
    folder = Path(tempfile.mkdtemp(prefix="brass-pg-"))  # short: the socket's path is limited
    try:
        if os.geteuid() == 0:
            shutil.chown(folder, "postgres", "postgres")
        done = subprocess.run(_as_postgres(["initdb", "-D", str(folder / "data"), "-A", "trust",
                                            "-U", "postgres", "--no-sync"]),
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        pg = OwnPostgres(folder=folder, port=free_port())
        pg.start()
        try:
            yield pg
        finally:
            subprocess.run(_as_postgres(["pg_ctl", "-D", str(folder / "data"), "-m",
                                         "immediate", "stop"]), capture_output=True, timeout=60)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
