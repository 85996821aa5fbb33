"""What the core (core.py) asks of two partners it never imports, as it calls only down: who
tends the games' background work (the steward) and who hears other instances' notifications
(the fan-out); with the stand-ins it holds until they are made (and for good on SQLite)."""

from __future__ import annotations

from typing import Protocol


class Tending(Protocol):
    """Who runs the games' background work (steward.py): the core asks, never imports it."""

    def owns(self, game_id: str) -> bool: ...

    def poke(self, game_id: str) -> None: ...


class Nobody:
    def owns(self, game_id: str) -> bool:
        return False

    def poke(self, game_id: str) -> None:
        pass


class Hearing(Protocol):
    """Who listens to other instances' notifications (fanout.py): told which games are held
    here, it listens to their channels only."""

    def hear(self, game_id: str) -> None: ...

    async def hear_new(self, game_id: str) -> None: ...

    def forget(self, game_id: str) -> None: ...


class Deaf:  # one process (SQLite), or before the fan-out starts
    def hear(self, game_id: str) -> None:
        pass

    async def hear_new(self, game_id: str) -> None:
        pass

    def forget(self, game_id: str) -> None:
        pass
