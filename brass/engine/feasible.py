"""Deciding, without carrying it out, whether the rules accept a build, a one-link network,
a develop, a loan or a scout: what listing the legal actions asks thousands of times a game.

Each check is the rule functions' verdict restated as arithmetic over one `Board` summary of
the position (coal per connected area, iron on the board, the player's money): building, for
instance, is legal when `check_target` passes and the money covers the tile, the market coal
the connected mines cannot give (where a merchant is connected) and the market iron the
ironworks cannot give. The rule functions (build.py, links.py, develop.py, rules.py) stay the
one place that carries a move out and says why it is refused; `legal_moves` carries out
only what these checks accept, to price it. The property tests prove the two agree: every
listed action is carried out and every unlisted candidate of a brute-force superset is
refused (tests/engine/test_properties.py), and `legal_moves` equals `legal_actions`.
"""

from __future__ import annotations

from .data import DATA, TileSpec
from .graph import Graph, graph, network
from .resources import SLOT_LOCATION, SLOTS_OF
from .state import Game, PlayerState, Tile

_COAL_SLOTS, _IRON_SLOTS = SLOTS_OF["coal"], SLOTS_OF["iron"]
_COAL_MARKET = DATA.coal_market
_IRON_MARKET = DATA.iron_market
_LINK_COST = DATA.rules["link_cost"]
_LOAN = DATA.rules["loan"]
# Per slot: the other slots of its location that take only one industry, as (slot, industry).
_SINGLE_SLOTS: tuple[tuple[tuple[int, str], ...], ...] = tuple(
    tuple((other, DATA.slots[other].accepts[0]) for other in DATA.locations[s.location].slots
          if len(DATA.slots[other].accepts) == 1)
    for s in DATA.slots)
_SAME_LOCATION: tuple[tuple[int, ...], ...] = tuple(
    tuple(o for o in DATA.locations[s.location].slots if o != s.index) for s in DATA.slots)


