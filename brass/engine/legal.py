"""Listing legal moves: `legal_moves` and `extensions` (bounded, priced), `legal_actions` (all).

A candidate is first checked without carrying it out (`feasible.py`: builds, one-link
networks, develops, loans and scouts decided by arithmetic over one summary of the board;
sales and second railways skipped where the merchant, coal or beer they need is not
connected). What passes is carried out once on a draft, by the very rule functions
`apply_action` uses, so a listed action is exactly one that `apply_action` accepts, and the
draft's record of what was paid and taken is its price (`Quote`): nothing is carried out a
second time to price it. Canals are the one exception: a canal takes nothing, so each costs
what the first did, and only the first is carried out (`feasible.py` decides the others, as
it does for `legal_actions`). `legal_actions` needs no price, so only sales and pairs of railways
are carried out for it (a set of sales is found by carrying them out; two orders of a pair
are told apart by what they take). The card is part of an action but never changes its
price, so each priced effect is listed once per distinct card name in hand that allows it;
the actions themselves are immutable values made once and shared by every listing.

`legal_moves(game)` is bounded: a Sell has exactly one sale and a Network exactly one link;
`extensions(game, action)` lists the legal actions made of a legal Sell plus one more sale
(appended at the end), or of a one-link railway plus a second link, each priced. Every legal
Sell or Network is reached from `legal_moves` by repeated extensions, the way a player
composes it, and no call grows factorially.

`legal_actions(game)` is the full list (sales and pairs of railways included), built from the
same candidates, in one canonical order with no duplicates:
- kinds in the order build, network, develop, sell, loan, scout, pass;
- build: by slot in board order, then industry, then card;
- network: by link in board order; two rail links are one action per pair of links, listed
  in board order if that order is legal, else in the other order; both orders are listed
  when both are legal and take their coal or beer from different places;
- develop: one industry, or two in the industry order of DATA.md (the same one twice allowed);
- sell: one action per legal *set* of sales; each sale is a (tile, merchant, free develop)
  choice; a set is listed once, in the first order (tiles in board order first) that is legal;
- scout: each distinct set of three cards, sorted.
`legal_moves` lists its moves in that same order; for a Sell or a Network it lists the
one-sale and one-link actions, the first ones `legal_actions` lists of each kind.

>>> from brass.engine import new_game, quote
>>> from brass.engine.scenario import with_player, with_tile, with_turn
>>> game = with_turn(new_game(players=2, seed=7), era="rail", round=2)
>>> me = game.current_seat
>>> game = with_player(game, me, money=40)
>>> game = with_tile(game, "birmingham", 0, me, "cotton", 2)  # your network: Birmingham
>>> game = with_tile(game, "walsall", 1, 1 - me, "brewery", 2)  # an opponent's beer
>>> move = next(m for m in legal_moves(game) if m.action.kind == "network")
>>> move.action.links, move.quote.money  # the railway's coal comes from the market
(('birmingham--oxford',), 6)
>>> move.quote == quote(game, move.action)
True
>>> [(m.action.links, m.quote.money) for m in extensions(game, move.action)]
[(('birmingham--oxford', 'birmingham--walsall'), 18)]
>>> move.to_json()["quote"]["coal"]
[{'source': 'market', 'count': 1, 'cost': 1}]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from typing import Any

from .actions import Action, Build, Develop, Loan, Network, Pass, Sale, Scout, Sell
from .build import cards_allowing, check_target, place
from .data import DATA, INDUSTRIES, Industry, TileSpec
from .develop import pay_develop_iron
from .draft import Draft, Quote
from .errors import IllegalAction, Subject
from .feasible import (
    Board,
    developable,
    link_refusal,
    loan_ok,
    network_start_refusal,
    scout_refusal,
)
from .links import add_link, finish_network, start_network
from .resources import SLOT_LOCATION, SLOTS_OF
from .rules import _loan, carry_out
from .sell import choose_merchant_tile, for_sale, sell_one
from .state import Game, PlayerState, constructor


@dataclass(frozen=True, slots=True)
class Move:
    """A legal action and its full price, computed in one pass."""

    action: Action
    quote: Quote

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action.to_json(), "quote": self.quote.to_json()}


# The actions' constructors, fast (`state.constructor`): listing makes thousands of them.
_build: Callable[[str, str, str, int, str], Build] = constructor(Build)
_network: Callable[[str, tuple[str, ...], str], Network] = constructor(Network)
_develop: Callable[[str, tuple[str, ...], str], Develop] = constructor(Develop)
_sale: Callable[[str, int, str, str | None], Sale] = constructor(Sale)
_sell: Callable[[str, tuple[Sale, ...], str], Sell] = constructor(Sell)
_loan_action: Callable[[str, str], Loan] = constructor(Loan)
_scout: Callable[[tuple[str, ...], str], Scout] = constructor(Scout)
_pass: Callable[[str, str], Pass] = constructor(Pass)
_move: Callable[[Action, Quote], Move] = constructor(Move)

# Every action is an immutable value, so listings share them: each is made once, the first
# time it is listed (per card name, as `_per_card` says), and looked up from then on.
_MEMO = 1 << 12


class _ByCard(dict[str, Any]):
    """One effect's action by card name, each made by `make(card, key)` when first asked."""

    def __init__(self, make: Callable[[str, Any], Any], key: object) -> None:
        super().__init__()
        self.make, self.key = make, key

    def __missing__(self, card: str) -> Any:
        action = self[card] = self.make(card, self.key)
        return action


