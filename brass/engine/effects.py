"""Effects as data: what an action did, and every event between turns that it caused.

`play(game, action)` (rules.py) returns the new game and its events, in order: the `move`
event, then `draw` (cards drawn at the end of a turn), `turn_end`, `round_end`, `era_end`
and `game_end` as they happen.
Events are JSON-ready dicts (`TypedDict`s), a union discriminated on `"type"`:
`EVENT_ADAPTER.json_schema()` describes them. Locations and slots are named as in actions
(location ids, 0-based slot numbers); link ids as in DATA.md.

`public_events(events, seat)` is what `seat` (None: a spectator) may see (RULES.md §10): the
cards drawn by another seat, and another seat's rail-era hand, become a count only.

>>> from brass.engine import new_game, play, legal_actions
>>> game = new_game(players=2, seed=7)
>>> after, events = play(game, legal_actions(game)[-1])
>>> [e["type"] for e in events]
['move', 'draw', 'turn_end']
>>> drawn = events[1]
>>> drawn["count"], len(drawn["cards"] or [])
(1, 1)
>>> public_events(events, 1 - drawn["seat"])[1]["cards"] is None
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, Literal

from pydantic import Field, GetPydanticSchema, TypeAdapter
from pydantic_core import core_schema
from typing_extensions import TypeAliasType, TypedDict

from . import actions as _actions
from .actions import ACTION_ADAPTER, Build, Develop, Network, Sell
from .data import DATA, GOODS, INDUSTRIES, Era, Industry
from .draft import Draft, Supply
from .state import Game, PlayerState, Tile

# The union of actions (actions.py) under its name: a JSON Schema (the server's OpenAPI schema
# too) holds it once, as the `Action` definition, and a move event's action refers to it. The
# server describes every action of its bodies with this same alias: one definition, not two.
Action = TypeAliasType("Action", _actions.Action)


def _action_schema(source: Any, handler: Any) -> core_schema.CoreSchema:
    """An action's JSON, validated (and described in JSON Schema) as an `Action`."""
    inner = handler(Action)
    return core_schema.no_info_after_validator_function(
        lambda action: action.to_json(), inner,
        serialization=core_schema.plain_serializer_function_ser_schema(
            ACTION_ADAPTER.validate_python, return_schema=inner))


ActionJSON = Annotated[dict[str, Any], GetPydanticSchema(_action_schema)]
Resource = Literal["coal", "iron", "beer"]


# -- parts -------------------------------------------------------------------------------------
class TileRef(TypedDict):
    """An industry tile on the board: where it is, whose it is, what it is."""

    location: str
    slot: int
    owner: int
    industry: Industry
    level: int


class PlacedTile(TileRef):
    """A tile built: its printed VP, income (spaces) and link icons, and the cubes or barrels
    put on it (before any are sold to a market)."""

    resources: int
    vp: int
    income: int
    link_icons: int


class FlippedTile(TileRef):
    income: int  # the tile's income number: spaces the owner's marker moves


class RemovedTile(TileRef):
    flipped: bool


class ShortfallTile(TileRef):
    raised: int  # half the tile's cost, rounded down, set against the debt


class TileSupply(TypedDict):
    resource: Resource
    source: Literal["tile"]
    count: int
    location: str
    slot: int
    owner: int


class MerchantSupply(TypedDict):
    resource: Literal["beer"]
    source: Literal["merchant"]
    count: int
    location: str
    slot: int  # the merchant tile's slot


class MarketSupply(TypedDict):
    resource: Literal["coal", "iron"]
    source: Literal["market"]
    count: int
    cost: int  # £ for all `count` cubes


SupplyEffect = Annotated[TileSupply | MerchantSupply | MarketSupply,
                         Field(discriminator="source")]


class MarketSale(TypedDict):
    """Cubes a new coal mine or ironworks sold to its market at once, and the money for them."""

    resource: Literal["coal", "iron"]
    count: int
    received: int


