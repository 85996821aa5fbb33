"""Run the Alembic migrations (`upgrade head`) for a database URL; the server does this at
start, so a new database needs no set-up step.

The migrations live in `migrations/` at the top of the repository; the wheel carries them as
`brass/_migrations`. No `alembic.ini` is needed at run time (the repository's is for running
`alembic` by hand).
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection

PACKAGE = Path(__file__).resolve().parents[1]


def migrations_dir() -> Path:
    """The migration scripts: the installed package's copy, else the source checkout's."""
    for candidate in (PACKAGE / "_migrations", PACKAGE.parent / "migrations"):
        if (candidate / "env.py").is_file():
            return candidate
    raise FileNotFoundError(f"no migrations in {PACKAGE / '_migrations'} or "
                            f"{PACKAGE.parent / 'migrations'}: a broken install?")


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    cfg.attributes["url"] = url
    cfg.attributes["quiet"] = True
    return cfg


def upgrade(url: str) -> None:
    command.upgrade(alembic_config(url), "head")


def heads() -> set[str]:
    """The revisions a database at head has."""
    script = ScriptDirectory.from_config(alembic_config(""))
    return set(script.get_heads())


def current(conn: Connection) -> set[str]:
    """The revisions the database on `conn` is at (empty: never migrated)."""
    return set(MigrationContext.configure(conn).get_current_heads())
