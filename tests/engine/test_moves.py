"""`legal_moves` and `extensions`: bounded, priced in one pass, and as complete as `legal_actions`.

At states of random games (2-4 players, uniform and rich play choosing among the full
`legal_actions`) and on every position of the worst-case corpus (`worst_case.py`):
- `legal_groups` is `legal_moves` by effect (a group's actions differ only by their cards);
- `legal_moves` is `legal_actions` without the Sells of two or more sales and the Networks
  of two links, in the same order (so legal_moves ⊆ legal_actions);
- every move's quote equals `quote(game, move.action)`, and every move applies;
- `extensions` of each Sell or Network move add exactly one sale at the end, or the second
  link, only list legal actions (priced as `quote` prices them), and miss none (brute force
  over every sale and every link, for a few moves of each state);
- every legal Sell and Network of `legal_actions` is reached from `legal_moves` by repeated
  extensions.
On the corpus positions where the full `legal_actions` takes too long (6 or 8 unsold goods
tiles) everything but the comparisons with `legal_actions` is checked.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import action_key
from worst_case import as_text, corpus, load, stored

from brass.engine import (
    DATA,
    INDUSTRIES,
    Action,
    Game,
    IllegalAction,
    Loan,
    Move,
    Network,
    Sale,
    Scout,
    Sell,
    apply_action,
    extensions,
    legal_actions,
    legal_groups,
    legal_moves,
    new_game,
    parse_action,
    quote,
)
from brass.engine.selfplay import choose

FULL_CHECK_EVERY = 6  # every move applied and every extension priced at one state in this many
COMPLETE_EXTENSIONS = 3  # extensions checked against brute force for this many moves per kind
FEASIBLE_GOODS = 4  # the full legal_actions is computed where the mover has at most this many


def bounded(action: Action) -> bool:
    """An action `legal_moves` lists itself (not reached through `extensions`)."""
    if isinstance(action, Sell):
        return len(action.sales) == 1
    if isinstance(action, Network):
        return len(action.links) == 1
    return True


class Extensions:
    """`extensions` of each action asked, computed once and checked when first computed."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.known: dict[Action, list[Move]] = {}

    def of(self, action: Sell | Network) -> list[Move]:
        if action not in self.known:
            moves = extensions(self.game, action)
            for move in moves:
                child = move.action
                if isinstance(action, Sell):
                    assert isinstance(child, Sell) and child.card == action.card
                    assert child.sales[:-1] == action.sales, (action, child)
                else:
                    assert isinstance(child, Network) and child.card == action.card
                    assert len(action.links) == 1 and child.links[:1] == action.links
                    assert len(child.links) == 2, child
            assert len(set(moves)) == len(moves), f"extensions of {action} list one twice"
            self.known[action] = moves
        return self.known[action]


def check_priced(game: Game, moves: list[Move], apply: bool) -> None:
    for move in moves:
        assert move.quote == quote(game, move.action), move
        assert parse_action(json.loads(json.dumps(move.to_json()))["action"]) == move.action
        assert set(move.to_json()) == {"action", "quote"}
        if apply:
            apply_action(game, move.action)


def all_sales(game: Game) -> list[Sale]:
    return [Sale(DATA.locations[slot.location].id, slot.number, DATA.locations[m].id, develop)
            for slot in DATA.slots for m in DATA.merchant_locations
            for develop in (None, *INDUSTRIES)]


def check_extensions_complete(game: Game, action: Sell | Network, found: list[Move]) -> None:
    """No legal action of one more sale (any tile, merchant, develop) or link is missing."""
    listed = {move.action for move in found}
    if isinstance(action, Sell):
        candidates: list[Action] = [Sell(action.card, (*action.sales, sale))
                                    for sale in all_sales(game)]
    else:
        candidates = [Network(action.card, (*action.links, link.id)) for link in DATA.links
                      if link.id not in action.links]
    for candidate in candidates:
        if candidate not in listed:
            with pytest.raises(IllegalAction):
                quote(game, candidate)


