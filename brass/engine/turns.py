"""Turns, rounds and eras (RULES.md §3, §9): what happens after an action is carried out.

Each step appends its event (effects.py) to `events` when a list is given (`play`), in the
order the steps happen: draw, round end, era end, game end.
"""

from __future__ import annotations

import random
from typing import Literal

from .data import DATA
from .effects import (
    DealtHand,
    Event,
    Income,
    LinkScore,
    Ranked,
    SeatScore,
    ShortfallTile,
    SlotRef,
    TileScore,
    link_ref,
    removed_tile,
    tile_ref,
)
from .state import Game, MerchantTile, PlayerState, Tile, evolve_game, evolve_player

Events = list[Event] | None

HAND_SIZE = int(DATA.rules["hand_size"])
LINK_TILES = int(DATA.rules["link_tiles"])
MERCHANT_LINK_ICONS = int(DATA.rules["merchant_link_icons"])


def actions_per_turn(era: str, round_number: int) -> int:
    key = "first_round_actions" if (era, round_number) == ("canal", 1) else "actions_per_turn"
    return int(DATA.rules[key])


def turn_over(game: Game, events: Events = None) -> Game:
    """After an action (already counted in `game`: `Draft.freeze(counted=True)`): end the
    turn, round and era when they are over."""
    seat = game.turn_order[game.turn_index]
    if game.actions_left > 0 and game.players[seat].hand:
        return game
    players, deck = _draw(game, seat, events)
    # the next seat: a player with no cards is skipped
    index = game.turn_index + 1
    while index < game.num_players and not players[game.turn_order[index]].hand:
        index += 1
    if index < game.num_players:
        return evolve_game(game, players=players, deck=deck, turn_index=index,
                           actions_left=actions_per_turn(game.era, game.round))
    return _end_round(evolve_game(game, players=players, deck=deck), events)


def _draw(game: Game, seat: int, events: Events) -> tuple[tuple[PlayerState, ...],
                                                           tuple[str, ...]]:
    """The players and the deck once `seat` has drawn up to a full hand."""
    player = game.players[seat]
    n = min(HAND_SIZE - len(player.hand), len(game.deck))
    if n <= 0:
        return game.players, game.deck
    players = list(game.players)
    drawn = game.deck[:n]
    players[seat] = evolve_player(player, hand=player.hand + drawn)
    if events is not None:
        events.append({"type": "draw", "seat": seat, "count": n, "cards": list(drawn),
                       "deck_left": len(game.deck) - n})
    return tuple(players), game.deck[n:]


def _end_round(game: Game, events: Events) -> Game:
    order = tuple(sorted(game.turn_order, key=lambda s: game.players[s].spent))
    era_over = not game.deck and not any(p.hand for p in game.players)
    tiles = list(game.tiles)
    paid = not (era_over and game.era == "rail")  # no income after the last round of the game
    income: list[Income] = []
    if paid:  # and each seat's spending starts again from 0
        players = [_pay_income(player, tiles, income) for player in game.players]
    else:
        players = [evolve_player(p, spent=0) for p in game.players]
    if events is not None:
        events.append({"type": "round_end", "era": _era(game.era), "round": game.round,
                       "spent": [p.spent for p in game.players],
                       "previous_order": list(game.turn_order), "turn_order": list(order),
                       "income_paid": paid, "income": income})
    if era_over:
        return _end_era(evolve_game(game, turn_order=order, players=tuple(players),
                                    tiles=tuple(tiles)), events)
    round_number = game.round + 1
    return evolve_game(game, turn_order=order, players=tuple(players), tiles=tuple(tiles),
                       round=round_number, turn_index=0,
                       actions_left=actions_per_turn(game.era, round_number))


