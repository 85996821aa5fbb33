"""Engine benchmark (run on its own, not in the test suite):

    .venv/bin/python bench/engine.py [--games 20] [--seed 1]

Prints, against the engine-speed goals of issue 13 ("met" or "missed"):
- the median time of one `apply_action`, over every move of the random games below (≤ 20 µs);
- complete random 4-player games per second on one core, with a full `legal_actions` at
  every decision (`brass.engine.selfplay`), by the CPU time of this process (so that other
  load on the machine does not count; the wall time is printed beside it): ≥ 100 games/s in
  uniform play, ≥ 30 in rich play;
- the median time to replay a complete game from its logged action JSON
  (`brass.engine.replay`: parse and apply every action, as the server does): ≤ 2 ms;
and, for information, the median time of one `legal_actions` over mid-game 4-player states
(the middle half of each game). All for uniform random play and for "rich" play (`--policy
rich` of selfplay: mostly build/network/sell, so boards fill up and there is more to
enumerate; uniform players soon run out of money and mostly pass or take loans).

Then, against the goals of issue 7:
- listing and pricing per decision, old against new, in one run, over every state of those
  games: old is `legal_actions` and a `quote` per distinct effect (what the server's
  `outbound.legal` did), new is `legal_moves` (goal: new takes half the CPU or less);
- the worst-case corpus (tests/fixtures/worst_case, built by tests/engine/worst_case.py): per
  position the CPU time of `legal_moves`, of the slowest single `extensions` call among its
  Sell and Network moves, and of both levels together (legal_moves and the extensions of
  every distinct Sell and Network move);
  each the best of a few repetitions. Goal: ≤ 5 ms worst case for what the server lists per
  request (`legal_moves`, or one `extensions`).
Every figure is CPU time (`time.process_time`). The process is pinned to one CPU where the
OS allows it.

`--baseline DIR` (a checkout of another version, e.g. `git worktree add /tmp/main main`) also
plays each policy's games with this engine and with that one, in two child processes run one
after the other and measured the same way, and prints both and their ratios: on a busy
machine the side-by-side ratio is the steadier figure.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from brass.engine import (
    ENGINE_VERSION,
    Action,
    Game,
    Network,
    Quote,
    Sell,
    apply_action,
    extensions,
    legal_actions,
    legal_groups,
    legal_moves,
    quote,
    replay,
)
from brass.engine.selfplay import SelfPlayResult, play_random_game

PLAYERS = 4
# Issue 13's goals (games/s by policy), and issue 7's.
GAMES_TARGET = {"uniform": 100.0, "rich": 30.0}  # games/s
TARGETS = {"apply_us": 20.0, "replay_ms": 2.0, "ratio": 0.5, "worst_ms": 5.0}
ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "fixtures" / "worst_case"
REPEAT = 5  # corpus timings: the best of this many runs
FEASIBLE_SALES = 4  # the full legal_actions is timed only with this many goods for sale or fewer


def states_of(result: SelfPlayResult) -> list[tuple[Game, Action]]:
    """Every (state, move) of a finished self-play game, rebuilt from its log."""
    game = replay(result.players, result.seed, None, [])
    pairs = []
    for action in result.log:
        pairs.append((game, action))
        game = apply_action(game, action)
    assert game == result.final
    return pairs


def timed(fn: Callable[[], object]) -> float:
    """The CPU time of one call, in µs."""
    start = time.process_time_ns()
    fn()
    return (time.process_time_ns() - start) / 1e3


def best_of(fn: Callable[[], object]) -> float:
    return min(timed(fn) for _ in range(REPEAT))


def verdict(ok: bool) -> str:
    return "met" if ok else "missed"


Row = tuple[str, str, str, bool | None]  # name, figure, target, met (None: no target)


def measure(policy: str, games: int, seed: int) -> tuple[list[Row], list[Game]]:
    """The figures for random games played by `policy`, and every state of those games."""
    # Games per second: the self-play loop, full legal_actions at every decision.
    start, cpu_start = time.perf_counter(), time.process_time()
    results = [play_random_game(PLAYERS, seed + i, policy) for i in range(games)]
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start  # the CPU this process got: other load does not count
    moves = sum(len(r.log) for r in results)
    per_second = games / cpu

    # apply_action: every move of every game, timed once each.
    by_game = [states_of(r) for r in results]
    pairs = [p for states in by_game for p in states]
    apply_us = statistics.median(timed(partial(apply_action, g, a)) for g, a in pairs)

    # legal_actions: the middle half of each game.
    mid = [g for states in by_game
           for g, _ in states[len(states) // 4: 3 * len(states) // 4]]
    legal = sorted(timed(partial(legal_actions, g)) / 1e3 for g in mid)
    legal_ms = statistics.median(legal)
    sizes = sorted(len(legal_actions(g)) for g in mid)

    # Replay a complete game from its JSON log (parse + apply every action).
    replay_ms = []
    for r in results:
        log = [a.to_json() for a in r.log]
        start = time.process_time()
        game = replay(PLAYERS, r.seed, None, log)
        replay_ms.append((time.process_time() - start) * 1e3)
        assert game == r.final
    games_target = GAMES_TARGET[policy]
    return [
        ("apply_action", f"median {apply_us:7.1f} µs over {len(pairs)} moves",
         f"≤ {TARGETS['apply_us']:.0f} µs", apply_us <= TARGETS["apply_us"]),
        ("random games", f"{per_second:7.2f} games/s ({moves / cpu:.0f} actions/s; {games} "
         f"games in {cpu:.2f} s of CPU, {elapsed:.2f} s of wall time)",
         f"≥ {games_target:.0f} games/s", per_second >= games_target),
        ("replay", f"median {statistics.median(replay_ms):7.2f} ms over {games} complete "
         "games from JSON",
         f"≤ {TARGETS['replay_ms']:.0f} ms", statistics.median(replay_ms) <= TARGETS["replay_ms"]),
        ("legal_actions", f"median {legal_ms:7.2f} ms over {len(mid)} mid-game states "
         f"(max {legal[-1]:.1f} ms; {sizes[len(sizes) // 2]} actions median, "
         f"{sizes[-1]} max)", "(information)", None),
    ], [g for g, _ in pairs]


# What `--baseline` runs with the other version's engine first on its path: the same games,
# the same three figures (only the engine's long-standing API).
_BASELINE = """
import json, statistics, sys, time
from brass.engine import apply_action, replay
from brass.engine.selfplay import play_random_game
policy, games, seed, players = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
start = time.process_time()
results = [play_random_game(players, seed + i, policy) for i in range(games)]
cpu = time.process_time() - start
applies, replays = [], []
for r in results:
    game = replay(players, r.seed, None, [])
    for action in r.log:
        t = time.process_time_ns()
        game = apply_action(game, action)
        applies.append((time.process_time_ns() - t) / 1e3)
    log = [a.to_json() for a in r.log]
    t = time.process_time()
    replay(players, r.seed, None, log)
    replays.append((time.process_time() - t) * 1e3)
