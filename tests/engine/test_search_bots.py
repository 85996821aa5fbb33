"""The bot levels: every level plays only listed moves and finishes games; a bot's choice
depends on what its seat may see only; a search stops at its time budget; a determinisation
is a game the seat cannot tell from the real one."""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

import pytest

from brass.bots import LEVELS, LevelName, Observation, choose, observe
from brass.bots.determinize import determinize
from brass.bots.observe import knowledge
from brass.engine import (
    Game,
    Network,
    Sell,
    extensions,
    legal_moves,
    new_game,
    play,
    public_events,
    view,
)
from brass.engine.actions import Action


def listed(game: Game, action: Action) -> bool:
    """`action` is one of `legal_moves`, or grown from one through `extensions`."""
    moves = [m.action for m in legal_moves(game)]
    if isinstance(action, Sell) and len(action.sales) > 1:
        prefix = Sell(card=action.card, sales=action.sales[:1])
        for n in range(2, len(action.sales) + 1):
            grown = Sell(card=action.card, sales=action.sales[:n])
            if grown not in [m.action for m in extensions(game, prefix)]:
                return False
            prefix = grown
        return Sell(card=action.card, sales=action.sales[:1]) in moves
    if isinstance(action, Network) and len(action.links) == 2:
        first = Network(card=action.card, links=action.links[:1])
        return first in moves and action in [m.action for m in extensions(game, first)]
    return action in moves


def play_out(players: int, seed: int, levels: list[LevelName], budget: float,
             stop_after: int | None = None) -> tuple[Game, list[Any], Counter[str]]:
    """A game where seat s plays at `levels[s]`; every move checked against the listed
    ones. Stops after `stop_after` actions when given."""
    game, rng, kinds = new_game(players, seed), random.Random(seed), Counter[str]()
    log: list[Any] = []
    while not game.is_over and (stop_after is None or game.action_count < stop_after):
        seat = game.current_seat
        assert seat is not None
        action = choose(observe(game, seat, log), levels[seat], budget, rng)
        assert listed(game, action), action
        kinds[action.kind] += 1
        game, events = play(game, action)
        log.extend(public_events(list(events), None))
    return game, log, kinds


@pytest.mark.parametrize(("players", "levels"), [
    (2, ["hard", "medium"]), (3, ["easy", "hard", "medium"]), (4, ["medium", "easy", "hard",
                                                                   "easy"])])
def test_every_level_plays_listed_moves_to_the_end(players: int, levels: list[LevelName]
                                                   ) -> None:
    game, _, kinds = play_out(players, 40 + players, levels, budget=0.02)
    assert game.is_over and game.era == "rail"
    assert kinds["build"] and kinds["network"]


def hidden_twin(game: Game, seat: int, rng: random.Random) -> Game:
    """`game` with every card `seat` cannot see dealt anew (other hands, face-down cards,
    deck) and another seed (the rail era's shuffle): the same game as `seat` sees it."""
    unseen = [c for p in game.players if p.seat != seat for c in p.hand
              if not c.startswith("wild:")]
    unseen += [c for p in game.players for c in p.face_down] + list(game.deck)
    rng.shuffle(unseen)
    players = []
    for p in game.players:
        if p.seat != seat:
            wild = tuple(c for c in p.hand if c.startswith("wild:"))
            hand, unseen = wild + tuple(unseen[:len(p.hand) - len(wild)]), unseen[
                len(p.hand) - len(wild):]
            p = p.__class__(**{**{f: getattr(p, f) for f in p.__slots__}, "hand": hand})
        face_down, unseen = tuple(unseen[:len(p.face_down)]), unseen[len(p.face_down):]
        players.append(p.__class__(**{**{f: getattr(p, f) for f in p.__slots__},
                                      "face_down": face_down}))
    data = Game(**{**{f: getattr(game, f) for f in game.__slots__}, "players": tuple(players),
                   "deck": tuple(unseen), "seed": game.seed + 1}).to_json()
    return Game.from_json(data)


