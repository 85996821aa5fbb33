"""The analysis of a game says how sure each judgement is: a move it could not value is
marked unjudged (never loss 0); the same game analysed twice agrees. The game analysed has
planted blunders in both eras (`planted_game`; bench/blunders.py ranks them)."""

from __future__ import annotations

import random
from typing import Any

from brass.bots.analysis import MoveAnalysis, analyse_log
from brass.bots.easy import choose_action
from brass.engine import Build, Game, Loan, Pass, Sell, apply_action, legal_moves, new_game


def planted_game(players: int = 3, seed: int = 8) -> tuple[list[dict[str, Any]], list[int]]:
    """A game of easy bots in which, from each era's third round, seat 0 takes a loan it
    does not need (with £25 or more), seat 1 passes with £15 or more while a build is
    offered, and seat 2 passes when it could sell: the log and the 1-based places of the
    blunders in it."""
    game, rng = new_game(players, seed), random.Random(seed)
    actions: list[dict[str, Any]] = []
    planted: list[int] = []
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        action = blunder(game, seat) if game.round >= 3 else None
        if action is not None:
            planted.append(len(actions) + 1)
        else:
            action = choose_action(game, rng)
        actions.append(action.to_json())
        game = apply_action(game, action)
    return actions, planted


def blunder(game: Game, seat: int) -> Loan | Pass | None:
    moves = [m.action for m in legal_moves(game)]
    money = game.players[seat].money
    if seat == 0 and money >= 25:
        return next((a for a in moves if isinstance(a, Loan)), None)
    if seat == 1 and money >= 15 and any(isinstance(a, Build) for a in moves):
        return next((a for a in moves if isinstance(a, Pass)), None)
    if seat == 2 and any(isinstance(a, Sell) for a in moves):
        return next((a for a in moves if isinstance(a, Pass)), None)
    return None


def analysed(actions: list[dict[str, Any]], budget: float, salt: str = "t"
             ) -> list[MoveAnalysis]:
    return analyse_log(3, 8, None, actions, 0, len(actions), budget, salt)


def test_a_move_not_judged_is_marked_so_never_loss_0() -> None:
    """With no budget nothing is valued: every move says so, with no loss and no
    positions; with a budget every move is judged and its positions counted."""
    actions, _ = planted_game()
    none = analysed(actions[:12], 0.0)
    assert all(not m["judged"] and m["loss"] is None and m["positions"] == 0 for m in none)
    some = analysed(actions[:12], 5.0)
    assert all(m["judged"] and m["loss"] is not None and m["positions"] > 0 for m in some)
    assert all(abs(sum(m["win"]) - 1) < 0.01 for m in [*none, *some])


def test_the_same_game_analysed_twice_agrees() -> None:
    """Other salts (other deals of the hidden cards): every move's win chances within 10
    points of the other analysis' (the evaluation reads no hidden card)."""
    actions, _ = planted_game()
    one, two = analysed(actions[:60], 1.0, "one"), analysed(actions[:60], 1.0, "two")
    apart = [max(abs(a - b) for a, b in zip(x["win"], y["win"], strict=True))
             for x, y in zip(one, two, strict=True)]
    assert max(apart) <= 0.10, apart
