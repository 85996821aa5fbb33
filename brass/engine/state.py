"""The game state: immutable values (frozen dataclasses and tuples) with a JSON form.

A `Game` is never changed: rules build a new one (see `draft.py`), sharing every unchanged
player, tuple and tile with the old one. Board positions are indices into `DATA.slots`,
`DATA.links` and `DATA.merchant_slots` (board order), so a tile, link or merchant tile is
found by index, not by search.
"""

from __future__ import annotations

import copyreg
import operator
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from .data import DATA, INDUSTRIES, Era, Industry, MerchantBuys, TileSpec


@dataclass(frozen=True, slots=True)
class Tile:
    """An industry tile on the board."""

    owner: int
    industry: Industry
    level: int
    flipped: bool = False
    resources: int = 0  # coal/iron cubes or beer barrels on it

    @property
    def spec(self) -> TileSpec:
        return DATA.tile_specs[(self.industry, self.level)]


@dataclass(frozen=True, slots=True)
class MerchantTile:
    buys: MerchantBuys
    beer: bool

    def buys_good(self, good: str) -> bool:
        return self.buys == good or self.buys == "all"


@dataclass(frozen=True, slots=True)
class PlayerState:
    seat: int
    money: int
    vp: int = 0
    income_space: int = 10
    spent: int = 0
    links_left: int = 14
    hand: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()  # face-up discards, oldest first: the top card is the last
    face_down: tuple[str, ...] = ()  # the face-down card(s) under the pile (dealt at setup)
    mat: tuple[int, ...] = (0, 0, 0, 0, 0, 0)  # tiles taken so far from each industry's stack
    retired: int = 0  # tiles that left the game: developed, overbuilt, removed

    @property
    def income_level(self) -> int:
        return DATA.income_level(self.income_space)

    def next_tile(self, industry: Industry) -> TileSpec | None:
        """The lowest tile of `industry` still on this player's mat."""
        i = _INDEX[industry]
        stack = DATA.stack_list[i]
        taken = self.mat[i]
        return stack[taken] if taken < len(stack) else None

    def mat_levels(self, industry: Industry) -> list[int]:
        """The levels of the tiles of `industry` still on this player's mat, lowest first."""
        i = _INDEX[industry]
        return list(_LEVELS_LEFT[i][self.mat[i]])


# Each industry's place in INDUSTRIES (and in a mat), and the levels left on a mat after each
# number of its tiles taken: every view lists every player's mat, every listing asks for next
# tiles, and both were a search and a slice each time.
_INDEX: dict[str, int] = {industry: i for i, industry in enumerate(INDUSTRIES)}
_LEVELS_LEFT: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(spec.level for spec in stack[taken:]) for taken in range(len(stack) + 1))
    for stack in DATA.stack_list)


@dataclass(frozen=True, slots=True)
class Game:
    """A whole game at one moment. Hidden parts (hands, deck, face-down cards, seed) are
    here too: `view()` is the only way out for a seat."""

    num_players: int
    seed: int
    era: Era
    round: int
    turn_order: tuple[int, ...]
    turn_index: int
    actions_left: int
    players: tuple[PlayerState, ...]
    deck: tuple[str, ...]  # top first
    wild_location_left: int
    wild_industry_left: int
    coal_market: int
    iron_market: int
    tiles: tuple[Tile | None, ...]  # by DATA.slots index
    links: tuple[int | None, ...]  # owner by DATA.links index
    merchants: tuple[MerchantTile | None, ...]  # by DATA.merchant_slots index; None: not in play
    rail_deck: tuple[str, ...] | None = None  # fixed by setup, else shuffled from the seed
    is_over: bool = False
    action_count: int = 0
    # per ended era, by seat: (link VP, industry VP)
    era_scores: tuple[tuple[tuple[int, int], ...], ...] = ()

    @property
    def current_seat(self) -> int | None:
        return None if self.is_over else self.turn_order[self.turn_index]

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(p.vp for p in self.players)

    @property
    def winner_order(self) -> list[int]:
        """Seats best first: VP, then income level, then money (RULES.md §1)."""
        return sorted(range(self.num_players), key=lambda s: (
            -self.players[s].vp, -self.players[s].income_level, -self.players[s].money, s))

    def ranks(self) -> list[int]:
        """Rank (1 = best) by seat; players equal on VP, income and money share a rank."""
        def key(s: int) -> tuple[int, int, int]:
            p = self.players[s]
            return (p.vp, p.income_level, p.money)
        return [1 + sum(key(o) > key(s) for o in range(self.num_players))
                for s in range(self.num_players)]

    # -- JSON ----------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The whole state, secrets included (for storage and tests, never for a client)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "players":
                value = [{pf.name: _plain(getattr(p, pf.name)) for pf in fields(p)}
                         for p in value]
            elif f.name == "tiles":
                value = [None if t is None else
                         [t.owner, t.industry, t.level, t.flipped, t.resources] for t in value]
            elif f.name == "merchants":
                value = [None if m is None else [m.buys, m.beer] for m in value]
            out[f.name] = _plain(value)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        d = dict(data)
        d["players"] = tuple(PlayerState(**{k: _tuple(v) for k, v in p.items()})
                             for p in d["players"])
        d["tiles"] = tuple(None if t is None else Tile(*t) for t in d["tiles"])
        d["merchants"] = tuple(None if m is None else MerchantTile(*m) for m in d["merchants"])
        for key in ("turn_order", "deck", "links"):
            d[key] = tuple(d[key])
        d["era_scores"] = tuple(tuple(tuple(s) for s in era) for era in d.get("era_scores", ()))
        if d.get("rail_deck") is not None:
            d["rail_deck"] = tuple(d["rail_deck"])
        return cls(**d)


