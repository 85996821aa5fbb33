"""The learned evaluation: it reads only what every seat sees, its shipped weights are the
ones its features describe, and training is reproducible from its seed."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from test_search_bots import hidden_twin, play_out

from brass.bots import train
from brass.bots.determinize import determinize
from brass.bots.evaluation import WEIGHTS, Evaluator, estimate, evaluator
from brass.bots.features import NAMES, features
from brass.bots.observe import observe
from brass.engine import new_game


@pytest.mark.parametrize("stop_after", [0, 30, 55, 90])
def test_the_evaluation_never_reads_what_a_seat_cannot_see(stop_after: int) -> None:
    """Two games that seat s sees alike (other hands, face-down cards, deck and rail shuffle
    dealt anew) have the same features and the same estimate; so does every seat's
    determinisation of the game (the cards it cannot see dealt at random)."""
    game, log, _ = play_out(3, 11, ["easy"] * 3, 0.0, stop_after=stop_after)
    seat = game.current_seat
    assert seat is not None
    twin = hidden_twin(game, seat, random.Random(stop_after))
    assert [p.hand for p in twin.players] != [p.hand for p in game.players]
    assert features(twin) == features(game)
    assert estimate(twin) == estimate(game)
    for viewer in range(3):
        world = determinize(observe(game, viewer, log), random.Random(viewer))
        assert world.deck != game.deck or not game.deck
        assert estimate(world) == estimate(game)


def test_an_estimate_is_a_distribution_of_the_win_and_the_result_once_over() -> None:
    game, _, _ = play_out(4, 3, ["easy"] * 4, 0.0)
    assert game.is_over
    final = estimate(game)
    assert final.vp == [float(s) for s in game.scores]
    assert final.win == [1.0 if r == 1 else 0.0 for r in game.ranks()] or sum(
        r == 1 for r in game.ranks()) > 1
    start = estimate(new_game(4, 3))
    assert abs(sum(start.win) - 1) < 1e-9 and all(0.1 < p < 0.45 for p in start.win)


def test_the_shipped_weights_are_for_these_features_and_say_how_they_were_made() -> None:
    weights = json.loads(WEIGHTS.read_text())
    assert weights["names"] == list(NAMES)
    made = weights["trained"]
    assert {"corpus", "games", "seed", "steps", "held_out"} <= set(made)
    assert made["held_out"]["log_loss"] < made["baseline_log_loss"]  # better than even odds
    assert evaluator().trained == made


def test_training_with_the_same_seed_reproduces_the_weights(tmp_path: Path) -> None:
    """A small corpus (two games of each player count) made twice is the same file; the
    weights fitted twice from it with one seed are equal, and another seed gives others."""
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    train.make_corpus(6, 5, one)
    train.make_corpus(6, 5, two)
    assert one.read_text() == two.read_text()
    fitted = [json.loads(p.read_text()) for p in (
        train_to(one, 3, tmp_path / "a.json"), train_to(one, 3, tmp_path / "b.json"),
        train_to(one, 4, tmp_path / "c.json"))]
    assert fitted[0] == fitted[1]
    assert fitted[0]["w1"] != fitted[2]["w1"]
    Evaluator(fitted[0])(new_game(2, 1))  # what training writes, play time reads


def train_to(corpus: Path, seed: int, out: Path) -> Path:
    train.train(corpus, seed, out, steps=40, every=4)
    return out
