"""`new_game`: the deal (RULES.md §2), drawn from the seed or fixed by a `setup` object."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

from .data import DATA, MerchantBuys
from .errors import InvalidSetup
from .state import Game, MerchantTile, PlayerState
from .turns import HAND_SIZE, LINK_TILES, actions_per_turn

SETUP_KEYS = frozenset({"turn_order", "hands", "face_down", "deck", "merchants", "rail_deck"})


def full_deck(players: int) -> list[str]:
    return list(_FULL_DECKS[players])


# By player count: the whole deck, sorted.
_FULL_DECKS = {players: tuple(sorted(c for c, n in counts.items() for _ in range(n)))
               for players, counts in DATA.deck_counts.items()}


def new_game(players: int, seed: int, setup: dict[str, Any] | None = None) -> Game:
    """Deal a game for `players` seats. `seed` drives every shuffle; `setup` fixes any part of
    the deal exactly (DESIGN.md), and what it leaves out is drawn from the seed."""
    if not isinstance(players, int) or not 2 <= players <= 4:
        raise InvalidSetup("A game has 2, 3 or 4 players")
    if not isinstance(seed, int):
        raise InvalidSetup("The seed must be an integer")
    setup = dict(setup or {})
    unknown = set(setup) - SETUP_KEYS
    if unknown:
        raise InvalidSetup(f"Unknown setup keys: {', '.join(sorted(unknown))}")
    rng = random.Random(seed)

    turn_order = setup.get("turn_order")
    if turn_order is None:
        turn_order = list(range(players))
        rng.shuffle(turn_order)
    elif sorted(turn_order) != list(range(players)):
        raise InvalidSetup(f"turn_order must list the seats 0..{players - 1} once each")

    merchants = _merchants(players, setup.get("merchants"), rng)

    pool = Counter(full_deck(players))
    hands = setup.get("hands")
    face_down = setup.get("face_down")
    deck = setup.get("deck")
    if hands is not None and (len(hands) != players or any(len(h) != HAND_SIZE for h in hands)):
        raise InvalidSetup(f"hands must give {HAND_SIZE} cards for each of the {players} seats")
    if face_down is not None and len(face_down) != players:
        raise InvalidSetup(f"face_down must give one card for each of the {players} seats")
    for part, cards in (("hands", [c for h in hands or [] for c in h]),
                        ("face_down", face_down or []), ("deck", deck or [])):
        _take(pool, cards, part, players)
    rest = sorted(pool.elements())
    rng.shuffle(rest)
    if hands is None:
        hands = [rest[i * HAND_SIZE:(i + 1) * HAND_SIZE] for i in range(players)]
        rest = rest[players * HAND_SIZE:]
    if face_down is None:
        face_down, rest = rest[:players], rest[players:]
    if deck is None:
        deck, rest = rest, []
    if rest:
        raise InvalidSetup(f"The setup leaves {len(rest)} cards of the {players}-player deck "
                           "nowhere: hands, face_down and deck must add up to the whole deck")

    rail_deck = setup.get("rail_deck")
    if rail_deck is not None:
        if Counter(rail_deck) != Counter(full_deck(players)):
            raise InvalidSetup(f"rail_deck must hold exactly the {players}-player deck")
        rail_deck = tuple(rail_deck)

    return Game(
        num_players=players, seed=seed, era="canal", round=1, turn_order=tuple(turn_order),
        turn_index=0, actions_left=actions_per_turn("canal", 1),
        players=tuple(PlayerState(seat=s, money=DATA.rules["start_money"],
                                  income_space=DATA.start_income_space, links_left=LINK_TILES,
                                  hand=tuple(hands[s]), face_down=(face_down[s],))
                      for s in range(players)),
        deck=tuple(deck), wild_location_left=DATA.wild_cards["wild:location"],
        wild_industry_left=DATA.wild_cards["wild:industry"],
        coal_market=DATA.coal_market.start_cubes, iron_market=DATA.iron_market.start_cubes,
        tiles=(None,) * len(DATA.slots), links=(None,) * len(DATA.links),
        merchants=merchants, rail_deck=rail_deck)


def _take(pool: Counter[str], cards: Iterable[str], part: str, players: int) -> None:
    for card in cards:
        if card not in DATA.cards:
            raise InvalidSetup(f"{part}: unknown card {card!r}")
        if pool[card] <= 0:
            raise InvalidSetup(f"{part}: the {players}-player deck has no more {card!r}")
        pool[card] -= 1


def _merchants(players: int, given: dict[str, list[MerchantBuys]] | None,
               rng: random.Random) -> tuple[MerchantTile | None, ...]:
    in_play = [m for m in DATA.merchant_slots if m.min_players <= players]
    if given is None:
        tiles = list(DATA.merchant_tiles[players])
        rng.shuffle(tiles)
    else:
        tiles = []
        expected_locations = {DATA.locations[m.location].id for m in in_play}
        if set(given) != expected_locations:
            raise InvalidSetup("merchants must name exactly these locations: "
                               + ", ".join(sorted(expected_locations)))
        for m in in_play:
            row = given[DATA.locations[m.location].id]
            if len(row) != len(DATA.locations[m.location].merchant_slots):
                raise InvalidSetup(f"merchants: {DATA.locations[m.location].id} has "
                                   f"{len(DATA.locations[m.location].merchant_slots)} slots")
            tiles.append(row[m.number])
        if sorted(tiles) != sorted(DATA.merchant_tiles[players]):
            raise InvalidSetup(f"merchants must hold the {players}-player tiles: "
                               + ", ".join(DATA.merchant_tiles[players]))
    out: list[MerchantTile | None] = [None] * len(DATA.merchant_slots)
    for m, buys in zip(in_play, tiles, strict=True):
        out[m.index] = MerchantTile(buys, buys != "blank")
    return tuple(out)
