"""Turns, rounds and eras (RULES.md §3, §9): what happens after an action is carried out."""

from __future__ import annotations

import random
from dataclasses import replace

from .data import DATA
from .state import Game, MerchantTile, PlayerState, Tile

HAND_SIZE = int(DATA.rules["hand_size"])
LINK_TILES = int(DATA.rules["link_tiles"])
MERCHANT_LINK_ICONS = int(DATA.rules["merchant_link_icons"])


def actions_per_turn(era: str, round_number: int) -> int:
    key = "first_round_actions" if (era, round_number) == ("canal", 1) else "actions_per_turn"
    return int(DATA.rules[key])


def finish_action(game: Game) -> Game:
    """Count the action just carried out; end the turn, round and era when they are over."""
    game = replace(game, actions_left=game.actions_left - 1, action_count=game.action_count + 1)
    seat = game.turn_order[game.turn_index]
    if game.actions_left > 0 and game.players[seat].hand:
        return game
    return _next_turn(_draw(game, seat))


def _draw(game: Game, seat: int) -> Game:
    player = game.players[seat]
    n = min(HAND_SIZE - len(player.hand), len(game.deck))
    if n <= 0:
        return game
    players = list(game.players)
    players[seat] = replace(player, hand=player.hand + game.deck[:n])
    return replace(game, players=tuple(players), deck=game.deck[n:])


def _next_turn(game: Game) -> Game:
    index = game.turn_index + 1
    while index < game.num_players and not game.players[game.turn_order[index]].hand:
        index += 1  # a player with no cards is skipped
    if index < game.num_players:
        return replace(game, turn_index=index, actions_left=actions_per_turn(game.era, game.round))
    return _end_round(game)


def _end_round(game: Game) -> Game:
    order = tuple(sorted(game.turn_order, key=lambda s: game.players[s].spent))
    players = [replace(p, spent=0) for p in game.players]
    era_over = not game.deck and not any(p.hand for p in game.players)
    tiles = list(game.tiles)
    if not (era_over and game.era == "rail"):  # no income after the last round of the game
        for seat, player in enumerate(players):
            players[seat] = _pay_income(player, tiles)
    game = replace(game, turn_order=order, players=tuple(players), tiles=tuple(tiles))
    if era_over:
        return _end_era(game)
    round_number = game.round + 1
    return replace(game, round=round_number, turn_index=0,
                   actions_left=actions_per_turn(game.era, round_number))


def _pay_income(player: PlayerState, tiles: list[Tile | None]) -> PlayerState:
    """Income (RULES.md §3 step 2), and shortfall tile removal and VP loss (step 3)."""
    level = player.income_level
    if level >= 0 or player.money >= -level:
        return replace(player, money=player.money + level)
    owed = -level - player.money
    mine = sorted((t.spec.cost, t.level, slot) for slot, t in enumerate(tiles)
                  if t is not None and t.owner == player.seat)
    removed = 0
    for cost, _, slot in mine:
        if owed <= 0:
            break
        tiles[slot] = None
        removed += 1
        owed -= cost // 2
    vp = max(player.vp - owed, 0) if owed > 0 else player.vp
    return replace(player, money=max(-owed, 0), vp=vp, retired=player.retired + removed)


def era_score(game: Game) -> list[tuple[int, int]]:
    """(link VP, industry VP) by seat for the era ending now (RULES.md §9 steps 1-2)."""
    icons = [0] * len(DATA.locations)
    for m in DATA.merchant_locations:
        icons[m] = MERCHANT_LINK_ICONS
    for slot, tile in zip(DATA.slots, game.tiles, strict=True):
        if tile is not None and tile.flipped:
            icons[slot.location] += tile.spec.link_icons
    score = [[0, 0] for _ in game.players]
    for link, owner in zip(DATA.links, game.links, strict=True):
        if owner is not None:
            score[owner][0] += sum(icons[e] for e in link.ends)
    for tile in game.tiles:
        if tile is not None and tile.flipped:
            score[tile.owner][1] += tile.spec.vp
    return [(a, b) for a, b in score]


def _end_era(game: Game) -> Game:
    score = era_score(game)
    players = [replace(p, vp=p.vp + score[p.seat][0] + score[p.seat][1]) for p in game.players]
    game = replace(game, players=tuple(players), era_scores=(*game.era_scores, tuple(score)))
    if game.era == "rail":
        return replace(game, is_over=True, actions_left=0)
    return _start_rail_era(game)


def _start_rail_era(game: Game) -> Game:
    tiles = list(game.tiles)
    players = list(game.players)
    for slot, tile in enumerate(tiles):
        if tile is not None and tile.level == 1:
            tiles[slot] = None
            players[tile.owner] = replace(players[tile.owner],
                                          retired=players[tile.owner].retired + 1)
    merchants = tuple(None if m is None else MerchantTile(m.buys, m.buys != "blank")
                      for m in game.merchants)
    deck = list(game.rail_deck) if game.rail_deck is not None else rail_shuffle(game)
    for seat in game.turn_order:
        players[seat] = replace(players[seat], hand=tuple(deck[:HAND_SIZE]), discard=(),
                                face_down=(), links_left=LINK_TILES)
        deck = deck[HAND_SIZE:]
    return replace(game, era="rail", round=1, turn_index=0,
                   actions_left=actions_per_turn("rail", 1),
                   players=tuple(players), tiles=tuple(tiles), merchants=merchants,
                   links=(None,) * len(DATA.links), deck=tuple(deck))


def rail_shuffle(game: Game) -> list[str]:
    """All discards (face-down cards included), shuffled by the game's seed."""
    cards = sorted(c for p in game.players for c in (*p.discard, *p.face_down))
    random.Random(f"{game.seed}:rail").shuffle(cards)
    return cards
