"""`brass serve`: the settings (options, else the environment, else the defaults), logging,
the checks that must pass before the server starts (the settings are valid, the database
answers and is migrated), then uvicorn.

A setting or a database that is wrong stops the start with one line on stderr that says what
to fix, and a non-zero exit (2: a bad setting; 1: the database; 3: another server process
uses the same SQLite file); no traceback (with
`--log-level debug`, the traceback is logged too).
"""

from __future__ import annotations

import argparse
import fcntl
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from sqlalchemy.engine import make_url

from .settings import SecretFileError, SettingInfo, Settings, setting_infos

log = logging.getLogger("brass.server")
BAD_SETTING, NO_DATABASE, IN_USE = 2, 1, 3


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """The `serve` subcommand: one option per setting, its help made from the setting."""
    infos = setting_infos()
    secrets = "; ".join(f"{i.env} (or a file named by {i.env}_FILE): {i.description}"
                        for i in infos if i.secret)
    parser: argparse.ArgumentParser = sub.add_parser(
        "serve", help="run the game server",
        description="Run the game server. Each setting is an option, or else an environment "
                    "variable, or else its default; the database is migrated at start.",
        epilog=f"Secrets are never options (the process list shows those): {secrets}.")
    for info in infos:
        if info.secret:
            continue
        parser.add_argument(f"--{info.name.replace('_', '-')}", dest=info.name, default=None,
                            choices=info.choices, metavar=_metavar(info),
                            help=f"{info.description} (env {info.env}; default {info.default})")
    parser.set_defaults(func=serve)
    return parser


def _metavar(info: SettingInfo) -> str | None:
    return "{" + ",".join(info.choices) + "}" if info.choices else info.name.upper()


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings, options first; raises `BadSetting` with one line saying what is wrong."""
    infos = setting_infos()
    given = {info.name: getattr(args, info.name) for info in infos
             if getattr(args, info.name, None) is not None}
    try:
        return Settings(**given)
    except ValidationError as exc:
        raise BadSetting(describe(exc, infos, set(given))) from None
    except SecretFileError as exc:
        raise BadSetting(str(exc)) from None


class BadSetting(Exception):
    pass


def describe(exc: ValidationError, infos: list[SettingInfo], given: set[str]) -> str:
    """One line for the first problem: which setting, where it came from, what is wrong."""
    problem = exc.errors()[0]
    key = str(problem["loc"][0]) if problem["loc"] else ""
    info = next((i for i in infos if key in (i.name, i.env)), None)
    if info is None:  # a check of several settings together
        message = str(problem["msg"]).removeprefix("Value error, ")
        return f"bad setting {key}: {message}" if key else f"bad settings: {message}"
    where = f"--{info.name.replace('_', '-')}" if info.name in given else info.env
    message = str(problem["msg"]).removeprefix("Value error, ")
    if problem["type"] in ("too_short", "too_long") and info.secret:  # a token, not a list
        message = message.replace(" items", " characters")
    if info.name == "database_url" or info.secret:  # do not repeat a password
        return f"bad setting {where}: {message}"
    return f"bad setting {where}={problem.get('input')!r}: {message}"


def check_database(url: str) -> None:
    """Connect and migrate to head; raises `NoDatabase` with one line if that fails."""
    from . import migrate
    from .app import safe_url

    try:
        migrate.upgrade(url)
    except Exception as exc:
        log.debug("the database check failed", exc_info=exc)
        first = (str(exc).strip().splitlines() or [""])[0]
        raise NoDatabase(f"cannot use the database {safe_url(url)}: "
                         f"{type(exc).__name__}: {first}") from None


class NoDatabase(Exception):
    pass


class InUse(Exception):
    pass


@contextmanager
def one_process(url: str) -> Iterator[None]:
    """SQLite serves one process (its games live in that process's memory): hold an exclusive
    lock on `<file>.lock` while serving; a second `brass serve` on the same file is refused.
    The kernel releases the lock when the process ends, even killed. Postgres: no lock."""
    path = sqlite_path(url)
    if path is None:
        yield
        return
    lock = Path(f"{path}.lock")
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        held = lock.open("a")
    except OSError as exc:  # the database's folder cannot be made: say so in one line
        from .app import safe_url

        raise NoDatabase(f"cannot use the database {safe_url(url)}: "
                         f"{type(exc).__name__}: {exc}") from None
    with held:
        try:
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise InUse(f"another brass serve is using the SQLite database {path} (it holds "
                        f"{lock}); SQLite serves one process: stop the other one, or use "
                        "Postgres (DATABASE_URL=postgresql://...) to run several "
                        "instances") from None
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


def sqlite_path(url: str) -> Path | None:
    """The file of an SQLite URL (None: Postgres, or an in-memory database)."""
    if not url.startswith("sqlite"):
        return None
    database = make_url(url).database
    return None if not database or database == ":memory:" else Path(database).resolve()


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from . import logs
    from .app import create_app
    from .request_deadlines import uvicorn_options

    try:
        settings = settings_from(args)
    except BadSetting as exc:
        print(f"brass serve: {exc}", file=sys.stderr)
        return BAD_SETTING
    logs.configure(settings.log_level, settings.log_format)
    try:
        with one_process(settings.database_url):
            check_database(settings.database_url)
            uvicorn.run(create_app(settings), host=settings.host, port=settings.port,
                        log_config=None, log_level=settings.log_level,
                        **uvicorn_options(settings))
    except InUse as exc:
        log.critical("%s", exc)
        return IN_USE
    except NoDatabase as exc:
        log.critical("%s", exc)
        return NO_DATABASE
    return 0