class LinkRef(TypedDict):
    id: str
    owner: int
    kind: Era


class Developed(TypedDict):
    industry: Industry
    level: int


class Bonus(TypedDict):
    """A merchant's bonus, given with its barrel (RULES.md §6.4)."""

    kind: Literal["income", "vp", "money", "develop"]
    amount: int  # income spaces, VP, £, or tiles developed
    develop: Industry | None  # Gloucester: the industry developed (None: declined)


class SaleEffect(TypedDict):
    location: str
    slot: int
    industry: Industry
    level: int
    merchant: str  # the merchant location sold to
    bonus: Bonus | None  # None: no merchant barrel was used


class PlayerDelta(TypedDict):
    """How a seat's figures changed (after minus before)."""

    seat: int
    money: int
    vp: int
    income_space: int
    income_level: int


class MarketChange(TypedDict):
    before: int  # cubes in the market
    after: int


# -- events ------------------------------------------------------------------------------------
class MoveEvent(TypedDict):
    """One action and everything it did. `paid` is all the money the mover paid (costs and
    market cubes), `received` all it received (cubes sold to a market, Warrington, a loan);
    `supplies` every coal, iron and beer in the order taken; `players` every seat whose money,
    VP or income changed."""

    type: Literal["move"]
    seat: int
    action: ActionJSON
    paid: int
    received: int
    supplies: list[SupplyEffect]
    placed: PlacedTile | None
    removed: list[RemovedTile]  # overbuilt
    to_market: MarketSale | None
    flipped: list[FlippedTile]
    links: list[LinkRef]
    developed: list[Developed]  # by the action and by Gloucester's bonus, in order
    sales: list[SaleEffect]
    players: list[PlayerDelta]
    coal_market: MarketChange
    iron_market: MarketChange


class DrawEvent(TypedDict):
    """End of a turn: the player drew back up to 8 (`cards`: None for anyone else)."""

    type: Literal["draw"]
    seat: int
    count: int
    cards: list[str] | None
    deck_left: int


class TurnEndEvent(TypedDict):
    """The seat's turn ended with this action (its last action, or its hand ran out): it can
    no longer be taken back. Emitted whether or not cards were drawn (`draw` is not, once the
    deck is empty), before any `round_end`."""

    type: Literal["turn_end"]
    seat: int


class Income(TypedDict):
    """One seat's income at the end of a round (RULES.md §3): `shortfall` is what it could
    not pay from its money; tiles then removed raise half their cost; `vp_lost` is the rest."""

    seat: int
    level: int
    money_before: int
    money_after: int
    shortfall: int
    removed: list[ShortfallTile]
    vp_lost: int


class RoundEndEvent(TypedDict):
    type: Literal["round_end"]
    era: Era
    round: int  # the round that ended
    spent: list[int]  # by seat, this round
    previous_order: list[int]
    turn_order: list[int]  # the new order
    income_paid: bool  # False after the last round of the game
    income: list[Income]  # by seat ([] when no income is paid)


class LinkScore(TypedDict):
    id: str
    vp: int


class TileScore(TypedDict):
    location: str
    slot: int
    industry: Industry
    level: int
    vp: int


class SeatScore(TypedDict):
    seat: int
    links: list[LinkScore]  # link by link, board order
    tiles: list[TileScore]  # flipped tiles, board order
    link_vp: int
    tile_vp: int
    vp: int  # the seat's VP after the era's scoring


class SlotRef(TypedDict):
    location: str
    slot: int


class DealtHand(TypedDict):
    seat: int
    count: int
    cards: list[str] | None  # None for anyone but that seat


class Deal(TypedDict):
    """The rail era's deal: the discards shuffled into a new deck, 8 cards each in turn
    order."""

    hands: list[DealtHand]
    deck_left: int


