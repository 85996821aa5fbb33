"""Pydantic models of every request and response body (they make the OpenAPI schema).

Requests forbid unknown fields: a typo is a `malformed` error, not a silently ignored key.
Table rows never reach a response model (a token hash or the seed of a running game cannot be
serialized by accident); responses are built field by field in `outbound.py`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, RootModel
from typing_extensions import TypeAliasType

from brass.bots import LevelName
from brass.engine import Era, Industry, MerchantBuys
from brass.engine import effects as _effects

from .clocks import MAX_SECONDS, ClockKind
from .errors import HTTP_STATUS, ErrorCode
from .vocab import CalledOffBy, GameStatus, StandIn

_REQUEST = ConfigDict(extra="forbid")

# An engine refusal (`illegal` or `malformed` from brass/engine) names its stable reason and
# its params beside the English message (docs/ENGINE.md lists them), for a translated message.
REASON = ("the engine's refusal code (docs/ENGINE.md), for illegal and malformed moves; the "
          "server's own: `accounts` and `invite` (create_refused), `clock_range` (a clock "
          "setting out of its range)")
PARAMS = ("the refusal's parameters: ids of cards, locations, links, industries; numbers "
          "(`clock_range`: `field`, `value`, `least`, `most`, in seconds)")

# Characters a name may not hold: control (Cc), invisible formatting (Cf: zero-width,
# direction overrides, tags...) and line/paragraph separators (Zl, Zp), so a name cannot pass
# for someone else's (tests/server/test_hardening.py checks the list against unicodedata). A
# name also neither starts nor ends with a space. The pattern reads the same in Python's `re`,
# Rust's `regex` and ECMAScript with the `u` flag (astral characters are written as
# themselves); lone surrogates (Cs), which no JSON Schema pattern can name, are refused too.
_INVISIBLE = [
    (0x0, 0x1F), (0x7F, 0x9F), (0xAD, 0xAD), (0x600, 0x605), (0x61C, 0x61C), (0x6DD, 0x6DD),
    (0x70F, 0x70F), (0x890, 0x891), (0x8E2, 0x8E2), (0x180E, 0x180E), (0x200B, 0x200F),
    (0x2028, 0x202E), (0x2060, 0x2064), (0x2066, 0x206F), (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD), (0x110CD, 0x110CD), (0x13430, 0x1343F), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0001, 0xE0001), (0xE0020, 0xE007F)]


def _escape(cp: int) -> str:
    return f"\\u{cp:04x}" if cp <= 0xFFFF else chr(cp)


_NOT_SHOWN = "".join(_escape(a) if a == b else f"{_escape(a)}-{_escape(b)}"
                     for a, b in _INVISIBLE)
NAME_PATTERN = rf"^[^\s{_NOT_SHOWN}](?:[^{_NOT_SHOWN}]*[^\s{_NOT_SHOWN}])?$"
_NAME = re.compile(NAME_PATTERN)
_SURROGATE = re.compile("[\ud800-\udfff]")


# The engine's discriminated union of actions (brass/engine/actions.py), named `Action` in the
# OpenAPI schema: the engine's own alias, the one a move event's action refers to, so the
# schema holds one `Action` definition. A request's action is checked against it (a wrong
# shape is `malformed`), then the engine checks every id it names.
Action = _effects.Action
# The engine's events (brass/engine/effects.py), a union discriminated on "type", named `Event`.
Event = TypeAliasType("Event", _effects.Event)

def _visible(name: str) -> str:
    """The schema's pattern (and no lone surrogate), with a message a player understands (a
    name, a chat line and the banner share it)."""
    if not _NAME.fullmatch(name) or _SURROGATE.search(name):
        raise ValueError("the text must start and end with a visible character and hold no "
                         "control or invisible formatting characters")
    return name


def _whole(value: Any) -> Any:
    """JSON Schema's `integer` holds 3.0: accept a float with no fraction as its int (a bool,
    a string or 3.5 stays refused by the strict int)."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


PlayerName = Annotated[str, Field(min_length=1, max_length=40,
                                  json_schema_extra={"pattern": NAME_PATTERN}),
                       AfterValidator(_visible)]
ActionId = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")
Count = Annotated[int, Field(ge=0, strict=True), BeforeValidator(_whole)]
PlayerCount = Annotated[int, Field(ge=2, le=4, strict=True), BeforeValidator(_whole)]
SeatNumber = Annotated[int, Field(ge=0, le=3, strict=True), BeforeValidator(_whole)]


