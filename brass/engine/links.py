"""The Network action (RULES.md §6.2): canal links, one rail link, or two rail links with beer."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from .data import DATA
from .draft import Draft
from .errors import IllegalAction, Subject
from .resources import SLOTS_OF, take_brewery_beer, take_coal


def _link_name(index: int) -> str:
    return _LINK_NAMES[index]


# Each link's name in messages, made once: every railway's coal is asked for in its words.
_LINK_NAMES = tuple(" – ".join(DATA.name(e) for e in link.ends[:2]) for link in DATA.links)


def link_open(d: Draft, index: int, touching: frozenset[int] | None) -> bool:
    """May the player to move place link `index` now: a link of the era's kind, free, and
    touching `touching` (None: anywhere)? The rule `check_link` states; listing asks it."""
    link = DATA.links[index]
    return (d.links[index] is None and (link.canal if d.era == "canal" else link.rail)
            and (touching is None or not touching.isdisjoint(link.ends)))


def check_link(d: Draft, index: int, touching: frozenset[int] | None) -> None:
    """`link_open`, or an `IllegalAction` saying why not."""
    if link_open(d, index, touching):
        return
    link = {"link": DATA.links[index].id}
    if d.links[index] is not None:
        raise IllegalAction(f"The link {_link_name(index)} is already built", code="link_built",
                            params=link)
    if d.era == "canal" and not DATA.links[index].canal:
        raise IllegalAction(f"{_link_name(index)} takes no canal", code="link_no_canal",
                            params=link)
    if d.era == "rail" and not DATA.links[index].rail:
        raise IllegalAction(f"{_link_name(index)} takes no railway", code="link_no_rail",
                            params=link)
    raise IllegalAction(f"{_link_name(index)} does not touch your network",
                        code="link_not_in_network", params=link)


def start_network(d: Draft, count: int) -> frozenset[int] | None:
    """Check the number of links (and that a second railway could have a brewery's beer at
    all) and pay their base cost; returns the player's network."""
    if d.era == "canal" and count != 1:
        raise IllegalAction("In the canal era a network action places one canal",
                            code="canal_one_link")
    if d.me.links_left < count:
        raise IllegalAction("You have no link tiles left" if d.me.links_left == 0
                            else "You have only one link tile left",
                            code="link_tiles_left", params={"left": d.me.links_left})
    costs = DATA.rules["link_cost"]
    cost = costs["canal"] if d.era == "canal" else (
        costs["rail"] if count == 1 else costs["double_rail"])
    if d.me.money < cost:
        raise IllegalAction(f"{'A canal' if d.era == 'canal' else 'This'} costs £{cost}, "
                            f"and you have only £{d.me.money}", code="link_money",
                            params={"kind": "canal" if d.era == "canal" else (
                                "rail" if count == 1 else "double_rail"),
                                "cost": cost, "money": d.me.money})
    tiles = d.tiles
    if count == 2 and not any((t := tiles[slot]) is not None and t.industry == "brewery"
                              and t.resources for slot in SLOTS_OF["brewery"]):
        raise IllegalAction("The second railway needs a beer from a brewery, and no brewery "
                            "has any beer left", code="second_railway_no_beer")
    d.pay(cost)
    return d.network(d.seat)


def add_link(d: Draft, index: int, touching: frozenset[int] | None) -> frozenset[int] | None:
    """Place one link touching `touching`; a railway then takes its coal, judged with the new
    link in place. Returns what the next link may touch: with this link on the board the
    player's network is no longer "everywhere", so it is at most this link's ends."""
    check_link(d, index, touching)
    d.place_link(index)
    if d.era == "rail":
        take_coal(d, DATA.links[index].ends, 1, _railway(index))
    ends = frozenset(DATA.links[index].ends)
    return ends if touching is None else touching | ends


def finish_network(d: Draft, links: Sequence[int]) -> None:
    """The beer for a second railway, the link tiles used, and the price check."""
    if len(links) == 2:
        take_brewery_beer(d, 1, DATA.links[links[1]].ends, _second_railway(links[1]))
    d.update_links_left(d.seat, d.me.links_left - len(links))
    what = _CANAL if d.era == "canal" else (_RAILWAY if len(links) == 1 else _RAILWAYS)
    d.check_affordable(what)


# The subjects of the messages, made once each (a railway's coal is asked for in its words
# every time a railway is tried).
_CANAL = Subject("This canal", "canal")
_RAILWAY = Subject("This railway", "railway")
_RAILWAYS = Subject("These two railways", "railways")


@cache
def _railway(index: int) -> Subject:
    return Subject(f"The railway {_link_name(index)}", "railway_link", link=DATA.links[index].id)


@cache
def _second_railway(index: int) -> Subject:
    return Subject(f"The second railway {_link_name(index)}", "second_railway",
                   link=DATA.links[index].id)


def network_action(d: Draft, links: Sequence[int]) -> None:
    touching = start_network(d, len(links))
    for index in links:
        touching = add_link(d, index, touching)
    finish_network(d, links)