class EraEndEvent(TypedDict):
    """End of an era (RULES.md §9): scores link by link and tile by tile; after the canal era,
    the links and level-I tiles removed, the barrels put back, and the deal."""

    type: Literal["era_end"]
    era: Era
    scores: list[SeatScore]  # by seat
    links_removed: list[LinkRef]  # canal era only: the final board keeps its links
    removed: list[RemovedTile]  # level-I tiles (canal era only)
    merchants_refilled: list[SlotRef]
    deal: Deal | None  # None after the rail era


class Ranked(TypedDict):
    """A seat's place. `tie_break`: what set it apart from the seats with the same VP:
    "none" (no one else has its VP), "income", "money", or "shared" (equal on all three:
    it shares the rank)."""

    seat: int
    rank: int
    vp: int
    income_level: int
    money: int
    tie_break: Literal["none", "income", "money", "shared"]


class GameEndEvent(TypedDict):
    type: Literal["game_end"]
    ranking: list[Ranked]  # best first (Game.winner_order)


Event = Annotated[MoveEvent | DrawEvent | TurnEndEvent | RoundEndEvent | EraEndEvent
                  | GameEndEvent, Field(discriminator="type")]
EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)
EVENTS_ADAPTER: TypeAdapter[list[Event]] = TypeAdapter(list[Event])


# -- building them -----------------------------------------------------------------------------
def tile_ref(slot: int, tile: Tile) -> TileRef:
    s = DATA.slots[slot]
    return {"location": DATA.locations[s.location].id, "slot": s.number, "owner": tile.owner,
            "industry": tile.industry, "level": tile.level}


def removed_tile(slot: int, tile: Tile) -> RemovedTile:
    return {**tile_ref(slot, tile), "flipped": tile.flipped}


def link_ref(index: int, owner: int, era: Era) -> LinkRef:
    return {"id": DATA.links[index].id, "owner": owner,
            "kind": era}


def supply_effect(s: Supply) -> SupplyEffect:
    resource: Resource = "coal" if s.resource == "coal" else (
        "iron" if s.resource == "iron" else "beer")
    if s.source == "market":
        return {"resource": "coal" if resource == "coal" else "iron", "source": "market",
                "count": s.count, "cost": s.cost}
    assert s.slot is not None
    if s.source == "merchant":
        m = DATA.merchant_slots[s.slot]
        return {"resource": "beer", "source": "merchant", "count": s.count,
                "location": DATA.locations[m.location].id, "slot": m.number}
    t = DATA.slots[s.slot]
    assert s.owner is not None
    return {"resource": resource, "source": "tile", "count": s.count,
            "location": DATA.locations[t.location].id, "slot": t.number, "owner": s.owner}


def move_event(before: Game, action: Action, d: Draft) -> MoveEvent:
    """The `move` event of `action`, carried out on the draft `d` of `before`."""
    flipped: list[FlippedTile] = [{**tile_ref(slot, tile), "income": tile.spec.income}
                                  for slot, tile, _ in d.flips]
    event: MoveEvent = {
        "type": "move", "seat": d.seat, "action": action.to_json(),
        "paid": d.paid, "received": d.received,
        "supplies": [supply_effect(s) for s in d.supplies],
        "placed": None, "removed": [], "to_market": None, "flipped": flipped, "links": [],
        "developed": [], "sales": [], "players": player_deltas(before.players, d.players),
        "coal_market": {"before": before.coal_market, "after": d.coal_market},
        "iron_market": {"before": before.iron_market, "after": d.iron_market},
    }
    match action:
        case Build():
            _build_effect(event, before, action, d)
        case Network():
            event["links"] = [link_ref(DATA.link_index[link], d.seat, before.era)
                              for link in action.links]
        case Develop():
            event["developed"] = _developed(before, d.seat, action.industries)
        case Sell():
            _sell_effect(event, before, action, d)
    return event


