"""Engine benchmark (run on its own, not in the test suite):

    .venv/bin/python bench/engine.py [--games 20] [--seed 1]

Prints, against the targets of the engine issue:
- the median time of one `apply_action`, over every move of the random games below;
- the median time of one `legal_actions` over mid-game 4-player states (the middle half of
  each game, action 31 to 93 of 124);
- complete random 4-player games per second on one core, with a full `legal_actions` at
  every decision (`brass.engine.selfplay`), by the CPU time of this process (so that other
  load on the machine does not count; the wall time is printed beside it);
- the median time to replay a complete game from its logged action JSON
  (`brass.engine.replay`: parse and apply every action, as the server does).
All four for uniform random play (the issue's measure) and, for information, for "rich"
play (`--policy rich` of selfplay: mostly build/network/sell, so boards fill up and there is
more to enumerate; uniform players soon run out of money and mostly pass or take loans).
The process is pinned to one CPU where the OS allows it.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable

from brass.engine import ENGINE_VERSION, Action, Game, apply_action, legal_actions, replay
from brass.engine.selfplay import SelfPlayResult, play_random_game

PLAYERS = 4
TARGETS = {"games": 10.0, "apply_us": 200.0, "legal_ms": 5.0, "replay_ms": 50.0}


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
    start = time.perf_counter_ns()
    fn()
    return (time.perf_counter_ns() - start) / 1e3  # µs


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT MET"


def measure(policy: str, games: int, seed: int) -> list[tuple[str, str, str, bool]]:
    """The four figures for random games played by `policy`: (name, figure, target, met)."""
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
    apply_us = statistics.median(timed(lambda g=g, a=a: apply_action(g, a)) for g, a in pairs)

    # legal_actions: the middle half of each game.
    mid = [g for states in by_game
           for g, _ in states[len(states) // 4: 3 * len(states) // 4]]
    legal = sorted(timed(lambda g=g: legal_actions(g)) / 1e3 for g in mid)
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
    return [
        ("apply_action", f"median {apply_us:7.1f} µs over {len(pairs)} moves",
         f"≤ {TARGETS['apply_us']:.0f} µs", apply_us <= TARGETS["apply_us"]),
        ("legal_actions", f"median {legal_ms:7.2f} ms over {len(mid)} mid-game states "
         f"(max {legal[-1]:.1f} ms; {sizes[len(sizes) // 2]} actions median, "
         f"{sizes[-1]} max)",
         f"≤ {TARGETS['legal_ms']:.0f} ms", legal_ms <= TARGETS["legal_ms"]),
        ("random games", f"{per_second:7.2f} games/s ({moves / cpu:.0f} actions/s; {games} "
         f"games in {cpu:.2f} s of CPU, {elapsed:.2f} s of wall time)",
         f"≥ {TARGETS['games']:.0f} games/s", per_second >= TARGETS["games"]),
        ("replay", f"median {statistics.median(replay_ms):7.2f} ms over {games} complete "
         "games from JSON (CPU)",
         f"≤ {TARGETS['replay_ms']:.0f} ms", statistics.median(replay_ms) <= TARGETS["replay_ms"]),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="random games to play and time")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        core = "pinned to one CPU"
    except (AttributeError, OSError):
        core = "not pinned"
    print(f"Brass engine bench: Python {platform.python_version()}, engine {ENGINE_VERSION}, "
          f"{PLAYERS} players, {args.games} games per policy from seed {args.seed}, {core}")
    for policy, title in (("uniform", "uniform random play (the issue's measure)"),
                          ("rich", "rich random play: mostly build/network/sell, fuller "
                           "boards (for information)")):
        print(f"-- {title}")
        for name, figure, target, ok in measure(policy, args.games, args.seed):
            print(f"{name:<14} {figure:<92} target {target:<13} {verdict(ok)}")


if __name__ == "__main__":
    main()
