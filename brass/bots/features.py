"""What the learned evaluation reads of a position: public facts only, per seat.

`features(game)` looks at the parts of a `Game` that every seat sees (money, VP, income, the
board's tiles and links, what is left on each mat, era and round); never a hand, the deck, a
face-down card or the seed, so a determinisation and the real game give the same numbers
(tests/engine/test_evaluation.py proves it on twin games). Each seat's row is its own facts
followed by the same facts less the best opponent's, then the game's context (era, how far
it has gone, the number of players): one row shape for 2, 3 and 4 players.
"""

from __future__ import annotations

from brass.engine import DATA, Game
from brass.engine.data import GOODS
from brass.engine.graph import graph

from .easy import ROUNDS_PER_ERA, position_value, rounds_left

SEAT_FACTS = ("vp", "money", "income", "income_to_come", "flipped_vp", "goods_vp",
              "sellable_vp", "supply_vp", "link_vp", "tiles", "links", "links_left",
              "reach", "merchant_reach", "mat_left", "spent", "easy_value",
              "actions_left", "order")
CONTEXT = ("rail", "progress", "two", "three", "four", "bias")
NAMES = (*SEAT_FACTS, *(f"lead_{f}" for f in SEAT_FACTS), *CONTEXT)
TILES_ON_MAT = sum(len(stack) for stack in DATA.stack_list)


def seat_facts(game: Game) -> list[list[float]]:
    """Each seat's public facts (`SEAT_FACTS`), each scaled to about 0..1."""
    n = game.num_players
    links = graph(game.links)
    icons = [0] * len(DATA.locations)
    for merchant in DATA.merchant_locations:
        icons[merchant] = 2
    for slot, tile in zip(DATA.slots, game.tiles, strict=True):
        if tile is not None and tile.flipped:
            icons[slot.location] += tile.spec.link_icons
    buyers = [ms.location for ms, m in zip(DATA.merchant_slots, game.merchants, strict=True)
              if m is not None and m.buys != "blank"]
    left = rounds_left(game)
    flipped = [0.0] * n
    goods = [0.0] * n
    sellable = [0.0] * n
    supply = [0.0] * n
    tiles = [0] * n
    touched: list[set[int]] = [set() for _ in range(n)]
    for slot, tile in zip(DATA.slots, game.tiles, strict=True):
        if tile is None:
            continue
        seat, spec = tile.owner, tile.spec
        tiles[seat] += 1
        touched[seat].add(slot.location)
        scorings = 1 if game.era == "rail" or tile.level == 1 else 2
        if tile.flipped:
            flipped[seat] += spec.vp * scorings
        elif tile.industry in GOODS:
            goods[seat] += spec.vp * scorings
            if any(links.connected(slot.location, b) for b in buyers):
                sellable[seat] += spec.vp * scorings
        else:
            supply[seat] += spec.vp * scorings
    link_vp = [0.0] * n
    owned = [0] * n
    for link, owner in zip(DATA.links, game.links, strict=True):
        if owner is None:
            continue
        owned[owner] += 1
        link_vp[owner] += sum(icons[end] for end in link.ends)
        touched[owner].update(link.ends)
    merchants = set(DATA.merchant_locations)
    rows = []
    for seat, p in enumerate(game.players):
        reach = {links.component[loc] for loc in touched[seat]}
        merchant_reach = sum(1 for m in merchants if links.component[m] in reach)
        rows.append([
            p.vp / 100, p.money / 50, p.income_level / 20, p.income_level * left / 150,
            flipped[seat] / 50, goods[seat] / 50, sellable[seat] / 50, supply[seat] / 50,
            link_vp[seat] / 50, tiles[seat] / 15, owned[seat] / 10, p.links_left / 14,
            len(touched[seat]) / 20, merchant_reach / len(merchants),
            (TILES_ON_MAT - sum(p.mat)) / TILES_ON_MAT, p.spent / 50,
            position_value(game, seat) / 100,
            game.actions_left / 2 if seat == game.current_seat else 0.0,
            game.turn_order.index(seat) / n if seat in game.turn_order else 1.0])
    return rows


def features(game: Game) -> list[list[float]]:
    """One row per seat (`NAMES`): its facts, its lead over the best opponent in each, and
    the game's context."""
    rows = seat_facts(game)
    per_era = ROUNDS_PER_ERA[game.num_players]
    done = (per_era if game.era == "rail" else 0) + game.round - 1
    if game.is_over:
        done = 2 * per_era
    context = [float(game.era == "rail"), done / (2 * per_era), float(game.num_players == 2),
               float(game.num_players == 3), float(game.num_players == 4), 1.0]
    out = []
    for seat, row in enumerate(rows):
        others = [r for s, r in enumerate(rows) if s != seat]
        best = [max(r[i] for r in others) for i in range(len(row))]
        out.append(row + [a - b for a, b in zip(row, best, strict=True)] + context)
    return out