class Error(BaseModel):
    code: ErrorCode
    message: str
    reason: str | None = Field(default=None, description=REASON)
    params: dict[str, Any] | None = Field(default=None, description=PARAMS)


# every error status a route may answer, each with the Error body (a router's `responses`)
ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": Error} for status in sorted(set(HTTP_STATUS.values()))}


Seconds = Annotated[float, Field(ge=0, le=MAX_SECONDS, strict=True, allow_inf_nan=False)]


class ClockChoice(BaseModel):
    """A game's turn clock (seconds). `none`: no clock (with `handoff_after`, the other
    players may hand a seat to move that has been idle that long to a bot); `live`: each
    player has a `reserve`, plus `increment` after each turn; `correspondence`: `per_turn`
    for every turn. When a player's time runs out a bot plays for them until they take
    their seat back. The server sets the shortest allowed time (`BRASS_CLOCK_MINIMUM`)."""

    model_config = _REQUEST
    kind: ClockKind = "none"
    reserve: Seconds = 0.0
    increment: Seconds = 0.0
    per_turn: Seconds = 0.0
    handoff_after: Seconds = 0.0


class ClockSettings(BaseModel):
    """A game's turn clock as chosen (seconds; see `ClockChoice`): what a list of games shows
    of it."""

    kind: ClockKind
    reserve: float
    increment: float
    per_turn: float
    handoff_after: float


class ClockView(BaseModel):
    """The game's clock: its settings, and (epoch seconds, by the server's clock) when the
    current turn's time runs out (`deadline`; null: no clock, or a bot moves) and when the
    turn started (`turn_started`)."""

    kind: ClockKind
    reserve: float
    increment: float
    per_turn: float
    handoff_after: float
    deadline: float | None
    turn_started: float | None


class CreateGame(BaseModel):
    model_config = _REQUEST
    players: PlayerCount
    name: PlayerName
    listed: bool = Field(default=False, strict=True,
                         description="shown in GET /api/games (and joined from there without "
                                     "the invite); unlisted games are joined only through "
                                     "their invite link")
    clock: ClockChoice = Field(default_factory=ClockChoice)
    shared_screen: bool = Field(
        default=False, strict=True,
        description="one browser may take several seats (players sharing a screen); "
                    "otherwise a browser takes one seat of the game")
    invite_code: str | None = Field(
        default=None, max_length=200,
        description="the server's invite code, where the host lets only its holders create "
                    "games (`create_refused` with reason `invite` says so)")


class SetListed(BaseModel):
    model_config = _REQUEST
    listed: bool = Field(strict=True)


class Created(BaseModel):
    id: str
    host_token: str = Field(description="Needed for host actions (bots). Shown once.")
    invite: str = Field(description="The invite secret: joining an unlisted game needs it. "
                                    "Shown once; the host may renew it.")


BrowserId = Field(default=None, min_length=16, max_length=64, pattern=r"^[A-Za-z0-9_-]+$",
                  description="a random id the browser keeps: unless the game allows a shared "
                              "screen, one browser takes one seat")


class Join(BaseModel):
    model_config = _REQUEST
    name: PlayerName
    invite: str | None = Field(default=None, max_length=200,
                               description="the invite secret (needed unless listed)")
    browser: str | None = BrowserId


class InviteCheck(BaseModel):
    model_config = _REQUEST
    invite: str = Field(max_length=200, description="the invite secret of the link opened")


class InviteValid(BaseModel):
    valid: bool = Field(description="the secret lets its holder join (a listed game needs "
                                    "none); false: renewed by the host, or never this game's")


class Hosting(BaseModel):
    host: bool = Field(description="whoever asks hosts the game: by the host token sent, or, "
                                   "sending none, as the player (cookie) who created it")


class InviteRenewed(BaseModel):
    invite: str = Field(description="The new invite secret; the old link stops working.")


class SeatRequest(BaseModel):
    """Resign or take a seat back; refused as stale if the game is not at `expected_version`."""

    model_config = _REQUEST
    expected_version: Count | None = None


class HandOver(BaseModel):
    """Hand the seat to move, idle for the game's `handoff_after`, to a bot."""

    model_config = _REQUEST
    seat: SeatNumber
    expected_version: Count | None = None


class Joined(BaseModel):
    seat: int
    token: str = Field(description="The seat's secret; shown once. Send as `Bearer` token.")


