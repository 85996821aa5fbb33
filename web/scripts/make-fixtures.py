"""Writes the client's unit-test fixtures, all real engine output (run once, checked in):
- src/logic/fixtures/positions.json: legal actions and quotes of one opening, and of a
  position five actions later;
- src/logic/fixtures/effects.json: log entries (seat, action, public effects) of bot games,
  one of each kind of move and of each event between turns;
- src/logic/fixtures/extend.json: a position's one-sale Sells and one-link Networks (as the
  server lists them) and the extensions of each (the legal actions made of it plus one more
  sale or link), with their quotes.
Run: ../.venv/bin/python scripts/make-fixtures.py"""

import json
import random
from pathlib import Path
from typing import Any

from brass.bots import choose_action
from brass.engine import (
    Game,
    apply_action,
    extensions,
    legal_actions,
    legal_moves,
    new_game,
    parse_action,
    play,
    public_events,
    quote,
)

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "web" / "src" / "logic" / "fixtures"
WORST = ROOT / "tests" / "fixtures" / "worst_case"


def positions() -> None:
    g = new_game(2, 1)
    start = [{"action": a.to_json(), "quote": quote(g, a).to_json()} for a in legal_actions(g)]
    steps = [
        {"kind": "build", "card": "location:birmingham", "industry": "cotton",
         "location": "birmingham", "slot": 0},
        {"kind": "loan", "card": "industry:brewery"},
        {"kind": "build", "card": "industry:coal", "industry": "coal", "location": "belper",
         "slot": 1},
        {"kind": "network", "card": "industry:brewery", "links": ["belper--derby"]},
        {"kind": "network", "card": "location:burton_on_trent", "links": ["birmingham--oxford"]},
    ]
    for s in steps:
        g = apply_action(g, parse_action(s))
    later = [{"action": a.to_json(), "quote": quote(g, a).to_json()}
             for a in legal_actions(g) if a.kind in ("sell", "build")]
    (OUT / "positions.json").write_text(json.dumps({"start": start, "later": later}))


def bot_game(players: int, seed: int, loaner: int | None) -> tuple[list[dict[str, Any]], list[Any]]:
    """A bot game; `loaner` takes every loan it can, then always the dearest move (so it runs
    short of income money). Returns the log and the game before each move."""
    g = new_game(players, seed)
    rng = random.Random(seed)
    log: list[dict[str, Any]] = []
    games = []
    while not g.is_over:
        acts = legal_actions(g)
        if g.current_seat == loaner:
            loans = [a for a in acts if a.kind == "loan"]
            a = loans[0] if loans else max(acts, key=lambda a: quote(g, a).money)
        else:
            a = choose_action(g, rng)
        games.append(g)
        seat = g.current_seat
        g, events = play(g, a)
        log.append({"seq": len(log) + 1, "seat": seat, "action": a.to_json(),
                    "effects": public_events(events, None)})
    return log, games


def first(log: list[dict[str, Any]], pred: Any) -> dict[str, Any]:
    for entry in log:
        if pred(entry):
            return entry
    raise LookupError("no such entry")


def move(e: dict[str, Any]) -> dict[str, Any]:
    return e["effects"][0]


def types(e: dict[str, Any]) -> list[str]:
    return [x["type"] for x in e["effects"]]


def effects() -> None:
    log, _ = bot_game(2, 1, loaner=None)
    short, _ = bot_game(2, 1, loaner=0)
    more: list[dict[str, Any]] = []
    for seed in (2, 3, 4):
        extra, _ = bot_game(3, seed, loaner=None)
        more += extra
    kind = lambda k: lambda e: e["action"]["kind"] == k  # noqa: E731
    out = {
        "build": first(log, lambda e: kind("build")(e) and move(e)["supplies"]),
        "build_to_market": first(log + short, lambda e: move(e)["to_market"] is not None),
        "build_overbuilt": first(log + short, lambda e: move(e)["removed"] != []),
        "network": first(log, kind("network")),
        "network_double": first(log + more, lambda e: kind("network")(e)
                                and len(e["action"]["links"]) == 2),
        "develop": first(log + short, kind("develop")),
        "sell": first(log, kind("sell")),
        "sell_bonus": first(log + short, lambda e: any(s["bonus"] for s in move(e)["sales"])),
        "loan": first(log + short, kind("loan")),
        "scout": first(log + short + more, kind("scout")),
        "pass": first(log + short + more, kind("pass")),
        "round_end": first(log, lambda e: "round_end" in types(e)),
        "round_end_shortfall": first(short, lambda e: any(
            x["type"] == "round_end" and any(i["shortfall"] for i in x["income"])
            for x in e["effects"])),
        "era_end_canal": first(log, lambda e: "era_end" in types(e)),
        "game_end": log[-1],
    }
    (OUT / "effects.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")


def entry(m: Any) -> dict[str, Any]:
    return dict(m.to_json())


def key(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


def composed(name: str, kind: str, depth: int) -> dict[str, Any]:
    """A worst-case position (tests/fixtures/worst_case): its legal moves of `kind` (and its
    loans), and the extensions
    of the `kind` moves of the first card, `depth` levels deep along the first of each."""
    g = Game.from_json(json.loads((WORST / f"{name}.json").read_text()))
    moves = legal_moves(g)
    card = next(m.action.card for m in moves if m.action.kind == kind)
    ext: dict[str, list[dict[str, Any]]] = {}
    level = [m for m in moves if m.action.kind == kind and m.action.card == card]
    for _ in range(depth):
        found = []
        for m in level:
            more = extensions(g, m.action)
            ext[key(m.action.to_json())] = [entry(x) for x in more]
            found += more
        level = found[:1]
    return {"seat": g.current_seat, "card": card,
            "legal": [entry(m) for m in moves if m.action.kind in (kind, "loan")],
            "extensions": ext}


def extend() -> None:
    (OUT / "extend.json").write_text(json.dumps({
        "sell": composed("sell_goods_4", "sell", 3),
        "network": composed("double_rail_own_beer", "network", 1),
    }) + "\n")


if __name__ == "__main__":
    positions()
    effects()
    extend()
    print(f"wrote {OUT}")
