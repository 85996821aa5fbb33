"""A mutable working copy of a `Game`, used while one action is carried out.

Rules read and change a `Draft` step by step (pay, take a cube, flip a tile...); it records
every supply (for the `Quote`) and every flip, in order (for the move's effect, effects.py);
`freeze()` returns the new immutable `Game`. The input game is
never touched, so a refused action (an `IllegalAction` raised half-way) changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .data import DATA, INDUSTRIES, Era, Industry
from .errors import IllegalAction, Subject
from .graph import LINK_ENDS, SLOT_LOCATIONS, Graph, graph, graph_plus, network, network_plus
from .state import Game, MerchantTile, PlayerState, Tile, constructor, new_tile, updater


@dataclass(frozen=True, slots=True)
class Supply:
    """Where some coal, iron or beer comes from, and what it costs."""

    resource: str  # "coal", "iron" or "beer"
    source: str  # "tile", "market" or "merchant"
    count: int
    slot: int | None = None  # DATA.slots index (tile) or DATA.merchant_slots index (merchant)
    owner: int | None = None
    cost: int = 0  # money paid for market cubes

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"source": self.source, "count": self.count}
        if self.source == "tile" and self.slot is not None:
            s = DATA.slots[self.slot]
            out.update(location=DATA.locations[s.location].id, slot=s.number, owner=self.owner)
        elif self.source == "merchant" and self.slot is not None:
            m = DATA.merchant_slots[self.slot]
            out.update(location=DATA.locations[m.location].id, slot=m.number)
        else:
            out["cost"] = self.cost
        return out

    def describe(self) -> str:
        if self.source == "market":
            return f"{self.count} {self.resource} from the market for £{self.cost}"
        if self.source == "merchant" and self.slot is not None:
            where = DATA.locations[DATA.merchant_slots[self.slot].location].name
            return f"{self.count} beer from the merchant in {where}"
        assert self.slot is not None
        where = DATA.locations[DATA.slots[self.slot].location].name
        return f"{self.count} {self.resource} from seat {self.owner}'s tile in {where}"


@dataclass(frozen=True, slots=True)
class Quote:
    """The full price of an action: money paid and where every coal, iron and beer comes from."""

    money: int
    supplies: tuple[Supply, ...]
    received: int = 0  # money received during the action (market sales, Warrington, loan)

    def of(self, resource: str) -> tuple[Supply, ...]:
        return tuple(s for s in self.supplies if s.resource == resource)

    @property
    def coal(self) -> tuple[Supply, ...]:
        return self.of("coal")

    @property
    def iron(self) -> tuple[Supply, ...]:
        return self.of("iron")

    @property
    def beer(self) -> tuple[Supply, ...]:
        return self.of("beer")

    def to_json(self) -> dict[str, Any]:
        return {"money": self.money, "received": self.received,
                **{r: [s.to_json() for s in self.of(r)] for r in ("coal", "iron", "beer")}}


def _player_updater(*fields_set: str) -> Callable[..., PlayerState]:
    """`Draft.update` (`state.updater`), or with `fields_set` the one that sets just those."""
    updates: Callable[..., PlayerState] = updater(PlayerState, "players", "_owned", "seat",
                                                  fields_set or None)
    return updates


class Draft:
    """Mutable copy of a game while actions are carried out on it.

    The board (`tiles`, `links`, `merchants`) is read as a sequence and changed only through
    `set_tile`, `set_link` and `set_merchant`: each is copied on its first change (most moves
    change one part or none, and listing copies a draft for every candidate). A player is
    changed only through `update` (and the methods built on it): the first change makes a new
    `PlayerState`, which the draft then changes in place until it hands it out (`freeze`,
    `copy`), so an action makes one new player per seat it changes. The turn's
    parts (`turn_index`, `deck`, `round`, `era`...) are changed by turns.py once an action is
    carried out; `freeze()` gives the `Game`. `begin()` starts the record of the next action
    (what is paid, received, taken and flipped), so one draft can carry out a whole log
    (`replay`)."""

    __slots__ = ("_graph", "_links", "_merchants", "_networks", "_owned", "_tiles", "action_count",
                 "actions_left", "coal_market", "deck", "era", "era_scores", "flips", "game",
                 "iron_market", "is_over", "links", "merchants", "paid", "players", "received",
                 "round", "seat", "start_money", "supplies", "tiles", "turn_index",
                 "turn_order", "wild_industry_left", "wild_location_left")

    game: Game  # the game the draft started from (its fixed parts: players, seed, rail deck)
    seat: int
    players: list[PlayerState]
    _owned: set[int]  # the seats whose `players` entry this draft made and has not handed out
    tiles: Sequence[Tile | None]
    links: Sequence[int | None]
    merchants: Sequence[MerchantTile | None]
    _tiles: list[Tile | None] | None  # `tiles` once this draft owns a copy, else None
    _links: list[int | None] | None
    _merchants: list[MerchantTile | None] | None
    coal_market: int
    iron_market: int
    wild_location_left: int
    wild_industry_left: int
    era: Era
    round: int
    turn_order: tuple[int, ...]
    turn_index: int
    actions_left: int
    deck: tuple[str, ...]
    is_over: bool
    action_count: int
    era_scores: tuple[tuple[tuple[int, int], ...], ...]
    start_money: int
    paid: int
    received: int
    supplies: list[Supply]
    flips: list[tuple[int, Tile, int]]  # every tile flipped: (slot, tile before, len(supplies))
    _graph: Graph | None
    _networks: dict[int, frozenset[int] | None]  # `network(seat)` by seat, once asked

    def __init__(self, game: Game, base: Draft | None = None) -> None:
        """A draft of `game`; with `base` (a draft of `game`), a copy of `base` as it stands."""
        self.game = game
        if base is not None:
            self.seat = base.seat
            self.players = list(base.players)
            # both share the board as tuples from here on: the next change of either copies
            base._share()
            self._owned = set()
            self.tiles, self.links, self.merchants = base.tiles, base.links, base.merchants
            self._tiles = self._links = self._merchants = None
            self.coal_market, self.iron_market = base.coal_market, base.iron_market
            self.wild_location_left = base.wild_location_left
            self.wild_industry_left = base.wild_industry_left
            self.era, self.round, self.turn_order = base.era, base.round, base.turn_order
            self.turn_index, self.actions_left = base.turn_index, base.actions_left
            self.deck, self.is_over, self.action_count = base.deck, base.is_over, base.action_count
            self.era_scores = base.era_scores
            self.start_money, self.paid, self.received = base.start_money, base.paid, base.received
            self.supplies = list(base.supplies)
            self.flips = list(base.flips)
            self._graph = base._graph
            self._networks = dict(base._networks)
            return
        self.players = list(game.players)
        self._owned = set()
        self.tiles, self.links, self.merchants = game.tiles, game.links, game.merchants
        self._tiles = self._links = self._merchants = None
        self.coal_market = game.coal_market
        self.iron_market = game.iron_market
        self.wild_location_left = game.wild_location_left
        self.wild_industry_left = game.wild_industry_left
        self.era, self.round, self.turn_order = game.era, game.round, game.turn_order
        self.turn_index, self.actions_left = game.turn_index, game.actions_left
        self.deck, self.is_over, self.action_count = game.deck, game.is_over, game.action_count
        self.era_scores = game.era_scores
        self._graph = None
        self._networks = {}
        self.begin()

    def begin(self) -> None:
        """Start the record of an action by the player to move (nothing paid or taken yet)."""
        self.seat = seat = self.turn_order[self.turn_index]
        self.start_money = self.players[seat].money
        self.paid = 0
        self.received = 0
        self.supplies = []
        self.flips = []

    # -- reading -------------------------------------------------------------------------------
    @property
    def me(self) -> PlayerState:
        return self.players[self.seat]

    def graph(self) -> Graph:
        if self._graph is None:
            self._graph = graph(self._frozen_links())
        return self._graph

    def network(self, seat: int) -> frozenset[int] | None:
        """`graph.network` of `seat` on this draft's board (worked out once, then kept up to
        date as tiles and links are placed and removed)."""
        networks = self._networks
        if seat in networks:
            return networks[seat]
        found = networks[seat] = network(self.tiles, self.links, seat)
        return found

    # -- changing ------------------------------------------------------------------------------
    # update(seat, **changes) -> PlayerState: `players[seat]` becomes
    # `evolve_player(players[seat], **changes)`, written out in one call; a player this
    # draft made and has not handed out (by `freeze` or `copy`) is changed in place
    update = _player_updater()
    # the same for the fields most changes set, given positionally: update_money(seat, money)
    update_money = _player_updater("money")
    update_money_spent = _player_updater("money", "spent")
    update_income_space = _player_updater("income_space")
    update_links_left = _player_updater("links_left")
    update_mat = _player_updater("mat", "retired")
    update_hand = _player_updater("hand")
    update_cards = _player_updater("hand", "discard")

    def place_link(self, index: int) -> None:
        base = self.graph()
        self.set_link(index, self.seat)
        self._graph = graph_plus(base, self._frozen_links, index)

    def _frozen_links(self) -> tuple[int | None, ...]:
        return tuple(self.links)  # the same object when it is a tuple already

    def _share(self) -> None:
        """Turn the parts of the board this draft owns into tuples, and hand its players
        out, to share them."""
        self._owned.clear()
        if self._tiles is not None:
            self.tiles, self._tiles = tuple(self._tiles), None
        if self._links is not None:
            self.links, self._links = tuple(self._links), None
        if self._merchants is not None:
            self.merchants, self._merchants = tuple(self._merchants), None

    def set_tile(self, slot: int, tile: Tile | None) -> None:
        if self._tiles is None:
            self._tiles = list(self.tiles)
            self.tiles = self._tiles
        old = self._tiles[slot]
        self._tiles[slot] = tile
        if self._networks:
            old_owner = None if old is None else old.owner
            owner = None if tile is None else tile.owner
            if owner != old_owner:
                self._network_changed(old_owner, owner, SLOT_LOCATIONS[slot])

    def set_link(self, index: int, owner: int | None) -> None:
        if self._links is None:
            self._links = list(self.links)
            self.links = self._links
        old = self._links[index]
        self._links[index] = owner
        if self._networks and owner != old:
            self._network_changed(old, owner, LINK_ENDS[index])

    def _network_changed(self, old: int | None, new: int | None,
                         locations: tuple[int, ...]) -> None:
        """`old`'s tile or link at `locations` is now `new`'s (None: no one's)."""
        networks = self._networks
        if old is not None:
            networks.pop(old, None)  # it may have left `old`'s network: worked out again
        if new is not None and new in networks:
            networks[new] = network_plus(networks[new], locations)

    def clear_links(self) -> None:
        """Take every link off the board (the end of the canal era)."""
        self.links, self._links, self._graph = _NO_LINKS, None, None
        self._networks.clear()

    def set_merchants(self, merchants: tuple[MerchantTile | None, ...]) -> None:
        self.merchants, self._merchants = merchants, None

    def set_merchant(self, slot: int, merchant: MerchantTile | None) -> None:
        if self._merchants is None:
            self._merchants = list(self.merchants)
            self.merchants = self._merchants
        self._merchants[slot] = merchant

    def copy(self) -> Draft:
        """An independent draft of the game as this one has changed it so far."""
        return Draft(self.game, self)

    def pay(self, amount: int) -> None:
        """The player to move pays `amount` (it counts as spending this round)."""
        if amount:
            me = self.players[self.seat]
            self.update_money_spent(self.seat, me.money - amount, me.spent + amount)
            self.paid += amount

    def receive(self, seat: int, amount: int) -> None:
        if amount:
            self.update_money(seat, self.players[seat].money + amount)
            if seat == self.seat:
                self.received += amount

    def check_affordable(self, what: Subject) -> None:
        if self.me.money < 0:
            detail = "; ".join(s.describe() for s in self.supplies if s.source == "market")
            extra = f" (including {detail})" if detail else ""
            market = [{"resource": s.resource, "count": s.count, "cost": s.cost}
                      for s in self.supplies if s.source == "market"]
            raise IllegalAction(
                f"{what} costs £{self.paid}{extra}, and you have only £{self.start_money}",
                code="not_affordable", params={"subject": what.as_param(), "cost": self.paid,
                                               "money": self.start_money, "market": market})

    def advance_income(self, seat: int, spaces: int) -> None:
        space = min(self.players[seat].income_space + spaces, DATA.max_income_space)
        self.update_income_space(seat, space)

    def take_from_tile(self, slot: int, n: int) -> None:
        """Remove `n` cubes or barrels from a tile; a tile emptied this way flips at once."""
        tile = self.tiles[slot]
        assert tile is not None and tile.resources >= n
        left = tile.resources - n
        if left == 0:
            self.set_tile(slot, new_tile(tile.owner, tile.industry, tile.level, True, 0))
            self.advance_income(tile.owner, tile.spec.income)
            self.flips.append((slot, tile, len(self.supplies)))
        else:
            self.set_tile(slot, new_tile(tile.owner, tile.industry, tile.level, tile.flipped, left))

    def flip(self, slot: int) -> None:
        tile = self.tiles[slot]
        assert tile is not None and not tile.flipped
        self.set_tile(slot, new_tile(tile.owner, tile.industry, tile.level, True,
                                      tile.resources))
        self.advance_income(tile.owner, tile.spec.income)
        self.flips.append((slot, tile, len(self.supplies)))

    def take_from_mat(self, seat: int, industry: Industry, retire: bool) -> None:
        player = self.players[seat]
        i = INDUSTRIES.index(industry)
        mat = player.mat[:i] + (player.mat[i] + 1,) + player.mat[i + 1:]
        self.update_mat(seat, mat, player.retired + (1 if retire else 0))

    def quote(self) -> Quote:
        return Quote(self.paid, tuple(self.supplies), self.received)

    def freeze(self) -> Game:
        """The new `Game`."""
        g = self.game
        self._owned.clear()  # the players are the game's from here on
        return _game(g.num_players, g.seed, self.era, self.round, self.turn_order,
                     self.turn_index, self.actions_left, tuple(self.players), self.deck,
                     self.wild_location_left, self.wild_industry_left, self.coal_market,
                     self.iron_market, tuple(self.tiles), self._frozen_links(),
                     tuple(self.merchants), g.rail_deck, self.is_over, self.action_count,
                     self.era_scores)


_NO_LINKS: tuple[None, ...] = (None,) * len(DATA.links)
# Game(*every field), fast (`state.constructor`): one new Game per action
_game: Callable[..., Game] = constructor(Game)