class Claimed(BaseModel):
    """A seat link opened in a browser with a player: whether the seat is that player's."""

    seat: int
    mine: bool = Field(description="the seat is this player's (claimed now, or before); "
                                   "false: another player took it (who is never said)")


class Renewed(BaseModel):
    """A renewed link's new secret: the old one stops working at once."""

    role: Literal["seat", "host"]
    seat: int | None = Field(description="the seat renewed; null for the host link")
    token: str = Field(description="The new secret; shown once.")


class AddBot(BaseModel):
    model_config = _REQUEST
    seat: SeatNumber | None = Field(
        default=None, description="a free seat; default the first")
    level: LevelName = Field(
        default="medium", description="easy: one move ahead; medium: searches its own turn; "
                                    "hard: searches its turn and the others' next ones")


class BotAdded(BaseModel):
    seat: int


class MoveJudged(BaseModel):
    """The search's judgement of one move, from what its player could see then, saying how
    sure it is (`brass.bots.analysis`)."""

    seq: int = Field(description="the move's place in the log, from 1")
    seat: int
    played: Action = Field(description="the action made")
    preferred: Action = Field(description="the action the bot preferred")
    judged: bool = Field(default=True, description="false: the budget ran out before the "
                         "move made was valued (then `loss` is null, never 0)")
    positions: int | None = Field(default=None, description="positions the search valued "
                                  "for the move made (null: an analysis stored before "
                                  "judgements said how sure they are)")
    loss: float | None = Field(description="how much better the bot judged its preferred "
                               "move, in VP of the search's utility (brass.bots.search); 0 "
                               "when it is the move made; null when not judged")
    win: list[float] = Field(description="each seat's estimated chance of winning after "
                                         "the move made")
    win_preferred: list[float] | None = Field(
        default=None, description="each seat's estimated chance of winning after the "
        "preferred move's best turn (null when not judged or stored before)")


class Analysis(BaseModel):
    status: Literal["none", "running", "done", "failed"] = Field(
        description="none: not asked for (POST starts it); failed: the log does not replay "
                    "here (POST retries)")
    done: int = Field(description="moves judged so far")
    total: int
    moves: list[MoveJudged]


class LoanRule(BaseModel):
    model_config = ConfigDict(extra="forbid")
    money: int = Field(description="the money a loan gives")
    levels: int = Field(description="the income levels it costs")
    min_level: int = Field(description="the lowest income level a loan may leave")


class LinkCosts(BaseModel):
    """The money a network action pays for its links (before their coal and beer)."""

    model_config = ConfigDict(extra="forbid")
    canal: int
    rail: int
    double_rail: int = Field(description="two railways in one action")


class Rules(BaseModel):
    """The fixed numbers the engine plays by (data/rules.json, every one but its `about`):
    what a client's summary of the rules shows, so it holds none of its own. `extra="forbid"`:
    a number added to the data file is described here before the server serves it."""

    model_config = ConfigDict(extra="forbid")
    start_money: int
    hand_size: int = Field(description="a hand is filled back up to this at the end of a turn")
    link_tiles: int = Field(description="each player's link tiles")
    loan: LoanRule
    actions_per_turn: int
    first_round_actions: int = Field(description="actions per turn in the game's first round")
    scout_discards: int = Field(description="the cards a scout action discards")
    link_cost: LinkCosts
    merchant_link_icons: int = Field(description="the link icons a merchant's location scores")


class SeatInfo(BaseModel):
    seat: int
    name: str | None
    bot: bool
    taken: bool
    bot_level: LevelName | None = Field(default=None, description="a bot seat's level")
    stand_in: StandIn | None = Field(
        default=None, description="a bot plays for this seat's player: why (null: they play)")
    reserve: float | None = Field(
        default=None, description="a live clock: the seconds it had at the start of its turn")


class SeatChangeEntry(BaseModel):
    """Who plays a seat changed at `version`: a bot plays for it from then (timeout, resigned,
    handover), or its player took it back (returned)."""

    version: int
    seat: int
    change: StandIn | Literal["returned"]
    time: str


