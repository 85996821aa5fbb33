"""Stored games stay replayable (ISSUE 7 point 8): the golden games of tests/fixtures/golden,
complete games recorded by this engine, replay to the very same states and scores.

Each file holds players, seed, setup and actions as the server stores a game, the hash of
every state (`game_hash`: sha256 of the canonical JSON of `Game.to_json()`) and the final
figures. A state that hashes differently means that games stored under this ENGINE_VERSION no
longer replay as they were played. Regenerating the files is not enough to pass: the corpus of
each released ENGINE_VERSION has a fingerprint recorded here (`RELEASED`), which never changes;
new rules need a new version, and its fingerprint added.

The corpus of an older version that this engine still replays to the same states
(`REPLAYS_VERSIONS`: a later version only added events) is kept in `golden/<version>/` and
replayed too, under its own fingerprint: games stored under it stay playable and replayable.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from brass.engine import (
    ENGINE_VERSION,
    REPLAYS_VERSIONS,
    Game,
    legal_actions,
    new_game,
    parse_action,
    play,
    replay,
)
from brass.engine.effects import EVENTS_ADAPTER
from brass.engine.replay import game_hash

GOLDEN = Path(__file__).parents[1] / "fixtures" / "golden"
FILES = sorted(GOLDEN.glob("*.json"))
# the kept corpora of older versions this engine replays alike, by version
OLDER = {d.name: sorted(d.glob("*.json")) for d in sorted(GOLDEN.iterdir()) if d.is_dir()}
# the golden corpus of each released engine version (`fingerprint`): added to, never changed
RELEASED = {"1": "f92d178dbe1e2aafe0b22afb7791256ff5766a620da9b96e070bc9ffeab0c89b",
            "2": "2a72f690a29bcaebed46136afc3da37337194a254c1fe15df9a8ba716b5a2cb3"}
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


def test_older_corpora_are_those_released_and_replayed_alike() -> None:
    """A kept older corpus is the one released with its version, which this engine declares
    it replays to the same states (the replay itself: the test below)."""
    assert OLDER, "the corpus of engine 1 is kept in golden/1"
    for version, files in OLDER.items():
        assert version in REPLAYS_VERSIONS, (
            f"golden/{version} is kept, but this engine does not replay engine {version}'s logs")
        assert fingerprint(files) == RELEASED[version], (
            f"golden/{version} differs from the corpus released with engine {version}")
    assert ENGINE_VERSION in REPLAYS_VERSIONS


ALL = FILES + [f for files in OLDER.values() for f in files]


def turn_ended(before: Game, after: Game) -> bool:
    """The end of a turn told from the states (what the server did before `turn_end`)."""
    seat = before.current_seat
    return not (after.current_seat == seat and before.era == after.era
                and before.round == after.round and before.turn_index == after.turn_index
                and after.actions_left == before.actions_left - 1)


@pytest.mark.parametrize("path", ALL, ids=[f"{f.parent.name}/{f.stem}" for f in ALL])
def test_golden_game_replays_state_by_state(path: Path) -> None:
    """Each state hashes as recorded; the events validate, and a `turn_end` of the seat that
    moved comes exactly with the actions that end its turn (with or without a draw)."""
    record = json.loads(path.read_text())
    version = ENGINE_VERSION if path.parent == GOLDEN else path.parent.name
    assert record["engine_version"] == version, (
        f"{path.name} was recorded under engine {record['engine_version']}: {REGENERATE}")
    game = new_game(record["players"], record["seed"], record["setup"])
    states = record["states"]
    assert len(states) == len(record["actions"]) + 1
    assert game_hash(game) == states[0], f"{path.name}: the deal differs; {REGENERATE}"
    for n, action_json in enumerate(record["actions"], start=1):
        before, seat = game, game.current_seat
        game, events = play(game, parse_action(action_json))
        assert game_hash(game) == states[n], (
            f"{path.name}: the state after action {n} ({action_json}) differs; {REGENERATE}")
        EVENTS_ADAPTER.validate_json(json.dumps(list(events)))
        ends = [e for e in events if e["type"] == "turn_end"]
        assert ends == ([{"type": "turn_end", "seat": seat}] if turn_ended(before, game)
                        else []), f"{path.name}: action {n}: {[e['type'] for e in events]}"
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