def _pay_income(player: PlayerState, tiles: list[Tile | None], out: list[Income]) -> PlayerState:
    """Income (RULES.md §3 step 2), and shortfall tile removal and VP loss (step 3); the
    player's spending is set back to 0."""
    level = player.income_level
    paid: Income = {"seat": player.seat, "level": level, "money_before": player.money,
                    "money_after": player.money + level, "shortfall": 0, "removed": [],
                    "vp_lost": 0}
    out.append(paid)
    if level >= 0 or player.money >= -level:
        return evolve_player(player, money=player.money + level, spent=0)
    owed = -level - player.money
    paid["shortfall"] = owed
    mine = sorted((t.spec.cost, t.level, slot) for slot, t in enumerate(tiles)
                  if t is not None and t.owner == player.seat)
    removed: list[ShortfallTile] = []
    for cost, _, slot in mine:
        if owed <= 0:
            break
        tile = tiles[slot]
        assert tile is not None
        removed.append({**tile_ref(slot, tile), "raised": cost // 2})
        tiles[slot] = None
        owed -= cost // 2
    vp = max(player.vp - owed, 0) if owed > 0 else player.vp
    paid["money_after"], paid["removed"], paid["vp_lost"] = max(-owed, 0), removed, player.vp - vp
    return evolve_player(player, money=max(-owed, 0), vp=vp, retired=player.retired + len(removed),
                         spent=0)


def era_scores(game: Game) -> list[SeatScore]:
    """The era's scores by seat, link by link and tile by tile (RULES.md §9 steps 1-2);
    `vp` is each seat's VP with them added."""
    icons = [0] * len(DATA.locations)
    for m in DATA.merchant_locations:
        icons[m] = MERCHANT_LINK_ICONS
    for spec, tile in zip(DATA.slots, game.tiles, strict=True):
        if tile is not None and tile.flipped:
            icons[spec.location] += tile.spec.link_icons
    links: list[list[LinkScore]] = [[] for _ in game.players]
    for link, owner in zip(DATA.links, game.links, strict=True):
        if owner is not None:
            links[owner].append({"id": link.id, "vp": sum(icons[e] for e in link.ends)})
    tiles: list[list[TileScore]] = [[] for _ in game.players]
    for slot, tile in enumerate(game.tiles):
        if tile is not None and tile.flipped:
            ref = tile_ref(slot, tile)
            tiles[tile.owner].append({"location": ref["location"], "slot": ref["slot"],
                                      "industry": tile.industry, "level": tile.level,
                                      "vp": tile.spec.vp})
    out: list[SeatScore] = []
    for p in game.players:
        link_vp = sum(s["vp"] for s in links[p.seat])
        tile_vp = sum(s["vp"] for s in tiles[p.seat])
        out.append({"seat": p.seat, "links": links[p.seat], "tiles": tiles[p.seat],
                    "link_vp": link_vp, "tile_vp": tile_vp, "vp": p.vp + link_vp + tile_vp})
    return out


def _end_era(game: Game, events: Events) -> Game:
    scores = era_scores(game)
    players = [evolve_player(p, vp=scores[p.seat]["vp"]) for p in game.players]
    game = evolve_game(game, players=tuple(players), era_scores=(
        *game.era_scores, tuple((s["link_vp"], s["tile_vp"]) for s in scores)))
    if game.era == "rail":  # the game ends: the final board keeps its links and tiles
        game = evolve_game(game, is_over=True, actions_left=0)
        if events is not None:
            events.append({"type": "era_end", "era": "rail", "scores": scores,
                           "links_removed": [], "removed": [], "merchants_refilled": [],
                           "deal": None})
            events.append({"type": "game_end", "ranking": ranking(game)})
        return game
    return _start_rail_era(game, events, scores)


def _start_rail_era(game: Game, events: Events, scores: list[SeatScore]) -> Game:
    links_removed = [link_ref(i, owner, game.era) for i, owner in enumerate(game.links)
                     if owner is not None]
    tiles = list(game.tiles)
    players = list(game.players)
    removed = []
    for slot, tile in enumerate(tiles):
        if tile is not None and tile.level == 1:
            removed.append(removed_tile(slot, tile))
            tiles[slot] = None
            players[tile.owner] = evolve_player(players[tile.owner],
                                                retired=players[tile.owner].retired + 1)
    refilled: list[SlotRef] = [
        {"location": DATA.locations[DATA.merchant_slots[i].location].id,
         "slot": DATA.merchant_slots[i].number}
        for i, m in enumerate(game.merchants)
        if m is not None and m.buys != "blank" and not m.beer]
    merchants = tuple(None if m is None else MerchantTile(m.buys, m.buys != "blank")
                      for m in game.merchants)
    deck = list(game.rail_deck) if game.rail_deck is not None else rail_shuffle(game)
    hands: list[DealtHand] = []
    for seat in game.turn_order:
        hand = tuple(deck[:HAND_SIZE])
        players[seat] = evolve_player(players[seat], hand=hand, discard=(),
                                face_down=(), links_left=LINK_TILES)
        hands.append({"seat": seat, "count": len(hand), "cards": list(hand)})
        deck = deck[HAND_SIZE:]
    if events is not None:
        events.append({"type": "era_end", "era": "canal", "scores": scores,
                       "links_removed": links_removed, "removed": removed,
                       "merchants_refilled": refilled,
                       "deal": {"hands": hands, "deck_left": len(deck)}})
    return evolve_game(game, era="rail", round=1, turn_index=0,
                   actions_left=actions_per_turn("rail", 1),
                   players=tuple(players), tiles=tuple(tiles), merchants=merchants,
                   links=(None,) * len(DATA.links), deck=tuple(deck))


def rail_shuffle(game: Game) -> list[str]:
    """All discards (face-down cards included), shuffled by the game's seed."""
    cards = sorted(c for p in game.players for c in (*p.discard, *p.face_down))
    random.Random(f"{game.seed}:rail").shuffle(cards)
    return cards


def ranking(game: Game) -> list[Ranked]:
    """The final places, best first (`Game.winner_order`, `Game.ranks()`), each with the
    tie-break that set the seat apart from those with the same VP (RULES.md §1)."""
    ranks = game.ranks()
    keys = [(p.vp, p.income_level, p.money) for p in game.players]
    out: list[Ranked] = []
    for seat in game.winner_order:
        vp, income, money = keys[seat]
        same_vp = [k for s, k in enumerate(keys) if s != seat and k[0] == vp]
        tie: Literal["none", "income", "money", "shared"] = "none"
        if any(k[1:] == (income, money) for k in same_vp):
            tie = "shared"
        elif any(k[1] == income for k in same_vp):
            tie = "money"
        elif same_vp:
            tie = "income"
        out.append({"seat": seat, "rank": ranks[seat], "vp": vp, "income_level": income,
                    "money": money, "tie_break": tie})
    return out


def _era(era: str) -> Literal["canal", "rail"]:
    return "canal" if era == "canal" else "rail"