print(json.dumps({"games_per_s": games / cpu, "apply_us": statistics.median(applies),
                  "replay_ms": statistics.median(replays)}))
"""


def _child_figures(directory: Path, policy: str, games: int, seed: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(directory)}
    out = subprocess.run([sys.executable, "-c", _BASELINE, policy, str(games), str(seed),
                          str(PLAYERS)], env=env, cwd=directory, check=True,
                         capture_output=True, text=True).stdout
    figures: dict[str, float] = json.loads(out)
    return figures


def baseline(directory: Path, policy: str, games: int, seed: int) -> list[Row]:
    """The same games with this engine and with the engine in `directory`, one after the
    other in child processes measured the same way, and new against old."""
    new = _child_figures(ROOT, policy, games, seed)
    old = _child_figures(directory, policy, games, seed)
    rows: list[Row] = [(f"side by side: {name}",
                        f"{f['games_per_s']:7.2f} games/s, apply_action median "
                        f"{f['apply_us']:5.1f} µs, replay median {f['replay_ms']:5.2f} ms",
                        "", None)
                       for name, f in (("new", new), (f"old ({directory})", old))]
    rows.append(("side by side: new/old",
                 f"{new['games_per_s'] / old['games_per_s']:.2f}x the games/s, "
                 f"{new['apply_us'] / old['apply_us']:.2f} of the apply time, "
                 f"{new['replay_ms'] / old['replay_ms']:.2f} of the replay time", "", None))
    return rows


def old_listing(game: Game) -> int:
    """What the server did before `legal_moves`: every legal action, and a quote for each
    distinct effect (the card played never changes the price)."""
    prices: dict[str, Quote] = {}
    actions = legal_actions(game)
    for action in actions:
        wire = action.to_json()
        effect = json.dumps({k: v for k, v in wire.items() if k not in ("card", "cards")},
                            sort_keys=True)
        if effect not in prices:
            prices[effect] = quote(game, action)
    return len(actions)


def listing(states: list[Game]) -> list[Row]:
    """CPU per decision of listing and pricing, old against new, over the same states."""
    old = sum(timed(partial(old_listing, g)) for g in states) / len(states)
    new = sum(timed(partial(legal_moves, g)) for g in states) / len(states)
    groups = sum(timed(partial(legal_groups, g)) for g in states) / len(states)
    ratio = new / old
    return [("list + price", f"old {old:8.1f} µs, new {new:8.1f} µs per decision over "
             f"{len(states)} states: new/old {ratio:.2f}",
             f"≤ {TARGETS['ratio']:.1f} of old", ratio <= TARGETS["ratio"]),
            ("by effect", f"legal_groups {groups:8.1f} µs per decision (no Move made): "
             f"{groups / new:.2f} of legal_moves", "", None)]


def two_levels(game: Game) -> int:
    """legal_moves, and the extensions of each distinct Sell and Network move (those of one
    card: every card gives the same ones)."""
    moves = legal_moves(game)
    growable = [m.action for m in moves if isinstance(m.action, Sell | Network)]
    card = min((a.card for a in growable), default=None)
    return sum(len(extensions(game, a)) for a in growable if a.card == card)


def corpus_rows() -> list[Row]:
    """The worst-case corpus: legal_moves, the slowest extensions call, and both levels."""
    rows: list[Row] = []
    worst = worst_both = 0.0
    for path in sorted(CORPUS.glob("*.json")):
        game = Game.from_json(json.loads(path.read_text()))
        moves = legal_moves(game)
        growable = [m.action for m in moves if isinstance(m.action, Sell | Network)]
        growable = [a for a in growable if a.card == min(b.card for b in growable)]
        moves_ms = best_of(partial(legal_moves, game)) / 1e3
        ext_ms = max((best_of(partial(extensions, game, a)) / 1e3 for a in growable),
                     default=0.0)
        both_ms = best_of(partial(two_levels, game)) / 1e3
        count = two_levels(game)
        sales = len({(a.sales[0].location, a.sales[0].slot) for a in growable
                     if isinstance(a, Sell)})
        if sales <= FEASIBLE_SALES:
            full = best_of(partial(legal_actions, game)) / 1e3
            old = f"legal_actions {full:7.1f} ms ({len(legal_actions(game))})"
        else:
            old = "legal_actions not run (factorial)"
        worst = max(worst, moves_ms, ext_ms)
        worst_both = max(worst_both, both_ms)
        rows.append((path.stem, f"legal_moves {moves_ms:5.2f} ms ({len(moves):4d}), one "
                     f"extensions ≤ {ext_ms:5.2f} ms, both levels {both_ms:6.2f} ms "
                     f"({count:4d}); {old}", "", None))
    positions = len(rows)
    rows.append(("worst case", f"{worst:5.2f} ms: the slowest legal_moves or extensions call "
                 f"on {positions} positions (best of {REPEAT} runs each)",
                 f"≤ {TARGETS['worst_ms']:.0f} ms", worst <= TARGETS["worst_ms"]))
    rows.append(("worst case, both levels", f"{worst_both:5.2f} ms: legal_moves and every "
                 "distinct extension at once (no request lists that: a client asks for "
                 "one move's extensions at a time)", "(information)", None))
    return rows


def show(rows: list[Row]) -> None:
    for name, figure, target, ok in rows:
        result = "" if ok is None else verdict(ok)
        print(f"{name:<26} {figure:<100} {target:<15} {result}".rstrip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="random games to play and time")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", type=Path, default=None,
                        help="also measure the engine of this checkout, side by side")
    args = parser.parse_args()
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        core = "pinned to one CPU"
    except (AttributeError, OSError):
        core = "not pinned"
    print(f"Brass engine bench: Python {platform.python_version()}, engine {ENGINE_VERSION}, "
          f"{PLAYERS} players, {args.games} games per policy from seed {args.seed}, {core}; "
          "CPU time")
    states: list[Game] = []
    for policy, title in (("uniform", "uniform random play"),
                          ("rich", "rich random play: mostly build/network/sell, fuller "
                           "boards")):
        print(f"-- {title}")
        rows, seen = measure(policy, args.games, args.seed)
        show(rows)
        if args.baseline is not None:
            show(baseline(args.baseline.resolve(), policy, args.games, args.seed))
        states += [g for g in seen if not g.is_over]
    print("-- listing and pricing the moves of every state above (old: legal_actions + quote "
          "per distinct effect; new: legal_moves)")
    show(listing(states))
    print(f"-- worst-case corpus ({CORPUS})")
    show(corpus_rows())


if __name__ == "__main__":
    main()
