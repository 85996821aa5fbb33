"""A cheap heuristic for clients that only have the server's `GET /legal` answer (no engine
state): it scores each action by its kind and its price. The terminal client
(`brass play --auto`), the leak test and the server bench use it."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

KIND_WEIGHT: dict[str, float] = {
    "sell": 6.0, "build": 5.0, "network": 4.0, "develop": 2.0, "loan": 1.0, "scout": 0.5,
    "pass": 0.0}
INDUSTRY_WEIGHT: dict[str, float] = {
    "cotton": 1.0, "manufacturer": 1.0, "pottery": 1.2, "coal": 0.8, "iron": 0.9,
    "brewery": 0.7}


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


def choose_entry(entries: Sequence[Mapping[str, Any]], rng: random.Random,
                 money: int | None = None) -> Mapping[str, Any]:
    """Pick from the server's `GET /legal` answer: a list of `{"action", "quote"}`."""
    if not entries:
        raise ValueError("no legal action")
    return max(entries, key=lambda e: score(e["action"], e.get("quote"), money) + rng.random())
