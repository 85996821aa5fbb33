"""The writer of `chat` and `chat_mutes` (a base of storage.Storage): messages, their limits
counted in the database (so they hold across a sender's sockets and the server's instances),
the host's mutes and deletions, and the history a page at a time.

A sender may send `BURST` messages per `WINDOW` seconds in a game: a seat (whichever of its
sockets and instances it uses), a spectator per client address. Not per address across games:
players behind one address (a school, a carrier's NAT) would share it. The count and the
insert are one step under a lock (Postgres: a transaction-scoped advisory lock on the game;
SQLite is one process: a thread lock)."""

from __future__ import annotations

import datetime as dt
import math
import threading
from typing import Any

from sqlalchemy import and_, delete, func, insert, select, text, update
from sqlalchemy.engine import Connection

from .errors import ApiError
from .notice import Notice, channel
from .records import _utc
from .storebase import StoreBase
from .tables import chat, chat_mutes
from .timing import _db_now
from .vocab import Moderator

BURST = 5  # messages per WINDOW from one seat, or from one address as a spectator
WINDOW = 10.0  # seconds
SPECTATORS = -1  # chat_mutes.seat: the game's spectators


class ChatLog(StoreBase):
    _chat_lock = threading.Lock()

    def add_chat(self, game_id: str, seat: int | None, name: str, text_: str,
                 actions_played: int, address: str = "",
                 line: str | None = None) -> tuple[dict[str, Any], bool]:
        """Store a chat message (chat.py), within the limits and unless the host muted its
        sender (`rate_limited`; `chat_muted`, not `unauthorized`, which tells a seat's client
        that its seat token is no longer known); on Postgres it is also sent whole to the
        other instances (fanout.py) in the same transaction. Returns the message as stored,
        and False if it was stored before: `line` (its page's id for it) came already from
        the same sender (`_said`), and nothing is written or counted."""
        address = address[:64]
        with self._chat_lock, self._tx() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:k))"),
                             {"k": f"chat {game_id}"})
            if line is not None and (said := _said(conn, game_id, seat, line)) is not None:
                return said, False
            t = _db_now(conn)
            muted = conn.execute(select(chat_mutes.c.seat).where(
                chat_mutes.c.game_id == game_id,
                chat_mutes.c.seat == (SPECTATORS if seat is None else seat))).first()
            if muted is not None:
                who = "The spectators are" if seat is None else "This seat is"
                raise ApiError("chat_muted", f"{who} muted in this game's chat")
            recent = chat.c.created_at > t - dt.timedelta(seconds=WINDOW)
            mine = (chat.c.seat == seat if seat is not None
                    else and_(chat.c.seat.is_(None), chat.c.address == address))
            _check(conn, and_(recent, chat.c.game_id == game_id, mine), BURST, t,
                   "Too many messages")
            key = conn.execute(insert(chat).values(
                game_id=game_id, seat=seat, name=name, text=text_, actions=actions_played,
                created_at=t, spectator=seat is None, address=address or None,
                deleted=False, line=line)).inserted_primary_key
            assert key is not None
            message = _chat_message(conn.execute(select(chat).where(chat.c.id == key[0])).one())
            self._chat_notice(conn, game_id, message)
        return message, True

    def said_before(self, game_id: str, seat: int | None, line: str) -> dict[str, Any] | None:
        """The line `seat` sent with the id `line`, as stored (None: none such)."""
        with self._read() as conn:
            return _said(conn, game_id, seat, line)

    def _chat_notice(self, conn: Connection, game_id: str, message: dict[str, Any]) -> None:
        if self.postgres:
            conn.execute(text("SELECT pg_notify(:channel, :payload)"), {
                "channel": channel(game_id), "payload": Notice(game_id, self.instance,
                                                      chat=message).text()})

    def delete_chat(self, game_id: str, message_id: int) -> bool:
        """The host deletes a message: its text is gone for everyone (history, replays); the
        other instances hear `{"id", "deleted": true}`. False if the game has no such one."""
        with self._tx() as conn:
            done = conn.execute(update(chat).where(
                chat.c.game_id == game_id, chat.c.id == message_id,
                chat.c.deleted.is_(False)).values(deleted=True, text=""))
            if done.rowcount:
                self._chat_notice(conn, game_id, {"id": message_id, "deleted": True})
            return bool(done.rowcount)

    def mute_chat(self, game_id: str, seat: int | None, muted: bool,
                  by: Moderator = "host") -> dict[str, Any]:
        """The host or the admin (`by`) mutes (or lets speak again) a seat, or the spectators
        (`seat` None); whom the game's chat has muted now (`ChatMutes`), which the other
        instances hear as `{"muted": ...}`. A mute by the admin is lifted by the admin only
        (`forbidden` to the host; a host's mute of it again changes nothing)."""
        who = SPECTATORS if seat is None else seat
        mine = (chat_mutes.c.game_id == game_id, chat_mutes.c.seat == who)
        with self._tx() as conn:
            if by == "host" and conn.execute(select(chat_mutes.c.by).where(
                    *mine)).scalar() == "admin":
                if not muted:
                    raise ApiError("forbidden", "The server's admin muted "
                                   f"{'the spectators' if seat is None else 'this seat'}: "
                                   "only the admin can let them speak again")
                return _mutes(conn, game_id)
            conn.execute(delete(chat_mutes).where(*mine))
            if muted:
                conn.execute(insert(chat_mutes).values(game_id=game_id, seat=who, by=by))
            now = _mutes(conn, game_id)
            self._chat_notice(conn, game_id, {"muted": now})
        return now

    def chat_mutes(self, game_id: str) -> dict[str, Any]:
        """Whom the game's chat has muted (`ChatMutes`: the seats, and the spectators)."""
        with self._tx() as conn:
            return _mutes(conn, game_id)

    def chat_history(self, game_id: str, latest: int,
                     before: int | None = None) -> list[dict[str, Any]]:
        """The game's `latest` messages (before message id `before`), oldest first; deleted
        ones are left out."""
        query = select(chat).where(chat.c.game_id == game_id, chat.c.deleted.is_(False))
        if before is not None:
            query = query.where(chat.c.id < before)
        with self._tx() as conn:
            rows = conn.execute(query.order_by(chat.c.id.desc()).limit(latest)).all()
        return [_chat_message(r) for r in reversed(rows)]

    def chat_recent(self, game_id: str, seconds: float, latest: int) -> list[dict[str, Any]]:
        """The game's messages of the last `seconds` (by the database's clock), the latest
        `latest` at most, oldest first; deleted ones are left out."""
        with self._tx() as conn:
            since = _db_now(conn) - dt.timedelta(seconds=seconds)
            rows = conn.execute(select(chat).where(
                chat.c.game_id == game_id, chat.c.deleted.is_(False), chat.c.created_at > since)
                .order_by(chat.c.id.desc()).limit(latest)).all()
        return [_chat_message(r) for r in reversed(rows)]


