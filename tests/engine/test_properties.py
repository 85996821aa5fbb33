"""Contract properties checked at every state of random legal games (STYLE.md rule 6).

Games of 2, 3 and 4 players are played to the end over many seeds, choosing among
`legal_actions` either uniformly or with a bias towards build, network and sell (so that
boards fill up, tiles flip and the rail era sees double links and sales). At every state:

- `legal_actions` raises nothing, is not empty for the player to move and has no duplicates;
- every listed action round-trips through its JSON (`parse_action(a.to_json()) == a`);
- listed actions are accepted by `quote` and applied by `apply_action`: all of them at a
  sample of states, a random few (and always the one played) elsewhere;
- `apply_action` never changes its input (JSON and equality before and after);
- the game round-trips through JSON;
- invariants hold: money, VP and markets in range; each player's 45 tiles accounted for;
  every card of the deck somewhere; link tiles counted; tiles legal for the era;
- money moves as quoted: the mover pays `quote.money` and receives `quote.received`, others
  are untouched; the quoted cubes and barrels are the ones taken, market cubes at market
  prices; at the end of a round the new turn order follows spending and income is paid; at
  the end of an era its scores are added, and the rail era starts from a reset board;
- nothing legal is missing from `legal_actions` (a brute-force superset of candidate actions
  is tried at a sample of states, and at every state where two tiles could be sold);
- views show the public parts as they are, and no view (each seat, and the spectator)
  holds another seat's hand, the deck, a face-down card or the seed: checked by its keys,
  by its JSON text, and by re-dealing every secret the viewer may not see and requiring
  the very same view.

At the end of each game: each era lasted 10/9/8 rounds (2/3/4 players), with one action per
player in the first canal round and two in every other round; and replaying the log of
action JSON reproduces the final state exactly.

The last tests plant a leak in a view, and drop a legal action from the list, to show that
the checks are not vacuous.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field, replace
from itertools import combinations, combinations_with_replacement
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brass.engine import (
    DATA,
    INDUSTRIES,
    Action,
    Build,
    Develop,
    Game,
    IllegalAction,
    Loan,
    Network,
    Pass,
    Quote,
    Sale,
    Scout,
    Sell,
    apply_action,
    legal_actions,
    new_game,
    parse_action,
    quote,
    replay,
    view,
    views,
)
from brass.engine.selfplay import choose
from brass.engine.setup import full_deck

ROUNDS_PER_ERA = {2: 10, 3: 9, 4: 8}
TILES_PER_PLAYER = 45
LINK_TILES = 14
COAL_CAPACITY = 14
IRON_CAPACITY = 10
WILDS = ("wild:location", "wild:industry")
# Keys that would carry a secret out of a view (RULES.md §10); a view must never have them.
SECRET_KEYS = frozenset({"deck", "seed", "face_down", "rail_deck", "hands", "cache"})
# The action JSON of DESIGN.md, exactly.
WIRE_KEYS = {"build": {"kind", "card", "industry", "location", "slot"},
             "network": {"kind", "card", "links"}, "develop": {"kind", "card", "industries"},
             "sell": {"kind", "card", "sales"}, "loan": {"kind", "card"},
             "scout": {"kind", "cards"}, "pass": {"kind", "card"}}
SALE_KEYS = {"location", "slot", "merchant", "develop"}
FULL_CHECK_EVERY = 16  # check every listed action at one state in this many (and the first)
RANDOM_CHECKS = 2  # elsewhere: this many random listed actions besides the one played
COMPLETE_CHECK_EVERY = 24  # one state in this many: nothing legal is missing from the list

SEEDS = st.integers(min_value=10**12, max_value=2**62)  # long: easy to find in a view's text


# -- invariants of one state -------------------------------------------------------------------
def check_invariants(game: Game) -> None:
    n = game.num_players
    assert sorted(game.turn_order) == list(range(n))
    assert 0 <= game.coal_market <= COAL_CAPACITY == DATA.coal_market.capacity
    assert 0 <= game.iron_market <= IRON_CAPACITY == DATA.iron_market.capacity
    assert 0 <= game.wild_location_left <= 4 and 0 <= game.wild_industry_left <= 4

    on_board: Counter[int] = Counter()
    per_location: Counter[tuple[int, int]] = Counter()
    for slot, tile in zip(DATA.slots, game.tiles, strict=True):
        if tile is None:
            continue
        on_board[tile.owner] += 1
        per_location[(tile.owner, slot.location)] += 1
        spec = tile.spec
        where = f"{tile} in slot {slot.number} of {DATA.name(slot.location)}"
        assert tile.industry in slot.accepts, where
        assert spec.allowed_in(game.era), f"{where}: not a tile of the {game.era} era"
        if tile.industry in ("coal", "iron", "brewery"):
            assert tile.flipped == (tile.resources == 0), f"{where}: flipped iff empty"
        else:
            assert tile.resources == 0, where
    if game.era == "canal":
        assert max(per_location.values(), default=0) <= 1, "canal era: one tile per location"

    for link, owner in zip(DATA.links, game.links, strict=True):
        if owner is not None:
            assert link.canal if game.era == "canal" else link.rail, link.id

    for m, tile in zip(DATA.merchant_slots, game.merchants, strict=True):
        assert (tile is not None) == (m.min_players <= n)
        if tile is not None and tile.buys == "blank":
            assert not tile.beer

    cards: Counter[str] = Counter(game.deck)
    wild_in_hands: Counter[str] = Counter()
    for p in game.players:
        assert p.money >= 0, f"seat {p.seat} has £{p.money}"
        assert p.vp >= 0 and p.spent >= 0
        assert 0 <= p.income_space <= DATA.max_income_space
        on_mat = 0
        for i, industry in enumerate(INDUSTRIES):
            assert 0 <= p.mat[i] <= len(DATA.stacks[industry])
            on_mat += len(DATA.stacks[industry]) - p.mat[i]
        assert on_mat + on_board[p.seat] + p.retired == TILES_PER_PLAYER, (
            f"seat {p.seat}: {on_mat} on the mat + {on_board[p.seat]} on the board + "
            f"{p.retired} retired != {TILES_PER_PLAYER}")
        assert p.links_left == LINK_TILES - sum(1 for o in game.links if o == p.seat)
        for card in p.hand:
            if card in WILDS:
                wild_in_hands[card] += 1
            else:
                cards[card] += 1
        cards.update(p.discard)
        cards.update(p.face_down)
        assert not any(c in WILDS for c in (*p.discard, *p.face_down))
    assert cards == Counter(full_deck(n)), "every card of the deck is somewhere, once"
    assert wild_in_hands["wild:location"] + game.wild_location_left == 4
    assert wild_in_hands["wild:industry"] + game.wild_industry_left == 4

    if game.is_over:
        assert game.current_seat is None and legal_actions(game) == []
        assert len(game.era_scores) == 2
    else:
        assert 0 <= game.turn_index < n
        assert game.actions_left in (1, 2)
        assert game.players[game.current_seat].hand, "the player to move holds a card"


# -- one action ----------------------------------------------------------------------------------
def check_transition(before: Game, action: Action, price: Quote, after: Game) -> None:
    """What an applied action may change, and how money moves."""
    seat = before.turn_order[before.turn_index]
    assert after is not before
    assert after.action_count == before.action_count + 1
    assert price.money >= 0 and price.received >= 0
    check_supplies(before, action, price, after)
    mover_delta = price.received - price.money
    round_over = (after.is_over or after.era != before.era or after.round != before.round)
    if not round_over:
        for p, q in zip(before.players, after.players, strict=True):
            if p.seat == seat:
                assert q.money == p.money + mover_delta, (
                    f"{action}: money {p.money} -> {q.money}, quoted -{price.money} "
                    f"+{price.received}")
                assert q.spent == p.spent + price.money
            else:
                assert (q.money, q.vp, q.spent) == (p.money, p.vp, p.spent), (
                    f"{action} changed seat {p.seat}")
        return
    # The round ended: turn order by spending (ties keep their order), then income.
    spent = [p.spent + (price.money if p.seat == seat else 0) for p in before.players]
    if not after.is_over:
        assert after.turn_order == tuple(sorted(before.turn_order, key=lambda s: spent[s]))
        assert all(p.spent == 0 for p in after.players)
    for p, q in zip(before.players, after.players, strict=True):
        money = p.money + (mover_delta if p.seat == seat else 0)
        if after.is_over:
            assert q.money == money, "no income after the last round"
            continue
        expected = money + DATA.income_level(q.income_space)
        if expected >= 0:
            assert q.money == expected, f"seat {p.seat}: income paid {q.money - money}"
    if after.era != before.era or after.is_over:
        check_era_end(before, seat, price, after)


def check_era_end(before: Game, seat: int, price: Quote, after: Game) -> None:
    """The era's scores are added to VP; after the canal era the board is reset for the
    rail era (RULES.md §9)."""
    assert len(after.era_scores) == len(before.era_scores) + 1
    bonus_vp = 0  # Shrewsbury's and Nottingham's barrels give VP during the action itself
    for s in price.supplies:
        if s.source == "merchant" and s.slot is not None:
            bonus = DATA.bonuses[DATA.merchant_slots[s.slot].location]
            bonus_vp += bonus.amount if bonus.kind == "vp" else 0
    for p, q in zip(before.players, after.players, strict=True):
        links, tiles = after.era_scores[-1][p.seat]
        assert links >= 0 and tiles >= 0
        if q.money > 0 or after.is_over:  # no shortfall (which may cost VP) for this seat
            gained = bonus_vp if p.seat == seat else 0
            assert q.vp == p.vp + gained + links + tiles, f"seat {p.seat}: era scoring"
    if after.is_over:
        assert after.era == "rail"
        return
    assert (after.era, after.round, after.turn_index) == ("rail", 1, 0)
    assert all(owner is None for owner in after.links), "links go back to their owners"
    assert all(t is None or t.level > 1 for t in after.tiles), "level I tiles leave"
    for m in after.merchants:
        assert m is None or m.beer == (m.buys != "blank"), "barrels are put back"
    n = after.num_players
    assert len(after.deck) == len(full_deck(n)) - 8 * n
    for q in after.players:
        assert len(q.hand) == 8 and q.discard == () and q.face_down == ()
        assert q.links_left == LINK_TILES


def check_supplies(before: Game, action: Action, price: Quote, after: Game) -> None:
    """The quoted supplies are what the action took: cubes and barrels from the tiles named,
    barrels from the merchants named, market cubes at the market's prices."""
    taken: Counter[int] = Counter()
    market: Counter[str] = Counter()
    market_cost: Counter[str] = Counter()
    for s in price.supplies:
        assert s.count > 0 and s.resource in ("coal", "iron", "beer"), s
        assert s.source in ("tile", "market", "merchant"), s
        if s.source == "tile":
            assert s.slot is not None
            tile = before.tiles[s.slot]
            assert tile is not None and tile.owner == s.owner, s
            assert tile.industry == {"coal": "coal", "iron": "iron", "beer": "brewery"}[s.resource]
            taken[s.slot] += s.count
        elif s.source == "merchant":
            assert s.resource == "beer" and s.count == 1 and s.slot is not None
            m = before.merchants[s.slot]
            assert m is not None and m.beer, f"{s}: no barrel there"
            if after.era == before.era:
                after_m = after.merchants[s.slot]
                assert after_m is not None and not after_m.beer
        else:
            assert s.resource in ("coal", "iron"), s
            market[s.resource] += s.count
            market_cost[s.resource] += s.cost
    for slot, n in taken.items():
        tile, now = before.tiles[slot], after.tiles[slot]
        assert tile is not None and tile.resources >= n
        same = now is not None and (now.owner, now.industry, now.level) == (
            tile.owner, tile.industry, tile.level)
        if same and now is not None and after.era == before.era:
            assert now.resources == tile.resources - n, f"slot {slot}: {tile} -> {now}"
    # Purchases of a resource always come before any sale of it within one action.
    assert market_cost["coal"] == DATA.coal_market.buy_cost(before.coal_market, market["coal"])
    assert market_cost["iron"] == DATA.iron_market.buy_cost(before.iron_market, market["iron"])
    assert price.money >= market_cost["coal"] + market_cost["iron"]


