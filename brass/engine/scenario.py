"""Building positions directly, for rules tests, puzzles and bug reports.

A rules test starts from a fixed `setup` (see `new_game`) and then places what the scenario
needs with these helpers instead of playing dozens of actions to get there. They return new
games, like everything else in the engine, and check ids as actions do.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .data import DATA, INDUSTRIES, Industry
from .state import Game, MerchantTile, Tile


def with_tile(game: Game, location: str, slot: int, owner: int, industry: Industry, level: int,
              flipped: bool = False, resources: int | None = None,
              from_mat: bool = True) -> Game:
    """Put a tile on the board. `resources` defaults to the tile's cubes (coal, iron) or its
    barrels for the game's era (brewery), 0 once flipped. With `from_mat` the owner's mat
    gives up tiles of that industry up to that level, so the mat stays consistent."""
    spec = DATA.tile_specs[(industry, level)]
    if resources is None:
        barrels = spec.barrels(game.era)
        resources = 0 if flipped else (barrels if industry == "brewery" else spec.cubes)
    index = DATA.slot_index(location, slot)
    tiles = list(game.tiles)
    tiles[index] = Tile(owner, industry, level, flipped, resources)
    game = replace(game, tiles=tuple(tiles))
    if from_mat:
        player = game.players[owner]
        i = INDUSTRIES.index(industry)
        stack = DATA.stack_list[i]
        taken = player.mat[i]
        while taken < len(stack) and stack[taken].level < level:
            taken += 1
        taken = min(taken + 1, len(stack))
        retired = player.retired + max(0, taken - player.mat[i] - 1)
        game = with_player(game, owner, mat=player.mat[:i] + (taken,) + player.mat[i + 1:],
                           retired=retired)
    return game


def without_tile(game: Game, location: str, slot: int) -> Game:
    tiles = list(game.tiles)
    tiles[DATA.slot_index(location, slot)] = None
    return replace(game, tiles=tuple(tiles))


def with_link(game: Game, link: str, owner: int) -> Game:
    links = list(game.links)
    links[DATA.link_index[link]] = owner
    player = game.players[owner]
    game = with_player(game, owner, links_left=player.links_left - 1)
    return replace(game, links=tuple(links))


def with_player(game: Game, seat: int, **changes: Any) -> Game:
    """Change a player's fields (money, vp, income_space, spent, hand, mat, ...)."""
    if "hand" in changes:
        changes["hand"] = tuple(changes["hand"])
    players = list(game.players)
    players[seat] = replace(players[seat], **changes)
    return replace(game, players=tuple(players))


def with_markets(game: Game, coal: int | None = None, iron: int | None = None) -> Game:
    return replace(game, coal_market=game.coal_market if coal is None else coal,
                   iron_market=game.iron_market if iron is None else iron)


def with_merchant_beer(game: Game, location: str, slot: int, beer: bool) -> Game:
    merchants = list(game.merchants)
    index = DATA.merchant_slot_index(location, slot)
    tile = merchants[index]
    assert tile is not None, f"no merchant tile in {location} slot {slot}"
    merchants[index] = MerchantTile(tile.buys, beer)
    return replace(game, merchants=tuple(merchants))


def with_turn(game: Game, **changes: Any) -> Game:
    """Change era, round, turn_order, turn_index, actions_left, deck, wild piles..."""
    for key in ("turn_order", "deck"):
        if key in changes:
            changes[key] = tuple(changes[key])
    return replace(game, **changes)
