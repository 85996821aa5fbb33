"""Builders for the rules tests: a complete, valid `setup` and small scenarios on top of it.

A rules test reads like the rulebook: it deals a fixed game (`deal`/`scenario`), places what
the rule needs with `brass.engine.scenario`, plays one or two actions and checks the numbers
worked out by hand from RULES.md and DATA.md.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from brass.engine import (
    DATA,
    Build,
    Develop,
    Game,
    IllegalAction,
    Loan,
    Network,
    Pass,
    Sale,
    Sell,
    apply_action,
    legal_actions,
    new_game,
    quote,
)
from brass.engine.scenario import with_player, with_turn

# Merchant tiles used unless a test names its own (RULES.md §2 / DATA.md "Merchant tiles").
MERCHANTS: dict[int, dict[str, list[str]]] = {
    2: {"shrewsbury": ["cotton"], "oxford": ["manufacturer", "blank"],
        "gloucester": ["all", "blank"]},
    3: {"shrewsbury": ["cotton"], "oxford": ["manufacturer", "blank"],
        "gloucester": ["all", "blank"], "warrington": ["pottery", "blank"]},
    4: {"shrewsbury": ["cotton"], "oxford": ["manufacturer", "blank"],
        "gloucester": ["all", "blank"], "warrington": ["pottery", "blank"],
        "nottingham": ["cotton", "manufacturer"]},
}

# Tiles per level on a player mat (DATA.md "Industry tiles"), lowest level first.
TILES_PER_LEVEL: dict[str, list[int]] = {
    "cotton": [3, 2, 3, 3],
    "manufacturer": [1, 2, 1, 1, 2, 1, 1, 2],
    "pottery": [1, 1, 1, 1, 1],
    "coal": [1, 2, 2, 2],
    "iron": [1, 1, 1, 1],
    "brewery": [2, 2, 2, 1],
}
INDUSTRY_ORDER = ("cotton", "manufacturer", "pottery", "coal", "iron", "brewery")


def deck_cards(players: int) -> Counter[str]:
    return Counter({card: n for card, n in DATA.deck_counts[players].items()})


def deal(players: int = 2, hands: dict[int, list[str]] | None = None,
         turn_order: list[int] | None = None,
         merchants: dict[str, list[str]] | None = None,
         rail_deck: list[str] | None = None) -> dict[str, Any]:
    """A complete `setup`: the given cards in each hand, filled up to 8 with other cards of the
    deck (sorted), one face-down card each, and the rest as the deck in sorted order."""
    pool = deck_cards(players)
    chosen = hands or {}
    for cards in chosen.values():
        pool.subtract(cards)
    assert all(n >= 0 for n in pool.values()), f"more cards than the deck holds: {chosen}"
    rest = sorted(pool.elements())
    full_hands = []
    for seat in range(players):
        cards = list(chosen.get(seat, []))
        need = 8 - len(cards)
        full_hands.append(cards + rest[:need])
        rest = rest[need:]
    setup: dict[str, Any] = {
        "turn_order": turn_order if turn_order is not None else list(range(players)),
        "hands": full_hands,
        "face_down": rest[:players],
        "deck": rest[players:],
        "merchants": merchants if merchants is not None else MERCHANTS[players],
    }
    if rail_deck is not None:
        setup["rail_deck"] = rail_deck
    return setup


def scenario(players: int = 2, era: str = "canal", seed: int = 1,
             hand: list[str] | None = None, money: int | None = None,
             merchants: dict[str, list[str]] | None = None) -> Game:
    """A game in round 2 of `era` with seat 0 to move and 2 actions left (so one action does not
    end the turn). `hand` replaces seat 0's hand (any cards, wild ones too); `money` sets it."""
    game = new_game(players, seed, setup=deal(players, merchants=merchants))
    game = with_turn(game, era=era, round=2, turn_index=0, actions_left=2)
    if hand is not None:
        game = with_player(game, 0, hand=hand)
    if money is not None:
        game = with_player(game, 0, money=money)
    return game


def mat_before(industry: str, level: int) -> int:
    """How many tiles of `industry` a mat has given up when `level` is the lowest one left."""
    return sum(TILES_PER_LEVEL[industry][:level - 1])


def with_next_tile(game: Game, seat: int, industry: str, level: int) -> Game:
    """Make `level` the lowest `industry` tile left on the seat's mat (lower ones developed)."""
    mat = list(game.players[seat].mat)
    taken = mat_before(industry, level)
    retired = game.players[seat].retired + taken - mat[INDUSTRY_ORDER.index(industry)]
    mat[INDUSTRY_ORDER.index(industry)] = taken
    return with_player(game, seat, mat=tuple(mat), retired=retired)


def with_empty_stack(game: Game, seat: int, industry: str) -> Game:
    """Every `industry` tile has left the seat's mat."""
    return with_next_tile(game, seat, industry, len(TILES_PER_LEVEL[industry]) + 1)


def refused(game: Game, action: Any, *words: str) -> str:
    """The action is illegal (`apply_action` and `quote` refuse it), its message names every
    word given, and `game` is untouched."""
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        apply_action(game, action)
    message = str(info.value)
    for word in words:
        assert word.lower() in message.lower(), f"{word!r} not in {message!r}"
    with pytest.raises(IllegalAction):
        quote(game, action)
    shape = _shape(action)
    assert not any(_shape(a) == shape for a in legal_actions(game)), f"listed: {action}"
    assert game.to_json() == before
    return message


def _shape(action: Any) -> Any:
    """An action with its parts as a multiset where `legal_actions` lists them in one canonical
    order (sales of a Sell, links of a Network, industries of a Develop, cards of a Scout)."""
    parts = {"sell": "sales", "network": "links", "develop": "industries", "scout": "cards"}
    field = parts.get(action.kind)
    if field is None:
        return action
    rest = {k: v for k, v in action.to_json().items() if k != field}
    return (tuple(sorted(rest.items())), Counter(str(p) for p in getattr(action, field)))


def play(game: Game, action: Any) -> Game:
    """Apply an action that the rules allow: `legal_actions` must list it too."""
    shape = _shape(action)
    assert any(_shape(a) == shape for a in legal_actions(game)), f"not listed: {action}"
    return apply_action(game, action)


def tile_at(game: Game, location: str, slot: int) -> Any:
    return game.tiles[DATA.slot_index(location, slot)]


def merchant_at(game: Game, location: str, slot: int) -> Any:
    return game.merchants[DATA.merchant_slot_index(location, slot)]


def build(card: str, industry: str, location: str, slot: int) -> Build:
    return Build(card=card, industry=industry, location=location, slot=slot)


def network(card: str, *links: str) -> Network:
    return Network(card=card, links=tuple(links))


def develop(card: str, *industries: str) -> Develop:
    return Develop(card=card, industries=tuple(industries))


def sell(card: str, *sales: tuple[str, int, str] | tuple[str, int, str, str | None]) -> Sell:
    return Sell(card=card, sales=tuple(Sale(*s) for s in sales))


def loan(card: str) -> Loan:
    return Loan(card=card)


def pass_(card: str) -> Pass:
    return Pass(card=card)


def play_passes(game: Game, until: Any) -> Game:
    """Every player passes with the first card of their hand until `until(game)` holds."""
    while not until(game):
        seat = game.current_seat
        assert seat is not None
        game = apply_action(game, Pass(card=game.players[seat].hand[0]))
    return game