@pytest.mark.parametrize("stop_after", [0, 30, 40, 75])
def test_a_bot_never_reads_what_its_seat_cannot_see(stop_after: int) -> None:
    """Two games that seat s sees alike (same view, same public log) but with other hands,
    face-down cards, deck order and rail shuffle: every level chooses the same move for the
    same seed, though the hidden cards differ."""
    game, log, _ = play_out(4, 7, ["easy"] * 4, 0.0, stop_after=stop_after)
    seat = game.current_seat
    assert seat is not None
    twin = hidden_twin(game, seat, random.Random(stop_after))
    assert view(twin, seat) == view(game, seat)
    assert [p.hand for p in twin.players] != [p.hand for p in game.players]
    assert twin.deck != game.deck or not game.deck  # the canal deck runs out before its end
    for level in LEVELS:
        one = choose(observe(game, seat, log), level, 30.0, random.Random(3), rounds=3)
        two = choose(observe(twin, seat, log), level, 30.0, random.Random(3), rounds=3)
        assert one == two, level


def test_the_entry_point_takes_an_observation_not_a_game() -> None:
    game = new_game(2, 1)
    with pytest.raises(TypeError, match="Observation"):
        choose(game, "hard", 0.1, random.Random(1))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="level"):
        choose(observe(game, game.turn_order[0], []), "expert",  # type: ignore[arg-type]
               0.1, random.Random(1))


@pytest.mark.parametrize(("level", "share", "budget"), [
    ("hard", 1.0, 0.6), ("medium", 0.25, 0.6), ("medium", 0.25, 0.004)])
def test_a_search_stops_at_its_budget(level: LevelName, share: float, budget: float) -> None:
    """Unbounded in rounds, the hard search runs until its share of the budget is spent and
    stops within one play-out move of it (the margin allows for a loaded machine); the
    medium one (its own turn only) stops when its turn is searched or at its share, however
    small, and still plays a listed move."""
    game, log, _ = play_out(4, 9, ["easy"] * 4, 0.0, stop_after=70)
    seat = game.current_seat
    assert seat is not None
    start = time.monotonic()
    action = choose(observe(game, seat, log), level, budget, random.Random(1))
    elapsed = time.monotonic() - start
    assert elapsed < budget * share + 0.5
    if level == "hard":
        assert budget * share <= elapsed
    assert listed(game, action)


def test_a_determinisation_is_the_game_its_seat_sees() -> None:
    """At every decision of a 3-player game, for every seat: the same view, the same cards in
    all (hands, discards, face-down, deck), the same legal moves for the seat to move; the
    log's account of discards and wild cards agrees with the view."""
    game, rng = new_game(3, 21), random.Random(2)
    log: list[Any] = []
    while not game.is_over:
        for seat in range(3):
            observation: Observation = observe(game, seat, log)
            assert knowledge(observation).discards == tuple(p.discard for p in game.players)
            world = determinize(observation, rng)
            assert view(world, seat) == view(game, seat)
            assert cards(world) == cards(game)
            if seat == game.current_seat:
                assert legal_moves(world) == legal_moves(game)
        mover = game.current_seat
        assert mover is not None
        game, events = play(game, choose(observe(game, mover, log), "easy", 0.0, rng))
        log.extend(public_events(list(events), None))


def test_without_a_log_the_bot_still_deals_a_consistent_game() -> None:
    """A log stored before events were (None): discards and wild cards are guessed, the
    observing seat's own view still holds."""
    game, _, _ = play_out(2, 5, ["easy", "easy"], 0.0, stop_after=50)
    seat = game.current_seat
    assert seat is not None
    world = determinize(observe(game, seat, None), random.Random(1))
    assert view(world, seat) == view(game, seat)
    assert sum(cards(world).values()) == sum(cards(game).values())
    assert listed(game, choose(observe(game, seat, None), "hard", 5.0, random.Random(1),
                               rounds=2))


def cards(game: Game) -> Counter[str]:
    return Counter(c for p in game.players for c in (*p.hand, *p.discard, *p.face_down)
                   ) + Counter(game.deck)