class GameInfo(BaseModel):
    id: str
    name: str
    players: int
    status: GameStatus
    version: int
    current_seat: int | None
    seats: list[SeatInfo]
    scores: list[int] | None = None
    engine_version: str = Field(description="the engine version the game was stored with")
    older_engine: bool = Field(description="stored by another engine version than this "
                                           "server's: a finished game is shown from its stored "
                                           "final state and effects")
    listed: bool
    clock: ClockView
    shared_screen: bool = Field(description="one browser may take several seats")
    called_off_by: CalledOffBy | None = Field(
        None, description="who made a cancelled game so: its host (while it waited) or the "
                          "server's admin; null otherwise, and for games cancelled before the "
                          "server kept it")


class GameList(BaseModel):
    """One page of the listing. `next`: the cursor of the following page (null at the end);
    `changes`: pass it as `changed_after` to get only the games that changed since."""

    games: list[GameInfo]
    next: str | None
    changes: str


class SubmitAction(BaseModel):
    model_config = _REQUEST
    action: Action
    expected_version: Count
    action_id: str = ActionId


class Version(BaseModel):
    version: int


class UndoRequest(BaseModel):
    model_config = _REQUEST
    expected_version: Count | None = None


# -- the engine's view and quote (brass/engine/view.py, brass/engine/draft.py) ---------------
# These describe the engine's JSON exactly, key for key and in its key order, so that a view
# dumped through them is byte for byte what `view()` returned (tests/server/test_schema_view.py
# checks both over random games). `extra="forbid"`: a key the engine adds fails that test.
_WIRE = ConfigDict(extra="forbid")


class QuoteTileSupply(BaseModel):
    """Coal, iron or beer from a player's industry tile."""

    model_config = _WIRE
    source: Literal["tile"]
    count: int
    location: str
    slot: int
    owner: int


class QuoteMerchantSupply(BaseModel):
    """Beer from a merchant's barrel."""

    model_config = _WIRE
    source: Literal["merchant"]
    count: int
    location: str
    slot: int


class QuoteMarketSupply(BaseModel):
    """Coal or iron bought from the market for `cost`."""

    model_config = _WIRE
    source: Literal["market"]
    count: int
    cost: int


Supply = Annotated[QuoteTileSupply | QuoteMerchantSupply | QuoteMarketSupply,
                  Field(discriminator="source")]


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
    """A legal move and its full price (`Move.to_json()`)."""

    action: Action
    quote: Quote


if TYPE_CHECKING:  # `view()` returns a plain dict, which pydantic validates into a `View`
    ViewJson = View | dict[str, Any]
else:
    ViewJson = View


class LogEntry(BaseModel):
    """An action of the log and its public effects, as a spectator may see them (`move`,
    then what it caused between turns; null for an action stored before effects were)."""

    seq: int
    seat: int
    action: Action
    time: str
    effects: list[Event] | None
    stand_in: StandIn | None = Field(
        default=None, description="a bot played it for the seat's player: why")


class GameLog(BaseModel):
    """A running game: public parts only. A finished game: the whole record (`seed`, `setup`),
    which `brass replay FILE` replays to the same final scores."""

    format: Literal["brass-game-log/1"] = "brass-game-log/1"
    id: str
    name: str
    players: int
    status: GameStatus
    version: int
    engine_version: str
    older_engine: bool
    seats: list[SeatInfo]
    actions: list[LogEntry]
    seed: int | None = None
    setup: dict[str, Any] | None = None
    scores: list[int] | None = None
    seat_changes: list[SeatChangeEntry] = Field(
        default_factory=list, description="every change of who plays a seat, in order")


class HandOverFrom(BaseModel):
    """A seat the viewer may hand to a bot, from `since` (epoch seconds, by the server's
    clock: the seat has then been idle for the game's `handoff_after`)."""

    seat: int
    since: float


class SeatPermissions(BaseModel):
    """What the viewing seat's player may do now, by the rules the routes apply
    (seatrules.py): the client shows these buttons and decides nothing itself."""

    resign: bool = Field(description="`POST /resign` would be accepted")
    take_over: bool = Field(description="`POST /takeover` would be accepted: a bot stands in "
                                        "for this seat after a time-out or a hand-over")
    hand_over: list[HandOverFrom] = Field(
        description="the seats `POST /handover` would accept, each from its time")


