"""The states of the current turn a game holds in memory (`Runtime.turn`: what undo steps back
along) follow the engine's `turn_end` event, the same whether a move is made here
(`runtime.step`), caught up from another instance (`runtime.advance`) or loaded from a
snapshot (`runtime.rebuild`); and the turn ends with the deck empty too, where no card is
drawn (pure functions: no server)."""

from __future__ import annotations

import random

from brass.engine import Game, legal_actions, new_game, play
from brass.engine.selfplay import choose
from brass.server.runtime import advance, rebuild, step


def test_the_turn_held_is_the_engines_from_every_path() -> None:
    rng = random.Random(7)
    game = new_game(3, 7)
    turn: list[Game] = [game]
    start, log, snapshot = 0, [], None  # the log since the last round's end, and its state
    ended_without_draw = 0
    while not game.is_over:
        action = choose(rng, legal_actions(game), "rich")
        seat = game.current_seat
        after, events = play(game, action)
        kinds = [e["type"] for e in events]
        held, turn = turn, step(turn, after, events)
        log.append(action.to_json())
        # the turn held: every state since the seat to move began its turn
        if seat == after.current_seat and "turn_end" not in kinds:
            assert len(turn) >= 2 and turn[-2] is game, kinds
        else:
            assert turn == [after], kinds
            assert {"type": "turn_end", "seat": seat} in events, kinds
            ended_without_draw += "draw" not in kinds
        caught_up = advance(held, [("play", log[-1])])
        assert caught_up == [turn], f"a catch-up holds another turn after {kinds}"
        assert rebuild(3, 7, None, snapshot, log[start:]) == turn, (
            f"a load holds another turn after {kinds}")
        if "round_end" in kinds:  # a snapshot, as the server stores one
            start, snapshot = len(log), after.to_json()
        game = after
    assert ended_without_draw > 0, "no turn ended with the deck empty: the case is not tested"