class _PerCard(dict[object, _ByCard]):
    """For each effect (a key), its actions by card name (`_ByCard`)."""

    def __init__(self, make: Callable[[str, Any], Any]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: object) -> _ByCard:
        by_card = self[key] = _ByCard(self.make, key)
        return by_card


def _make_build(card: str, key: tuple[int, str]) -> Build:
    slot, industry = key
    _, _, loc_id, number, _ = _SLOTS[slot]
    return _build(card, industry, loc_id, number, "build")


_BUILDS = _PerCard(_make_build)  # by (slot, industry)
_NETWORKS = _PerCard(lambda card, links: _network(
    card, tuple(DATA.links[i].id for i in links), "network"))  # by link indices
_DEVELOPS = _PerCard(lambda card, industries: _develop(card, industries, "develop"))
_SIMPLE = _PerCard(lambda card, kind: _loan_action(card, "loan") if kind == "loan"
                   else _pass(card, "pass"))
_SELLS = _PerCard(lambda card, sale: _sell(card, (sale,), "sell"))  # one-sale Sells, by Sale
# Each sale, by (slot index, merchant location index, industry developed or None).
_SALES: dict[tuple[int, int, str | None], Sale] = {}


def _sale_of(slot: int, merchant: int, develop: str | None) -> Sale:
    sale = _SALES.get((slot, merchant, develop))
    if sale is None:
        _, _, location, number, _ = _SLOTS[slot]
        sale = _SALES[(slot, merchant, develop)] = _sale(
            location, number, DATA.locations[merchant].id, develop)
    return sale


def _build_actions(cards: tuple[str, ...], industry: Industry, slot: int,
                   in_network: bool) -> list[Build]:
    allowed = cards_allowing(industry, _SLOTS[slot][1], in_network)
    by_card = _BUILDS[(slot, industry)]
    return [by_card[card] for card in cards if card in allowed]


def _network_actions(cards: tuple[str, ...], links: tuple[int, ...]) -> list[Network]:
    by_card = _NETWORKS[links]
    return [by_card[card] for card in cards]


def _develop_actions(cards: tuple[str, ...], industries: tuple[str, ...]) -> list[Develop]:
    by_card = _DEVELOPS[industries]
    return [by_card[card] for card in cards]


def _loans(cards: tuple[str, ...]) -> list[Loan]:
    by_card = _SIMPLE["loan"]
    return [by_card[card] for card in cards]


