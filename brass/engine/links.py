"""The Network action (RULES.md §6.2): canal links, one rail link, or two rail links with beer."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from .data import DATA
from .draft import Draft
from .errors import IllegalAction, Subject
from .feasible import link_cost, link_kind, link_refusal, network_start_refusal
from .resources import SLOTS_OF, take_brewery_beer, take_coal


def _link_name(index: int) -> str:
    return _LINK_NAMES[index]


# Each link's name in messages, made once: every railway's coal is asked for in its words.
_LINK_NAMES = tuple(" – ".join(DATA.name(e) for e in link.ends[:2]) for link in DATA.links)


def check_link(d: Draft, index: int, touching: frozenset[int] | None) -> None:
    """`feasible.link_refusal` (the rule, which listing asks too), in words."""
    refusal = link_refusal(d, index, touching)
    if refusal is not None:
        raise IllegalAction(_LINK_REFUSALS[refusal].format(_link_name(index)), code=refusal,
                            params={"link": DATA.links[index].id})


_LINK_REFUSALS = {
    "link_built": "The link {} is already built",
    "link_no_canal": "{} takes no canal",
    "link_no_rail": "{} takes no railway",
    "link_not_in_network": "{} does not touch your network",
}


def start_network(d: Draft, count: int) -> frozenset[int] | None:
    """Check the number of links (`feasible.network_start_refusal`, the rule listing asks
    too, and that a second railway could have a brewery's beer at all) and pay their base
    cost; returns the player's network."""
    refusal = network_start_refusal(d.era, d.me, count)
    if refusal is not None:
        raise _start_refused(d, count, refusal)
    tiles = d.tiles
    if count == 2 and not any((t := tiles[slot]) is not None and t.industry == "brewery"
                              and t.resources for slot in SLOTS_OF["brewery"]):
        raise IllegalAction("The second railway needs a beer from a brewery, and no brewery "
                            "has any beer left", code="second_railway_no_beer")
    d.pay(link_cost(d.era, count))
    return d.network(d.seat)


def _start_refused(d: Draft, count: int, refusal: str) -> IllegalAction:
    """`network_start_refusal`'s code in words."""
    if refusal == "canal_one_link":
        return IllegalAction("In the canal era a network action places one canal", code=refusal)
    left = d.me.links_left
    if refusal == "link_tiles_left":
        return IllegalAction("You have no link tiles left" if left == 0
                             else "You have only one link tile left",
                             code=refusal, params={"left": left})
    cost, money = link_cost(d.era, count), d.me.money
    return IllegalAction(f"{'A canal' if d.era == 'canal' else 'This'} costs £{cost}, "
                         f"and you have only £{money}", code=refusal,
                         params={"kind": link_kind(d.era, count), "cost": cost, "money": money})


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
