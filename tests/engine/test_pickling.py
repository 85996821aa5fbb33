"""A `Game` goes to a worker process pickled (state.py pickles its dataclasses positionally):
what arrives must equal what was sent, at every point of whole games, and stay usable."""

from __future__ import annotations

import pickle
import random

from brass.engine import apply_action, legal_moves, new_game, view
from brass.engine.state import Game, PlayerState, Tile


def test_games_arrive_whole_in_a_worker() -> None:
    rng = random.Random(5)
    for players, seed in [(2, 1), (3, 2), (4, 3)]:
        game = new_game(players, seed)
        while not game.is_over:
            arrived = pickle.loads(pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL))
            assert arrived == game and type(arrived) is Game
            assert all(type(p) is PlayerState for p in arrived.players)
            assert all(t is None or type(t) is Tile for t in arrived.tiles)
            assert view(arrived, 0) == view(game, 0)
            moves = legal_moves(game)
            assert [m.action for m in legal_moves(arrived)] == [m.action for m in moves]
            game = apply_action(game, rng.choice(moves).action)
        assert pickle.loads(pickle.dumps(game)).scores == game.scores
