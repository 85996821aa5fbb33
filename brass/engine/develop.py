"""The Develop action (RULES.md §6.3) and Gloucester's free develop."""

from __future__ import annotations

from functools import cache

from .build import INDUSTRY_NAMES, tile_name
from .data import Industry
from .draft import Draft
from .errors import IllegalAction, Subject
from .resources import take_iron
from .state import PlayerState


def develop_problem(player: PlayerState, industry: Industry) -> IllegalAction | None:
    """Why `player` cannot develop away the lowest tile of `industry` now, or None."""
    spec = player.next_tile(industry)
    if spec is None:
        return IllegalAction(f"You have no {INDUSTRY_NAMES[industry]} tiles left to develop",
                             code="develop_no_tiles", params={"industry": industry})
    if spec.lightbulb:
        return IllegalAction(
            f"{tile_name(spec)} has a lightbulb: it can never be developed, only built",
            code="develop_lightbulb", params={"industry": industry, "level": spec.level})
    return None


def remove_from_mat(d: Draft, industry: Industry) -> None:
    """Develop away the lowest tile of `industry` (no iron here); lightbulb tiles cannot go."""
    problem = develop_problem(d.me, industry)
    if problem:
        raise problem
    d.take_from_mat(d.seat, industry, retire=True)


def develop(d: Draft, industries: tuple[Industry, ...]) -> None:
    for industry in industries:
        remove_from_mat(d, industry)
    pay_develop_iron(d, industries)


def pay_develop_iron(d: Draft, industries: tuple[str, ...]) -> None:
    """1 iron per tile developed, and the price check."""
    take_iron(d, len(industries))
    d.check_affordable(_develop_subject(industries))


@cache
def _develop_subject(industries: tuple[str, ...]) -> Subject:
    """What a develop is, in messages (made once per choice of industries)."""
    names = " and ".join(INDUSTRY_NAMES[i] for i in industries)
    return Subject("Developing " + names, "develop", industries=list(industries))
