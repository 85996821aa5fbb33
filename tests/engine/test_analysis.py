"""The analysis of a game says how sure each judgement is: a move it could not value is
marked unjudged (never loss 0); the same game analysed twice agrees; blunders planted in a
game of sound play (`planted_among_sound_play`) rank among its top mistakes. `planted_game`
plants them among the easy bot's own mistakes (bench/blunders.py ranks both)."""

from __future__ import annotations

import random
from typing import Any

from brass.bots import choose, observe
from brass.bots.analysis import MoveAnalysis, analyse_log
from brass.bots.easy import choose_action, valued_moves
from brass.engine import (
    Build,
    Game,
    Loan,
    Pass,
    Sell,
    apply_action,
    legal_moves,
    new_game,
    play,
    public_events,
)


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


def blunder(game: Game, seat: int, loan_from: int = 25) -> Loan | Pass | None:
    moves = [m.action for m in legal_moves(game)]
    money = game.players[seat].money
    if seat == 0 and money >= loan_from:
        return next((a for a in moves if isinstance(a, Loan)), None)
    if seat == 1 and money >= 15 and any(isinstance(a, Build) for a in moves):
        return next((a for a in moves if isinstance(a, Pass)), None)
    if seat == 2 and any(isinstance(a, Sell) for a in moves):
        return next((a for a in moves if isinstance(a, Pass)), None)
    return None


PLANTED_PER_ERA = 2  # blunders of each kind (each seat's) planted per era at most
RICH = 40  # £: a loan taken with this much or more is not needed


def planted_among_sound_play(seed: int = 8) -> tuple[list[dict[str, Any]], dict[int, str]]:
    """A 3-player game of medium bots (the search on the learned evaluation: sound play, by
    the analysis' own measure mostly) in which, from each era's second round, at the last
    action of a turn (so the turn has no action left to make up for it), up to
    `PLANTED_PER_ERA` times per era: seat 0 takes a loan it does not need (with `RICH` or
    more), seat 1 passes with £15 or more while a build is offered, seat 2 passes when it
    could sell. The log and each blunder's 1-based place with its kind."""
    game, rng, log = new_game(3, seed), random.Random(seed), []
    actions: list[dict[str, Any]] = []
    planted: dict[int, str] = {}
    count: dict[tuple[str, int], int] = {}
    kinds = {0: "unneeded loan", 1: "pass with builds offered", 2: "pass with a sale offered"}
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        action = None
        if (game.round >= 2 and game.actions_left == 1
                and count.get((game.era, seat), 0) < PLANTED_PER_ERA):
            action = clear_blunder(game, seat)
        if action is not None:
            count[(game.era, seat)] = count.get((game.era, seat), 0) + 1
            planted[len(actions) + 1] = f"{game.era} {kinds[seat]}"
        else:  # a budget the medium bot never reaches: the same game every run
            action = choose(observe(game, seat, log), "medium", 4.0, rng, cpu=True)
        actions.append(action.to_json())
        game, events = play(game, action)
        log.extend(public_events(list(events), None))
    return actions, planted


CLEAR_VP = 3.0  # a build or sale worth this much more than passing (the easy bot's measure)


def clear_blunder(game: Game, seat: int) -> Loan | Pass | None:
    """`blunder` where it is clear by the easy bot's one-move measure (`position_value`, not
    the analysis' search): a loan with `RICH` or more; a pass while a build (seat 1) or a sale
    (seat 2) is worth `CLEAR_VP` more than passing."""
    action = blunder(game, seat, loan_from=RICH)
    if not isinstance(action, Pass):
        return action
    valued = valued_moves(game, random.Random(0))
    kind = Build if seat == 1 else Sell
    best = max((v for v, a in valued if isinstance(a, kind)), default=float("-inf"))
    passing = max(v for v, a in valued if isinstance(a, Pass))
    return action if best - passing >= CLEAR_VP else None


def analysed(actions: list[dict[str, Any]], budget: float, salt: str = "t", seed: int = 8
             ) -> list[MoveAnalysis]:
    return analyse_log(3, seed, None, actions, 0, len(actions), budget, salt)


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


TOP = 2  # every planted blunder among the top TOP x (number of blunders) mistakes


def test_planted_blunders_rank_among_the_top_mistakes() -> None:
    """Blunders of every kind in both eras, among medium bots' moves: each among the
    `TOP` x N biggest losses (N: the number planted, about 7 of 105 moves), judged (never
    loss 0), and the move the analysis prefers is not the blunder."""
    actions, planted = planted_among_sound_play()
    kinds = set(planted.values())
    assert {"canal pass with builds offered", "canal pass with a sale offered",
            "rail unneeded loan", "rail pass with builds offered"} <= kinds, planted
    moves = analysed(actions, 5.0)
    ranked = [m["seq"] for m in sorted(moves, key=lambda m: -(m["loss"] or 0.0))]
    ranks = {seq: ranked.index(seq) + 1 for seq in planted}
    seen = {seq: (planted[seq], ranks[seq], moves[seq - 1]["loss"]) for seq in planted}
    assert all(moves[seq - 1]["judged"] and (moves[seq - 1]["loss"] or 0) > 0
               for seq in planted), seen
    assert max(ranks.values()) <= TOP * len(planted), (
        f"blunders ranked below the top {TOP * len(planted)}: {seen}")
