"""The Build action (RULES.md §6.1): which card allows which slot, and what building does."""

from __future__ import annotations

from functools import cache

from .data import DATA, GOODS, Industry, TileSpec
from .draft import Draft
from .errors import IllegalAction, Subject
from .resources import resource_left_anywhere, take_coal, take_iron
from .state import new_tile

INDUSTRY_NAMES = {"cotton": "Cotton Mill", "manufacturer": "Manufacturer", "pottery": "Pottery",
                  "coal": "Coal Mine", "iron": "Ironworks", "brewery": "Brewery"}
ROMAN = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII")


def tile_name(spec: TileSpec) -> str:
    return f"{INDUSTRY_NAMES[spec.industry]} {ROMAN[spec.level]}"


def card_allows(card: str, industry: Industry, location: int,
                in_network: bool) -> IllegalAction | None:
    """None if `card` may build `industry` at `location`, else the reason it may not."""
    loc = DATA.locations[location]
    kind, _, what = card.partition(":")
    if loc.kind == "farm" and card not in ("industry:brewery", "wild:industry"):
        return IllegalAction(
            f"{loc.name} can be built only with a brewery card or a wild industry card",
            code="farm_needs_brewery_card", params={"location": loc.id})
    if kind == "location":
        if what != loc.id:
            town = DATA.locations[DATA.location_index[what]].name
            return IllegalAction(f"The card {card} builds only in {town}",
                                 code="card_wrong_location",
                                 params={"card": card, "location": what})
        return None
    if kind == "wild" and what == "location":
        return None  # any town: farms were refused above
    if kind == "industry" and what != industry and not (
            what == "cotton_manufacturer" and industry in ("cotton", "manufacturer")):
        return IllegalAction(f"The card {card} cannot build a {INDUSTRY_NAMES[industry]}",
                             code="card_wrong_industry",
                             params={"card": card, "industry": industry})
    if not in_network:
        return IllegalAction(f"{loc.name} is not in your network", code="not_in_network",
                             params={"location": loc.id})
    return None


@cache
def cards_allowing(industry: Industry, location: int, in_network: bool) -> frozenset[str]:
    """Every card name that may build `industry` at `location` (memoised `card_allows`)."""
    return frozenset(c for c in DATA.cards
                     if card_allows(c, industry, location, in_network) is None)


def check_target(d: Draft, industry: Industry, slot_index: int) -> TileSpec:
    """Everything about a build except the card and the price; returns the tile to build."""
    slot = DATA.slots[slot_index]
    loc = DATA.locations[slot.location]
    me = d.me
    if industry not in slot.accepts:
        raise IllegalAction(f"Slot {slot.number} in {loc.name} does not take a "
                            f"{INDUSTRY_NAMES[industry]}", code="slot_wrong_industry",
                            params={"location": loc.id, "slot": slot.number,
                                    "industry": industry})
    spec = me.next_tile(industry)
    if spec is None:
        raise IllegalAction(f"You have no {INDUSTRY_NAMES[industry]} tiles left",
                            code="no_tiles_left", params={"industry": industry})
    if not spec.allowed_in(d.era):
        when = "canal" if spec.era == "canal" else "rail"
        raise IllegalAction(f"{tile_name(spec)} can be built only in the {when} era"
                            + (" (develop it away first)" if d.era == "rail" else ""),
                            code="tile_wrong_era",
                            params={"industry": industry, "level": spec.level, "era": when,
                                    "now": d.era})
    old = d.tiles[slot_index]
    if len(slot.accepts) == 2:  # the rule speaks of any build, overbuilds included
        for other in loc.slots:
            if (d.tiles[other] is None and DATA.slots[other].accepts == (industry,)):
                raise IllegalAction(
                    f"{loc.name} has an empty slot for only a {INDUSTRY_NAMES[industry]}: "
                    "build there first", code="single_slot_first",
                    params={"location": loc.id, "industry": industry})
    if old is not None:
        if old.industry != industry or old.level >= spec.level:
            raise IllegalAction(
                f"Slot {slot.number} in {loc.name} holds a {tile_name(old.spec)}; you can only "
                f"overbuild a tile of the same industry with a lower level",
                code="overbuild_level", params={"location": loc.id, "slot": slot.number,
                                                "industry": old.industry, "level": old.level})
        if old.owner != d.seat:
            if industry not in ("coal", "iron"):
                raise IllegalAction("You can overbuild an opponent's tile only if it is a coal "
                                    "mine or an ironworks", code="overbuild_opponent_industry")
            if resource_left_anywhere(d, industry):
                what = "coal" if industry == "coal" else "iron"
                raise IllegalAction(f"You can overbuild an opponent's {INDUSTRY_NAMES[industry]} "
                                    f"only when no {what} is left on the board or in the market",
                                    code="overbuild_opponent_resources",
                                    params={"industry": industry})
    if d.era == "canal":
        for other in loc.slots:
            tile = d.tiles[other]
            if other != slot_index and tile is not None and tile.owner == d.seat:
                raise IllegalAction(f"In the canal era you may have only one tile in {loc.name}",
                                    code="canal_one_tile_per_town", params={"location": loc.id})
    return spec


