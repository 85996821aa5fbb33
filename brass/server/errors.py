"""Typed errors: every rejection the server gives is `{code, message}`, and an engine refusal
adds its stable `reason` and `params` (brass/engine/errors.py) so a client can translate it."""

from __future__ import annotations

from typing import Any, Literal

from brass.engine import IllegalAction, MalformedAction

ErrorCode = Literal[
    "malformed", "illegal", "not_your_turn", "stale_version", "unauthorized", "not_found",
    "game_not_running", "seat_taken", "rate_limited", "action_undone", "too_many_sockets",
    "timeout", "internal", "one_seat_per_browser", "not_yet", "unavailable",
    "forbidden", "create_refused",
    "link_invalid", "link_used", "link_expired", "wrong_origin", "passkey_refused",
    "not_offered", "stand_in_playing", "nudge_not_allowed", "nudge_too_soon",
    "vacation_off", "vacation_in_past", "vacation_overlaps", "vacation_too_long",
    "vacation_started", "chat_muted"]

HTTP_STATUS: dict[ErrorCode, int] = {  # "internal" is 500
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
    "unavailable": 503,  # the database cannot be reached (outage.py): with Retry-After
    "forbidden": 403,  # a write with the player cookie from another site (identity.py)
    "create_refused": 403,  # the host's create policy refuses this creator (policy.py)
    "link_invalid": 400,  # a sign-in link never given, or for an address its account left
    "link_used": 410,  # a sign-in link is spent once
    "link_expired": 410,  # a sign-in link works for 15 minutes
    "wrong_origin": 400,  # a passkey's answer made for another site
    "passkey_refused": 401,  # a passkey's answer that does not verify, or an unknown passkey
    "not_offered": 404,  # a way of signing in this server is not set up for
    "stand_in_playing": 409,  # a bot plays the seat for its player: take the seat back first
    "nudge_not_allowed": 409,  # nobody to nudge: not running, own turn, a bot (nudges.py)
    "nudge_too_soon": 429,  # that seat was nudged in the last 24 h (with Retry-After)
    "vacation_off": 403,  # this server gives no vacation days (vacations.py)
    "vacation_in_past": 400,  # a vacation starts tomorrow at the earliest
    "vacation_overlaps": 409,  # the player is already away on one of those days
    "vacation_too_long": 409,  # more days than the year has left
    "vacation_started": 409,  # a vacation under way cannot be cancelled
    "chat_muted": 403,  # the host or the admin muted this sender in the game's chat (chatlog.py)
}


class ApiError(Exception):
    """A rejection the client is told about; the game is untouched by it."""

    def __init__(self, code: ErrorCode, message: str, retry_after: int | None = None,
                 reason: str | None = None, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message
        self.retry_after = retry_after  # seconds; sent as `Retry-After` (every 429 has one)
        self.reason = reason  # the engine's refusal code, with its params
        self.params = params

    @classmethod
    def refused(cls, exc: IllegalAction | MalformedAction) -> ApiError:
        """The engine's refusal as the client is told it: `illegal` or `malformed`, the English
        message, and the refusal's code (`reason`) and params."""
        code: ErrorCode = "illegal" if isinstance(exc, IllegalAction) else "malformed"
        return cls(code, str(exc), reason=exc.code, params=exc.params)

    @property
    def headers(self) -> dict[str, str] | None:
        return None if self.retry_after is None else {"Retry-After": str(self.retry_after)}

    @property
    def status(self) -> int:
        return HTTP_STATUS.get(self.code, 500)
