"""Pydantic models of every request and response body (they make the OpenAPI schema).

Requests forbid unknown fields: a typo is a `malformed` error, not a silently ignored key.
Table rows never reach a response model (a token hash or the seed of a running game cannot be
serialized by accident); responses are built field by field in `outbound.py`.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

_REQUEST = ConfigDict(extra="forbid")

def _visible(name: str) -> str:
    """Refuse invisible and control characters (zero-width, direction overrides...): a name
    must not be able to pass for someone else's."""
    if any(unicodedata.category(ch)[0] == "C" or unicodedata.category(ch) in ("Zl", "Zp")
           for ch in name):
        raise ValueError("a name may not hold control or invisible formatting characters")
    if not name.strip():
        raise ValueError("a name needs a visible character")
    return name


PlayerName = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[^\x00-\x1f]+$"),
                       AfterValidator(_visible)]
ActionId = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")


class Error(BaseModel):
    code: str
    message: str


class CreateGame(BaseModel):
    model_config = _REQUEST
    players: int = Field(ge=2, le=4)
    name: PlayerName
    listed: bool = Field(default=False, description="shown in GET /api/games; unlisted games "
                         "are reached only through their link")


class SetListed(BaseModel):
    model_config = _REQUEST
    listed: bool


class Created(BaseModel):
    id: str
    host_token: str = Field(description="Needed for host actions (bots). Shown once.")


class Join(BaseModel):
    model_config = _REQUEST
    name: PlayerName


class Joined(BaseModel):
    seat: int
    token: str = Field(description="The seat's secret; shown once. Send as `Bearer` token.")


class Renewed(BaseModel):
    """A renewed link's new secret: the old one stops working at once."""

    role: Literal["seat", "host"]
    seat: int | None = Field(description="the seat renewed; null for the host link")
    token: str = Field(description="The new secret; shown once.")


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


GameStatus = Literal["waiting", "running", "finished", "expired", "cancelled"]


class GameInfo(BaseModel):
    id: str
    name: str
    players: int
    status: GameStatus
    version: int
    current_seat: int | None
    seats: list[SeatInfo]
    scores: list[int] | None = None
    listed: bool


class GameList(BaseModel):
    """One page of the listing. `next`: the cursor of the following page (null at the end);
    `changes`: pass it as `changed_after` to get only the games that changed since."""

    games: list[GameInfo]
    next: str | None
    changes: str


class SubmitAction(BaseModel):
    model_config = _REQUEST
    action: dict[str, Any]
    expected_version: int = Field(ge=0, strict=True)
    action_id: str = ActionId


class Version(BaseModel):
    version: int


class UndoRequest(BaseModel):
    model_config = _REQUEST
    expected_version: int | None = Field(default=None, ge=0, strict=True)


# -- the engine's view and quote (brass/engine/view.py, brass/engine/draft.py) ---------------
# These describe the engine's JSON exactly, key for key and in its key order, so that a view
# dumped through them is byte for byte what `view()` returned (tests/server/test_schema_view.py
# checks both over random games). `extra="forbid"`: a key the engine adds fails that test.
_WIRE = ConfigDict(extra="forbid")

Industry = Literal["cotton", "manufacturer", "pottery", "coal", "iron", "brewery"]
MerchantBuys = Literal["cotton", "manufacturer", "pottery", "all", "blank"]
Era = Literal["canal", "rail"]


class TileSupply(BaseModel):
    """Coal, iron or beer from a player's industry tile."""

    model_config = _WIRE
    source: Literal["tile"]
    count: int
    location: str
    slot: int
    owner: int


class MerchantSupply(BaseModel):
    """Beer from a merchant's barrel."""

    model_config = _WIRE
    source: Literal["merchant"]
    count: int
    location: str
    slot: int


class MarketSupply(BaseModel):
    """Coal or iron bought from the market for `cost`."""

    model_config = _WIRE
    source: Literal["market"]
    count: int
    cost: int


