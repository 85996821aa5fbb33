"""The database an operator's command acts on (`brass admin`, `brass settings`; `brass
export` and `brass import` name theirs): the server's own (`--database`, else DATABASE_URL or
BRASS_DB_*), migrated first as the server does at start.

A SQLite file that is not there is refused rather than made: a mistyped path, or the default
`var/brass.db` from another folder, would otherwise set up a new, empty database that no
server reads, and the command would seem to have worked (a policy set there never applies, an
admin link from it is "not valid"). A database that cannot be reached or read is one line that
names it, not a traceback."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from pydantic import ValidationError
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from . import migrate
from .settings import Settings, normalise_database_url
from .storebase import StoreBase


class Refused(ValueError):
    """The command cannot use that database: why, in one line."""


def shown(url: str) -> str:
    """A database URL fit for a message (no password)."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "the database"


def failed(url: str, exc: SQLAlchemyError) -> str:
    """`exc` from the database at `url` in one line: the database and the driver's reason."""
    reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
    return f"{shown(url)}: {reason}"


def database_url(given: str | None) -> str:
    """`given` (`--database`), else the server's setting (DATABASE_URL or BRASS_DB_*);
    `Refused` if the setting is bad."""
    try:
        return normalise_database_url(given) if given else Settings().database_url
    except ValidationError as exc:
        raise Refused(f"bad setting: {exc.errors()[0]['msg']}") from None


def server_database(given: str | None) -> str:
    """`database_url`, and `Refused` if it names a SQLite file that is not there."""
    url = database_url(given)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        path = parsed.database or ":memory:"
        if path == ":memory:" or not Path(path).is_file():
            source = "--database" if given else "the server's setting"
            raise Refused(f"no database at {path} ({source}): name the server's own, or "
                          "start the server once to make it")
    return url


@contextlib.contextmanager
def opened(given: str | None) -> Iterator[StoreBase]:
    """The server's database (`server_database`), migrated, open for the command's stores;
    every database error in the block becomes `Refused`."""
    url = server_database(given)
    try:
        migrate.upgrade(url)
        base = StoreBase(url)
    except SQLAlchemyError as exc:
        raise Refused(failed(url, exc)) from None
    try:
        yield base
    except SQLAlchemyError as exc:
        raise Refused(failed(url, exc)) from None
    finally:
        base.close()
