"""Static game data (board, links, tiles, deck, merchants, markets, income), loaded once.

The facts live in `data/*.json` (transcribed from DATA.md); this module reads them, checks
them against the totals the rules promise, and indexes them for fast lookup. A broken file
fails at import with a `DataError` that names the file and the entry.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, get_args

from .errors import DataError

# The game's fixed vocabularies, as types: a value's type says which words it may be (and the
# server's schema, made from these, gives its clients the same unions).
Industry = Literal["cotton", "manufacturer", "pottery", "coal", "iron", "brewery"]
Era = Literal["canal", "rail"]
MerchantBuys = Literal["cotton", "manufacturer", "pottery", "all", "blank"]  # a merchant tile
INDUSTRIES: tuple[Industry, ...] = get_args(Industry)
GOODS: frozenset[str] = frozenset({"cotton", "manufacturer", "pottery"})
MERCHANT_GOODS: tuple[MerchantBuys, ...] = get_args(MerchantBuys)
ERAS: tuple[Era, ...] = get_args(Era)


def _data_dir() -> Path:
    here = Path(__file__).resolve()
    for candidate in (here.parents[2] / "data", here.parents[1] / "_data"):
        if (candidate / "board.json").is_file():
            return candidate
    raise DataError(f"data directory not found next to {here}")


@dataclass(frozen=True, slots=True)
class TileSpec:
    """One printed industry tile (all copies of a level share it)."""

    industry: Industry
    level: int
    cost: int
    coal: int
    iron: int
    beer: int
    vp: int
    income: int
    link_icons: int
    cubes: int  # coal/iron cubes placed when built (0 for other industries)
    barrels_canal: int
    barrels_rail: int
    era: Literal["canal", "rail", "both"]  # when it may be built
    lightbulb: bool

    def allowed_in(self, era: Era) -> bool:
        return self.era in ("both", era)

    def barrels(self, era: Era) -> int:
        """The beer barrels a brewery of this level is built with in `era`."""
        return self.barrels_canal if era == "canal" else self.barrels_rail


@dataclass(frozen=True, slots=True)
class Location:
    index: int
    id: str
    name: str
    kind: str  # "town", "farm" or "merchant"
    slots: tuple[int, ...]  # global build-slot indices (towns and farms)
    merchant_slots: tuple[int, ...]  # global merchant-slot indices (merchants)


@dataclass(frozen=True, slots=True)
class Slot:
    index: int
    location: int
    number: int  # 0-based within its location, printed order
    accepts: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Link:
    index: int
    id: str
    ends: tuple[int, ...]  # location indices joined (three for Kidderminster--Worcester)
    canal: bool
    rail: bool


@dataclass(frozen=True, slots=True)
class MerchantSlot:
    index: int
    location: int
    number: int
    min_players: int


@dataclass(frozen=True, slots=True)
class Market:
    prices: tuple[int, ...]  # cheapest first
    start_cubes: int
    empty_price: int

    @property
    def capacity(self) -> int:
        return len(self.prices)

    def buy_cost(self, cubes: int, n: int) -> int:
        """Price of buying `n` cubes from a market holding `cubes` (cheapest cube first)."""
        if n == 1:  # the usual purchase
            return self.prices[self.capacity - cubes] if cubes > 0 else self.empty_price
        total = 0
        for _ in range(n):
            total += self.prices[self.capacity - cubes] if cubes > 0 else self.empty_price
            cubes = max(cubes - 1, 0)
        return total

    def sell(self, cubes: int, n: int) -> tuple[int, int]:
        """Sell up to `n` cubes into a market holding `cubes`: (cubes sold, money received)."""
        sold = min(n, self.capacity - cubes)
        money = sum(self.prices[self.capacity - cubes - 1 - i] for i in range(sold))
        return sold, money


@dataclass(frozen=True, slots=True)
class Bonus:
    kind: str  # "vp", "income", "develop" or "money"
    amount: int


class GameData:
    """Everything static about the game, indexed. One instance: `DATA`."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        raw = {name: self._read(name) for name in (
            "board", "links", "tiles", "deck", "merchants", "markets", "income", "rules")}
        self._load_board(raw["board"])
        self._load_links(raw["links"])
        self._load_tiles(raw["tiles"])
        self._load_deck(raw["deck"])
        self._load_merchants(raw["merchants"])
        self._load_markets(raw["markets"])
        self._load_income(raw["income"])
        self.rules: dict[str, Any] = raw["rules"]
        self._check_totals()

    # -- reading -----------------------------------------------------------------------------
    def _read(self, name: str) -> Any:
        path = self.directory / f"{name}.json"
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise DataError(f"{path.name}: cannot read: {exc}") from exc

    @staticmethod
    def _fail(file: str, entry: object, message: str) -> DataError:
        return DataError(f"{file}.json: entry {entry!r}: {message}")

    def _load_board(self, board: dict[str, Any]) -> None:
        locations: list[Location] = []
        slots: list[Slot] = []
        merchant_slots: list[MerchantSlot] = []
        self.bonuses: dict[int, Bonus] = {}
        groups = (("towns", "town"), ("farm_breweries", "farm"), ("merchants", "merchant"))
        for key, kind in groups:
            for entry in board[key]:
                index = len(locations)
                ids: list[int] = []
                mids: list[int] = []
                if kind == "merchant":
                    for number in range(int(entry["slots"])):
                        mids.append(len(merchant_slots))
                        merchant_slots.append(MerchantSlot(
                            len(merchant_slots), index, number, int(entry["min_players"])))
                    bonus = entry["bonus"]
                    if bonus["kind"] not in ("vp", "income", "develop", "money"):
                        raise self._fail("board", entry["id"], f"unknown bonus {bonus['kind']!r}")
                    self.bonuses[index] = Bonus(bonus["kind"], int(bonus["amount"]))
                else:
                    for number, accepts in enumerate(entry["slots"]):
                        for industry in accepts:
                            if industry not in INDUSTRIES:
                                raise self._fail("board", entry["id"],
                                                 f"slot {number} accepts unknown {industry!r}")
                        ids.append(len(slots))
                        slots.append(Slot(len(slots), index, number, tuple(accepts)))
                locations.append(Location(index, entry["id"], entry["name"], kind,
                                          tuple(ids), tuple(mids)))
        self.locations: tuple[Location, ...] = tuple(locations)
        self.slots: tuple[Slot, ...] = tuple(slots)
        self.merchant_slots: tuple[MerchantSlot, ...] = tuple(merchant_slots)
        self.location_index: dict[str, int] = {loc.id: loc.index for loc in locations}
        if len(self.location_index) != len(locations):
            raise self._fail("board", "ids", "duplicate location id")
        self.towns = tuple(loc.index for loc in locations if loc.kind == "town")
        self.farms = tuple(loc.index for loc in locations if loc.kind == "farm")
        self.merchant_locations = tuple(loc.index for loc in locations if loc.kind == "merchant")
        self.positions: dict[str, tuple[float, float]] = {
            e["id"]: (float(e["lat"]), float(e["lon_w"])) for k, _ in groups for e in board[k]}

    def _load_links(self, data: dict[str, Any]) -> None:
        links: list[Link] = []
        for entry in data["links"]:
            ends = [*entry["ends"], *entry.get("also_connects", [])]
            for end in ends:
                if end not in self.location_index:
                    raise self._fail("links", entry["id"], f"unknown location {end!r}")
            if entry["id"] != "--".join(sorted(entry["ends"])):
                raise self._fail("links", entry["id"], "id must be the sorted ends joined by '--'")
            links.append(Link(len(links), entry["id"], tuple(self.location_index[e] for e in ends),
                              bool(entry["canal"]), bool(entry["rail"])))
        self.links: tuple[Link, ...] = tuple(links)
        self.link_index: dict[str, int] = {link.id: link.index for link in links}
        touching: list[list[int]] = [[] for _ in self.locations]
        for link in links:
            for end in link.ends:
                touching[end].append(link.index)
        self.links_at: tuple[tuple[int, ...], ...] = tuple(tuple(t) for t in touching)

    def _load_tiles(self, data: dict[str, Any]) -> None:
        stacks: dict[str, list[TileSpec]] = {industry: [] for industry in INDUSTRIES}
        for entry in data["tiles"]:
            name = f"{entry.get('industry')} {entry.get('level')}"
            if entry.get("industry") not in INDUSTRIES:
                raise self._fail("tiles", name, "unknown industry")
            if entry.get("era") not in ("canal", "rail", "both"):
                raise self._fail("tiles", name, "era must be canal, rail or both")
            barrels = entry.get("barrels", {"canal": 0, "rail": 0})
            try:
                spec = TileSpec(entry["industry"], int(entry["level"]), int(entry["cost"]),
                                int(entry["coal"]), int(entry["iron"]), int(entry["beer"]),
                                int(entry["vp"]), int(entry["income"]), int(entry["link_icons"]),
                                int(entry.get("cubes", 0)), int(barrels["canal"]),
                                int(barrels["rail"]), entry["era"], bool(entry["lightbulb"]))
            except (KeyError, TypeError, ValueError) as exc:
                raise self._fail("tiles", name, f"bad or missing field: {exc}") from exc
            stack = stacks[spec.industry]
            if stack and stack[-1].level >= spec.level:
                raise self._fail("tiles", name, "levels must ascend within an industry")
            stack.extend([spec] * int(entry["count"]))
        self.stacks: dict[str, tuple[TileSpec, ...]] = {k: tuple(v) for k, v in stacks.items()}
        self.stack_list: tuple[tuple[TileSpec, ...], ...] = tuple(
            self.stacks[i] for i in INDUSTRIES)
        self.tile_specs: dict[tuple[str, int], TileSpec] = {
            (s.industry, s.level): s for stack in stacks.values() for s in stack}

    def _load_deck(self, data: dict[str, Any]) -> None:
        self.deck_counts: dict[int, dict[str, int]] = {2: {}, 3: {}, 4: {}}
        for card, counts in data["cards"].items():
            self._check_card_name(card)
            for players in (2, 3, 4):
                n = int(counts[str(players)])
                if n:
                    self.deck_counts[players][card] = n
        self.wild_cards: dict[str, int] = {k: int(v) for k, v in data["wild"].items()}
        self.cards: frozenset[str] = frozenset(
            {c for counts in self.deck_counts.values() for c in counts} | set(self.wild_cards))

    def _check_card_name(self, card: str) -> None:
        kind, _, what = card.partition(":")
        ok = (kind == "location" and self.locations[self.location_index.get(what, 0)].kind == "town"
              and what in self.location_index) or (
            kind == "industry" and (what in INDUSTRIES or what == "cotton_manufacturer"))
        if not ok:
            raise self._fail("deck", card, "not a location or industry card name")

    def _load_merchants(self, data: dict[str, Any]) -> None:
        self.merchant_tiles: dict[int, tuple[MerchantBuys, ...]] = {}
        for players, counts in data["tiles"].items():
            tiles: list[MerchantBuys] = []
            for good, n in counts.items():
                if good not in MERCHANT_GOODS:
                    raise self._fail("merchants", players, f"unknown merchant tile {good!r}")
                tiles.extend([good] * int(n))
            self.merchant_tiles[int(players)] = tuple(sorted(tiles))

    def _load_markets(self, data: dict[str, Any]) -> None:
        self.coal_market = Market(tuple(data["coal"]["prices"]), int(data["coal"]["start_cubes"]),
                                  int(data["coal"]["empty_price"]))
        self.iron_market = Market(tuple(data["iron"]["prices"]), int(data["iron"]["start_cubes"]),
                                  int(data["iron"]["empty_price"]))

    def _load_income(self, data: dict[str, Any]) -> None:
        level_of: list[int] = []
        for band in data["bands"]:
            first, last = band["spaces"]
            low, _high = band["levels"]
            per = int(band["spaces_per_level"])
            if first != len(level_of):
                raise self._fail("income", band["spaces"], "bands must cover 0..99 without gaps")
            for space in range(first, last + 1):
                level_of.append(int(low) + (space - first) // per)
        self.income_level_of: tuple[int, ...] = tuple(level_of)
        top: dict[int, int] = {}
        for space, level in enumerate(level_of):
            top[level] = space
        self.income_top_space: dict[int, int] = top
        self.start_income_space = int(data["start_space"])
        self.max_income_space = int(data["max_space"])
        if self.max_income_space != len(level_of) - 1:
            raise self._fail("income", "max_space", "does not match the bands")

    def _check_totals(self) -> None:
        def expect(file: str, entry: str, got: object, want: object) -> None:
            if got != want:
                raise self._fail(file, entry, f"expected {want}, found {got}")

        expect("board", "towns", len(self.towns), 20)
        expect("board", "farm_breweries", len(self.farms), 2)
        expect("board", "merchants", len(self.merchant_locations), 5)
        expect("links", "count", len(self.links), 39)
        both = sum(link.canal and link.rail for link in self.links)
        expect("links", "canal+rail", both, 30)
        expect("links", "rail only", sum(link.rail and not link.canal for link in self.links), 8)
        expect("links", "canal only", sum(link.canal and not link.rail for link in self.links), 1)
        expect("tiles", "total", sum(len(s) for s in self.stack_list), 45)
        for players, total in ((2, 40), (3, 54), (4, 64)):
            expect("deck", f"{players} players", sum(self.deck_counts[players].values()), total)
            slots = sum(1 for m in self.merchant_slots if m.min_players <= players)
            expect("merchants", f"{players} players", len(self.merchant_tiles[players]), slots)
        expect("merchants", "2/3/4 players",
               tuple(len(self.merchant_tiles[p]) for p in (2, 3, 4)), (5, 7, 9))
        expect("deck", "wild", self.wild_cards, {"wild:location": 4, "wild:industry": 4})

    # -- lookups -----------------------------------------------------------------------------
    def slot_index(self, location: str, number: int) -> int:
        return self.locations[self.location_index[location]].slots[number]

    def merchant_slot_index(self, location: str, number: int) -> int:
        return self.locations[self.location_index[location]].merchant_slots[number]

    def name(self, location: int) -> str:
        return self.locations[location].name

    def income_level(self, space: int) -> int:
        return self.income_level_of[space]

    def merchant_slots_in_play(self, players: int) -> Iterator[MerchantSlot]:
        return (m for m in self.merchant_slots if m.min_players <= players)


DATA = GameData(_data_dir())
