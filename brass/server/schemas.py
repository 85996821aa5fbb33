"""Pydantic models of every request and response body (they make the OpenAPI schema).

Requests forbid unknown fields: a typo is a `malformed` error, not a silently ignored key.
Table rows never reach a response model (a token hash or the seed of a running game cannot be
serialized by accident); responses are built field by field in `outbound.py`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

_REQUEST = ConfigDict(extra="forbid")

Name = Field(min_length=1, max_length=40, pattern=r"^[^\x00-\x1f]+$")
ActionId = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")


class Error(BaseModel):
    code: str
    message: str


class CreateGame(BaseModel):
    model_config = _REQUEST
    players: int = Field(ge=2, le=4)
    name: str = Name


class Created(BaseModel):
    id: str
    host_token: str = Field(description="Needed for host actions (bots). Shown once.")


class Join(BaseModel):
    model_config = _REQUEST
    name: str = Name


class Joined(BaseModel):
    seat: int
    token: str = Field(description="The seat's secret; shown once. Send as `Bearer` token.")


class AddBot(BaseModel):
    model_config = _REQUEST
    seat: int | None = Field(default=None, ge=0, le=3, description="a free seat; default the first")


class BotAdded(BaseModel):
    seat: int


class SeatInfo(BaseModel):
    seat: int
    name: str | None
    bot: bool
    taken: bool


class GameInfo(BaseModel):
    id: str
    name: str
    players: int
    status: Literal["waiting", "running", "finished"]
    version: int
    current_seat: int | None
    seats: list[SeatInfo]
    scores: list[int] | None = None


class SubmitAction(BaseModel):
    model_config = _REQUEST
    action: dict[str, Any]
    expected_version: int = Field(ge=0)
    action_id: str = ActionId


class Version(BaseModel):
    version: int


class UndoRequest(BaseModel):
    model_config = _REQUEST
    expected_version: int | None = Field(default=None, ge=0)


class LegalEntry(BaseModel):
    action: dict[str, Any]
    quote: dict[str, Any]


class LogEntry(BaseModel):
    seq: int
    seat: int
    action: dict[str, Any]
    time: str


class GameLog(BaseModel):
    """A running game: public parts only. A finished game: the whole record (`seed`, `setup`),
    which `brass replay FILE` replays to the same final scores."""

    format: Literal["brass-game-log/1"] = "brass-game-log/1"
    id: str
    name: str
    players: int
    status: str
    version: int
    engine_version: str
    seats: list[SeatInfo]
    actions: list[LogEntry]
    seed: int | None = None
    setup: dict[str, Any] | None = None
    scores: list[int] | None = None


class StateMessage(BaseModel):
    """What a client holds: the game's version and the view for its seat (None: spectator)."""

    type: Literal["state"] = "state"
    game: str
    status: str
    version: int
    seat: int | None
    view: dict[str, Any] | None


class ReplayFrame(BaseModel):
    n: int
    actions: int
    seat: int | None
    view: dict[str, Any]


# -- websocket messages (client -> server) ---------------------------------------------------
class WsHello(BaseModel):
    model_config = _REQUEST
    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=200)


class WsAction(BaseModel):
    model_config = _REQUEST
    type: Literal["action"]
    action: dict[str, Any]
    expected_version: int = Field(ge=0)
    action_id: str = ActionId


class WsUndo(BaseModel):
    model_config = _REQUEST
    type: Literal["undo"]
    expected_version: int | None = Field(default=None, ge=0)


class WsSync(BaseModel):
    model_config = _REQUEST
    type: Literal["sync"]
