"""A simple bot: pure move choice on top of `brass.engine` (no I/O, no clock, no global random).

It scores each legal action by a few features of its JSON form (selling and building score
points, links score at era end, passing wastes an action) and by its price (`quote`), and
plays the best with a little seeded noise so games vary. It always returns a legal action
while one exists, so a game of bots cannot stall.

The same scoring works on the server's `GET /legal` answer (`choose_entry`), so a script or
benchmark can play with it over HTTP.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from brass.engine import Game, legal_actions, quote
from brass.engine.actions import Action

KIND_WEIGHT: dict[str, float] = {
    "sell": 6.0, "build": 5.0, "network": 4.0, "develop": 2.0, "loan": 1.0, "scout": 0.5,
    "pass": 0.0}
INDUSTRY_WEIGHT: dict[str, float] = {
    "cotton": 1.0, "manufacturer": 1.0, "pottery": 1.2, "coal": 0.8, "iron": 0.9,
    "brewery": 0.7}
SHORTLIST = 12  # actions priced with `quote` per move


def _money(quote_json: Mapping[str, Any] | None) -> float:
    if not quote_json:
        return 0.0
    for key in ("money", "cost", "total"):
        value = quote_json.get(key)
        if isinstance(value, int | float):
            return float(value)
    return 0.0


def score(action: Mapping[str, Any], quote_json: Mapping[str, Any] | None = None,
          money: int | None = None) -> float:
    """How much the bot likes an action (higher is better)."""
    kind = str(action.get("kind"))
    value = KIND_WEIGHT.get(kind, 0.0)
    if kind == "sell":
        value += 1.5 * len(action.get("sales") or ())
    elif kind == "build":
        value += INDUSTRY_WEIGHT.get(str(action.get("industry")), 0.5)
        if str(action.get("card", "")).startswith("wild:"):
            value -= 1.0  # keep wild cards for when they matter
    elif kind == "network":
        value += 0.5 * len(action.get("links") or ())
    elif kind == "loan" and money is not None and money < 5:
        value = KIND_WEIGHT["build"] + 1.0  # out of money: borrow before anything else
    return value - 0.04 * _money(quote_json)


def choose_action(game: Game, rng: random.Random) -> Action:
    """The bot's move for the player to move. Raises `ValueError` if there is none."""
    actions = legal_actions(game)
    if not actions:
        raise ValueError("no legal action")
    seat = game.current_seat
    money = None if seat is None else game.players[seat].money
    ranked = sorted(((score(a.to_json(), None, money) + rng.random(), i)
                     for i, a in enumerate(actions)), reverse=True)
    best_i, best = ranked[0][1], float("-inf")
    for rough, i in ranked[:SHORTLIST]:
        try:
            priced = rough - 0.04 * _money(quote(game, actions[i]).to_json())
        except Exception:  # a listed action the engine cannot price: skip it
            continue
        if priced > best:
            best_i, best = i, priced
    return actions[best_i]


def choose_entry(entries: Sequence[Mapping[str, Any]], rng: random.Random,
                 money: int | None = None) -> Mapping[str, Any]:
    """Pick from the server's `GET /legal` answer: a list of `{"action", "quote"}`."""
    if not entries:
        raise ValueError("no legal action")
    return max(entries, key=lambda e: score(e["action"], e.get("quote"), money) + rng.random())
