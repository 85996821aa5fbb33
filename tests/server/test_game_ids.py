"""Game ids go on command lines (`brass export GAME`): none starts with "-", which argparse
would take for an option (a 1-in-64 chance with plain URL-safe base64)."""

from __future__ import annotations

from brass.server.lobby import new_game_id


def test_no_game_id_starts_with_a_dash() -> None:
    ids = [new_game_id() for _ in range(5000)]
    assert not any(game_id.startswith("-") for game_id in ids)
    assert all(len(game_id) == 12 for game_id in ids) and len(set(ids)) == len(ids)