class StateMessage(BaseModel):
    """What a client holds: the game's version and the view for its seat (None: spectator),
    with what changed since the version before: `log`, the log entry that made this version
    (empty if none did), and `undone`, the seqs of the log entries this version took back. A
    client that holds the version before applies them; any other client fetches the log.
    `legal`: the seat to move gets its legal moves (as `GET /legal`), everyone else null (so
    does the seat to move while a bot plays it for its player: its moves would be refused). Over
    the websocket the seat to move gets each new version twice: at once with `legal` null,
    then the same version with its legal moves (so listing them delays no screen)."""

    type: Literal["state"] = "state"
    game: str
    status: GameStatus
    version: int
    seat: int | None
    older_engine: bool
    view: ViewJson | None
    undone: list[int]
    undoable: bool = Field(description="the seat to move may take back its last action now "
                                       "(`undo`): it made it in the turn it still plays, and "
                                       "no bot plays for it")
    seats: list[SeatInfo] = Field(description="who plays each seat (a bot standing in?)")
    clock: ClockView
    seat_changes: list[SeatChangeEntry] = Field(
        description="the change of who plays a seat that made this version (empty if none)")
    log: list[LogEntry]
    legal: list[LegalEntry] | None
    may: SeatPermissions | None = Field(description="what the viewing seat may do now "
                                        "(null: a spectator)")
    server_time: float = Field(description="the server's clock when it sent this (epoch "
                                           "seconds): count the deadline down from it")


class ExploreRequest(BaseModel):
    """A line of moves to try from a position of a finished game (the analysis board)."""

    model_config = _REQUEST
    frame: int = Field(ge=0, description="the position: after this many of the game's moves")
    line: list[Action] = Field(default_factory=list, max_length=40,
                               description="moves played from there, in order (not stored)")


class Explored(BaseModel):
    """Where a line leads (`brass.bots.explore`): nothing of it is stored."""

    frame: int
    line: list[Action]
    to_move: int | None = Field(description="the seat to move there (null: the game is over)")
    view: ViewJson = Field(description="the position as the seat to move sees it")
    moves: list[Action] = Field(description="the distinct legal moves there (one per effect), "
                                "the easy bot's best first")
    win: list[float] = Field(description="each seat's estimated chance of winning there")
    vp: list[float] = Field(description="each seat's estimated final VP")
    reply: Action | None = Field(description="the medium bot's move there, within the "
                                 "analysis budget (null: the game is over)")


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
    code: ErrorCode
    message: str
    action_id: str | None = None
    reason: str | None = Field(default=None, description=REASON)
    params: dict[str, Any] | None = Field(default=None, description=PARAMS)
    version: int | None = Field(default=None, description=(
        "Only when it refuses an `extend` or a `preview`: the version that request asked "
        "about (the game's version then, if it named none), so a client can drop a refusal "
        "that answers an older version than the one it shows."))
    about: Literal["chat"] | None = Field(default=None, description=(
        "Only when it refuses a chat line: `chat`, so a client shows the refusal beside the "
        "chat, where the line was typed."))


class Extensions(BaseModel):
    """The legal moves made of a legal Sell (or Network) plus one more sale (or its second
    link), each with its price; `[]` if there is none. Every legal Sell and Network is reached
    from `legal` by repeated extensions."""

    type: Literal["extensions"] = "extensions"
    version: int
    action: Action
    moves: list[LegalEntry]


class Preview(BaseModel):
    """The whole effect of a legal move of the seat to move, before it is confirmed: the
    engine's `move` event for it (tile placed with its VP, income and link icons, cubes placed
    and sold to the market, flips, sales and merchant bonuses, every supply and the money paid
    and received). Only the move itself: what the end of the turn would draw stays unknown."""

    type: Literal["preview"] = "preview"
    version: int
    action: Action
    effect: Event


ChatText = Annotated[str, Field(min_length=1, max_length=300,
                                json_schema_extra={"pattern": NAME_PATTERN}),
                     AfterValidator(_visible)]
# a chat line's id, made by the sender's page (WsChat.line)
ChatLineId = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]
# the admin's banner (banner.py): a line of visible text, as a name or a chat message
BannerText = Annotated[str, Field(min_length=1, max_length=280,
                                  json_schema_extra={"pattern": NAME_PATTERN}),
                       AfterValidator(_visible)]


class ChatMessage(BaseModel):
    """A chat message as stored: `seat` null and `spectator` true for a spectator's; `actions`:
    how many actions had been played when it was sent (a replay shows it from there)."""

    id: int
    seat: int | None
    spectator: bool
    name: str
    text: str
    actions: int
    time: str
    line: str | None = Field(description="the id its sender's page gave the line (`WsChat`), "
                                          "null if none")


