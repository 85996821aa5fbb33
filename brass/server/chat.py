"""Chat per game: players and spectators talk at the table; every message is stored with the
game (table `chat`, migration 0007) with the number of actions played when it was sent, so a
replay shows it at the right moment.

A message is 1 to `MAX_CHARS` characters of visible text (schemas.ChatText: no control or
invisible formatting characters), sent over the game's websocket (`chat`); each sender
(a seat, or a spectator's connection) may send `BURST` messages, then one per `EVERY`
seconds (a token bucket in memory: a limit, not a record). The server never renders it: the
client shows it as text, so it needs no escaping on the way in.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    Table,
    insert,
    select,
)
from sqlalchemy import text as sql_text

from . import outbound
from .errors import ApiError
from .notice import CHANNEL, Notice
from .storage import metadata, now

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from .core import GameCore
    from .runtime import Runtime

MAX_CHARS = 300
BURST = 5
EVERY = 2.0  # seconds per message once the burst is spent
HISTORY = 500  # messages sent with GET /chat, the latest

chat = Table(
    "chat", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seat", SmallInteger, nullable=True),  # null: a spectator
    Column("name", String(80), nullable=False),
    Column("text", String(MAX_CHARS * 4), nullable=False),
    Column("actions", Integer, nullable=False),  # actions played when it was sent
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("spectator", Boolean, nullable=False),
    Index("ix_chat_game", "game_id", "id"),
)


def _message(row: Any) -> dict[str, Any]:
    return {"id": row.id, "seat": row.seat, "spectator": row.spectator, "name": row.name,
            "text": row.text, "actions": row.actions, "time": row.created_at.isoformat()}


def store(engine: Engine, game_id: str, seat: int | None, name: str, text: str,
          actions: int, instance: str = "") -> dict[str, Any]:
    """Store a message; on Postgres it is also sent to the other instances (fanout.py) in the
    same transaction, so their clients of the game get it too."""
    with engine.begin() as conn:
        stamp = now()
        key = conn.execute(insert(chat).values(
            game_id=game_id, seat=seat, name=name, text=text, actions=actions,
            created_at=stamp, spectator=seat is None)).inserted_primary_key
        assert key is not None
        new_id = key[0]
        row = conn.execute(select(chat).where(chat.c.id == new_id)).one()
        message = _message(row)
        if conn.dialect.name == "postgresql":
            conn.execute(sql_text("SELECT pg_notify(:channel, :payload)"), {
                "channel": CHANNEL, "payload": Notice(game_id, instance, chat=message).text()})
    return message


def history(engine: Engine, game_id: str) -> list[dict[str, Any]]:
    with engine.connect() as conn:
        rows = conn.execute(select(chat).where(chat.c.game_id == game_id)
                            .order_by(chat.c.id.desc()).limit(HISTORY)).all()
    return [_message(r) for r in reversed(rows)]


@dataclass
class Bucket:
    """A token bucket: `BURST` messages at once, then one per `EVERY` seconds."""

    tokens: float = BURST
    at: float = field(default_factory=time.monotonic)

    def take(self) -> bool:
        t = time.monotonic()
        self.tokens = min(BURST, self.tokens + (t - self.at) / EVERY)
        self.at = t
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def sender_name(rt: Runtime, seat: int | None, name: str | None) -> str:
    """A seat speaks under its seat's name; a spectator under the name it gives (or none)."""
    if seat is not None:
        return rt.record.seats[seat].name or f"Seat {seat + 1}"
    return name or "Spectator"


def broadcast(rt: Runtime, message: dict[str, Any]) -> None:
    text = outbound.dumps({"type": "chat", "message": message})
    for sub in list(rt.subscribers):
        sub.send(text)


def check_rate(bucket: Bucket) -> None:
    if not bucket.take():
        raise ApiError("rate_limited", f"Too many messages: one every {EVERY:g} s after "
                       f"{BURST} in a row")


async def post(core: GameCore, rt: Runtime, seat: int | None, name: str | None, text: str,
               bucket: Bucket) -> None:
    """Store a message from `seat` (None: a spectator named `name`) and send it to everyone
    watching the game."""
    check_rate(bucket)
    message = await core.db(store, core.storage.engine, rt.id, seat,
                            sender_name(rt, seat, name), text, rt.count, core.storage.instance)
    broadcast(rt, message)


async def messages(core: GameCore, rt: Runtime) -> list[dict[str, Any]]:
    return await core.db(history, core.storage.engine, rt.id)
