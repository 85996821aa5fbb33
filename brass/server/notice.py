"""The notification one instance sends the others at each commit (Postgres `NOTIFY` on
`CHANNEL`, delivered at commit, in commit order): built and parsed here only.

Its text is "GAME VERSION INSTANCE" (VERSION -1: the game changed without a new version:
seats, status, listing) or "GAME chat INSTANCE MESSAGE-JSON" (a chat message, whole)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import jsontext

CHANNEL = "brass_games"  # LISTEN/NOTIFY channel


@dataclass(frozen=True, slots=True)
class Notice:
    game_id: str
    sender: str  # the writing instance's id
    version: int = -1  # the game's new version; -1: it changed without one
    chat: dict[str, Any] | None = None  # a chat message (then `version` means nothing)

    def text(self) -> str:
        if self.chat is not None:
            return f"{self.game_id} chat {self.sender} {jsontext.dumps(self.chat)}"
        return f"{self.game_id} {self.version} {self.sender}"

    @classmethod
    def parse(cls, payload: str) -> Notice:
        """The notice of a payload `text()` made; ValueError if it is not one.

        >>> Notice.parse(Notice("g", "host:1:x", 7).text())
        Notice(game_id='g', sender='host:1:x', version=7, chat=None)
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
        return cls(game_id, rest, int(version))
