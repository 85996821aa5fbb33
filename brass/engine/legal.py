"""`legal_actions`: every legal action of the player to move, as complete `Action` values.

How the list is built (one canonical order, no duplicates):
- kinds in the order build, network, develop, sell, loan, scout, pass;
- the card is part of an action, so each legal move appears once per distinct card name in
  hand that allows it (two copies of the same card give the same action);
- build: by slot in board order, then industry, then card;
- network: by link in board order; two rail links are one action per pair of links, listed
  in board order if that order is legal, else in the other order; both orders are listed
  when both are legal and take their coal or beer from different places;
- develop: one industry, or two in the industry order of DATA.md (the same one twice allowed);
- sell: one action per legal *set* of sales; each sale is a (tile, merchant, free develop)
  choice; a set is listed once, in the first order (tiles in board order first) that is legal;
- scout: each distinct set of three cards, sorted.
Each candidate is checked by carrying it out on a draft, so a listed action is exactly one
that `apply_action` accepts; the expensive part (the price of a build, link or sale) is
checked once and shared by every card that allows it.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, combinations_with_replacement

from .actions import Action, Build, Develop, Loan, Network, Pass, Sale, Scout, Sell
from .build import cards_allowing, check_target, place
from .data import DATA, GOODS, INDUSTRIES
from .develop import develop_problem, pay_develop_iron
from .draft import Draft, Supply
from .errors import IllegalAction
from .links import add_link, finish_network, start_network
from .rules import LOAN
from .sell import sell_one
from .state import Game, PlayerState, evolve_player


def legal_actions(game: Game) -> list[Action]:
    if game.is_over:
        return []
    d = Draft(game)
    cards = sorted(set(d.me.hand))
    actions: list[Action] = []
    actions.extend(_builds(game, cards))
    actions.extend(_networks(game, cards))
    actions.extend(_develops(game, cards))
    actions.extend(_sells(game, cards))
    if d.me.income_level - LOAN["levels"] >= LOAN["min_level"]:
        actions.extend(Loan(card) for card in cards)
    actions.extend(_scouts(d))
    actions.extend(Pass(card) for card in cards)
    return actions


def _works(game: Game, step: object, *args: object) -> bool:
    try:
        step(Draft(game), *args)  # type: ignore[operator]
    except IllegalAction:
        return False
    return True


def _build_step(d: Draft, industry: str, slot: int) -> None:
    place(d, industry, slot, check_target(d, industry, slot))


def _builds(game: Game, cards: list[str]) -> Iterator[Action]:
    seat = game.turn_order[game.turn_index]
    d = Draft(game)
    net = d.network(seat)
    me = game.players[seat]
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
            if usable and _works(game, _build_step, industry, slot.index):
                for card in usable:
                    yield Build(card, industry, loc.id, slot.number)


def _networks(game: Game, cards: list[str]) -> Iterator[Action]:
    d = Draft(game)
    if d.me.links_left == 0:
        return
    net = d.network(d.seat)
    era_ok = [(link.canal if game.era == "canal" else link.rail) and game.links[link.index] is None
              for link in DATA.links]
    first = [link.index for link in DATA.links
             if era_ok[link.index] and (net is None or net.intersection(link.ends))]
    singles = _single_links(game, first)
    for i in singles:
        for card in cards:
            yield Network(card, (DATA.links[i].id,))
    if game.era != "rail" or d.me.links_left < 2 or d.me.money < DATA.rules["link_cost"][
            "double_rail"] or not singles:
        return
    if not any(t is not None and t.industry == "brewery" and t.resources for t in game.tiles):
        return  # the second railway needs a brewery's beer
    start = Draft(game)
    try:
        touching = start_network(start, 2)
    except IllegalAction:
        return
    legal_orders: dict[tuple[int, int], tuple[Supply, ...]] = {}
    for i in singles:
        after_first = start.copy()
        try:
            reach = add_link(after_first, i, touching)
        except IllegalAction:
            continue
        if after_first.me.money < 0:
            continue  # a network action only pays: it cannot become affordable
        for j, link in enumerate(DATA.links):
            if not era_ok[j] or j == i or (reach is not None and not reach.intersection(link.ends)):
                continue
            d2 = after_first.copy()
            try:
                add_link(d2, j, reach)
                finish_network(d2, (i, j))
            except IllegalAction:
                continue
            legal_orders[(i, j)] = tuple(d2.supplies)
    for (a, b), supplies in sorted(legal_orders.items()):
        other = legal_orders.get((b, a))
        if a < b or other is None or other != supplies:
            for card in cards:
                yield Network(card, (DATA.links[a].id, DATA.links[b].id))


_DEVELOP_OPTIONS: tuple[tuple[str, ...], ...] = (
    *((i,) for i in INDUSTRIES), *combinations_with_replacement(INDUSTRIES, 2))


def _single_links(game: Game, candidates: list[int]) -> list[int]:
    """The candidate links that work as a one-link network action: the base cost and the
    network are settled once, then each link is tried on a copy."""
    start = Draft(game)
    try:
        touching = start_network(start, 1)
    except IllegalAction:
        return []
    singles = []
    for i in candidates:
        d = start.copy()
        try:
            add_link(d, i, touching)
            finish_network(d, (i,))
        except IllegalAction:
            continue
        singles.append(i)
    return singles


def _develops(game: Game, cards: list[str]) -> Iterator[Action]:
    """The iron's price depends only on how many tiles go, so it is checked once per count;
    each choice of industries then needs only the mat: how many tiles of each industry can
    go in a row from the top of its stack (0, 1 or 2: none left, or a lightbulb, stops it)."""
    affordable = {n: _works(game, pay_develop_iron, INDUSTRIES[:n]) for n in (1, 2)}
    me = game.players[game.turn_order[game.turn_index]]
    free = {industry: _developable(me, k) for k, industry in enumerate(INDUSTRIES)}
    for industries in _DEVELOP_OPTIONS:
        if affordable[len(industries)] and all(
                free[i] >= industries.count(i) for i in industries):
            for card in cards:
                yield Develop(card, industries)


def _developable(player: PlayerState, k: int) -> int:
    """How many tiles of industry `k` could be developed one after another (at most 2)."""
    industry = INDUSTRIES[k]
    if develop_problem(player, industry):
        return 0
    mat = (*player.mat[:k], player.mat[k] + 1, *player.mat[k + 1:])
    return 1 if develop_problem(evolve_player(player, mat=mat), industry) else 2


def _sale_options(game: Game) -> list[Sale]:
    """Every sale that is legal on its own (a sale in a set is never easier than alone)."""
    seat = game.turn_order[game.turn_index]
    options: list[Sale] = []
    for slot, tile in zip(DATA.slots, game.tiles, strict=True):
        if tile is None or tile.owner != seat or tile.flipped or tile.industry not in GOODS:
            continue
        location = DATA.locations[slot.location].id
        for merchant in DATA.merchant_locations:
            merchant_id = DATA.locations[merchant].id
            base = Sale(location, slot.number, merchant_id, None)
            if not _works(game, sell_one, base):
                continue
            options.append(base)
            if DATA.bonuses[merchant].kind == "develop":
                for industry in INDUSTRIES:
                    sale = Sale(location, slot.number, merchant_id, industry)
                    if _works(game, sell_one, sale):
                        options.append(sale)
    return options


def _sells(game: Game, cards: list[str]) -> Iterator[Action]:
    options = _sale_options(game)
    if not options:
        return
    emitted: set[frozenset[int]] = set()
    found: list[tuple[int, ...]] = []

    def explore(d: Draft, sequence: tuple[int, ...], used: frozenset[tuple[str, int]]) -> None:
        for i, sale in enumerate(options):
            tile = (sale.location, sale.slot)
            if tile in used:
                continue
            child = d.copy()
            try:
                sell_one(child, sale)
            except IllegalAction:
                continue
            seq = (*sequence, i)
            key = frozenset(seq)
            if key not in emitted:
                emitted.add(key)
                found.append(seq)
            explore(child, seq, used | {tile})

    explore(Draft(game), (), frozenset())
    found.sort(key=lambda seq: (len(seq), sorted(seq)))
    for seq in found:
        sales = tuple(options[i] for i in seq)
        for card in cards:
            yield Sell(card, sales)


def _scouts(d: Draft) -> Iterator[Action]:
    hand = d.me.hand
    if any(c.startswith("wild:") for c in hand) or not (
            d.wild_location_left and d.wild_industry_left):
        return
    for cards in sorted(set(combinations(sorted(hand), 3))):
        yield Scout(cards)