def _passes(cards: tuple[str, ...]) -> list[Pass]:
    by_card = _SIMPLE["pass"]
    return [by_card[card] for card in cards]


_SCOUTS: dict[tuple[str, ...], Scout] = {}


@lru_cache(maxsize=_MEMO)
def _scout_actions(hand: tuple[str, ...]) -> tuple[Scout, ...]:
    """Each distinct set of three cards of `hand` (sorted), sorted: the combinations of a
    sorted hand come in sorted order, so the first of each set is kept."""
    scouts = []
    for cards in dict.fromkeys(combinations(hand, 3)):
        scout = _SCOUTS.get(cards)
        if scout is None:
            scout = _SCOUTS[cards] = _scout(cards, "scout")
        scouts.append(scout)
    return tuple(scouts)


# Actions that differ only by the card played, and their one price.
Group = tuple[Quote, Sequence[Action]]
MaybeGroup = tuple[Quote | None, Sequence[Action]]  # unpriced (None) for `legal_actions`
_FREE = Quote(0, ())


def legal_actions(game: Game) -> list[Action]:
    """Every legal action of the player to move (the full list: see the module's doc)."""
    return [action for _, actions in _groups(game, bounded=False, priced=False)
            for action in actions]


def legal_moves(game: Game) -> list[Move]:
    """Every legal move of the player to move with its price; a Sell has one sale and a
    Network one link (`extensions` adds more)."""
    moves = []
    for price, actions in legal_groups(game):
        moves += [_move(action, price) for action in actions]
    return moves


def legal_groups(game: Game) -> list[Group]:
    """`legal_moves` as (price, actions) groups, in the same order: the actions of a group
    differ only by the card played (the cards, for scouting): one group per priced effect.
    For a caller that handles a price once per effect (the server encodes each price once)."""
    groups: list[Group] = []
    for price, actions in _groups(game, bounded=True, priced=True):
        assert price is not None
        if actions:
            groups.append((price, actions))
    return groups


def extensions(game: Game, action: Action) -> list[Move]:
    """The legal actions made of the legal `action` and one more sale (a Sell) or a second
    rail link (a one-link Network), each priced; [] if there is none (or for another kind).
    Raises `IllegalAction` if `action` is not legal."""
    d = carry_out(game, action)
    if isinstance(action, Sell):
        return [Move(Sell(action.card, (*action.sales, sale)), after.quote())
                for sale, after in _sales_after(d)]
    if not isinstance(action, Network) or len(action.links) != 1:
        return []
    start = _double_start(game)
    if start is None:
        return []
    first = action.links[0]
    return [Move(Network(action.card, (first, DATA.links[j].id)), after.quote())
            for j, after in _second_links(*start, DATA.link_index[first])]


def _groups(game: Game, bounded: bool, priced: bool) -> Iterator[MaybeGroup]:
    """The legal actions by effect, with their price if `priced` (else None: `feasible.py`
    decides most kinds without carrying them out)."""
    if game.is_over:
        return
    board = Board(game)
    cards = tuple(sorted(set(board.me.hand)))
    yield from _builds(game, board, cards, priced)
    yield from _networks(game, board, cards, bounded, priced)
    yield from _develops(game, board, cards, priced)
    yield from _sells(game, cards, bounded)
    if loan_ok(board.me):
        loan = _carried(Draft(game), _loan) if priced else None
        if not priced or loan is not None:
            price = None if loan is None else loan.quote()
            yield price, _loans(cards)
    yield from _scouts(game, board)
    yield _FREE, _passes(cards)


def _carried(d: Draft, step: Callable[..., object], *args: object) -> Draft | None:
    """`d` once `step(d, *args)` is carried out on it, or None if the rules refuse it."""
    try:
        step(d, *args)
    except IllegalAction:
        return None
    return d


def _build_step(d: Draft, industry: Industry, slot: int) -> None:
    place(d, industry, slot, check_target(d, industry, slot))


