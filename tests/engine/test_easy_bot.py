"""The easy bot plays sensibly while staying beatable: it takes no loan in the game's last
round (the money could not be used) and leaves little money unspent at the end."""

from __future__ import annotations

import random

import pytest

from brass.bots.easy import choose_action, money_use, rounds_left
from brass.engine import Loan, apply_action, new_game


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_the_easy_bot_takes_no_useless_loan_and_spends_its_money(players: int, seed: int
                                                                 ) -> None:
    game, rng = new_game(players, seed), random.Random(seed)
    late_loans = 0
    while not game.is_over:
        action = choose_action(game, rng)
        if isinstance(action, Loan) and game.era == "rail" and rounds_left(game) == 1:
            late_loans += 1
        game = apply_action(game, action)
    unspent = [p.money for p in game.players]
    assert late_loans == 0
    assert sum(unspent) / players <= 15, unspent


def test_money_is_worth_nothing_once_it_cannot_be_spent() -> None:
    game = new_game(2, 1)
    assert money_use(game, rounds_left(game)) == 1.0
    assert money_use(game.__class__(**{**{f: getattr(game, f) for f in game.__slots__},
                                       "era": "rail", "round": 10}), 1) == 0.0