def _build_effect(event: MoveEvent, before: Game, action: Build, d: Draft) -> None:
    slot = DATA.slot_index(action.location, action.slot)
    old = before.tiles[slot]
    if old is not None:
        event["removed"] = [removed_tile(slot, old)]
    tile = d.tiles[slot]
    assert tile is not None
    spec = tile.spec
    resources = spec.cubes
    if tile.industry == "brewery":
        resources = spec.barrels(before.era)
    event["placed"] = {**tile_ref(slot, tile), "resources": resources, "vp": spec.vp,
                       "income": spec.income, "link_icons": spec.link_icons}
    sold = resources - tile.resources
    if sold and tile.industry in ("coal", "iron"):
        event["to_market"] = {"resource": "coal" if tile.industry == "coal" else "iron",
                              "count": sold, "received": d.received}


def _developed(before: Game, seat: int, industries: Iterable[Industry]) -> list[Developed]:
    mat = list(before.players[seat].mat)
    out: list[Developed] = []
    for industry in industries:
        i = INDUSTRIES.index(industry)
        out.append({"industry": industry, "level": DATA.stack_list[i][mat[i]].level})
        mat[i] += 1
    return out


def _sell_effect(event: MoveEvent, before: Game, action: Sell, d: Draft) -> None:
    # Each sale ends with the flip of its goods tile; the supplies taken since the previous
    # sale's flip are this sale's beer, so a merchant barrel among them is this sale's bonus.
    sale_flips = [(slot, tile, n) for slot, tile, n in d.flips if tile.industry in GOODS]
    start = 0
    sales: list[SaleEffect] = []
    for sale, (_, tile, end) in zip(action.sales, sale_flips, strict=True):
        barrel = any(s.source == "merchant" for s in d.supplies[start:end])
        start = end
        bonus: Bonus | None = None
        if barrel:
            b = DATA.bonuses[DATA.location_index[sale.merchant]]
            kind: Literal["income", "vp", "money", "develop"] = (
                "income" if b.kind == "income" else "vp" if b.kind == "vp"
                else "money" if b.kind == "money" else "develop")
            bonus = {"kind": kind, "amount": b.amount,
                     "develop": sale.develop if kind == "develop" else None}
        sales.append({"location": sale.location, "slot": sale.slot, "industry": tile.industry,
                      "level": tile.level, "merchant": sale.merchant, "bonus": bonus})
    event["sales"] = sales
    event["developed"] = _developed(before, d.seat, [
        s["bonus"]["develop"] for s in sales
        if s["bonus"] is not None and s["bonus"]["develop"] is not None])


def player_deltas(before: Iterable[PlayerState], after: Iterable[PlayerState]) -> list[PlayerDelta]:
    """A `PlayerDelta` for every seat whose money, VP or income space changed."""
    out: list[PlayerDelta] = []
    for old, new in zip(before, after, strict=True):
        if old is new or (old.money == new.money and old.vp == new.vp
                          and old.income_space == new.income_space):
            continue
        out.append({"seat": new.seat, "money": new.money - old.money, "vp": new.vp - old.vp,
                    "income_space": new.income_space - old.income_space,
                    "income_level": new.income_level - old.income_level})
    return out


# -- what a seat may see -----------------------------------------------------------------------
def public_events(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events as `seat` (None: a spectator) may see them (RULES.md §10): another seat's
    drawn cards and rail-era hand become a count. Events are not changed: those that hide
    something are copied."""
    out: list[Event] = []
    for event in events:
        if event["type"] == "draw":
            if event["seat"] != seat and event["cards"] is not None:
                event = {**event, "cards": None}
        elif event["type"] == "era_end" and event["deal"] is not None:
            deal = event["deal"]
            hands: list[DealtHand] = [
                h if h["seat"] == seat or h["cards"] is None else {**h, "cards": None}
                for h in deal["hands"]]
            event = {**event, "deal": {"hands": hands, "deck_left": deal["deck_left"]}}
        out.append(event)
    return out