Supply = Annotated[TileSupply | MerchantSupply | MarketSupply, Field(discriminator="source")]


class Quote(BaseModel):
    """The full price of an action (`Quote.to_json()`): money paid and received, and where
    every coal, iron and beer comes from."""

    model_config = _WIRE
    money: int
    received: int
    coal: list[Supply]
    iron: list[Supply]
    beer: list[Supply]


class Mat(BaseModel):
    """The levels of the tiles left on a player's mat, per industry (the next one first)."""

    model_config = _WIRE
    cotton: list[int]
    manufacturer: list[int]
    pottery: list[int]
    coal: list[int]
    iron: list[int]
    brewery: list[int]


class PlayerView(BaseModel):
    model_config = _WIRE
    seat: int
    money: int
    vp: int
    income_space: int
    income_level: int
    spent: int
    links_left: int
    hand_size: int
    hand: list[str] | None = Field(description="the viewer's own hand; null for the others")
    discard_top: str | None
    discard_size: int
    mat: Mat


class TileView(BaseModel):
    model_config = _WIRE
    location: str
    slot: int
    owner: int
    industry: Industry
    level: int
    flipped: bool
    resources: int


class LinkView(BaseModel):
    model_config = _WIRE
    id: str
    owner: int
    kind: Era


class MerchantView(BaseModel):
    model_config = _WIRE
    location: str
    slot: int
    buys: MerchantBuys
    beer: bool


class EraScore(BaseModel):
    model_config = _WIRE
    links: int
    industries: int


class View(BaseModel):
    """What one seat (or a spectator, `viewer` null) may see of a game: `brass.engine.view`."""

    model_config = _WIRE
    num_players: int
    viewer: int | None
    era: Era
    round: int
    current_seat: int | None
    actions_left: int
    turn_order: list[int]
    action_count: int
    deck_size: int
    wild_location_left: int
    wild_industry_left: int
    coal_market: int
    iron_market: int
    coal_price: int
    iron_price: int
    is_over: bool
    winner_order: list[int] | None
    ranks: list[int] | None
    era_scores: list[list[EraScore]] = Field(
        description="per finished era, each seat's points from links and industries")
    players: list[PlayerView]
    industries: list[TileView]
    links: list[LinkView]
    merchants: list[MerchantView]


class LegalEntry(BaseModel):
    action: dict[str, Any]
    quote: Quote


if TYPE_CHECKING:  # `view()` returns a plain dict, which pydantic validates into a `View`
    ViewJson = View | dict[str, Any]
else:
    ViewJson = View


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
    view: ViewJson | None


class ReplayFrame(BaseModel):
    n: int
    actions: int
    seat: int | None
    view: ViewJson


# -- websocket messages (server -> client) ---------------------------------------------------
class WsAck(BaseModel):
    """An action (`action_id`) or an undo (`action_id` null) was logged: the new version."""

    type: Literal["ack"] = "ack"
    action_id: str | None
    version: int


class WsError(BaseModel):
    """A refused message; `action_id` only when it answers an action."""

    type: Literal["error"] = "error"
    code: str
    message: str
    action_id: str | None = None


ServerMessage = Annotated[StateMessage | WsAck | WsError, Field(discriminator="type")]


# -- websocket messages (client -> server) ---------------------------------------------------
class WsHello(BaseModel):
    model_config = _REQUEST
    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=200)


class WsAction(BaseModel):
    model_config = _REQUEST
    type: Literal["action"]
    action: dict[str, Any]
    expected_version: int = Field(ge=0, strict=True)
    action_id: str = ActionId


class WsUndo(BaseModel):
    model_config = _REQUEST
    type: Literal["undo"]
    expected_version: int | None = Field(default=None, ge=0, strict=True)


class WsSync(BaseModel):
    model_config = _REQUEST
    type: Literal["sync"]
