"""The worst-case corpus: positions where listing moves is the most work (issue 7, point 2).

    .venv/bin/python tests/engine/worst_case.py      # rewrites tests/fixtures/worst_case/*.json

Each position is built from a fixed deal with `brass.engine.scenario` (or, for the late rail
era, by seeded "rich" self-play), so the files are reproducible; `test_moves.py` checks that
the files are exactly what this module builds, and `bench/engine.py` times them.
- `sell_goods_4`, `sell_goods_6`, `sell_goods_8`: the mover holds that many unsold goods
  tiles, every merchant is connected (every rail link is built), its own breweries and the
  merchants hold beer to spare. The full `legal_actions` grows factorially with the tiles:
  it is feasible for 4, not for 6 or 8.
- `double_rail_own_beer`, `double_rail_opponent_beer`, `double_rail_no_network`: the rail
  era with few links built, coal on mines all over the board and breweries with beer (the
  mover's own, or only opponents'), money to spare; in the last one the mover has nothing on
  the board yet, so a first railway may go anywhere.
- `late_rail_4p_seed_<n>`: a rich 4-player game late in the rail era (round 6 or later), at
  the decision with the most legal actions.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from brass.engine import DATA, Game, apply_action, legal_actions, new_game
from brass.engine.scenario import with_link, with_player, with_tile, with_turn
from brass.engine.selfplay import choose

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "worst_case"
PLAYERS = 4
SEED = 7
LATE_RAIL_SEEDS = (11, 12, 13)
LATE_ROUND = 6

# The mover's goods tiles, in the order they are placed (rail-era levels).
GOODS_TILES: tuple[tuple[str, int, str, int], ...] = (
    ("birmingham", 0, "cotton", 3), ("coventry", 0, "pottery", 3),
    ("stoke_on_trent", 2, "manufacturer", 2), ("worcester", 0, "cotton", 2),
    ("birmingham", 1, "manufacturer", 5), ("stoke_on_trent", 1, "pottery", 2),
    ("derby", 1, "manufacturer", 2), ("worcester", 1, "cotton", 4),
)
OWN_BREWERIES = (("farm_brewery_north", 0), ("farm_brewery_south", 0), ("uttoxeter", 0),
                 ("stone", 0), ("derby", 0))
COAL_MINES = (("belper", 1), ("leek", 1), ("burton_on_trent", 0), ("cannock", 1),
              ("tamworth", 0), ("wolverhampton", 1), ("coalbrookdale", 2), ("dudley", 0),
              ("kidderminster", 0), ("coventry", 1), ("nuneaton", 1), ("redditch", 0))
OTHER_BREWERIES = (("stafford", 0), ("walsall", 1), ("nuneaton", 0), ("coalbrookdale", 0))


def _rail_start(seed: int = SEED) -> tuple[Game, int]:
    """A 4-player game in round 3 of the rail era, first seat in turn order to move with
    two actions left and £80."""
    game = new_game(PLAYERS, seed)
    game = with_turn(game, era="rail", round=3, turn_index=0, actions_left=2)
    me = game.turn_order[0]
    return with_player(game, me, money=80), me


def sell_goods(tiles: int) -> Game:
    game, me = _rail_start()
    for location, slot, industry, level in GOODS_TILES[:tiles]:
        game = with_tile(game, location, slot, me, industry, level)
    for location, slot in OWN_BREWERIES:
        game = with_tile(game, location, slot, me, "brewery", 2)
    for i, link in enumerate(DATA.links):
        if link.rail:
            game = with_link(game, link.id, (me + 1 + i % (PLAYERS - 1)) % PLAYERS)
    return game


def double_rail(own_beer: bool, network: bool) -> Game:
    game, me = _rail_start()
    others = [seat for seat in range(PLAYERS) if seat != me]
    if network:
        for location, slot, industry, level in GOODS_TILES[:6]:
            game = with_tile(game, location, slot, me, industry, level)
    for i, (location, slot) in enumerate(COAL_MINES):
        game = with_tile(game, location, slot, others[i % 3], "coal", 3)
    for i, (location, slot) in enumerate(OTHER_BREWERIES):
        game = with_tile(game, location, slot, others[i % 3], "brewery", 2)
    if own_beer:
        game = with_tile(game, "farm_brewery_north", 0, me, "brewery", 2)
    for i, link in enumerate(("birmingham--walsall", "derby--nottingham", "stone--uttoxeter")):
        game = with_link(game, link, others[i])
    return game


def late_rail(seed: int) -> Game:
    """The decision with the most legal actions in round `LATE_ROUND` or later of the rail
    era of a rich self-played game."""
    rng = random.Random(f"worst-case:{seed}")
    game = new_game(PLAYERS, seed)
    best: tuple[int, Game] | None = None
    while not game.is_over:
        actions = legal_actions(game)
        if game.era == "rail" and game.round >= LATE_ROUND and (
                best is None or len(actions) > best[0]):
            best = (len(actions), game)
        game = apply_action(game, choose(rng, actions, "rich"))
    assert best is not None
    return best[1]


def corpus() -> dict[str, Game]:
    games = {f"sell_goods_{k}": sell_goods(k) for k in (4, 6, 8)}
    games["double_rail_own_beer"] = double_rail(own_beer=True, network=True)
    games["double_rail_opponent_beer"] = double_rail(own_beer=False, network=True)
    games["double_rail_no_network"] = double_rail(own_beer=False, network=False)
    for seed in LATE_RAIL_SEEDS:
        games[f"late_rail_4p_seed_{seed}"] = late_rail(seed)
    return games


def as_text(game: Game) -> str:
    return json.dumps(game.to_json(), indent=1, sort_keys=True) + "\n"


def load() -> dict[str, Game]:
    """The corpus as stored in tests/fixtures/worst_case (what the bench times)."""
    return {path.stem: Game.from_json(json.loads(path.read_text()))
            for path in sorted(FIXTURES.glob("*.json"))}


def stored() -> dict[str, Any]:
    return {path.stem: path.read_text() for path in sorted(FIXTURES.glob("*.json"))}


def main() -> None:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for path in FIXTURES.glob("*.json"):
        path.unlink()
    for name, game in corpus().items():
        (FIXTURES / f"{name}.json").write_text(as_text(game))
        print(f"wrote {FIXTURES / name}.json", file=sys.stdout)


if __name__ == "__main__":
    main()
