"""A Postgres database made for one bench run and dropped after it (`fresh_postgres`), on
the server at BRASS_BENCH_POSTGRES (default: the local one, trust auth)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import create_engine, text

POSTGRES = os.environ.get("BRASS_BENCH_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432")


@contextmanager
def fresh_postgres(prefix: str, server: str = POSTGRES) -> Iterator[str]:
    """The URL of a new database on `server` named `prefix` and a random tail, dropped (its
    connections ended) when the block ends."""
    name = f"{prefix}_{secrets.token_hex(4)}"
    admin = create_engine(f"{server}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield f"{server}/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
