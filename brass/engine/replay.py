"""Replaying a game from its record: `(players, seed, setup, actions)` gives the same game.

`game_hash` names a state exactly: the golden games (tests/fixtures/golden) record the hash
of every state, so any change of the rules' results shows.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

from .actions import Action, check_ids, parse_action
from .draft import Draft
from .rules import carry_on
from .setup import new_game
from .state import Game


def replay(players: int, seed: int, setup: dict[str, Any] | None,
           actions: Iterable[Action | dict[str, Any]]) -> Game:
    """The game after `actions` from the deal: `apply_action` on each in turn (one draft
    carries them all out, and the `Game` is made once, at the end)."""
    d = Draft(new_game(players, seed, setup))
    for action in actions:
        if isinstance(action, dict):
            action = parse_action(action)  # its ids checked
        else:
            check_ids(action)
        carry_on(d, action)
    return d.freeze()


def game_hash(game: Game) -> str:
    """The sha256 (hex) of the canonical JSON (sorted keys, no spaces) of `game.to_json()`."""
    text = json.dumps(game.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
