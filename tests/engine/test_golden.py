"""Stored games stay replayable (ISSUE 7 point 8): the golden games of tests/fixtures/golden,
complete games recorded by this engine, replay to the very same states and scores.

Each file holds players, seed, setup and actions as the server stores a game, the hash of
every state (`game_hash`: sha256 of the canonical JSON of `Game.to_json()`) and the final
figures. A state that hashes differently means that games stored under this ENGINE_VERSION no
longer replay as they were played. Regenerating the files is not enough to pass: the corpus of
each released ENGINE_VERSION has a fingerprint recorded here (`RELEASED`), which never changes;
new rules need a new version, and its fingerprint added.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from brass.engine import ENGINE_VERSION, legal_actions, new_game, parse_action, play, replay
from brass.engine.effects import EVENTS_ADAPTER
from brass.engine.replay import game_hash

GOLDEN = Path(__file__).parents[1] / "fixtures" / "golden"
FILES = sorted(GOLDEN.glob("*.json"))
# the golden corpus of each released engine version (`fingerprint`): added to, never changed
RELEASED = {"1": "f92d178dbe1e2aafe0b22afb7791256ff5766a620da9b96e070bc9ffeab0c89b"}
REGENERATE = ("a change that alters any golden game must bump ENGINE_VERSION "
              "(brass/engine/__init__.py) and regenerate the files: "
              "python -m tests.fixtures.make_golden")


def test_the_corpus_has_2_3_and_4_player_games_of_random_and_bot_play():
    games = [json.loads(f.read_text()) for f in FILES]
    assert len(games) >= 6
    assert {g["players"] for g in games} == {2, 3, 4}
    assert {"bots", "uniform", "rich"} <= {g["policy"] for g in games}
    assert any(g["setup"] is not None for g in games) and any(g["setup"] is None for g in games)


def fingerprint(files: list[Path]) -> str:
    """sha256 of what the golden games hold: deal, actions, every state's hash, final figures."""
    digest = hashlib.sha256()
    for path in sorted(files):
        r = json.loads(path.read_text())
        digest.update(json.dumps([path.name, r["players"], r["seed"], r["setup"], r["actions"],
                                  r["states"], r["final"]], sort_keys=True).encode())
    return digest.hexdigest()


def test_the_corpus_is_the_one_released_with_this_engine_version() -> None:
    """Golden games regenerated under the same ENGINE_VERSION (so that changed rules pass)
    would hide that games stored under it no longer replay: refused."""
    assert ENGINE_VERSION in RELEASED, (
        f"engine {ENGINE_VERSION} is new: add its corpus fingerprint {fingerprint(FILES)} to "
        "RELEASED (and keep the older ones)")
    assert fingerprint(FILES) == RELEASED[ENGINE_VERSION], (
        f"the golden games differ from those released with engine {ENGINE_VERSION}: "
        f"{REGENERATE}, then add the new version's fingerprint to RELEASED")


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_golden_game_replays_state_by_state(path: Path) -> None:
    record = json.loads(path.read_text())
    assert record["engine_version"] == ENGINE_VERSION, (
        f"{path.name} was recorded under engine {record['engine_version']}: {REGENERATE}")
    game = new_game(record["players"], record["seed"], record["setup"])
    states = record["states"]
    assert len(states) == len(record["actions"]) + 1
    assert game_hash(game) == states[0], f"{path.name}: the deal differs; {REGENERATE}"
    for n, action_json in enumerate(record["actions"], start=1):
        game, events = play(game, parse_action(action_json))
        assert game_hash(game) == states[n], (
            f"{path.name}: the state after action {n} ({action_json}) differs; {REGENERATE}")
        EVENTS_ADAPTER.validate_json(json.dumps(list(events)))
    final = record["final"]
    assert game.is_over
    assert list(game.scores) == final["vp"], REGENERATE
    assert [p.money for p in game.players] == final["money"], REGENERATE
    assert [p.income_level for p in game.players] == final["income_level"], REGENERATE
    assert game.ranks() == final["ranks"] and game.winner_order == final["winner_order"]
    assert [[list(s) for s in era] for era in game.era_scores] == final["era_scores"]
    assert replay(record["players"], record["seed"], record["setup"],
                  record["actions"]) == game


def test_a_changed_result_is_caught() -> None:
    """The check is not vacuous: one different action gives different hashes."""
    record = json.loads(FILES[0].read_text())
    game = new_game(record["players"], record["seed"], record["setup"])
    first = parse_action(record["actions"][0])
    after = play(game, first)[0]
    assert game_hash(after) == record["states"][1]
    other = next(a for a in legal_actions(game) if a != first)
    assert game_hash(play(game, other)[0]) != record["states"][1]
