"""Actions: small immutable values whose JSON is the wire and log format (DESIGN.md).

`parse_action` turns JSON into an `Action` (pydantic validates the shape, then every id is
checked against the game data); anything that is not an action raises `MalformedAction`,
which is a different error from a well-formed move the rules forbid (`IllegalAction`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import (
    ConfigDict,
    Field,
    GetPydanticSchema,
    StrictInt,
    TypeAdapter,
    ValidationError,
    WithJsonSchema,
)
from pydantic_core import core_schema

from .data import DATA, INDUSTRIES, Industry
from .errors import MalformedAction

_STRICT = ConfigDict(extra="forbid")  # and slots are StrictInt: `true` or "0" is no slot

# An action's industry: its JSON Schema is the enum of industries, but any string passes the
# shape's validation, so that `check_ids` refuses one the game does not have by its own code
# (`unknown_industry`, naming it) rather than as a shape that does not fit (`not_an_action`).
IndustryName = Annotated[
    Industry, GetPydanticSchema(lambda _type, _handler: core_schema.str_schema()),
    WithJsonSchema({"type": "string", "enum": list(INDUSTRIES)})]
ActionKind = Literal["build", "network", "develop", "sell", "loan", "scout", "pass"]


@dataclass(frozen=True, slots=True)
class Build:
    __pydantic_config__ = _STRICT
    card: str
    industry: IndustryName
    location: str
    slot: StrictInt
    kind: Literal["build"] = "build"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "build", "card": self.card, "industry": self.industry,
                "location": self.location, "slot": self.slot}


@dataclass(frozen=True, slots=True)
class Network:
    __pydantic_config__ = _STRICT
    card: str
    links: tuple[str, ...]
    kind: Literal["network"] = "network"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "network", "card": self.card, "links": list(self.links)}


@dataclass(frozen=True, slots=True)
class Develop:
    __pydantic_config__ = _STRICT
    card: str
    industries: tuple[IndustryName, ...]
    kind: Literal["develop"] = "develop"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "develop", "card": self.card, "industries": list(self.industries)}


@dataclass(frozen=True, slots=True)
class Sale:
    __pydantic_config__ = _STRICT
    location: str
    slot: StrictInt
    merchant: str
    develop: IndustryName | None = None

    def to_json(self) -> dict[str, Any]:
        return {"location": self.location, "slot": self.slot, "merchant": self.merchant,
                "develop": self.develop}


@dataclass(frozen=True, slots=True)
class Sell:
    __pydantic_config__ = _STRICT
    card: str
    sales: tuple[Sale, ...]
    kind: Literal["sell"] = "sell"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "sell", "card": self.card, "sales": [s.to_json() for s in self.sales]}


@dataclass(frozen=True, slots=True)
class Loan:
    __pydantic_config__ = _STRICT
    card: str
    kind: Literal["loan"] = "loan"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "loan", "card": self.card}


@dataclass(frozen=True, slots=True)
class Scout:
    __pydantic_config__ = _STRICT
    cards: tuple[str, ...]
    kind: Literal["scout"] = "scout"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "scout", "cards": list(self.cards)}


@dataclass(frozen=True, slots=True)
class Pass:
    __pydantic_config__ = _STRICT
    card: str
    kind: Literal["pass"] = "pass"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "pass", "card": self.card}


Action = Annotated[
    Build | Network | Develop | Sell | Loan | Scout | Pass, Field(discriminator="kind")]
ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)
# its validator's own methods (`ACTION_ADAPTER.validate_python` with every option at its default,
# without the wrapper's call): every logged action is parsed when a game is replayed
_VALIDATE_PYTHON: Callable[[Any], Action] = ACTION_ADAPTER.validator.validate_python
_VALIDATE_JSON: Callable[[str | bytes], Action] = ACTION_ADAPTER.validator.validate_json


def parse_action(obj: Any) -> Action:
    """JSON (a dict, or a JSON string) -> a checked `Action`; `MalformedAction` otherwise.

    >>> parse_action({"kind": "loan", "card": "industry:iron"})
    Loan(card='industry:iron', kind='loan')
    >>> parse_action('{"kind": "pass", "card": "industry:gold"}')
    Traceback (most recent call last):
    ...
    brass.engine.errors.MalformedAction: Unknown card 'industry:gold'
    >>> parse_action({"kind": "loan", "card": "industry:iron"}).to_json()
    {'kind': 'loan', 'card': 'industry:iron'}
    """
    try:
        action = (_VALIDATE_JSON(obj) if isinstance(obj, str | bytes) else _VALIDATE_PYTHON(obj))
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'action'}: {e['msg']}"
            for e in exc.errors()[:3])
        fields = [".".join(str(p) for p in e["loc"]) or "action" for e in exc.errors()[:3]]
        raise MalformedAction(f"Not a valid action: {problems}", code="not_an_action",
                              params={"fields": fields}) from None
    check_ids(action)
    return action


def _card(card: str) -> None:
    if card not in DATA.cards:
        raise MalformedAction(f"Unknown card {card!r}", code="unknown_card",
                              params={"card": card})


def _location(location: str) -> int:
    index = DATA.location_index.get(location)
    if index is None:
        raise MalformedAction(f"Unknown location {location!r}", code="unknown_location",
                              params={"location": location})
    return index


def _industry(industry: str) -> None:
    if industry not in INDUSTRIES:
        raise MalformedAction(f"Unknown industry {industry!r}", code="unknown_industry",
                              params={"industry": industry})


def check_ids(action: Action) -> None:
    """Raise `MalformedAction` if the action names anything the game does not have."""
    match action:
        case Build():
            _card(action.card)
            _industry(action.industry)
            loc = DATA.locations[_location(action.location)]
            if not 0 <= action.slot < len(loc.slots):
                raise MalformedAction(f"{loc.name} has no slot {action.slot}", code="no_such_slot",
                                      params={"location": loc.id, "slot": action.slot})
        case Network():
            _card(action.card)
            if not 1 <= len(action.links) <= 2:
                raise MalformedAction("A network action places 1 or 2 links", code="link_count",
                                      params={"count": len(action.links)})
            for link in action.links:
                if link not in DATA.link_index:
                    raise MalformedAction(f"Unknown link {link!r}", code="unknown_link",
                                          params={"link": link})
            if len(set(action.links)) != len(action.links):
                raise MalformedAction("The same link is named twice", code="repeated_link",
                                      params={"link": next(link for link in action.links
                                                        if action.links.count(link) > 1)})
        case Develop():
            _card(action.card)
            if not 1 <= len(action.industries) <= 2:
                raise MalformedAction("A develop action removes 1 or 2 tiles",
                                      code="develop_count",
                                      params={"count": len(action.industries)})
            for industry in action.industries:
                _industry(industry)
        case Sell():
            _card(action.card)
            if not action.sales:
                raise MalformedAction("A sell action needs at least one sale", code="no_sales")
            for sale in action.sales:
                loc = DATA.locations[_location(sale.location)]
                if not 0 <= sale.slot < len(loc.slots):
                    raise MalformedAction(f"{loc.name} has no slot {sale.slot}",
                                          code="no_such_slot",
                                          params={"location": loc.id, "slot": sale.slot})
                if DATA.locations[_location(sale.merchant)].kind != "merchant":
                    raise MalformedAction(f"{sale.merchant!r} is not a merchant",
                                          code="not_a_merchant",
                                          params={"location": sale.merchant})
                if sale.develop is not None:
                    _industry(sale.develop)
        case Scout():
            if len(action.cards) != 3:
                raise MalformedAction("Scout discards exactly three cards",
                                      code="scout_card_count",
                                      params={"count": len(action.cards)})
            for card in action.cards:
                _card(card)
        case Loan() | Pass():
            _card(action.card)


def action_cards(action: Action) -> tuple[str, ...]:
    """The cards an action discards."""
    return action.cards if isinstance(action, Scout) else (action.card,)
