"""Turns, rounds and eras (RULES.md §3, §9): what happens after an action is carried out.

The steps change the `Draft` the action was carried out on. Each appends its event
(effects.py) to `events` when a list is given (`play`), in the order the steps happen: draw,
turn end, round end, era end, game end.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Literal

from .data import DATA, Era
from .draft import Draft
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
from .resources import SLOT_LOCATION
from .state import Game, MerchantTile, PlayerState

Events = list[Event] | None

HAND_SIZE = int(DATA.rules["hand_size"])
LINK_TILES = int(DATA.rules["link_tiles"])
MERCHANT_LINK_ICONS = int(DATA.rules["merchant_link_icons"])


_FIRST_ROUND_ACTIONS = int(DATA.rules["first_round_actions"])
_ACTIONS_PER_TURN = int(DATA.rules["actions_per_turn"])


def actions_per_turn(era: Era, round_number: int) -> int:
    return _FIRST_ROUND_ACTIONS if round_number == 1 and era == "canal" else _ACTIONS_PER_TURN


def turn_over(d: Draft, events: Events = None) -> None:
    """After an action carried out on `d`: count it, then end the turn, round and era when
    they are over."""
    d.actions_left -= 1
    d.action_count += 1
    seat = d.seat
    players = d.players
    if d.actions_left > 0 and players[seat].hand:
        return
    _draw(d, seat, events)
    if events is not None:
        events.append({"type": "turn_end", "seat": seat})
    # the next seat: a player with no cards is skipped
    order = d.turn_order
    index = d.turn_index + 1
    while index < len(order) and not players[order[index]].hand:
        index += 1
    if index < len(order):
        d.turn_index = index
        d.actions_left = actions_per_turn(d.era, d.round)
        return
    _end_round(d, events)


def _draw(d: Draft, seat: int, events: Events) -> None:
    """`seat` draws up to a full hand."""
    player = d.players[seat]
    deck = d.deck
    n = min(HAND_SIZE - len(player.hand), len(deck))
    if n <= 0:
        return
    drawn = deck[:n]
    d.update_hand(seat, player.hand + drawn)
    d.deck = deck[n:]
    if events is not None:
        events.append({"type": "draw", "seat": seat, "count": n, "cards": list(drawn),
                       "deck_left": len(deck) - n})


def _end_round(d: Draft, events: Events) -> None:
    players = d.players
    before = d.turn_order
    spent = [p.spent for p in players]
    order = tuple(sorted(before, key=spent.__getitem__))
    era_over = not d.deck and not any(p.hand for p in players)
    paid = not (era_over and d.era == "rail")  # no income after the last round of the game
    income: list[Income] | None = [] if events is not None else None
    for seat in range(len(players)):  # and each seat's spending starts again from 0
        if paid:
            _pay_income(d, seat, income)
        else:
            d.update(seat, spent=0)
    if events is not None and income is not None:
        events.append({"type": "round_end", "era": d.era, "round": d.round,
                       "spent": spent, "previous_order": list(before), "turn_order": list(order),
                       "income_paid": paid, "income": income})
    d.turn_order = order
    if era_over:
        _end_era(d, events)
        return
    d.round += 1
    d.turn_index = 0
    d.actions_left = actions_per_turn(d.era, d.round)


def _pay_income(d: Draft, seat: int, out: list[Income] | None) -> None:
    """Income (RULES.md §3 step 2), and shortfall tile removal and VP loss (step 3); the
    player's spending is set back to 0."""
    player = d.players[seat]
    level = player.income_level
    money = player.money
    if level >= 0 or money >= -level:
        d.update_money_spent(seat, money + level, 0)
        if out is not None:
            out.append({"seat": seat, "level": level, "money_before": money,
                        "money_after": money + level, "shortfall": 0, "removed": [],
                        "vp_lost": 0})
        return
    owed = shortfall = -level - money
    tiles = d.tiles
    mine = sorted([(t.spec.cost, t.level, slot) for slot, t in enumerate(tiles)
                   if t is not None and t.owner == seat])
    removed: list[ShortfallTile] = []
    for cost, _, slot in mine:
        if owed <= 0:
            break
        tile = tiles[slot]
        assert tile is not None
        removed.append({**tile_ref(slot, tile), "raised": cost // 2})
        d.set_tile(slot, None)
        owed -= cost // 2
    vp = max(player.vp - owed, 0) if owed > 0 else player.vp
    if out is not None:
        out.append({"seat": seat, "level": level, "money_before": money,
                    "money_after": max(-owed, 0), "shortfall": shortfall, "removed": removed,
                    "vp_lost": player.vp - vp})
    d.update(seat, money=max(-owed, 0), vp=vp, retired=player.retired + len(removed), spent=0)


# Link icons by location before any tile is flipped (the merchants'), and each link's id and
# ends, in board order.
_MERCHANT_ICONS = tuple(MERCHANT_LINK_ICONS if loc.kind == "merchant" else 0
                        for loc in DATA.locations)
_LINK_ENDS = tuple((link.id, link.ends) for link in DATA.links)


def era_scores(d: Draft, detailed: bool = True) -> list[SeatScore]:
    """The era's scores by seat, link by link and tile by tile (RULES.md §9 steps 1-2);
    `vp` is each seat's VP with them added. Not `detailed`: the lists of links and tiles
    are left empty (the sums are the same)."""
    icons = list(_MERCHANT_ICONS)
    flipped = [(slot, tile) for slot, tile in enumerate(d.tiles)
               if tile is not None and tile.flipped]
    for slot, tile in flipped:
        icons[SLOT_LOCATION[slot]] += tile.spec.link_icons
    seats = range(len(d.players))
    link_vp, tile_vp = [0 for _ in seats], [0 for _ in seats]
    links: list[list[LinkScore]] = [[] for _ in seats]
    tiles: list[list[TileScore]] = [[] for _ in seats]
    for (link, ends), owner in zip(_LINK_ENDS, d.links, strict=True):
        if owner is not None:
            vp = sum(map(icons.__getitem__, ends))
            link_vp[owner] += vp
            if detailed:
                links[owner].append({"id": link, "vp": vp})
    for slot, tile in flipped:
        vp = tile.spec.vp
        tile_vp[tile.owner] += vp
        if detailed:
            ref = tile_ref(slot, tile)
            tiles[tile.owner].append({"location": ref["location"], "slot": ref["slot"],
                                      "industry": tile.industry, "level": tile.level, "vp": vp})
    return [{"seat": p.seat, "links": links[p.seat], "tiles": tiles[p.seat],
             "link_vp": link_vp[p.seat], "tile_vp": tile_vp[p.seat],
             "vp": p.vp + link_vp[p.seat] + tile_vp[p.seat]} for p in d.players]


def _end_era(d: Draft, events: Events) -> None:
    scores = era_scores(d, detailed=events is not None)
    for score in scores:
        d.update(score["seat"], vp=score["vp"])
    d.era_scores = (*d.era_scores, tuple((s["link_vp"], s["tile_vp"]) for s in scores))
    if d.era == "rail":  # the game ends: the final board keeps its links and tiles
        d.is_over = True
        d.actions_left = 0
        if events is not None:
            events.append({"type": "era_end", "era": "rail", "scores": scores,
                           "links_removed": [], "removed": [], "merchants_refilled": [],
                           "deal": None})
            events.append({"type": "game_end", "ranking": ranking(d.freeze())})
        return
    _start_rail_era(d, events, scores)


def _start_rail_era(d: Draft, events: Events, scores: list[SeatScore]) -> None:
    links_removed = [link_ref(i, owner, d.era) for i, owner in enumerate(d.links)
                     if owner is not None] if events is not None else []
    removed = []
    for slot, tile in enumerate(tuple(d.tiles)):
        if tile is not None and tile.level == 1:
            if events is not None:
                removed.append(removed_tile(slot, tile))
            d.set_tile(slot, None)
            d.update(tile.owner, retired=d.players[tile.owner].retired + 1)
    refilled: list[SlotRef] = [
        {"location": DATA.locations[DATA.merchant_slots[i].location].id,
         "slot": DATA.merchant_slots[i].number}
        for i, m in enumerate(d.merchants)
        if m is not None and m.buys != "blank" and not m.beer] if events is not None else []
    d.set_merchants(tuple(None if m is None else MerchantTile(m.buys, m.buys != "blank")
                          for m in d.merchants))
    rail_deck = d.game.rail_deck
    deck = list(rail_deck) if rail_deck is not None else rail_shuffle(d.game.seed, d.players)
    hands: list[DealtHand] = []
    for seat in d.turn_order:
        hand = tuple(deck[:HAND_SIZE])
        d.update(seat, hand=hand, discard=(), face_down=(), links_left=LINK_TILES)
        hands.append({"seat": seat, "count": len(hand), "cards": list(hand)})
        deck = deck[HAND_SIZE:]
    if events is not None:
        events.append({"type": "era_end", "era": "canal", "scores": scores,
                       "links_removed": links_removed, "removed": removed,
                       "merchants_refilled": refilled,
                       "deal": {"hands": hands, "deck_left": len(deck)}})
    d.era, d.round, d.turn_index = "rail", 1, 0
    d.actions_left = actions_per_turn("rail", 1)
    d.clear_links()
    d.deck = tuple(deck)


def rail_shuffle(seed: int, players: Iterable[PlayerState]) -> list[str]:
    """All discards (face-down cards included), shuffled by the game's seed."""
    cards = sorted(c for p in players for c in (*p.discard, *p.face_down))
    random.Random(f"{seed}:rail").shuffle(cards)
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