def _evolver(cls: type[Any]) -> Any:
    """`dataclasses.replace` for the hot path, written out for `cls`: the same result, several
    times faster (no field introspection, no keyword `__init__`: each slot of the new object
    is set through its descriptor, as a frozen dataclass's own `__init__` sets it)."""
    names = [f.name for f in fields(cls)]
    return _written_out(cls, f"def evolve(obj, {_keep_all(names)}):", [
        "    new = _new(cls)",
        *(f"    _set_{n}(new, obj.{n} if {n} is _KEEP else {n})" for n in names),
        "    return new"])


def constructor(cls: type[Any]) -> Any:
    """`cls(*fields)` (every field, in order, positionally) for a frozen slotted dataclass,
    written out like `_evolver`: what listing calls for each of thousands of actions."""
    names = [f.name for f in fields(cls)]
    return _written_out(cls, f"def make({', '.join(names)}):", [
        "    new = _new(cls)", *(f"    _set_{n}(new, {n})" for n in names), "    return new"])


def updater(cls: type[Any], items: str, owned: str, fixed: str,
            fields_set: tuple[str, ...] | None = None) -> Any:
    """A method `update(self, i, **changes)` of a working copy (`draft.Draft`): `self.<items>[i]`
    becomes `evolve(self.<items>[i], **changes)` (written out, in one call; the field `fixed`
    is never changed). The value this makes is the working copy's own until it hands its
    items out: the indices in the set `self.<owned>` (the working copy empties it then).
    Such a value, seen by no one else yet, is changed in place: only the fields that change
    are set. Returns the new value. With `fields_set`, the method sets just those fields,
    given positionally: `update(self, i, *values)`."""
    names = [f.name for f in fields(cls)]
    if fields_set is None:
        changing = [n for n in names if n != fixed]
        head = f"def update(self, i, {_keep_all(changing)}):"
        in_place = [f"        if {n} is not _KEEP: _set_{n}(obj, {n})" for n in changing]
        copied = [f"    _set_{n}(new, obj.{n} if {n} is _KEEP else {n})" if n in changing
                  else f"    _set_{n}(new, obj.{n})" for n in names]
    else:
        assert fixed not in fields_set and set(fields_set) <= set(names)
        head = f"def update(self, i, {', '.join(fields_set)}):"
        in_place = [f"        _set_{n}(obj, {n})" for n in fields_set]
        copied = [f"    _set_{n}(new, {n if n in fields_set else 'obj.' + n})" for n in names]
    return _written_out(cls, head, [
        f"    obj = self.{items}[i]",
        f"    if i in self.{owned}:",
        *in_place,
        "        return obj",
        "    new = _new(cls)",
        *copied,
        f"    self.{items}[i] = new",
        f"    self.{owned}.add(i)",
        "    return new"])


def _keep_all(names: list[str]) -> str:
    return ", ".join(f"{n}=_KEEP" for n in names)


def _written_out(cls: type[Any], head: str, body: list[str]) -> Any:
    """The function `head` + `body`, with `cls`, `_new` (object.__new__), `_KEEP` and each
    field's slot setter `_set_<field>` in its namespace."""
    namespace: dict[str, Any] = {"_new": object.__new__, "cls": cls, "_KEEP": _KEEP,
                                 **{f"_set_{f.name}": getattr(cls, f.name).__set__
                                    for f in fields(cls)}}
    exec("\n".join([head, *body]), namespace)  # the technique of dataclasses' own methods
    return namespace[head[4:head.index("(")]]


_KEEP: Any = object()  # "this field is not changed"
evolve_player: Callable[..., PlayerState] = _evolver(PlayerState)
evolve_player.__doc__ = "`dataclasses.replace(player, **changes)`, fast."
evolve_game: Callable[..., Game] = _evolver(Game)
evolve_game.__doc__ = "`dataclasses.replace(game, **changes)`, fast."
new_tile: Callable[[int, Industry, int, bool, int], Tile] = constructor(Tile)
new_tile.__doc__ = "`Tile(owner, industry, level, flipped, resources)`, fast."


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _tuple(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _pickled_positionally(cls: type[Any]) -> None:
    """Pickle `cls` as its positional constructor and its fields' values. A server sends a
    `Game` to a worker process with every move; a slotted dataclass's own pickling reads and
    sets each slot in Python (3x slower both ways, measured on a 4-player game)."""
    make = constructor(cls)
    make.__name__ = make.__qualname__ = f"_make_{cls.__name__}"
    make.__module__ = __name__
    globals()[make.__name__] = make  # found by this name when unpickled
    values = operator.attrgetter(*(f.name for f in fields(cls)))
    copyreg.pickle(cls, lambda obj: (make, values(obj)))


for _cls in (Tile, MerchantTile, PlayerState, Game):
    _pickled_positionally(_cls)