def action_key(action: Action) -> Hashable:
    """Two rail links or several sales are one action whatever their order."""
    if isinstance(action, Network):
        return ("network", action.card, frozenset(action.links))
    if isinstance(action, Sell):
        return ("sell", action.card, frozenset(action.sales))
    return action


def candidates(game: Game) -> Iterator[Action]:
    """A superset of the legal actions of the player to move, built by brute force (one card
    for the large families where the card cannot matter: two rail links, pairs of sales)."""
    me = game.players[game.turn_order[game.turn_index]]
    cards = sorted(set(me.hand))
    for slot in DATA.slots:
        location = DATA.locations[slot.location].id
        for industry in slot.accepts:
            for card in cards:
                yield Build(card, industry, location, slot.number)
    for link in DATA.links:
        for card in cards:
            yield Network(card, (link.id,))
    if game.era == "rail":
        free = [link.id for i, link in enumerate(DATA.links) if link.rail and game.links[i] is None]
        for a in free:
            for b in free:
                if a != b:
                    yield Network(cards[0], (a, b))
    develops: list[tuple[str, ...]] = [(i,) for i in INDUSTRIES]
    develops += combinations_with_replacement(INDUSTRIES, 2)
    for industries in develops:
        for card in cards:
            yield Develop(card, industries)
    sales = []
    for slot, tile in zip(DATA.slots, game.tiles, strict=True):
        if tile is None or tile.owner != me.seat or tile.flipped:
            continue
        for merchant in DATA.merchant_locations:
            for develop in (None, *INDUSTRIES):
                sales.append(Sale(DATA.locations[slot.location].id, slot.number,
                                  DATA.locations[merchant].id, develop))
    singles = []
    for sale in sales:
        if _accepted(game, Sell(cards[0], (sale,))):
            singles.append(sale)
            for card in cards:
                yield Sell(card, (sale,))
    for a in singles:
        for b in singles:
            if (a.location, a.slot) != (b.location, b.slot):
                yield Sell(cards[0], (a, b))
    for card in cards:
        yield Loan(card)
        yield Pass(card)
    for three in sorted(set(combinations(sorted(me.hand), 3))):
        yield Scout(three)


