"""The engine's two kinds of refusal: a move the rules forbid, and input that is not a move.

Each refusal carries, beside its English message (`str(exc)`, DESIGN.md), a stable `code` and
its `params` (JSON values: ids of cards, locations, links and industries, numbers) so that a
client can say the same thing in the player's language. `ILLEGAL_CODES` and `MALFORMED_CODES`
name every code and the params it carries; docs/ENGINE.md explains each one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# A "subject" (`what` a price or a missing resource is about) is itself {code, params}:
# build {industry, level, location}, canal, railway, railways, railway_link {link},
# second_railway {link}, develop {industries}, sell {industry, level, location}.
SUBJECTS: dict[str, tuple[str, ...]] = {
    "build": ("industry", "level", "location"),
    "canal": (),
    "railway": (),
    "railways": (),
    "railway_link": ("link",),
    "second_railway": ("link",),
    "develop": ("industries",),
    "sell": ("industry", "level", "location"),
}

ILLEGAL_CODES: dict[str, tuple[str, ...]] = {
    "game_over": (),
    "card_not_held": ("card", "held"),
    "loan_income_floor": ("min_level",),
    "scout_holding_wild": (),
    "scout_pile_empty": (),
    "link_built": ("link",),
    "link_no_canal": ("link",),
    "link_no_rail": ("link",),
    "link_not_in_network": ("link",),
    "canal_one_link": (),
    "link_tiles_left": ("left",),
    "link_money": ("kind", "cost", "money"),
    "second_railway_no_beer": (),
    "farm_needs_brewery_card": ("location",),
    "card_wrong_location": ("card", "location"),
    "card_wrong_industry": ("card", "industry"),
    "not_in_network": ("location",),
    "slot_wrong_industry": ("location", "slot", "industry"),
    "no_tiles_left": ("industry",),
    "tile_wrong_era": ("industry", "level", "era", "now"),
    "single_slot_first": ("location", "industry"),
    "overbuild_level": ("location", "slot", "industry", "level"),
    "overbuild_opponent_industry": (),
    "overbuild_opponent_resources": ("industry",),
    "canal_one_tile_per_town": ("location",),
    "build_money": ("subject", "cost", "money"),
    "not_affordable": ("subject", "cost", "money", "market"),
    "develop_no_tiles": ("industry",),
    "develop_lightbulb": ("industry", "level"),
    "sell_no_tile": ("location", "slot"),
    "sell_not_goods": ("industry",),
    "sell_already_sold": ("industry", "level", "location"),
    "sell_not_connected": ("location", "merchant"),
    "sell_no_merchant": ("merchant", "industry"),
    "free_develop_not_gloucester": (),
    "coal_missing": ("subject", "amount", "at"),
    "beer_missing": ("subject", "amount", "at"),
}

MALFORMED_CODES: dict[str, tuple[str, ...]] = {
    "not_an_action": ("fields",),
    "unknown_card": ("card",),
    "unknown_location": ("location",),
    "unknown_industry": ("industry",),
    "no_such_slot": ("location", "slot"),
    "link_count": ("count",),
    "unknown_link": ("link",),
    "repeated_link": ("link",),
    "develop_count": ("count",),
    "no_sales": (),
    "not_a_merchant": ("location",),
    "scout_card_count": ("count",),
}


class Subject(str):
    """What a price or a missing resource is about: its English words (the str itself, used in
    messages) plus a {code, params} a client can translate (see `SUBJECTS`)."""

    code: str
    params: dict[str, Any]

    def __new__(cls, text: str, code: str, **params: Any) -> Subject:
        _check(SUBJECTS, "subject", code, params)
        self = super().__new__(cls, text)
        self.code, self.params = code, params
        return self

    def as_param(self) -> dict[str, Any]:
        return {"code": self.code, "params": self.params}


def _check(codes: Mapping[str, tuple[str, ...]], kind: str, code: str,
           params: Mapping[str, Any]) -> None:
    expected = codes.get(code)
    if expected is None:
        raise AssertionError(f"unknown {kind} code {code!r}")
    if set(params) != set(expected):
        raise AssertionError(f"{kind} {code!r} takes params {expected}, not {tuple(params)}")


class _Refusal:
    """The code and params shared by both refusals (a mixin: the base exception differs)."""

    CODES: Mapping[str, tuple[str, ...]] = {}
    code: str
    params: dict[str, Any]

    def _coded(self, code: str, params: Mapping[str, Any] | None) -> None:
        params = dict(params or {})
        _check(self.CODES, type(self).__name__, code, params)
        self.code = code
        self.params = params


class IllegalAction(_Refusal, Exception):
    """A well-formed action that the rules forbid; the message says why, in a player's words."""

    CODES = ILLEGAL_CODES

    def __init__(self, message: str, *, code: str,
                 params: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self._coded(code, params)

    def __reduce__(self) -> Any:  # survives pickling (a worker process raises it)
        return _rebuild, (type(self), str(self), self.code, self.params)


class MalformedAction(_Refusal, ValueError):
    """Input that is not an action at all: wrong shape, unknown kind, card, location, link."""

    CODES = MALFORMED_CODES

    def __init__(self, message: str, *, code: str,
                 params: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self._coded(code, params)

    def __reduce__(self) -> Any:
        return _rebuild, (type(self), str(self), self.code, self.params)


def _rebuild(cls: type[IllegalAction | MalformedAction], message: str, code: str,
             params: dict[str, Any]) -> IllegalAction | MalformedAction:
    return cls(message, code=code, params=params)


class InvalidSetup(ValueError):
    """A `setup` object that does not add up (wrong deck for the player count, unknown card...)."""


class DataError(ValueError):
    """A broken data file; the message names the file and the entry."""
