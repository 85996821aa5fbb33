"""The easy bot: pure move choice on top of `brass.engine` (no I/O, no clock, no global
random).

`choose_action` looks one move ahead: it applies each distinct legal move
(of `legal_moves`, growing a sale or a railway through `extensions`) and values the position
it leads to (`position_value`: VP scored and to come, the promise of
unsold goods, income, money), with a little seeded noise so games vary. It always returns a
legal action while one exists, so a game of bots cannot stall.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable

from brass.engine import (
    DATA,
    Game,
    Network,
    Scout,
    Sell,
    apply_action,
    extensions,
    legal_moves,
)
from brass.engine.actions import Action
from brass.engine.data import GOODS
from brass.engine.graph import graph

ROUNDS_PER_ERA = {2: 10, 3: 9, 4: 8}
MONEY_VALUE = 0.3  # VP a pound is worth while money is short (up to £30)
WILD_CARD_VALUE = 2.0


def rounds_left(game: Game) -> int:
    per_era = ROUNDS_PER_ERA[game.num_players]
    return per_era - game.round + 1 + (per_era if game.era == "canal" else 0)


def money_use(game: Game, left: int) -> float:
    """How much money is still worth (1: fully): nothing once the game is over or in its
    last round (what is not spent then is lost, so a loan there is never worth it), half
    in the round before."""
    if game.is_over or game.era == "canal":
        return 0.0 if game.is_over else 1.0
    return min(1.0, (left - 1) / 2)


def position_value(game: Game, seat: int) -> float:
    """A rough worth of `seat`'s position in VP: VP already scored, what flipped tiles and
    links will score, the promise of unsold goods (more when a merchant that buys them is
    connected), income for the rounds to come, and money with diminishing returns while
    there are rounds left to spend it (`money_use`)."""
    player = game.players[seat]
    value = float(player.vp)
    left = rounds_left(game)
    value += player.income_level * min(left, 10) * MONEY_VALUE
    spendable = money_use(game, left)
    value += spendable * (min(player.money, 30) * MONEY_VALUE
                          + max(player.money - 30, 0) * MONEY_VALUE / 4)
    links = graph(game.links)
    icons = [0] * len(DATA.locations)
    for merchant in DATA.merchant_locations:
        icons[merchant] = 2
    for slot, tile in zip(DATA.slots, game.tiles, strict=True):
        if tile is None:
            continue
        spec = tile.spec
        if tile.flipped:
            icons[slot.location] += spec.link_icons
        if tile.owner != seat:
            continue
        scorings = 1 if game.era == "rail" or tile.level == 1 else 2
        if tile.flipped:
            value += spec.vp * scorings
        elif tile.industry in GOODS:
            sellable = any(m is not None and m.buys_good(tile.industry)
                           and links.connected(slot.location, ms.location)
                           for ms, m in zip(DATA.merchant_slots, game.merchants, strict=True))
            value += spec.vp * scorings * (0.8 if sellable else 0.5) + spec.income * MONEY_VALUE
        else:
            value += spec.vp * scorings * 0.6
    for link, owner in zip(DATA.links, game.links, strict=True):
        if owner == seat:
            value += 0.8 * sum(icons[end] for end in link.ends)
    return value


def _card_value(action: Action) -> float:
    cards = action.cards if isinstance(action, Scout) else (action.card,)
    return sum(WILD_CARD_VALUE for card in cards if card.startswith("wild:"))


def choose_action(game: Game, rng: random.Random) -> Action:
    """The bot's move for the player to move, among `legal_moves` (bounded: never the full
    product of sales or railways): the best of `valued_moves`. Raises `ValueError` if there
    is no legal action."""
    return max(valued_moves(game, rng), key=lambda option: option[0])[1]


def valued_moves(game: Game, rng: random.Random) -> list[tuple[float, Action]]:
    """Every distinct move of the player to move with its one-move-ahead value, in
    `legal_moves` order, then the grown sale and railway. Moves that differ only in the card
    played are tried once (with the least valuable card); each is applied and the position
    valued. The best sale and the best railway then grow greedily through `extensions` (one
    more sale, the second link) while that values higher. The search bots take their
    candidates from this list. Raises `ValueError` if there is no legal action."""
    seat = game.current_seat
    moves = legal_moves(game)
    if seat is None or not moves:
        raise ValueError("no legal action")

    def value(action: Action) -> float:
        return (position_value(apply_action(game, action), seat) - _card_value(action)
                + 0.3 * rng.random())

    out: list[tuple[float, Action]] = []
    growable: dict[str, tuple[float, Action]] = {}  # the best sale and the best railway
    for action in _distinct(move.action for move in moves):
        worth = value(action)
        out.append((worth, action))
        if isinstance(action, Sell | Network) and worth > growable.get(action.kind, (
                float("-inf"),))[0]:
            growable[action.kind] = (worth, action)
    for worth, action in growable.values():
        start = action
        while isinstance(action, Sell | Network):
            grown = max(((value(m.action), m.action) for m in extensions(game, action)),
                        key=lambda option: option[0], default=None)
            if grown is None or grown[0] <= worth:
                break
            worth, action = grown
        if action is not start:
            out.append((worth, action))
    return out


def _distinct(actions: Iterable[Action]) -> list[Action]:
    """One action per effect: the one that plays the least valuable card (scouts are one)."""
    by_effect: dict[str, Action] = {}
    for action in actions:
        effect = action.to_json()
        effect.pop("card", None)
        key = "scout" if isinstance(action, Scout) else json.dumps(effect, sort_keys=True)
        known = by_effect.get(key)
        if known is None or _card_value(action) < _card_value(known):
            by_effect[key] = action
    return list(by_effect.values())