# Per slot: its location, the location's id and the slot's number (for the Build action).
_SLOTS = tuple((slot.index, slot.location, DATA.locations[slot.location].id, slot.number,
                slot.accepts) for slot in DATA.slots)


# Per industry: the slots that take it, as (slot, its place in the slot's `accepts`,
# location), in board order.
_INDUSTRY_SLOTS: dict[str, tuple[tuple[int, int, int], ...]] = {
    industry: tuple((slot.index, slot.accepts.index(industry), slot.location)
                    for slot in DATA.slots if industry in slot.accepts)
    for industry in INDUSTRIES}


def _card_reach(cards: tuple[str, ...],
                industry: Industry) -> tuple[frozenset[int], frozenset[int]]:
    """Where some card of `cards` may build `industry`: (the locations in the player's
    network, the locations outside it), by `build.cards_allowing`."""
    inside: frozenset[int] = frozenset()
    outside: frozenset[int] = frozenset()
    for card in cards:
        card_inside, card_outside = _CARD_REACH[(card, industry)]
        inside |= card_inside
        outside |= card_outside
    return inside, outside


# Per card name and industry: where the card may build it, in the network and outside it.
_CARD_REACH: dict[tuple[str, str], tuple[frozenset[int], frozenset[int]]] = {
    (card, industry): tuple(  # type: ignore[misc]
        frozenset(loc.index for loc in DATA.locations
                  if card in cards_allowing(industry, loc.index, in_network))
        for in_network in (True, False))
    for card in DATA.cards for industry in INDUSTRIES}


def _builds(game: Game, board: Board, cards: tuple[str, ...],
            priced: bool) -> Iterator[MaybeGroup]:
    net = board.network
    me = board.me
    found: list[tuple[int, int, Industry, TileSpec, bool]] = []
    for industry in INDUSTRIES:
        # An industry whose next tile is gone, costs more than the player has or belongs to
        # the other era builds nowhere.
        spec = me.next_tile(industry)
        if spec is None or spec.cost > me.money or not spec.allowed_in(board.era):
            continue
        inside, outside = _card_reach(cards, industry)
        for index, place_in_slot, location in _INDUSTRY_SLOTS[industry]:
            in_network = net is None or location in net
            if (location in (inside if in_network else outside)
                    and board.target_ok(industry, index, spec)
                    and board.build_paid(spec, location)):
                found.append((index, place_in_slot, industry, spec, in_network))
    found.sort(key=lambda f: (f[0], f[1]))  # by slot, then industry as the slot lists them
    start = Draft(game) if priced and found else None
    for index, _, industry, _, in_network in found:
        price = None
        if start is not None:
            d = _carried(start.copy(), _build_step, industry, index)
            if d is None:
                continue
            price = d.quote()
        yield price, _build_actions(cards, industry, index, in_network)


def _networks(game: Game, board: Board, cards: tuple[str, ...], bounded: bool,
              priced: bool) -> Iterator[MaybeGroup]:
    singles = _single_links(game, board, priced)
    for i, price in singles:
        yield price, _network_actions(cards, (i,))
    start = None if bounded or not singles else _double_start(game)
    if start is None:
        return
    orders = {(i, j): d for i, _ in singles for j, d in _second_links(*start, i)}
    for (a, b), d in sorted(orders.items()):
        other = orders.get((b, a))
        if a < b or other is None or other.supplies != d.supplies:
            yield d.quote(), _network_actions(cards, (a, b))


def _single_links(game: Game, board: Board, priced: bool) -> list[tuple[int, Quote | None]]:
    """The links that work as a one-link network action, each with its price if `priced`:
    the base cost and the network are settled once, then each link is tried on a copy."""
    if network_start_refusal(board.era, board.me, 1) is not None:
        return []
    touching = board.network
    start = None
    if priced:
        start = Draft(game)
        start_network(start, 1)
    canal: Quote | None = None  # a canal takes nothing: each costs what the first did
    singles: list[tuple[int, Quote | None]] = []
    for i in range(len(DATA.links)):
        if link_refusal(board, i, touching) is None and board.single_link_ok(i):
            if start is None or canal is not None:
                singles.append((i, canal))
                continue
            d = _carried(start.copy(), _link_step, i, touching, (i,))
            if d is not None:
                price = d.quote()
                singles.append((i, price))
                if game.era == "canal":
                    canal = price
    return singles