class Board:
    """What the checks need of a position, for the player to move, computed once."""

    __slots__ = ("coal_at", "coal_left", "coal_market", "era", "graph", "iron_left",
                 "iron_market", "iron_on_board", "links", "me", "merchant_areas", "network", "seat",
                 "tiles")

    def __init__(self, game: Game) -> None:
        self.seat = game.turn_order[game.turn_index]
        self.me: PlayerState = game.players[self.seat]
        self.era = game.era
        self.tiles: tuple[Tile | None, ...] = game.tiles
        self.links: tuple[int | None, ...] = game.links
        self.graph: Graph = graph(game.links)
        component = self.graph.component
        coal_at: dict[int, int] = {}
        coal = iron = 0
        tiles = game.tiles
        for slot in _COAL_SLOTS:
            tile = tiles[slot]
            if tile is not None and tile.resources and tile.industry == "coal":
                area = component[SLOT_LOCATION[slot]]
                coal_at[area] = coal_at.get(area, 0) + tile.resources
                coal += tile.resources
        for slot in _IRON_SLOTS:
            tile = tiles[slot]
            if tile is not None and tile.resources and tile.industry == "iron":
                iron += tile.resources
        self.coal_at = coal_at  # coal cubes on mines by connected area (component label)
        self.coal_market, self.iron_market = game.coal_market, game.iron_market
        self.coal_left = coal > 0 or game.coal_market > 0  # `resource_left_anywhere`
        self.iron_left = iron > 0 or game.iron_market > 0
        self.iron_on_board = iron
        self.merchant_areas = frozenset(component[m] for m in DATA.merchant_locations)
        self.network: frozenset[int] | None = network(game.tiles, game.links, self.seat)

    def target_ok(self, industry: str, slot: int, spec: TileSpec) -> bool:
        """`build.check_target` accepts building `spec` (the player's next tile of `industry`,
        which `slot` takes) there."""
        if not spec.allowed_in(self.era):
            return False
        tiles = self.tiles
        if len(DATA.slots[slot].accepts) == 2:
            for other, only in _SINGLE_SLOTS[slot]:
                if only == industry and tiles[other] is None:
                    return False
        old = tiles[slot]
        if old is not None:
            if old.industry != industry or old.level >= spec.level:
                return False
            if old.owner != self.seat and not (  # an opponent's mine or works, none left
                    (industry == "coal" and not self.coal_left)
                    or (industry == "iron" and not self.iron_left)):
                return False
        if self.era == "canal":
            for other in _SAME_LOCATION[slot]:
                tile = tiles[other]
                if tile is not None and tile.owner == self.seat:
                    return False
        return True

    def build_paid(self, spec: TileSpec, location: int) -> bool:
        """`build.place` can pay for `spec` at `location`: the cost, the coal (connected mines,
        else the market if a merchant is connected) and the iron (ironworks, else the
        market)."""
        left = self.me.money - spec.cost
        if left < 0:
            return False
        if spec.coal:
            area = self.graph.component[location]
            missing = spec.coal - self.coal_at.get(area, 0)
            if missing > 0:
                if area not in self.merchant_areas:
                    return False
                left -= _COAL_MARKET.buy_cost(self.coal_market, missing)
        if spec.iron:
            missing = spec.iron - self.iron_on_board
            if missing > 0:
                left -= _IRON_MARKET.buy_cost(self.iron_market, missing)
        return left >= 0

    def network_start_ok(self, count: int) -> bool:
        """`links.start_network` accepts `count` links (1 here: a canal or one railway)."""
        me = self.me
        if (self.era == "canal" and count != 1) or me.links_left < count:
            return False
        return me.money >= self.link_cost(count)

    def link_cost(self, count: int) -> int:
        if self.era == "canal":
            return int(_LINK_COST["canal"])
        return int(_LINK_COST["rail"] if count == 1 else _LINK_COST["double_rail"])

    def link_open(self, index: int, touching: frozenset[int] | None) -> bool:
        """`links.link_open` on the position: a free link of the era's kind touching
        `touching` (None: anywhere)."""
        link = DATA.links[index]
        return (self.links[index] is None and (link.canal if self.era == "canal" else link.rail)
                and (touching is None or not touching.isdisjoint(link.ends)))

    def single_link_ok(self, index: int) -> bool:
        """One open link (`links.link_open`) as a whole network action: a canal always (its
        cost was checked by `network_start_ok`); a railway needs a coal cube from a mine
        connected to its ends once it is placed, else from the market if they connect to a
        merchant, and the money for both."""
        if self.era == "canal":
            return True
        component = self.graph.component
        areas = {component[e] for e in DATA.links[index].ends}
        if any(self.coal_at.get(a, 0) for a in areas):
            return True
        if areas.isdisjoint(self.merchant_areas):
            return False
        cost = self.link_cost(1) + _COAL_MARKET.buy_cost(self.coal_market, 1)
        return self.me.money >= cost

    def develop_paid(self, count: int) -> bool:
        """`develop.pay_develop_iron` can pay for the iron of `count` tiles."""
        missing = count - self.iron_on_board
        cost = _IRON_MARKET.buy_cost(self.iron_market, missing) if missing > 0 else 0
        return self.me.money >= cost


def developable(player: PlayerState, k: int) -> int:
    """How many tiles of industry `k` could be developed one after another (at most 2): tiles
    left on the mat from the top of the stack with no lightbulb (`develop.develop_problem`)."""
    stack = DATA.stack_list[k]
    taken = player.mat[k]
    n = 0
    while n < 2 and taken + n < len(stack) and not stack[taken + n].lightbulb:
        n += 1
    return n


def loan_ok(player: PlayerState) -> bool:
    """`rules._loan` accepts: the income level stays at or above the floor."""
    return bool(player.income_level - _LOAN["levels"] >= _LOAN["min_level"])


def scout_ok(game: Game, player: PlayerState) -> bool:
    """`rules._check_scout` accepts: no wild card in hand and both wild piles stocked."""
    return (not any(card.startswith("wild:") for card in player.hand)
            and game.wild_location_left > 0 and game.wild_industry_left > 0)

