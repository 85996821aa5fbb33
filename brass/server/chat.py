"""Chat per game: players and spectators talk at the table; every message is stored with the
game (table `chat`, migration 0007) with the number of actions played when it was sent, so a
replay shows it at the right moment.

A message is 1 to `MAX_CHARS` characters of visible text (schemas.ChatText: no control or
invisible formatting characters), sent over the game's websocket (`chat`) while the game
waits or runs (after, the chat is read-only). Its limits are counted in the database
(chatlog.py): a seat across all of its sockets, a spectator per client address, an address in
all games, whichever instance they reach. The host mutes a seat or the spectators and deletes
a message (gone for everyone: the clients are told `chat_deleted`, the history and replays
leave it out). The server never renders a message: the client shows it as text, so it needs
no escaping on the way in. A line's page gives it an id (`line`) and sends it again with it
when the connection dropped before the answer: it is stored once per id (chatlog.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import outbound
from .chatlog import BURST, WINDOW
from .errors import ApiError
from .vocab import Moderator

if TYPE_CHECKING:

    from .core import GameCore
    from .runtime import Runtime

__all__ = ["BURST", "HISTORY", "MAX_CHARS", "MISSED", "WINDOW", "broadcast", "delete",
           "heard_late", "messages", "mute", "post"]

MAX_CHARS = 300
HISTORY = 100  # messages per page of GET /chat, at most
OPEN = ("waiting", "running")  # a game whose chat takes messages
MISSED = 30.0  # seconds of lines sent again when an instance begins to listen to a game


def sender_name(rt: Runtime, seat: int | None, name: str | None) -> str:
    """A seat speaks under its seat's name; a spectator under the name it gives (or none)."""
    if seat is not None:
        return rt.record.seats[seat].name or f"Seat {seat + 1}"
    return name or "Spectator"


def broadcast(rt: Runtime, message: dict[str, Any]) -> None:
    """A new message to this instance's clients of the game; a deleted one's id as
    `chat_deleted` (what another instance sends for a deletion: {"id", "deleted"}); whom the
    chat has muted as `chat_mutes` (from another instance: {"muted"})."""
    if "muted" in message:
        text = outbound.dumps({"type": "chat_mutes", "muted": message["muted"]})
    elif message.get("deleted"):
        text = outbound.dumps({"type": "chat_deleted", "id": message["id"]})
    else:
        text = said(message)
        if rt.chat_told is None or len(rt.chat_told) >= HISTORY:
            rt.chat_told = set()  # the latest lines only (one sent again: the client
        rt.chat_told.add(message["id"])  # keeps each line once, by its id)
    for sub in list(rt.subscribers):
        sub.send(text)


def said(message: dict[str, Any]) -> str:
    """The `chat` message of a stored line, as JSON text."""
    return outbound.dumps({"type": "chat", "message": message})


async def post(core: GameCore, rt: Runtime, seat: int | None, name: str | None, text: str,
               address: str, line: str | None = None) -> dict[str, Any] | None:
    """Store a message from `seat` (None: a spectator named `name`) and send it to everyone
    watching the game. A `line` sent again (its page's id for it: the first time, the
    connection dropped before the answer came) is returned as stored, for its sender alone:
    everyone else had it (and a client keeps a line once, by its id), so a sender repeating
    a line makes no work for the others."""
    if rt.record.status not in OPEN:
        if line is not None and (again := await core.db(core.storage.said_before, rt.id, seat,
                                                        line)) is not None:
            return again  # said before the game ended
        raise ApiError("game_not_running", "The game is over: its chat is read-only")
    message, new = await core.db(core.storage.add_chat, rt.id, seat,
                                 sender_name(rt, seat, name), text, rt.count, address, line)
    if not new:
        return message
    broadcast(rt, message)
    core.reach.chat_to(rt, seat, text)  # a line @-mentioning a seat (notices.py)
    return None


async def heard_late(core: GameCore, rt: Runtime) -> None:
    """This instance's clients of the game get the lines of the last `MISSED` seconds again:
    the fan-out began to listen to the game a moment after the game was loaded here, and a
    line another instance sent meanwhile was heard by none of them (a client keeps each line
    once, by its id); not those they were sent already (`Runtime.chat_told`)."""
    for message in await core.db(core.storage.chat_recent, rt.id, MISSED, HISTORY):
        if rt.chat_told is None or message["id"] not in rt.chat_told:
            broadcast(rt, message)


async def delete(core: GameCore, rt: Runtime, message_id: int) -> None:
    """The host deletes a message of the game: for everyone, now and in replays."""
    if not await core.db(core.storage.delete_chat, rt.id, message_id):
        raise ApiError("not_found", f"No chat message {message_id} in this game")
    broadcast(rt, {"id": message_id, "deleted": True})


async def mute(core: GameCore, rt: Runtime, seat: int | None, muted: bool,
               by: Moderator = "host") -> dict[str, Any]:
    """The host or the admin (`by`) mutes (or not) a seat, or the spectators (`seat` None);
    whom the chat has muted now."""
    if seat is not None and not 0 <= seat < rt.record.players:
        raise ApiError("not_found", f"No seat {seat}")
    now: dict[str, Any] = await core.db(core.storage.mute_chat, rt.id, seat, muted, by)
    broadcast(rt, {"muted": now})  # the host's boxes on every page follow, the admin's too
    return now


async def mutes(core: GameCore, rt: Runtime) -> dict[str, Any]:
    found: dict[str, Any] = await core.db(core.storage.chat_mutes, rt.id)
    return found


async def messages(core: GameCore, rt: Runtime, limit: int = HISTORY,
                   before: int | None = None) -> dict[str, Any]:
    """A page of the history, oldest first: the latest `limit` messages (before message id
    `before`), with `next` (the `before` of the page of older ones; null: none older)."""
    found = await core.db(core.storage.chat_history, rt.id, limit + 1, before)
    older = len(found) > limit
    page = found[1:] if older else found
    return {"messages": page, "next": page[0]["id"] if older and page else None,
            "muted": await mutes(core, rt)}