def _link_step(d: Draft, index: int, touching: frozenset[int] | None,
               links: tuple[int, ...]) -> None:
    add_link(d, index, touching)
    finish_network(d, links)


def _double_start(game: Game) -> tuple[Draft, frozenset[int] | None] | None:
    """A draft with two railways' base cost paid, and the network the first must touch; None
    if two railways cannot be built at all."""
    d = Draft(game)
    try:
        touching = start_network(d, 2)
    except IllegalAction:
        return None
    return d, touching


def _second_links(start: Draft, touching: frozenset[int] | None,
                  first: int) -> Iterator[tuple[int, Draft]]:
    """Each second railway that makes a legal pair after link `first`, with its draft. A
    second railway is carried out only where a coal mine with coal or a merchant, and a
    brewery with beer (the player's own anywhere, or another's), connect to it: the rules
    (`links.add_link`, `links.finish_network`) refuse every other and decide the rest."""
    d = start.copy()
    try:
        reach = add_link(d, first, touching)
        # a network action only pays from here on
        d.check_affordable(Subject("These two railways", "railways"))
    except IllegalAction:
        return
    component = d.graph().component
    tiles = d.tiles
    coal = {component[SLOT_LOCATION[slot]] for slot in SLOTS_OF["coal"]
            if (tile := tiles[slot]) is not None and tile.industry == "coal" and tile.resources}
    coal.update(component[m] for m in DATA.merchant_locations)
    own_beer, beer_at = _beer_by_area(d)
    for j in range(len(DATA.links)):
        if link_refusal(d, j, reach) is None:
            areas = {component[e] for e in DATA.links[j].ends}
            if areas.isdisjoint(coal) or not (own_beer or any(a in beer_at for a in areas)):
                continue
            after = _carried(d.copy(), _link_step, j, reach, (first, j))
            if after is not None:
                yield j, after


# Each choice of one or two industries to develop, in listing order, with how many tiles of
# each industry (by index) it takes.
_DEVELOP_OPTIONS: tuple[tuple[tuple[str, ...], tuple[tuple[int, int], ...]], ...] = tuple(
    (option, tuple((INDUSTRIES.index(i), option.count(i)) for i in dict.fromkeys(option)))
    for option in (*((i,) for i in INDUSTRIES), *combinations_with_replacement(INDUSTRIES, 2)))


def _develops(game: Game, board: Board, cards: tuple[str, ...],
              priced: bool) -> Iterator[MaybeGroup]:
    """The iron's price depends only on how many tiles go, so it is settled once per count;
    each choice of industries then needs only the mat: how many tiles of each industry can go
    in a row from the top of its stack (0, 1 or 2: none left, or a lightbulb, stops it)."""
    prices: dict[int, Quote | None] = {}
    for n in (1, 2):
        if board.develop_paid(n):
            d = _carried(Draft(game), pay_develop_iron, INDUSTRIES[:n]) if priced else None
            if not priced or d is not None:
                prices[n] = None if d is None else d.quote()
    if not prices:
        return
    for industries in _develop_choices(board.me):
        n = len(industries)
        if n in prices:
            yield prices[n], _develop_actions(cards, industries)


def _develop_choices(player: PlayerState) -> tuple[tuple[str, ...], ...]:
    """The choices of `_DEVELOP_OPTIONS` the player's mat allows, in listing order: decided
    once per mat (a handful of mats recur in every game)."""
    choices = _CHOICES.get(player.mat)
    if choices is None:
        if len(_CHOICES) >= _MEMO:
            _CHOICES.clear()
        free = [developable(player, k) for k in range(len(INDUSTRIES))]
        choices = _CHOICES[player.mat] = tuple(
            industries for industries, needs in _DEVELOP_OPTIONS
            if all(free[k] >= count for k, count in needs))
    return choices


