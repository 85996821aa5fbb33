"""The public listing's paging tokens: opaque to clients, checked when they come back.

A page cursor is the (created_at, id) of the last game of a page; a changes token is a time.
Both travel as URL-safe base64 text, so a client can only hand back what it was given; anything
else is `malformed`. The changes token lags the query by `SLACK`, so a change committed while
a listing was read is sent again rather than missed (clients merge by game id).
"""

from __future__ import annotations

import base64
import datetime as dt
from dataclasses import dataclass
from typing import Any

from .errors import ApiError
from .storage import GameRecord, ListQuery, now
from .vocab import GameStatus

SLACK = dt.timedelta(seconds=2)


@dataclass(frozen=True)
class Page:
    query: ListQuery
    asked_at: dt.datetime


def _encode(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _decode(token: str, what: str) -> str:
    try:
        return base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
    except (ValueError, UnicodeDecodeError):
        raise ApiError("malformed", f"Not a {what} this server gave out") from None


def _time(text: str, what: str) -> dt.datetime:
    try:
        stamp = dt.datetime.fromisoformat(text)
    except ValueError:
        raise ApiError("malformed", f"Not a {what} this server gave out") from None
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=dt.UTC)


def query(limit: int, status: GameStatus | None, cursor: str | None,
          changed_after: str | None) -> Page:
    if cursor is not None and changed_after is not None:
        raise ApiError("malformed", "Give either cursor or changed_after, not both")
    before = None
    if cursor is not None:
        stamp, sep, game_id = _decode(cursor, "cursor").partition("|")
        if not sep or not game_id:
            raise ApiError("malformed", "Not a cursor this server gave out")
        before = (_time(stamp, "cursor"), game_id)
    after = None if changed_after is None else _time(
        _decode(changed_after, "changes token"), "changes token")
    return Page(ListQuery(limit=limit, status=status, before=before, changed_after=after),
                now())


def next_cursor(page: Page, rows: list[tuple[GameRecord, Any]]) -> str | None:
    """The cursor of the next page; None when this page is the last (or in changes mode)."""
    if page.query.changed_after is not None or len(rows) < page.query.limit:
        return None
    last = rows[-1][0]
    return _encode(f"{last.created_at.isoformat()}|{last.id}")


def changes(page: Page, rows: list[tuple[GameRecord, Any]]) -> str:
    """The token for the next `changed_after` request. A full page of changes hands on the
    last change's time (more are waiting); otherwise the time of this query, less the slack."""
    q = page.query
    if q.changed_after is not None and rows and len(rows) == q.limit:
        stamp = rows[-1][0].updated_at
    else:
        stamp = page.asked_at - SLACK
        if q.changed_after is not None:
            stamp = max(stamp, q.changed_after)
    return _encode(stamp.isoformat())
