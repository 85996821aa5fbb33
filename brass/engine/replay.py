"""Replaying a game from its record: `(players, seed, setup, actions)` gives the same game."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .actions import Action, parse_action
from .rules import apply_action
from .setup import new_game
from .state import Game


def replay(players: int, seed: int, setup: dict[str, Any] | None,
           actions: Iterable[Action | dict[str, Any]]) -> Game:
    game = new_game(players, seed, setup)
    for action in actions:
        game = apply_action(game, action if not isinstance(action, dict)
                            else parse_action(action))
    return game