def _accepted(game: Game, action: Action) -> bool:
    try:
        quote(game, action)
    except IllegalAction:
        return False
    return True


def check_complete(game: Game, actions: list[Action]) -> None:
    """Every action the engine accepts (of a brute-force superset) is listed."""
    listed = {action_key(a) for a in actions}
    for action in candidates(game):
        if action_key(action) not in listed:
            assert not _accepted(game, action), f"legal but not listed: {action}"


def check_actions(game: Game, actions: list[Action], chosen: Action, rng: random.Random,
                  check_all: bool, complete: bool) -> Game:
    """Check the listed actions at `game` (all, or a few); return the state after `chosen`."""
    before = game.to_json()
    snapshot = Game.from_json(json.loads(json.dumps(before)))
    assert snapshot == game, "Game JSON round-trip"
    assert snapshot.to_json() == before

    assert len(set(actions)) == len(actions), "legal_actions lists an action twice"
    for action in actions:
        wire = action.to_json()
        assert set(wire) == WIRE_KEYS[wire["kind"]], wire
        assert all(set(sale) == SALE_KEYS for sale in wire.get("sales", ())), wire
        assert parse_action(wire) == action
        assert parse_action(json.dumps(wire)) == action

    if complete:
        check_complete(game, actions)
    sample = actions if check_all else rng.sample(actions, min(RANDOM_CHECKS, len(actions)))
    for action in sample:
        if action != chosen:
            price = quote(game, action)
            check_transition(game, action, price, apply_action(game, action))
    price = quote(game, chosen)
    after = apply_action(game, chosen)
    check_transition(game, chosen, price, after)
    if check_all:  # a game read back from JSON behaves the same
        assert legal_actions(snapshot) == actions
        assert apply_action(snapshot, chosen) == after

    assert game.to_json() == before, "apply_action changed its input"
    assert game == snapshot, "apply_action changed its input"
    return after


