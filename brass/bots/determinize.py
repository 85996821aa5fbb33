"""A full game consistent with an observation: the hidden parts drawn at random.

The search bots play out determinisations: the observing seat's hand, the board, the
markets, money and every public count are the view's; the cards the seat has not seen
(the other hands, the face-down cards, the deck order, and the rail era's shuffle, through
a fresh seed) are dealt at random from the cards not yet accounted for. The easy bot plays
on one too: it reads nothing hidden, so its choice is the same as on the real game.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from brass.engine import DATA, INDUSTRIES, Game, MerchantTile, PlayerState, Tile

from .observe import WILDS, Knowledge, Observation, knowledge

TILES_PER_PLAYER = sum(len(stack) for stack in DATA.stack_list)


def determinize(observation: Observation, rng: random.Random,
                known: Knowledge | None = None) -> Game:
    """A game the observing seat cannot tell from the real one (`known`: the observation's
    `knowledge`, when the caller already has it)."""
    seen = observation["view"]
    me = seen["viewer"]
    if not isinstance(me, int):
        raise ValueError("a bot observes the game as a seat, not as a spectator")
    known = knowledge(observation) if known is None else known
    n = seen["num_players"]
    players = seen["players"]

    pool = Counter({card: count for card, count in DATA.deck_counts[n].items()})
    my_hand = list(players[me]["hand"])
    discards = [list(d) for d in known.discards] if known.discards is not None else [
        [p["discard_top"]] if p["discard_top"] else [] for p in players]
    for card in [*my_hand, *(c for pile in discards for c in pile)]:
        if card not in WILDS:
            pool[card] -= 1
    wilds = list(known.wilds) if known.wilds is not None else _guess_wilds(seen, rng)
    unseen = sorted(pool.elements())  # a negative count (a bad view) leaves no card
    rng.shuffle(unseen)

    def deal(count: int) -> list[str]:
        nonlocal unseen
        taken, unseen = unseen[:count], unseen[count:]
        return taken

    hands: list[list[str]] = []
    face_down: list[list[str]] = []
    for seat, p in enumerate(players):
        if seat == me:
            hands.append(my_hand)
        else:
            loc, ind = wilds[seat]
            held = [WILDS[0]] * loc + [WILDS[1]] * ind
            hands.append(held + deal(p["hand_size"] - len(held)))
    for seat, p in enumerate(players):
        face_down.append(deal(p["discard_size"] - len(discards[seat])))
    deck = deal(seen["deck_size"])

    tiles: list[Tile | None] = [None] * len(DATA.slots)
    on_board = [0] * n
    for t in seen["industries"]:
        tiles[DATA.slot_index(t["location"], t["slot"])] = Tile(
            t["owner"], t["industry"], t["level"], t["flipped"], t["resources"])
        on_board[t["owner"]] += 1
    links: list[int | None] = [None] * len(DATA.links)
    for link in seen["links"]:
        links[DATA.link_index[link["id"]]] = link["owner"]
    merchants: list[MerchantTile | None] = [None] * len(DATA.merchant_slots)
    for m in seen["merchants"]:
        merchants[DATA.merchant_slot_index(m["location"], m["slot"])] = MerchantTile(
            m["buys"], m["beer"])

    states = []
    for seat, p in enumerate(players):
        mat = tuple(len(stack) - len(p["mat"][industry])
                    for stack, industry in zip(DATA.stack_list, INDUSTRIES, strict=True))
        left = sum(len(levels) for levels in p["mat"].values())
        states.append(PlayerState(
            seat=seat, money=p["money"], vp=p["vp"], income_space=p["income_space"],
            spent=p["spent"], links_left=p["links_left"], hand=tuple(hands[seat]),
            discard=tuple(discards[seat]), face_down=tuple(face_down[seat]), mat=mat,
            retired=TILES_PER_PLAYER - left - on_board[seat]))
    current = seen["current_seat"]
    order = tuple(seen["turn_order"])
    return Game(
        num_players=n, seed=rng.getrandbits(48), era=seen["era"], round=seen["round"],
        turn_order=order, turn_index=order.index(current) if current is not None else 0,
        actions_left=seen["actions_left"], players=tuple(states), deck=tuple(deck),
        wild_location_left=seen["wild_location_left"],
        wild_industry_left=seen["wild_industry_left"], coal_market=seen["coal_market"],
        iron_market=seen["iron_market"], tiles=tuple(tiles), links=tuple(links),
        merchants=tuple(merchants), rail_deck=None, is_over=seen["is_over"],
        action_count=seen["action_count"],
        era_scores=tuple(tuple((s["links"], s["industries"]) for s in era)
                         for era in seen["era_scores"]))


def _guess_wilds(seen: dict[str, Any], rng: random.Random) -> list[tuple[int, int]]:
    """Without a log: the wild cards nobody visible holds, one pair to each of some other
    seats (a scout takes one of each; a seat holding a wild card cannot scout)."""
    me = seen["viewer"]
    players = seen["players"]
    mine = [players[me]["hand"].count(w) for w in WILDS]
    held = [DATA.wild_cards[WILDS[0]] - seen["wild_location_left"] - mine[0],
            DATA.wild_cards[WILDS[1]] - seen["wild_industry_left"] - mine[1]]
    others = [s for s, p in enumerate(players) if s != me and p["hand_size"] > 0]
    rng.shuffle(others)
    out = [(0, 0)] * len(players)
    for seat in others:
        loc, ind = min(held[0], 1), min(held[1], 1)
        if loc + ind > players[seat]["hand_size"]:
            continue
        out[seat] = (loc, ind)
        held = [held[0] - loc, held[1] - ind]
    return out