class ChatMutes(BaseModel):
    """Whom the game's chat has muted: by its host, or by the server's admin, whose mutes the
    host cannot lift."""

    seats: list[int]
    spectators: bool
    admin_seats: list[int] = Field(description="of `seats`, those the server's admin muted")
    admin_spectators: bool = Field(description="the spectators are muted by the admin")


class ChatHistory(BaseModel):
    """A page of the chat, oldest first (deleted messages left out); `next`: the `before` of
    the page of older messages (null: there are none)."""

    messages: list[ChatMessage]
    next: int | None = None
    muted: ChatMutes


class ChatMute(BaseModel):
    """The host mutes a seat, or the spectators (`seat` null), or lets them speak again."""

    model_config = _REQUEST
    seat: int | None = Field(default=None, ge=0, le=3, strict=True)
    muted: bool = Field(strict=True)


class ChatDeleted(BaseModel):
    """The host deleted a chat message: it is gone for everyone (and from replays)."""

    type: Literal["chat_deleted"] = "chat_deleted"
    id: int


class ChatMutesChanged(BaseModel):
    """The host (or the server's admin) muted someone in the chat or let them speak again:
    whom it has muted now."""

    type: Literal["chat_mutes"] = "chat_mutes"
    muted: ChatMutes


class ChatBroadcast(BaseModel):
    """A new chat message, sent to everyone watching the game."""

    type: Literal["chat"] = "chat"
    message: ChatMessage


class ServerMessage(RootModel[Annotated[
        StateMessage | WsAck | WsError | Extensions | Preview | ChatBroadcast | ChatDeleted
        | ChatMutesChanged, Field(discriminator="type")]]):
    """Each message the server sends on a game's websocket (`/ws/games/{id}`), one JSON
    object per frame, told apart by `type`."""


# -- websocket messages (client -> server) ---------------------------------------------------
class WsHello(BaseModel):
    model_config = _REQUEST
    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=200)
    seat: int | None = Field(default=None, ge=0, le=3, description=(
        "without a token: which of the seats the player cookie's player took (a shared "
        "screen); by default their first"))


class ExtendRequest(BaseModel):
    """Ask for the extensions of a legal Sell or Network of the seat to move."""

    model_config = _REQUEST
    action: Action
    version: int | None = Field(default=None, ge=0, strict=True,
                                description="refused as stale if the game is not there")


class WsAction(BaseModel):
    model_config = _REQUEST
    type: Literal["action"]
    action: Action
    expected_version: Count
    action_id: str = ActionId


class WsUndo(BaseModel):
    model_config = _REQUEST
    type: Literal["undo"]
    expected_version: Count | None = None


class WsSync(BaseModel):
    model_config = _REQUEST
    type: Literal["sync"]


class WsExtend(ExtendRequest):
    type: Literal["extend"]


class PreviewRequest(BaseModel):
    """Ask for the whole effect of a legal move of the seat to move (answered by `Preview`)."""

    model_config = _REQUEST
    action: Action
    version: int | None = Field(default=None, ge=0, strict=True,
                                description="refused as stale if the game is not there")


class WsPreview(PreviewRequest):
    type: Literal["preview"]


class WsChat(BaseModel):
    """Say something at the table; `name` only for a spectator (a seat speaks as its seat)."""

    model_config = _REQUEST
    type: Literal["chat"]
    text: ChatText
    name: PlayerName | None = None
    line: ChatLineId | None = Field(default=None, description=(
        "the page's id for this line, the same each time it is sent (again on the next "
        "connection when the first dropped before the answer came): the game stores a line "
        "once per id, and a line sent again is answered as it was stored (a `chat` message "
        "with the same `id`, to that socket alone), not counted again against the limits"))


class WsVisible(BaseModel):
    """The game is shown to its player now (the page visible and focused) or no longer: a
    seat's visible socket holds the notices of this game back (notices.py)."""

    model_config = _REQUEST
    type: Literal["visible"]
    visible: bool


class ClientMessage(RootModel[Annotated[
        WsHello | WsAction | WsUndo | WsSync | WsExtend | WsPreview | WsChat
        | WsVisible,
        Field(discriminator="type")]]):
    """Each message a client sends on a game's websocket, one JSON object per frame, told
    apart by `type`: `hello` first (a seat token, or null to watch), then the others; each is
    answered (`ack`, `error`, `extensions`, `preview`, or a `chat` to everyone watching)."""