# -- views ---------------------------------------------------------------------------------------
def walk(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            assert isinstance(key, str)
            yield from walk(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from walk(item, f"{path}[{i}]")


def redeal_secrets(game: Game, seat: int | None, rng: random.Random) -> Game:
    """The same game as `seat` sees it, with every secret of the others dealt anew: the deck
    order, their hands (wild cards stay: taking them is public), every face-down card, the seed."""
    hidden = list(game.deck)
    for p in game.players:
        hidden += [c for c in p.hand if p.seat != seat and c not in WILDS]
        hidden += list(p.face_down)
    rng.shuffle(hidden)
    pool = iter(hidden)
    players = []
    for p in game.players:
        hand = p.hand if p.seat == seat else tuple(
            c if c in WILDS else next(pool) for c in p.hand)
        face_down = tuple(next(pool) for _ in p.face_down)
        players.append(replace(p, hand=hand, face_down=face_down))
    deck = tuple(pool)
    assert len(deck) == len(game.deck)
    return replace(game, players=tuple(players), deck=deck, seed=game.seed + 1,
                   rail_deck=None if game.rail_deck is None else tuple(rng.sample(
                       game.rail_deck, len(game.rail_deck))))


def check_public_parts(game: Game, v: dict[str, Any]) -> None:
    """A view shows what everybody may see, as it is (RULES.md §10)."""
    assert (v["era"], v["round"], v["current_seat"], v["is_over"]) == (
        game.era, game.round, game.current_seat, game.is_over)
    assert v["turn_order"] == list(game.turn_order)
    assert v["deck_size"] == len(game.deck)
    assert (v["coal_market"], v["iron_market"]) == (game.coal_market, game.iron_market)
    for p, vp in zip(game.players, v["players"], strict=True):
        assert (vp["money"], vp["vp"], vp["income_space"], vp["spent"], vp["links_left"]) == (
            p.money, p.vp, p.income_space, p.spent, p.links_left)
        assert vp["discard_top"] == (p.discard[-1] if p.discard else None)
        assert vp["mat"] == {i: p.mat_levels(i) for i in INDUSTRIES}
    assert len(v["industries"]) == sum(t is not None for t in game.tiles)
    assert len(v["links"]) == sum(o is not None for o in game.links)
    assert len(v["merchants"]) == sum(m is not None for m in game.merchants)


def check_views(game: Game, rng: random.Random) -> None:
    together = views(game, [None, *range(game.num_players)])
    for seat in (None, *range(game.num_players)):
        v = view(game, seat)
        text = json.dumps(v)
        assert json.loads(text) == v, "a view is plain JSON"
        for path, value in walk(v):
            if isinstance(value, dict):
                leaked = SECRET_KEYS.intersection(value)
                assert not leaked, f"view for {seat}: {path} has {sorted(leaked)}"
        for i, p in enumerate(v["players"]):
            assert p["seat"] == i
            assert p["hand_size"] == len(game.players[i].hand)
            assert p["hand"] == (list(game.players[i].hand) if i == seat else None), (
                f"view for {seat} shows the hand of seat {i}")
        assert str(game.seed) not in text, f"view for {seat} holds the seed"
        check_public_parts(game, v)
        # Without the viewer's own hand, no sequence of cards may appear at all.
        if seat is not None:
            v["players"][seat]["hand"] = None
        public = json.dumps(v)
        secrets = [list(game.deck)] + [list(p.hand) for p in game.players if p.seat != seat]
        for cards in secrets:
            if len(cards) >= 2:
                assert json.dumps(cards)[1:-1] not in public, f"view for {seat} leaks {cards}"
        if seat is not None:
            v["players"][seat]["hand"] = list(game.players[seat].hand)
        assert view(redeal_secrets(game, seat, rng), seat) == v, (
            f"the view for {seat} changes with secrets it may not see")
        assert together[seat] == v, f"views() differs from view() for {seat}"


# -- a whole game --------------------------------------------------------------------------------
@dataclass
class Record:
    """What happened in one game: actions, and actions per (era, round, seat)."""

    actions: list[Action] = field(default_factory=list)
    turns: Counter[tuple[str, int, int]] = field(default_factory=Counter)
    rounds: dict[str, int] = field(default_factory=dict)


def check_eras(record: Record, players: int) -> None:
    rounds = ROUNDS_PER_ERA[players]
    assert record.rounds == {"canal": rounds, "rail": rounds}, record.rounds
    for era in ("canal", "rail"):
        for r in range(1, rounds + 1):
            for seat in range(players):
                want = 1 if (era, r) == ("canal", 1) else 2
                got = record.turns[(era, r, seat)]
                assert got == want, f"{era} round {r}: seat {seat} took {got} actions"
    assert sum(record.turns.values()) == len(record.actions)


def play_and_check(players: int, seed: int, policy: str) -> Game:
    rng = random.Random(seed)
    game = new_game(players, seed)
    record = Record()
    step = 0
    while not game.is_over:
        check_invariants(game)
        seat = game.current_seat
        assert seat is not None
        record.turns[(game.era, game.round, seat)] += 1
        record.rounds[game.era] = game.round
        actions = legal_actions(game)
        assert actions, f"seat {seat} has no legal action"
        chosen = choose(rng, actions, policy)
        check_views(game, rng)
        sellable = {(a.sales[0].location, a.sales[0].slot) for a in actions
                    if isinstance(a, Sell) and len(a.sales) == 1}
        game = check_actions(game, actions, chosen, rng, check_all=step % FULL_CHECK_EVERY == 0,
                             complete=step % COMPLETE_CHECK_EVERY == 0 or len(sellable) > 1)
        record.actions.append(chosen)
        step += 1
    check_invariants(game)
    check_views(game, rng)
    check_eras(record, players)
    with pytest.raises(IllegalAction):
        apply_action(game, record.actions[-1])

    log = [json.loads(json.dumps(a.to_json())) for a in record.actions]
    replayed = replay(players, seed, None, log)
    assert replayed == game, "replaying the log gives another game"
    assert replayed.to_json() == game.to_json()
    return game


@pytest.mark.parametrize("policy", ["uniform", "rich"])
@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=15, deadline=None)
@given(seed=SEEDS)
def test_random_games_keep_the_engine_contract(players: int, policy: str, seed: int) -> None:
    play_and_check(players, seed, policy)


def test_rich_games_are_rich() -> None:
    """The biased policy really reaches the interesting rules (else the properties are thin)."""
    kinds: Counter[str] = Counter()
    for seed in range(3):
        rng = random.Random(seed)
        game = new_game(4, seed)
        while not game.is_over:
            action = choose(rng, legal_actions(game), "rich")
            kinds[action.kind] += 1
            if isinstance(action, Network) and len(action.links) == 2:
                kinds["double rail"] += 1
            game = apply_action(game, action)
        assert max(game.scores) > 20
    assert kinds["build"] > 100 and kinds["sell"] > 10 and kinds["double rail"] > 0, kinds


def _mid_game(players: int = 4, seed: int = 10**12 + 7, actions: int = 10) -> Game:
    rng = random.Random(seed)
    game = new_game(players, seed)
    for _ in range(actions):
        game = apply_action(game, choose(rng, legal_actions(game), "rich"))
    return game


@pytest.mark.parametrize("leak", ["other hand", "face-down card", "deck top", "seed"])
def test_the_view_checks_catch_a_leak(leak: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks above are not vacuous: a view leaking any one secret fails them."""
    game = _mid_game()
    assert len(game.deck) >= 3 and all(p.face_down for p in game.players)
    check_views(game, random.Random(1))
    honest = view

    def leaky(g: Game, seat: int | None) -> dict[str, Any]:
        v = honest(g, seat)
        other = g.players[1 if seat == 0 else 0]
        v["players"][other.seat]["note"] = {
            "other hand": list(other.hand), "face-down card": other.face_down[0],
            "deck top": list(g.deck[:3]), "seed": g.seed}[leak]
        return v

    monkeypatch.setattr(sys.modules[__name__], "view", leaky)
    with pytest.raises(AssertionError, match=r"leaks|holds the seed|changes with secrets"):
        check_views(game, random.Random(1))


def test_the_completeness_check_catches_a_missing_action() -> None:
    game = _mid_game()
    actions = legal_actions(game)
    check_complete(game, actions)
    kinds = {a.kind for a in actions}
    assert kinds == {"build", "network", "develop", "sell", "loan", "scout", "pass"}
    for kind in kinds:
        fewer = [a for a in actions if a != next(a for a in actions if a.kind == kind)]
        with pytest.raises(AssertionError, match="legal but not listed"):
            check_complete(game, fewer)
