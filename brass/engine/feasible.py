"""Deciding, without carrying it out, whether the rules accept a build, a one-link network,
a develop, a loan or a scout: what listing the legal actions asks thousands of times a game.

The loan, scout, open-link and network-start rules are stated here once (`loan_ok`,
`scout_refusal`, `link_refusal`, `network_start_refusal`), fast enough for listing: rules.py
and links.py call them and only word a refusal, so listing and applying cannot disagree.
The other checks restate the rule functions' verdict as arithmetic over one `Board` summary
of the position (coal per connected area, iron on the board, the player's money), as
carrying each candidate out is what made listing slow: building, for instance, is legal when
`check_target` passes and the money covers the tile, the market coal the connected mines
cannot give (where a merchant is connected) and the market iron the ironworks cannot give.
`legal_moves` carries out only what these checks accept, to price it. The property tests
prove the two agree: every listed action is carried out and every unlisted candidate of a
brute-force superset is refused (tests/engine/test_properties.py), and `legal_moves` equals
`legal_actions`.
"""

from __future__ import annotations

from .data import DATA, Era, Industry, TileSpec
from .draft import Draft
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

    def target_ok(self, industry: Industry, slot: int, spec: TileSpec) -> bool:
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

    def single_link_ok(self, index: int) -> bool:
        """One open link (`link_refusal`) as a whole network action: a canal always (its
        cost was checked by `network_start_refusal`); a railway needs a coal cube from a mine
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
        cost = link_cost(self.era, 1) + _COAL_MARKET.buy_cost(self.coal_market, 1)
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
    """The loan rule (`rules._loan` words its refusal): the income level stays at or above the
    floor."""
    return bool(player.income_level - _LOAN["levels"] >= _LOAN["min_level"])


def scout_refusal(piles: Game | Draft, player: PlayerState) -> str | None:
    """The scout rule (`rules._check_scout` words its refusal): None, or the refusal code
    that forbids `player` to scout (a wild card in hand, a wild pile of `piles` empty)."""
    if any(card.startswith("wild:") for card in player.hand):
        return "scout_holding_wild"
    if piles.wild_location_left == 0 or piles.wild_industry_left == 0:
        return "scout_pile_empty"
    return None


def link_refusal(position: Board | Draft, index: int,
                 touching: frozenset[int] | None) -> str | None:
    """The rule for placing link `index` (`links.check_link` words its refusal): None, or the
    refusal code if it is taken, not of the era's kind or not touching `touching` (None:
    anywhere)."""
    if position.links[index] is not None:
        return "link_built"
    link = DATA.links[index]
    if position.era == "canal":
        if not link.canal:
            return "link_no_canal"
    elif not link.rail:
        return "link_no_rail"
    if touching is not None and touching.isdisjoint(link.ends):
        return "link_not_in_network"
    return None


def network_start_refusal(era: Era, player: PlayerState, count: int) -> str | None:
    """The rule for starting a network action of `count` links (`links.start_network` words
    its refusal and adds the second railway's beer): None, or the refusal code (one canal at a
    time, the link tiles, the base cost)."""
    if era == "canal" and count != 1:
        return "canal_one_link"
    if player.links_left < count:
        return "link_tiles_left"
    if player.money < link_cost(era, count):
        return "link_money"
    return None


def link_kind(era: Era, count: int) -> str:
    """Which base cost `count` links pay in `era` (a key of the data's `link_cost`)."""
    return "canal" if era == "canal" else "rail" if count == 1 else "double_rail"


def link_cost(era: Era, count: int) -> int:
    return int(_LINK_COST[link_kind(era, count)])