def check_moves(game: Game, actions: list[Action] | None, full: bool,
                rng: random.Random) -> None:
    """Check `legal_moves` at `game` (with `actions`, its `legal_actions`, when known)."""
    moves = legal_moves(game)
    groups = legal_groups(game)
    assert [Move(action, price) for price, group in groups for action in group] == moves
    for _, group in groups:  # one effect per group: its actions differ only by their cards
        assert len({replace(a, cards=()) if isinstance(a, Scout) else replace(a, card="")
                    for a in group}) == 1, group
    assert all(bounded(move.action) for move in moves)
    assert len({move.action for move in moves}) == len(moves), "a move is listed twice"
    if actions is not None:
        assert [move.action for move in moves] == [a for a in actions if bounded(a)]
    check_priced(game, moves if full else rng.sample(moves, min(3, len(moves))), apply=full)

    ext = Extensions(game)
    growable = [m.action for m in moves if isinstance(m.action, Sell | Network)]
    for kind in ("sell", "network"):
        for action in [a for a in growable if a.kind == kind][:COMPLETE_EXTENSIONS]:
            assert isinstance(action, Sell | Network)
            check_extensions_complete(game, action, ext.of(action))
    for action in growable if full else rng.sample(growable, min(3, len(growable))):
        assert isinstance(action, Sell | Network)
        check_priced(game, ext.of(action), apply=full)
    if actions is None:
        return
    keys = {action_key(a) for a in actions}
    for action in growable:
        assert isinstance(action, Sell | Network)
        for move in ext.of(action):
            assert action_key(move.action) in keys, f"extension not legal: {move.action}"
    # Every legal sale and double railway is reached one extension at a time.
    for action in actions:
        if isinstance(action, Sell):
            for n in range(2, len(action.sales) + 1):
                parent = Sell(action.card, action.sales[:n - 1])
                assert Sell(action.card, action.sales[:n]) in {
                    m.action for m in ext.of(parent)}, f"{action} not reached"
        elif isinstance(action, Network) and len(action.links) == 2:
            parent = Network(action.card, action.links[:1])
            assert action in {m.action for m in ext.of(parent)}, f"{action} not reached"


@pytest.mark.parametrize("policy", ["uniform", "rich"])
@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_legal_moves_are_legal_actions_priced_and_extensions_reach_every_sale_and_link(
        players: int, policy: str, seed: int) -> None:
    rng = random.Random(seed)
    game = new_game(players, seed)
    step = 0
    while not game.is_over:
        actions = legal_actions(game)
        grown = any(not bounded(a) for a in actions)
        check_moves(game, actions, full=step % FULL_CHECK_EVERY == 0 or grown, rng=rng)
        game = apply_action(game, choose(rng, actions, policy))
        step += 1
    assert legal_moves(game) == []


def test_extensions_refuse_an_illegal_action_and_grow_nothing_else() -> None:
    game = new_game(2, 3)
    seat = game.current_seat
    assert seat is not None
    card = game.players[seat].hand[0]
    with pytest.raises(IllegalAction):
        extensions(game, Sell(card, (Sale("birmingham", 0, "oxford"),)))
    with pytest.raises(IllegalAction):
        extensions(game, Network("wild:location", ("birmingham--oxford",)))
    assert extensions(game, Loan(card)) == []
    canal = next(m.action for m in legal_moves(game) if isinstance(m.action, Network))
    assert extensions(game, canal) == []


# -- the worst-case corpus --------------------------------------------------------------------
def test_the_worst_case_fixtures_are_what_the_corpus_builder_makes() -> None:
    built = {name: as_text(game) for name, game in corpus().items()}
    assert stored() == built, "run: .venv/bin/python tests/engine/worst_case.py"


def _goods_for_sale(game: Game) -> int:
    moves = legal_moves(game)
    return len({(m.action.sales[0].location, m.action.sales[0].slot) for m in moves
                if isinstance(m.action, Sell)})


@pytest.mark.parametrize("name", sorted(load()))
def test_worst_case_moves_and_extensions_work_and_match_legal_actions(name: str) -> None:
    game = load()[name]
    feasible = _goods_for_sale(game) <= FEASIBLE_GOODS
    check_moves(game, legal_actions(game) if feasible else None, full=True,
                rng=random.Random(name))
    if name.startswith("sell_goods"):
        assert _goods_for_sale(game) == int(name.rsplit("_", 1)[1])
    if name.startswith("double_rail"):
        assert any(isinstance(m.action, Network) and extensions(game, m.action)
                   for m in legal_moves(game))


def test_the_checks_catch_a_missing_extension(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not vacuous: extensions that drop their last entry fail the checks above."""
    import test_moves

    game = load()["double_rail_own_beer"]
    honest = extensions
    monkeypatch.setattr(test_moves, "extensions", lambda g, a: honest(g, a)[:-1])
    with pytest.raises((AssertionError, pytest.fail.Exception)):
        check_moves(game, legal_actions(game), full=False, rng=random.Random(1))


def test_listings_share_their_actions_sales_included() -> None:
    """Each action is made once and every listing shares it (legal.py), one-sale Sells
    included: the server keeps each action's JSON text by identity, so a listing that made
    its actions anew would make their texts anew at every move."""
    for seed in range(40):
        rng = random.Random(seed)
        game = new_game(4, seed)
        while not game.is_over:
            moves = legal_moves(game)
            if any(isinstance(m.action, Sell) for m in moves):
                again = legal_moves(game)
                assert all(m.action is n.action for m, n in zip(moves, again, strict=True))
                return
            game = apply_action(game, choose(rng, legal_actions(game), "rich"))
    raise AssertionError("no game reached a sale")
