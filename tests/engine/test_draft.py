"""One draft carrying out a whole log (what `replay` does) gives the games `apply_action` gives,
step by step, and what it keeps up to date as it goes (each seat's network, its own players
changed in place) is what the definitions say.

- after every action, `Draft.freeze()` equals the game `apply_action` made, and every seat's
  `Draft.network` equals `graph.network` of the draft's board (asked at every step, so the
  kept networks are carried through every kind of change: builds, overbuilds, links, tiles
  removed for a shortfall, the canal era's end);
- no game handed out (by `freeze`) changes afterwards, though the draft goes on changing the
  players it made.
"""

from __future__ import annotations

import pytest

from brass.engine import apply_action, new_game
from brass.engine.draft import Draft
from brass.engine.graph import network
from brass.engine.replay import game_hash
from brass.engine.rules import carry_on
from brass.engine.selfplay import play_random_game


@pytest.mark.parametrize(("players", "seed", "policy"), [
    (2, 3, "rich"), (3, 5, "rich"), (4, 1, "rich"), (4, 2, "rich"), (4, 7, "uniform"),
    (3, 11, "uniform")])
def test_one_draft_carries_out_a_log_as_apply_action_does(players: int, seed: int,
                                                          policy: str) -> None:
    log = play_random_game(players, seed, policy).log
    game = new_game(players, seed)
    d = Draft(game)  # frozen at every step
    whole = Draft(game)  # frozen at the end only, as `replay` does
    handed_out = []
    for action in log:
        game = apply_action(game, action)
        for draft in (d, whole):
            carry_on(draft, action)
            for seat in range(players):
                assert draft.network(seat) == network(draft.tiles, draft.links, seat)
        frozen = d.freeze()
        assert frozen == game
        handed_out.append((frozen, game_hash(frozen)))
    assert game.is_over and whole.freeze() == game
    for frozen, digest in handed_out:
        assert game_hash(frozen) == digest
