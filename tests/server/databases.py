"""Fresh, empty databases for tests that move games between databases (import, restore): an
SQLite file, or a uniquely named Postgres database made through the maintenance database and
dropped afterwards (the server at `conftest.POSTGRES`)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, text

from .conftest import POSTGRES


@contextmanager
def fresh_postgres(prefix: str = "brass_fresh") -> Iterator[str]:
    """A new empty Postgres database; yields its URL."""
    name = f"{prefix}_{os.getpid()}_{secrets.token_hex(4)}"
    admin = create_engine(f"{POSTGRES}/postgres", isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        yield f"{POSTGRES}/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@contextmanager
def fresh_database(kind: str, folder: Path) -> Iterator[str]:
    """A new empty database of `kind` ("sqlite" or "postgres"); yields its URL."""
    if kind == "sqlite":
        yield f"sqlite:///{folder / f'fresh-{secrets.token_hex(4)}.db'}"
        return
    with fresh_postgres() as url:
        yield url


@contextmanager
def fresh_like(db_url: str, folder: Path) -> Iterator[str]:
    """A new empty database of `db_url`'s kind, for a module's server of its own: the shared
    test database holds bot games that earlier tests' servers left running, which the
    module's steward would play beside its own games."""
    with fresh_database("postgres" if db_url.startswith("postgresql") else "sqlite",
                        folder) as url:
        yield url
