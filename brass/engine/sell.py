"""The Sell action (RULES.md §6.4): flip goods tiles at connected merchants, with beer."""

from __future__ import annotations

from functools import cache

from .actions import Sale
from .build import INDUSTRY_NAMES, tile_name
from .data import DATA, GOODS, Industry
from .develop import remove_from_mat
from .draft import Draft, Supply
from .errors import IllegalAction, Subject
from .resources import take_brewery_beer
from .state import MerchantTile, Tile


def choose_merchant_tile(d: Draft, merchant: int, good: str) -> int | None:
    """The merchant slot a sale uses: one with a barrel first, then one buying exactly that
    good before an `all` tile, then the lower slot."""
    best: tuple[bool, bool, int] | None = None
    for ms in DATA.locations[merchant].merchant_slots:
        tile = d.merchants[ms]
        if tile is None or not tile.buys_good(good):
            continue
        key = (not tile.beer, tile.buys != good, ms)
        if best is None or key < best:
            best = key
    return None if best is None else best[2]


def for_sale(tile: Tile | None, seat: int) -> bool:
    """Is `tile` one that `seat` may sell: its own goods tile (cotton, manufactured goods,
    pottery), not sold yet?"""
    return (tile is not None and tile.owner == seat and tile.industry in GOODS
            and not tile.flipped)


def sell_one(d: Draft, sale: Sale) -> None:
    loc = DATA.location_index[sale.location]
    slot_index = DATA.locations[loc].slots[sale.slot]
    merchant = DATA.location_index[sale.merchant]
    where = DATA.name(loc)
    tile = d.tiles[slot_index]
    if tile is None or tile.owner != d.seat:
        raise IllegalAction(f"You have no tile in slot {sale.slot} of {where}",
                            code="sell_no_tile", params={"location": sale.location,
                                                         "slot": sale.slot})
    if not for_sale(tile, d.seat):
        if tile.industry not in GOODS:
            raise IllegalAction(f"A {INDUSTRY_NAMES[tile.industry]} is not sold: only cotton "
                                "mills, manufacturers and potteries are",
                                code="sell_not_goods", params={"industry": tile.industry})
        raise IllegalAction(f"Your {tile_name(tile.spec)} in {where} is already sold",
                            code="sell_already_sold",
                            params={"industry": tile.industry, "level": tile.level,
                                    "location": sale.location})
    if not d.graph().connected(loc, merchant):
        raise IllegalAction(f"{where} is not connected to {DATA.name(merchant)}",
                            code="sell_not_connected",
                            params={"location": sale.location, "merchant": sale.merchant})
    ms = choose_merchant_tile(d, merchant, tile.industry)
    if ms is None:
        raise IllegalAction(f"No merchant in {DATA.name(merchant)} buys "
                            f"{INDUSTRY_NAMES[tile.industry]} goods", code="sell_no_merchant",
                            params={"merchant": sale.merchant, "industry": tile.industry})
    beer = tile.spec.beer
    merchant_tile = d.merchants[ms]
    bonus_used = False
    if beer and merchant_tile is not None and merchant_tile.beer:
        d.set_merchant(ms, MerchantTile(merchant_tile.buys, False))
        d.supplies.append(Supply("beer", "merchant", 1, ms))
        beer -= 1
        bonus_used = True
    take_brewery_beer(d, beer, (loc,), _sell_subject(tile.industry, tile.level, loc))
    if sale.develop is not None and not (bonus_used and DATA.bonuses[merchant].kind == "develop"):
        raise IllegalAction("A free develop comes only with the beer of a Gloucester merchant",
                            code="free_develop_not_gloucester")
    if bonus_used:
        _bonus(d, merchant, sale.develop)
    d.flip(slot_index)


@cache
def _sell_subject(industry: Industry, level: int, location: int) -> Subject:
    """What a sale is, in messages (made once per tile and place)."""
    spec = DATA.tile_specs[(industry, level)]
    return Subject(f"Selling your {tile_name(spec)} in {DATA.name(location)}", "sell",
                   industry=industry, level=level, location=DATA.locations[location].id)


def _bonus(d: Draft, merchant: int, develop: Industry | None) -> None:
    bonus = DATA.bonuses[merchant]
    if bonus.kind == "income":
        d.advance_income(d.seat, bonus.amount)
    elif bonus.kind == "vp":
        d.update(d.seat, vp=d.me.vp + bonus.amount)
    elif bonus.kind == "money":
        d.receive(d.seat, bonus.amount)
    elif develop is not None:
        remove_from_mat(d, develop)


def sell(d: Draft, sales: tuple[Sale, ...]) -> None:
    for sale in sales:
        sell_one(d, sale)
