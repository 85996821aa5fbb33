"""The database out of reach (Postgres stopped, restarting, or the network to it down): a
request gets `503 unavailable` with `Retry-After`, not `500 internal` with a traceback, and the
log gets one line per kind of failure every few seconds, however many requests fail. Nothing
here waits or retries: the connection pools reconnect by themselves (SQLAlchemy's pre-ping,
the move writer's fresh connection, the fan-out's reconnect loop), so play resumes once the
database answers again.

`ERRORS` are the exceptions that mean "cannot reach the database" rather than a bug: a
connection refused or broken, a server shutting down (SQLSTATE class 08 and 57P0x reach the
drivers as `OperationalError`), a pool that could not hand out a connection in time."""

from __future__ import annotations

import logging
import time

import psycopg
from sqlalchemy import exc as sa

from .errors import ApiError

log = logging.getLogger("brass.server")
RETRY_AFTER = 2  # seconds a client is asked to wait (`Retry-After`)
QUIET = 5.0  # seconds between two log lines of one kind of failure

ERRORS: tuple[type[Exception], ...] = (
    sa.OperationalError, sa.InterfaceError, sa.TimeoutError, psycopg.OperationalError,
    psycopg.InterfaceError)

_said: dict[str, tuple[float, int]] = {}  # kind -> (when last logged, failures not logged since)


def unavailable(exc: BaseException, where: str) -> ApiError:
    """The refusal a client gets for `exc` (one of `ERRORS`), raised at `where` (a word for the
    log: "read", "move"); logged at most once per kind every `QUIET` seconds."""
    report(exc, where)
    return ApiError("unavailable", "The game database cannot be reached: try again shortly",
                    retry_after=RETRY_AFTER)


def report(exc: BaseException, where: str) -> None:
    """One warning line for this kind of failure (where, exception class, the first line of
    its message), unless one was logged less than `QUIET` seconds ago: then it is counted and
    the count goes with the next line."""
    inner = getattr(exc, "orig", None) or exc  # SQLAlchemy wraps the driver's exception
    first = (str(inner).strip().splitlines() or [""])[0][:160]
    kind = f"{where}: {type(inner).__name__}: {first}"
    now = time.monotonic()
    last, since = _said.get(kind, (-QUIET, 0))
    if now - last < QUIET:
        _said[kind] = (last, since + 1)
        return
    _said[kind] = (now, 0)
    more = f" (and {since} more like it)" if since else ""
    log.warning("database unreachable at %s%s", kind, more)


def background(exc: BaseException, what: str) -> None:
    """A background loop's round failed with `exc` (`what`: what it could not do, for the
    log). The database out of reach is one `report` line per kind every few seconds, no
    traceback (an `unavailable` refusal was reported where it was raised); anything else is a
    bug, logged with its traceback."""
    if isinstance(exc, ApiError) and exc.code == "unavailable":
        return
    if isinstance(exc, ERRORS):
        report(exc, what)
        return
    log.error("%s", what, exc_info=exc)
