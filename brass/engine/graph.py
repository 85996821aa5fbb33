"""Connectivity over placed links: who is connected to what, and how far (RULES.md §5, §7).

A `Graph` depends only on which links are placed (not on who owns them), so one is built per
distinct link layout and memoised: every state between two network actions shares it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

from .data import DATA
from .state import Tile

_MERCHANTS = frozenset(DATA.merchant_locations)


class Graph:
    """Placed links as an undirected graph over locations (a three-ended link joins all three)."""

    __slots__ = ("_distances", "_plus", "component", "neighbours")

    def __init__(self, links: tuple[int | None, ...] | None = None) -> None:
        if links is None:  # filled in by `plus`
            return
        adjacent: list[set[int]] = [set() for _ in DATA.locations]
        for link, owner in zip(DATA.links, links, strict=True):
            if owner is None:
                continue
            for a in link.ends:
                for b in link.ends:
                    if a != b:
                        adjacent[a].add(b)
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(s)) for s in adjacent)
        component = [-1] * len(DATA.locations)
        for start in range(len(DATA.locations)):
            if component[start] >= 0:
                continue
            component[start] = start
            stack = [start]
            while stack:
                here = stack.pop()
                for there in self.neighbours[here]:
                    if component[there] < 0:
                        component[there] = start
                        stack.append(there)
        self.component: tuple[int, ...] = tuple(component)
        self._distances: dict[tuple[int, ...], dict[int, int]] = {}
        self._plus: dict[int, Graph] = {}

    def plus(self, link: int) -> Graph:
        """This graph with one more link placed (cheaper than building it anew)."""
        ends = DATA.links[link].ends
        new = Graph()
        neighbours = list(self.neighbours)
        for a in ends:
            neighbours[a] = tuple(sorted({*neighbours[a], *(b for b in ends if b != a)}))
        new.neighbours = tuple(neighbours)
        merged = {self.component[e] for e in ends}
        label = min(merged)
        new.component = self.component if len(merged) == 1 else tuple(
            label if c in merged else c for c in self.component)
        new._distances = {}
        new._plus = {}
        return new

    def connected(self, a: int, b: int) -> bool:
        return self.component[a] == self.component[b]

    def connected_to_merchant(self, location: int) -> bool:
        """Connected to any merchant location (with tiles or not): the coal market's rule."""
        c = self.component[location]
        return any(self.component[m] == c for m in _MERCHANTS)

    def distances_from(self, sources: tuple[int, ...]) -> dict[int, int]:
        """Links to cross from the nearest of `sources` to every location connected to one
        (worked out once per graph and set of sources)."""
        found = self._distances.get(sources)
        if found is None:
            found = dict.fromkeys(sources, 0)
            queue = deque(sources)
            while queue:
                here = queue.popleft()
                for there in self.neighbours[here]:
                    if there not in found:
                        found[there] = found[here] + 1
                        queue.append(there)
            self._distances[sources] = found
        return found


_GRAPHS: dict[tuple[int | None, ...], Graph] = {}
_GRAPHS_MAX = 4096


def _remember(links: tuple[int | None, ...], g: Graph) -> Graph:
    if len(_GRAPHS) >= _GRAPHS_MAX:
        _GRAPHS.clear()  # a memo, not state: rebuilding is always correct
    _GRAPHS[links] = g
    return g


def graph(links: tuple[int | None, ...]) -> Graph:
    """The graph of a link layout, memoised (it depends only on which links are placed)."""
    g = _GRAPHS.get(links)
    return g if g is not None else _remember(links, Graph(links))


def graph_plus(base: Graph, links: Callable[[], tuple[int | None, ...]], link: int) -> Graph:
    """The graph of `base`'s layout with `link` added, memoised by `base` (and by layout:
    `links()` gives it)."""
    g = base._plus.get(link)
    if g is None:
        layout = links()
        g = _GRAPHS.get(layout)
        if g is None:
            g = _remember(layout, base.plus(link))
        base._plus[link] = g
    return g


def network(tiles: Sequence[Tile | None], links: Sequence[int | None],
            seat: int) -> frozenset[int] | None:
    """Locations in `seat`'s network; None means everywhere (no tile and no link yet)."""
    found = {location for tile, location in zip(tiles, _SLOT_LOCATION, strict=True)
             if tile is not None and tile.owner == seat}
    if seat in links:
        for owner, ends in zip(links, LINK_ENDS, strict=True):
            if owner == seat:
                found.update(ends)
    return frozenset(found) if found else None


def network_plus(found: frozenset[int] | None, locations: tuple[int, ...]) -> frozenset[int]:
    """`network(...)` of a seat whose network was `found`, once a tile of its is placed at
    `locations` (its one location) or a link of its joining them."""
    return frozenset(locations) if found is None else found.union(locations)


SLOT_LOCATIONS = tuple((slot.location,) for slot in DATA.slots)  # each slot's location, alone
_SLOT_LOCATION = tuple(slot.location for slot in DATA.slots)
LINK_ENDS = tuple(link.ends for link in DATA.links)