_CHOICES: dict[tuple[int, ...], tuple[tuple[str, ...], ...]] = {}  # by the mat


def _sales_after(d: Draft) -> Iterator[tuple[Sale, Draft]]:
    """Every sale the player to move can make next, on `d` as it stands, with its draft.
    A sale is carried out only where the merchant is connected, buys the good and the beer
    it needs is there (`sell.sell_one` refuses every other; it decides the rest)."""
    goods = [(slot, tile) for slot, tile in zip(DATA.slots, d.tiles, strict=True)
             if tile is not None and for_sale(tile, d.seat)]
    if not goods:
        return
    component = d.graph().component
    own_beer, beer_at = _beer_by_area(d)
    for slot, tile in goods:
        area = component[slot.location]
        beer = tile.spec.beer
        for merchant in DATA.merchant_locations:
            if component[merchant] != area:
                continue
            ms = choose_merchant_tile(d, merchant, tile.industry)
            if ms is None:
                continue
            tile_there = d.merchants[ms]
            barrel = bool(beer) and tile_there is not None and tile_there.beer
            if beer - barrel > own_beer + beer_at.get(area, 0):
                continue
            base = _sale_of(slot.index, merchant, None)
            after = _carried(d.copy(), sell_one, base)
            if after is None:
                continue
            yield base, after
            if barrel and DATA.bonuses[merchant].kind == "develop":
                for k, industry in enumerate(INDUSTRIES):
                    if not developable(d.me, k):
                        continue
                    sale = _sale_of(slot.index, merchant, industry)
                    after = _carried(d.copy(), sell_one, sale)
                    if after is not None:
                        yield sale, after


def _beer_by_area(d: Draft) -> tuple[int, dict[int, int]]:
    """The beer of the player's own breweries, and of the others' by connected area."""
    own = 0
    at: dict[int, int] = {}
    component = d.graph().component
    tiles = d.tiles
    for slot in SLOTS_OF["brewery"]:
        tile = tiles[slot]
        if tile is None or tile.industry != "brewery" or not tile.resources:
            continue
        if tile.owner == d.seat:
            own += tile.resources
        else:
            area = component[SLOT_LOCATION[slot]]
            at[area] = at.get(area, 0) + tile.resources
    return own, at


def _sells(game: Game, cards: tuple[str, ...], bounded: bool) -> Iterator[Group]:
    options = list(_sales_after(Draft(game)))  # a sale in a set is never easier than alone
    if bounded:
        for sale, d in options:
            by_card = _SELLS[sale]
            yield d.quote(), [by_card[card] for card in cards]
        return
    tiles = [(sale.location, sale.slot) for sale, _ in options]
    found: dict[frozenset[int], tuple[tuple[int, ...], Draft]] = {}

    def visit(d: Draft, sequence: tuple[int, ...], used: frozenset[tuple[str, int]]) -> None:
        found.setdefault(frozenset(sequence), (sequence, d))
        for i, (sale, _) in enumerate(options):
            if tiles[i] not in used:
                child = _carried(d.copy(), sell_one, sale)
                if child is not None:
                    visit(child, (*sequence, i), used | {tiles[i]})

    for i, (_, d) in enumerate(options):
        visit(d, (i,), frozenset({tiles[i]}))
    for sequence, d in sorted(found.values(), key=lambda f: (len(f[0]), sorted(f[0]))):
        sales = tuple(options[i][0] for i in sequence)
        yield d.quote(), [_sell(card, sales, "sell") for card in cards]


def _scouts(game: Game, board: Board) -> Iterator[MaybeGroup]:
    if scout_refusal(game, board.me) is None:
        yield _FREE, _scout_actions(tuple(sorted(board.me.hand)))
