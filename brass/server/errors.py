"""Typed errors: every rejection the server gives is `{code, message}`."""

from __future__ import annotations

from typing import Literal

ErrorCode = Literal[
    "malformed", "illegal", "not_your_turn", "stale_version", "unauthorized", "not_found",
    "game_not_running", "seat_taken", "rate_limited", "action_undone", "too_many_sockets",
    "timeout", "internal", "one_seat_per_browser", "not_yet"]

HTTP_STATUS: dict[str, int] = {
    "malformed": 400,
    "unauthorized": 401,
    "not_found": 404,
    "illegal": 409,
    "not_your_turn": 409,
    "stale_version": 409,
    "game_not_running": 409,
    "seat_taken": 409,
    "rate_limited": 429,
    "action_undone": 409,
    "too_many_sockets": 429,
    "timeout": 408,
    "one_seat_per_browser": 409,  # this browser holds a seat of the game (no shared screen)
    "not_yet": 409,  # a time-out or hand-over asked for before its time
}


class ApiError(Exception):
    """A rejection the client is told about; the game is untouched by it."""

    def __init__(self, code: ErrorCode, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message
        self.retry_after = retry_after  # seconds; sent as `Retry-After` (every 429 has one)

    @property
    def headers(self) -> dict[str, str] | None:
        return None if self.retry_after is None else {"Retry-After": str(self.retry_after)}

    @property
    def status(self) -> int:
        return HTTP_STATUS.get(self.code, 500)
