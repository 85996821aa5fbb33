"""The notification one instance sends the others at each commit (Postgres `NOTIFY` on the
game's channel, `channel(game_id)`, delivered at commit, in commit order): built and parsed
here only. Each game has a channel of its own, and an instance listens only to the channels
of the games it holds (fanout.py): it never hears of the others' games.

Its text is "GAME VERSION INSTANCE" (VERSION -1: the game changed without a new version:
seats, status, listing), "GAME VERSION INSTANCE MOVE-JSON" (a move, carried whole when it fits
Postgres's payload limit, so that an instance following the game applies it without reading
the database: `Carried`) or "GAME chat INSTANCE MESSAGE-JSON" (a chat message, whole)."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass
from typing import Any

from . import jsontext
from .records import ActionRecord

_PLAIN = re.compile(r"[A-Za-z0-9_-]{1,48}")  # a game id that can name its channel as it is


def channel(game_id: str) -> str:
    """The LISTEN/NOTIFY channel of a game (Postgres names: at most 63 bytes).

    >>> channel("Ab-9_x"), channel("x" * 60)[:8]
    ('brass_Ab-9_x', 'brass_h_')
    """
    if _PLAIN.fullmatch(game_id):
        return f"brass_{game_id}"
    return f"brass_h_{hashlib.sha256(game_id.encode()).hexdigest()[:32]}"


# Postgres refuses a payload of 8,000 bytes or more; a move that does not fit goes without its
# content (the instances that follow the game read it from the log)
PAYLOAD_MOST = 7900
_TIMES = ("updated_at", "finished_at", "deadline", "turn_started_at")  # game columns: datetimes


def sender_of(payload: str) -> str:
    """The instance that sent a notice (its third word), read without parsing the rest: an
    instance hears its own commits too, and parsing a carried move it made costs more than
    the notice itself.

    >>> sender_of(Notice("g", "host:1:x", 7).text()), sender_of("g chat a {}")
    ('host:1:x', 'a')
    """
    return payload.split(" ", 3)[2]


@dataclass(frozen=True, slots=True)
class Carried:
    """A move as its notification carries it: the log row, the game's columns it set (besides
    `version`: `updated_at`, and `status`, `scores`, `finished_at`, `deadline`,
    `turn_started_at` where it set them) and, if a round ended, the snapshot's action count."""

    row: ActionRecord
    game: dict[str, Any]
    snapshot: int | None


@dataclass(frozen=True, slots=True)
class Notice:
    game_id: str
    sender: str  # the writing instance's id
    version: int = -1  # the game's new version; -1: it changed without one
    chat: dict[str, Any] | None = None  # a chat message (then `version` means nothing)
    move: dict[str, Any] | None = None  # the move that made `version` (`moved`, `carried`)

    def text(self) -> str:
        if self.chat is not None:
            return f"{self.game_id} chat {self.sender} {jsontext.dumps(self.chat)}"
        if self.move is not None:
            return f"{self.game_id} {self.version} {self.sender} {jsontext.dumps(self.move)}"
        return f"{self.game_id} {self.version} {self.sender}"

    @classmethod
    def moved(cls, game_id: str, sender: str, row: ActionRecord, game: dict[str, Any],
              snapshot: int | None) -> str:
        """The text of a move's notification: with the move when it fits, else without
        (tests/server/test_notice.py)."""
        move = {"seat": row.seat, "id": row.action_id, "at": row.created_at,
                "stand_in": row.stand_in, "snapshot": snapshot,
                "game": {c: v for c, v in game.items() if c != "version"}}
        text = cls(game_id, sender, row.seq, move=move).text()
        # the action and its effects are JSON text already: spliced in, not encoded again
        text = (f'{text[:-1]},"action":{row.action_text},'
                f'"effects":{row.effects or "null"}}}')
        if len(text.encode()) >= PAYLOAD_MOST:
            return cls(game_id, sender, row.seq).text()
        return text

    def carried(self) -> Carried | None:
        """The move this notice carries, if it carries one."""
        if self.move is None:
            return None
        m = self.move
        game = {c: (dt.datetime.fromisoformat(v) if c in _TIMES and isinstance(v, str) else v)
                for c, v in m["game"].items()}
        effects = m.get("effects")
        row = ActionRecord(seq=self.version, seat=m["seat"],
                           action_text=jsontext.dumps(m["action"]), action_id=m["id"],
                           created_at=dt.datetime.fromisoformat(m["at"]),
                           effects=None if effects is None else jsontext.dumps(effects),
                           stand_in=m.get("stand_in"))
        return Carried(row, game, m.get("snapshot"))

    @classmethod
    def parse(cls, payload: str) -> Notice:
        """The notice of a payload `text()` made; ValueError if it is not one.

        >>> Notice.parse(Notice("g", "host:1:x", 7).text())
        Notice(game_id='g', sender='host:1:x', version=7, chat=None, move=None)
        >>> Notice.parse(Notice("g", "a", chat={"text": "hi there"}).text()).chat
        {'text': 'hi there'}
        """
        game_id, version, rest = payload.split(" ", 2)
        if version == "chat":
            sender, message = rest.split(" ", 1)
            chat = jsontext.loads(message)
            if not isinstance(chat, dict):
                raise ValueError(f"not a chat message: {message[:80]!r}")
            return cls(game_id, sender, chat=chat)
        sender, _, carried = rest.partition(" ")
        move = jsontext.loads(carried) if carried else None
        if move is not None and not isinstance(move, dict):
            raise ValueError(f"not a move: {carried[:80]!r}")
        return cls(game_id, sender, int(version), move=move)