def build(d: Draft, card: str, industry: Industry, slot_index: int) -> None:
    slot = DATA.slots[slot_index]
    if card not in cards_allowing(industry, slot.location, False):  # then the network counts
        loc_network = d.network(d.seat)
        in_network = loc_network is None or slot.location in loc_network
        reason = card_allows(card, industry, slot.location, in_network)
        if reason:
            raise reason
    place(d, industry, slot_index, check_target(d, industry, slot_index))


@cache
def _build_subject(industry: Industry, level: int, location: int) -> Subject:
    """What a build is, in messages (made once per tile and place)."""
    spec = DATA.tile_specs[(industry, level)]
    return Subject(f"{tile_name(spec)} in {DATA.name(location)}", "build",
                   industry=industry, level=level, location=DATA.locations[location].id)


def place(d: Draft, industry: Industry, slot_index: int, spec: TileSpec) -> None:
    """Pay for `spec` and put it on the slot (the checks are done)."""
    slot = DATA.slots[slot_index]
    what = _build_subject(spec.industry, spec.level, slot.location)
    if d.me.money < spec.cost:
        raise IllegalAction(f"{what} costs £{spec.cost}, and you have only £{d.me.money}",
                            code="build_money", params={"subject": what.as_param(),
                                                        "cost": spec.cost, "money": d.me.money})
    d.pay(spec.cost)
    take_coal(d, (slot.location,), spec.coal, what)
    take_iron(d, spec.iron)
    d.check_affordable(what)
    old = d.tiles[slot_index]
    if old is not None:
        d.update(old.owner, retired=d.players[old.owner].retired + 1)
    d.take_from_mat(d.seat, industry, retire=False)
    resources = spec.cubes
    if industry == "brewery":
        resources = spec.barrels(d.era)
    d.set_tile(slot_index, new_tile(d.seat, industry, spec.level, False, resources))
    if industry == "coal" and d.graph().connected_to_merchant(slot.location):
        _sell_to_market(d, slot_index, "coal")
    elif industry == "iron":
        _sell_to_market(d, slot_index, "iron")
    if industry in GOODS:
        return
    tile = d.tiles[slot_index]
    if tile is not None and tile.resources == 0 and not tile.flipped:
        d.flip(slot_index)


def _sell_to_market(d: Draft, slot_index: int, resource: str) -> None:
    tile = d.tiles[slot_index]
    assert tile is not None
    if resource == "coal":
        sold, money = DATA.coal_market.sell(d.coal_market, tile.resources)
        d.coal_market += sold
    else:
        sold, money = DATA.iron_market.sell(d.iron_market, tile.resources)
        d.iron_market += sold
    if sold:
        d.set_tile(slot_index, new_tile(tile.owner, tile.industry, tile.level, False,
                                        tile.resources - sold))
        d.receive(d.seat, money)