def _check(conn: Connection, where: Any, limit: int, t: dt.datetime, what: str) -> None:
    """`rate_limited` (with the seconds until the oldest counted message leaves the window)
    when `limit` messages match `where`."""
    count, oldest = conn.execute(select(func.count(), func.min(chat.c.created_at))
                                 .where(where)).one()
    if count >= limit:
        wait = max(1, math.ceil(WINDOW - (t - _utc(oldest)).total_seconds()))
        raise ApiError("rate_limited", f"{what}: at most {limit} in {WINDOW:g} s; try again "
                       f"in {wait} s", retry_after=wait)


def _mutes(conn: Connection, game_id: str) -> dict[str, Any]:
    found = {r.seat: r.by for r in conn.execute(select(chat_mutes.c.seat, chat_mutes.c.by)
                                                   .where(chat_mutes.c.game_id == game_id))}
    by_admin = {s for s, by in found.items() if by == "admin"}
    return {"seats": sorted(s for s in found if s >= 0), "spectators": SPECTATORS in found,
            "admin_seats": sorted(s for s in by_admin if s >= 0),
            "admin_spectators": SPECTATORS in by_admin}


def _chat_message(row: Any) -> dict[str, Any]:
    return {"id": row.id, "seat": row.seat, "spectator": row.spectator, "name": row.name,
            "text": row.text, "actions": row.actions, "time": row.created_at.isoformat(),
            "line": row.line}


def _said(conn: Connection, game_id: str, seat: int | None, line: str) -> dict[str, Any] | None:
    """A line sent again: the message as stored (None: no line has the id `line`), if `seat`
    (None: a spectator) sent it and the host has not deleted it since."""
    row = conn.execute(select(chat).where(chat.c.game_id == game_id,
                                          chat.c.line == line)).first()
    if row is None:
        return None
    if row.seat != seat:
        raise ApiError("malformed", "This line's id is another sender's: give each line its "
                       "own")
    if row.deleted:
        raise ApiError("not_found", "The host deleted this line")
    return _chat_message(row)
