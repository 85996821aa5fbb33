"""Listing legal moves: `legal_moves` and `extensions` (bounded, priced), `legal_actions` (all).

Every candidate is carried out once on a draft, by the very rule functions `apply_action`
uses, so a listed action is exactly one that `apply_action` accepts, and the draft's record
of what was paid and taken is its price (`Quote`): nothing is carried out a second time to
price it. The card is part of an action but never changes its price, so each priced effect
is listed once per distinct card name in hand that allows it.

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

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from typing import Any

from .actions import Action, Build, Develop, Loan, Network, Pass, Sale, Scout, Sell
from .build import cards_allowing, check_target, place
from .data import DATA, INDUSTRIES
from .develop import develop_problem, pay_develop_iron
from .draft import Draft, Quote
from .errors import IllegalAction, Subject
from .links import add_link, finish_network, link_open, start_network
from .rules import _check_scout, _loan, carry_out
from .sell import for_sale, sell_one
from .state import Game, PlayerState, evolve_player


@dataclass(frozen=True, slots=True)
class Move:
    """A legal action and its full price, computed in one pass."""

    action: Action
    quote: Quote

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action.to_json(), "quote": self.quote.to_json()}


# Actions that differ only by the card played, and their one price.
Group = tuple[Quote, list[Action]]
_FREE = Quote(0, ())


def legal_actions(game: Game) -> list[Action]:
    """Every legal action of the player to move (the full list: see the module's doc)."""
    return [action for _, actions in _groups(game, bounded=False) for action in actions]


def legal_moves(game: Game) -> list[Move]:
    """Every legal move of the player to move with its price; a Sell has one sale and a
    Network one link (`extensions` adds more)."""
    return [Move(action, price) for price, actions in _groups(game, bounded=True)
            for action in actions]


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


def _groups(game: Game, bounded: bool) -> Iterator[Group]:
    if game.is_over:
        return
    cards = sorted(set(game.players[game.turn_order[game.turn_index]].hand))
    yield from _builds(game, cards)
    yield from _networks(game, cards, bounded)
    yield from _develops(game, cards)
    yield from _sells(game, cards, bounded)
    loan = _carried(Draft(game), _loan)
    if loan is not None:
        yield loan.quote(), [Loan(card) for card in cards]
    yield from _scouts(game)
    yield _FREE, [Pass(card) for card in cards]


def _carried(d: Draft, step: Callable[..., object], *args: object) -> Draft | None:
    """`d` once `step(d, *args)` is carried out on it, or None if the rules refuse it."""
    try:
        step(d, *args)
    except IllegalAction:
        return None
    return d


def _build_step(d: Draft, industry: str, slot: int) -> None:
    place(d, industry, slot, check_target(d, industry, slot))


def _builds(game: Game, cards: list[str]) -> Iterator[Group]:
    start = Draft(game)
    net = start.network(start.seat)
    me = start.me
    # An industry whose next tile is gone or costs more than the player has builds nowhere.
    payable = {industry: spec is not None and spec.cost <= me.money
               for industry in INDUSTRIES for spec in (me.next_tile(industry),)}
    for slot in DATA.slots:
        loc = DATA.locations[slot.location]
        in_network = net is None or slot.location in net
        for industry in slot.accepts:
            if not payable[industry]:
                continue
            allowed = cards_allowing(industry, slot.location, in_network)
            usable = [card for card in cards if card in allowed]
            if not usable:
                continue
            d = _carried(start.copy(), _build_step, industry, slot.index)
            if d is not None:
                yield d.quote(), [Build(card, industry, loc.id, slot.number) for card in usable]


def _networks(game: Game, cards: list[str], bounded: bool) -> Iterator[Group]:
    singles = _single_links(game)
    for i, d in singles:
        yield d.quote(), [Network(card, (DATA.links[i].id,)) for card in cards]
    start = None if bounded or not singles else _double_start(game)
    if start is None:
        return
    orders = {(i, j): d for i, _ in singles for j, d in _second_links(*start, i)}
    for (a, b), d in sorted(orders.items()):
        other = orders.get((b, a))
        if a < b or other is None or other.supplies != d.supplies:
            links = (DATA.links[a].id, DATA.links[b].id)
            yield d.quote(), [Network(card, links) for card in cards]


def _single_links(game: Game) -> list[tuple[int, Draft]]:
    """The links that work as a one-link network action, each with its draft: the base cost
    and the network are settled once, then each link is tried on a copy."""
    start = Draft(game)
    try:
        touching = start_network(start, 1)
    except IllegalAction:
        return []
    singles = []
    for i in range(len(DATA.links)):
        if link_open(start, i, touching):
            d = _carried(start.copy(), _link_step, i, touching, (i,))
            if d is not None:
                singles.append((i, d))
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
    """Each second railway that makes a legal pair after link `first`, with its draft."""
    d = start.copy()
    try:
        reach = add_link(d, first, touching)
        # a network action only pays from here on
        d.check_affordable(Subject("These two railways", "railways"))
    except IllegalAction:
        return
    for j in range(len(DATA.links)):
        if link_open(d, j, reach):
            after = _carried(d.copy(), _link_step, j, reach, (first, j))
            if after is not None:
                yield j, after


_DEVELOP_OPTIONS: tuple[tuple[str, ...], ...] = (
    *((i,) for i in INDUSTRIES), *combinations_with_replacement(INDUSTRIES, 2))


def _develops(game: Game, cards: list[str]) -> Iterator[Group]:
    """The iron's price depends only on how many tiles go, so it is carried out once per
    count; each choice of industries then needs only the mat: how many tiles of each
    industry can go in a row from the top of its stack (0, 1 or 2: none left, or a
    lightbulb, stops it)."""
    priced = {n: _carried(Draft(game), pay_develop_iron, INDUSTRIES[:n]) for n in (1, 2)}
    me = game.players[game.turn_order[game.turn_index]]
    free = {industry: _developable(me, k) for k, industry in enumerate(INDUSTRIES)}
    for industries in _DEVELOP_OPTIONS:
        d = priced[len(industries)]
        if d is not None and all(free[i] >= industries.count(i) for i in industries):
            yield d.quote(), [Develop(card, industries) for card in cards]


def _developable(player: PlayerState, k: int) -> int:
    """How many tiles of industry `k` could be developed one after another (at most 2)."""
    industry = INDUSTRIES[k]
    if develop_problem(player, industry):
        return 0
    mat = (*player.mat[:k], player.mat[k] + 1, *player.mat[k + 1:])
    return 1 if develop_problem(evolve_player(player, mat=mat), industry) else 2


def _sales_after(d: Draft) -> Iterator[tuple[Sale, Draft]]:
    """Every sale the player to move can make next, on `d` as it stands, with its draft."""
    for slot, tile in zip(DATA.slots, d.tiles, strict=True):
        if not for_sale(tile, d.seat):
            continue
        location = DATA.locations[slot.location].id
        for merchant in DATA.merchant_locations:
            merchant_id = DATA.locations[merchant].id
            base = Sale(location, slot.number, merchant_id, None)
            after = _carried(d.copy(), sell_one, base)
            if after is None:
                continue
            yield base, after
            if DATA.bonuses[merchant].kind == "develop":
                for industry in INDUSTRIES:
                    sale = Sale(location, slot.number, merchant_id, industry)
                    after = _carried(d.copy(), sell_one, sale)
                    if after is not None:
                        yield sale, after


def _sells(game: Game, cards: list[str], bounded: bool) -> Iterator[Group]:
    options = list(_sales_after(Draft(game)))  # a sale in a set is never easier than alone
    if bounded:
        for sale, d in options:
            yield d.quote(), [Sell(card, (sale,)) for card in cards]
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
        yield d.quote(), [Sell(card, sales) for card in cards]


def _scouts(game: Game) -> Iterator[Group]:
    d = Draft(game)
    if _carried(d, _check_scout) is None:
        return
    for cards in sorted(set(combinations(sorted(d.me.hand), 3))):
        yield _FREE, [Scout(cards)]
