"""Where coal, iron and beer come from: the server's fixed choices of RULES.md §7.

Each function takes what is needed from a `Draft`, records every `Supply`, and raises
`IllegalAction` (saying what is missing and why) when it cannot be found.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .data import DATA, INDUSTRIES
from .draft import Draft, Supply
from .errors import IllegalAction, Subject
from .state import Tile, constructor


def _names(locations: Sequence[int]) -> str:
    return " or ".join(DATA.name(loc) for loc in locations)


def _ids(locations: Sequence[int]) -> list[str]:
    return [DATA.locations[loc].id for loc in locations]


# Each build slot's location.
SLOT_LOCATION: tuple[int, ...] = tuple(s.location for s in DATA.slots)
# By industry: the slots that take it, in board order (the only ones its tiles can be on).
SLOTS_OF: dict[str, tuple[int, ...]] = {
    industry: tuple(s.index for s in DATA.slots if industry in s.accepts)
    for industry in INDUSTRIES}
_COAL_SLOTS, _IRON_SLOTS, _BREWERY_SLOTS = SLOTS_OF["coal"], SLOTS_OF["iron"], SLOTS_OF["brewery"]


def _owner(tiles: Sequence[Tile | None], slot: int) -> int:
    tile = tiles[slot]
    assert tile is not None
    return tile.owner


def take_coal(d: Draft, at: Sequence[int], amount: int, purpose: Subject) -> None:
    """Coal for a build at `at[0]` or a rail link touching `at`: connected mines nearest first
    (your own first at equal distance, then board order), then the market if connected to a
    merchant location."""
    if amount <= 0:
        return
    g = d.graph()
    component = g.component
    areas = {component[a] for a in at}
    tiles = d.tiles
    mines = [slot for slot in _COAL_SLOTS
             if (tile := tiles[slot]) is not None and tile.industry == "coal" and tile.resources
             and component[SLOT_LOCATION[slot]] in areas]
    if len(mines) > 1:  # only then are the distances needed
        dist = g.distances_from(tuple(at))
        seat = d.seat
        mines.sort(key=lambda slot: (dist[SLOT_LOCATION[slot]], _owner(tiles, slot) != seat,
                                     slot))
    amount = _take_in_order(d, "coal", mines, amount)
    if amount == 0:
        return
    if not any(g.connected_to_merchant(a) for a in at):
        raise IllegalAction(
            f"{purpose} needs {amount} more coal, and no coal mine with coal or merchant "
            f"is connected to {_names(at)}", code="coal_missing",
            params={"subject": purpose.as_param(), "amount": amount, "at": _ids(at)})
    _buy(d, "coal", amount)


def take_iron(d: Draft, amount: int) -> None:
    """Iron (no connection needed): ironworks with cubes, your own first then board order,
    then the market."""
    if amount <= 0:
        return
    tiles = d.tiles
    works = [slot for slot in _IRON_SLOTS
             if (tile := tiles[slot]) is not None and tile.industry == "iron" and tile.resources]
    if len(works) > 1:  # your own first (the sort keeps board order)
        seat = d.seat
        works.sort(key=lambda slot: _owner(tiles, slot) != seat)
    amount = _take_in_order(d, "iron", works, amount)
    if amount:
        _buy(d, "iron", amount)


# Supply(resource, source, count, slot, owner, cost), fast: every coal, iron and beer taken
_supply: Callable[[str, str, int, int | None, int | None, int], Supply] = constructor(Supply)


def _take_in_order(d: Draft, resource: str, slots: list[int], amount: int) -> int:
    """Take up to `amount` cubes or barrels from the tiles in `slots`, in that order; what is
    still missing."""
    for slot in slots:
        if amount == 0:
            break
        tile = d.tiles[slot]
        assert tile is not None
        n = min(amount, tile.resources)
        d.take_from_tile(slot, n)
        d.supplies.append(_supply(resource, "tile", n, slot, tile.owner, 0))
        amount -= n
    return amount


def _buy(d: Draft, resource: str, amount: int) -> None:
    if resource == "coal":
        cost = DATA.coal_market.buy_cost(d.coal_market, amount)
        d.coal_market = max(d.coal_market - amount, 0)
    else:
        cost = DATA.iron_market.buy_cost(d.iron_market, amount)
        d.iron_market = max(d.iron_market - amount, 0)
    d.pay(cost)
    d.supplies.append(_supply(resource, "market", amount, None, None, cost))


def take_brewery_beer(d: Draft, amount: int, at: Sequence[int], purpose: Subject) -> None:
    """Beer from breweries: your own anywhere (board order), then opponents' breweries
    connected to `at` (nearest first, then board order)."""
    if amount <= 0:
        return
    own: list[int] = []
    others: list[int] = []
    g = d.graph()
    areas = {g.component[a] for a in at}
    own_beer = 0
    tiles = d.tiles
    for slot in _BREWERY_SLOTS:
        tile = tiles[slot]
        if tile is None or tile.industry != "brewery" or tile.resources == 0:
            continue
        if tile.owner == d.seat:
            own.append(slot)
            own_beer += tile.resources
        elif g.component[SLOT_LOCATION[slot]] in areas:
            others.append(slot)
    if len(others) > 1 and own_beer < amount:  # nearest first, when they are needed
        dist = g.distances_from(tuple(at))
        others.sort(key=lambda slot: (dist[SLOT_LOCATION[slot]], slot))
    amount = _take_in_order(d, "beer", own + others, amount)
    if amount:
        raise IllegalAction(
            f"{purpose} needs {amount} more beer, and you have no brewery with beer and no "
            f"opponent's brewery with beer is connected to {_names(at)}", code="beer_missing",
            params={"subject": purpose.as_param(), "amount": amount, "at": _ids(at)})


def resource_left_anywhere(d: Draft, industry: str) -> bool:
    """Is any cube of coal (industry 'coal') or iron ('iron') left on the board or market?"""
    market = d.coal_market if industry == "coal" else d.iron_market
    tiles = d.tiles
    return market > 0 or any((t := tiles[slot]) is not None and t.industry == industry
                             and t.resources > 0 for slot in SLOTS_OF[industry])
