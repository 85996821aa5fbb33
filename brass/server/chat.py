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

from . import outbound
from .errors import ApiError

if TYPE_CHECKING:

    from .core import GameCore
    from .runtime import Runtime

MAX_CHARS = 300
BURST = 5
EVERY = 2.0  # seconds per message once the burst is spent
HISTORY = 500  # messages sent with GET /chat, the latest






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
    message = await core.db(core.storage.add_chat, rt.id, seat, sender_name(rt, seat, name),
                            text, rt.count)
    broadcast(rt, message)


async def messages(core: GameCore, rt: Runtime) -> list[dict[str, Any]]:
    return await core.db(core.storage.chat_history, rt.id, HISTORY)
