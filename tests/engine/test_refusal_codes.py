"""Every refusal code the engine can raise (brass/engine/errors.py), triggered by a real move,
with its params checked: a client translates the refusal from exactly these (docs/ENGINE.md).

A code that is declared but triggered by no case here fails `test_every_code_is_triggered`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from helpers import (
    build,
    develop,
    loan,
    network,
    pass_,
    scenario,
    sell,
    with_empty_stack,
    with_next_tile,
)

from brass.engine import IllegalAction, MalformedAction, Scout, apply_action, parse_action
from brass.engine.errors import ILLEGAL_CODES, MALFORMED_CODES, SUBJECTS, Subject
from brass.engine.scenario import with_link, with_player, with_tile, with_turn

CARD = "location:stafford"  # a card any action but Build may use


def goods_game(tiles: list[tuple[str, int, int, str, int]], links: list[str], **kw: Any) -> Any:
    """Seat 0 holds CARD; `tiles` are (town, slot, owner, industry, level), `links` seat 1's."""
    game = scenario(hand=[CARD], **kw)
    for town, slot, owner, industry, level in tiles:
        game = with_tile(game, town, slot, owner, industry, level)
    for link in links:
        game = with_link(game, link, 1)
    return game


def _rail(**kw: Any) -> Any:
    """Rail era, seat 0's network at Dudley (its Coal II), a brewery with beer for two rails."""
    game = scenario(era="rail", hand=[CARD], **kw)
    game = with_tile(game, "dudley", 0, 0, "coal", 2)
    return with_tile(game, "burton_on_trent", 1, 0, "brewery", 2)


def _cotton_ii(game: Any, town: str = "worcester") -> tuple[Any, Any]:
    card = f"location:{town}"
    game = with_next_tile(with_player(game, 0, hand=[card]), 0, "cotton", 2)
    return game, build(card, "cotton", town, 0)


Case = Callable[[], tuple[Any, Any]]

# code -> (game and action that trigger it, the params expected)
ILLEGAL: dict[str, tuple[Case, dict[str, Any]]] = {
    "game_over": (lambda: (with_turn(scenario(hand=[CARD]), is_over=True), pass_(CARD)), {}),
    "card_not_held": (lambda: (scenario(hand=[CARD]), pass_("location:dudley")),
                      {"card": "location:dudley", "held": 0}),
    "loan_income_floor": (lambda: (with_player(scenario(hand=[CARD]), 0, income_space=2),
                                   loan(CARD)), {"min_level": -10}),
    "scout_holding_wild": (
        lambda: (with_turn(scenario(hand=["location:dudley", "location:cannock", "industry:coal",
                                          "wild:industry"]), wild_industry_left=3),
                 Scout(cards=("location:dudley", "location:cannock", "industry:coal"))), {}),
    "scout_pile_empty": (
        lambda: (with_turn(scenario(hand=["location:dudley", "location:cannock",
                                          "industry:coal"]), wild_location_left=0),
                 Scout(cards=("location:dudley", "location:cannock", "industry:coal"))), {}),
    "link_built": (lambda: (with_link(scenario(hand=[CARD]), "birmingham--dudley", 1),
                            network(CARD, "birmingham--dudley")), {"link": "birmingham--dudley"}),
    "link_no_canal": (lambda: (scenario(hand=[CARD]), network(CARD, "birmingham--nuneaton")),
                      {"link": "birmingham--nuneaton"}),
    "link_no_rail": (lambda: (with_tile(scenario(era="rail", hand=[CARD]), "walsall", 0, 0,
                                        "iron", 2), network(CARD, "burton_on_trent--walsall")),
                     {"link": "burton_on_trent--walsall"}),
    "link_not_in_network": (
        lambda: (with_tile(scenario(hand=[CARD]), "dudley", 1, 0, "iron", 1),
                 network(CARD, "cannock--wolverhampton")), {"link": "cannock--wolverhampton"}),
    "canal_one_link": (lambda: (scenario(hand=[CARD]),
                                network(CARD, "birmingham--dudley", "dudley--kidderminster")), {}),
    "link_tiles_left": (
        lambda: (with_player(_rail(), 0, links_left=1),
                 network(CARD, "dudley--kidderminster", "kidderminster--worcester")), {"left": 1}),
    "link_money": (lambda: (scenario(hand=[CARD], money=2), network(CARD, "birmingham--dudley")),
                   {"kind": "canal", "cost": 3, "money": 2}),
    "second_railway_no_beer": (
        lambda: (with_tile(scenario(era="rail", hand=[CARD]), "dudley", 0, 0, "coal", 2),
                 network(CARD, "dudley--kidderminster", "kidderminster--worcester")), {}),
    "farm_needs_brewery_card": (
        lambda: (with_turn(scenario(hand=["wild:location"]), wild_location_left=3),
                 build("wild:location", "brewery", "farm_brewery_north", 0)),
        {"location": "farm_brewery_north"}),
    "card_wrong_location": (lambda: (scenario(hand=["location:coventry"]),
                                     build("location:coventry", "coal", "cannock", 1)),
                            {"card": "location:coventry", "location": "coventry"}),
    "card_wrong_industry": (lambda: (scenario(hand=["industry:coal"]),
                                     build("industry:coal", "cotton", "kidderminster", 1)),
                            {"card": "industry:coal", "industry": "cotton"}),
    "not_in_network": (
        lambda: (with_link(scenario(hand=["industry:coal"]), "dudley--kidderminster", 0),
                 build("industry:coal", "coal", "cannock", 1)), {"location": "cannock"}),
    "slot_wrong_industry": (lambda: (scenario(hand=["location:dudley"]),
                                     build("location:dudley", "coal", "dudley", 1)),
                            {"location": "dudley", "slot": 1, "industry": "coal"}),
    "no_tiles_left": (
        lambda: (with_tile(with_empty_stack(scenario(era="rail", hand=["location:dudley"],
                                                     money=50), 0, "iron"),
                           "dudley", 0, 1, "coal", 2),
                 build("location:dudley", "iron", "dudley", 1)), {"industry": "iron"}),
    "tile_wrong_era": (lambda: (scenario(era="rail", hand=["location:kidderminster"]),
                                build("location:kidderminster", "cotton", "kidderminster", 1)),
                       {"industry": "cotton", "level": 1, "era": "canal", "now": "rail"}),
    "single_slot_first": (lambda: (scenario(hand=["location:kidderminster"]),
                                   build("location:kidderminster", "cotton", "kidderminster", 0)),
                          {"location": "kidderminster", "industry": "cotton"}),
    "overbuild_level": (
        lambda: (with_tile(scenario(era="rail", hand=["location:dudley"]), "dudley", 0, 0,
                           "coal", 2), build("location:dudley", "coal", "dudley", 0)),
        {"location": "dudley", "slot": 0, "industry": "coal", "level": 2}),
    "overbuild_opponent_industry": (
        lambda: (with_tile(with_tile(with_next_tile(
            scenario(era="rail", hand=["location:kidderminster"]), 0, "cotton", 2),
            "kidderminster", 1, 1, "cotton", 1, flipped=True), "kidderminster", 0, 1, "coal", 2),
            build("location:kidderminster", "cotton", "kidderminster", 1)), {}),
    "overbuild_opponent_resources": (
        lambda: (with_tile(with_next_tile(scenario(hand=["location:dudley"]), 0, "coal", 2),
                           "dudley", 0, 1, "coal", 1, flipped=True),
                 build("location:dudley", "coal", "dudley", 0)), {"industry": "coal"}),
    "canal_one_tile_per_town": (
        lambda: (with_tile(scenario(hand=["location:kidderminster"]), "kidderminster", 1, 0,
                           "cotton", 1),
                 build("location:kidderminster", "coal", "kidderminster", 0)),
        {"location": "kidderminster"}),
    "build_money": (lambda: (scenario(hand=["location:dudley"], money=4),
                             build("location:dudley", "coal", "dudley", 0)),
                    {"subject": {"code": "build", "params": {
                        "industry": "coal", "level": 1, "location": "dudley"}},
                     "cost": 5, "money": 4}),
    "not_affordable": (
        lambda: _cotton_ii(with_link(scenario(money=14), "gloucester--worcester", 1)),
        {"subject": {"code": "build", "params": {
            "industry": "cotton", "level": 2, "location": "worcester"}},
         "cost": 15, "money": 14, "market": [{"resource": "coal", "count": 1, "cost": 1}]}),
    "develop_no_tiles": (lambda: (with_empty_stack(scenario(hand=[CARD]), 0, "iron"),
                                  develop(CARD, "iron")), {"industry": "iron"}),
    "develop_lightbulb": (lambda: (scenario(hand=[CARD]), develop(CARD, "pottery")),
                          {"industry": "pottery", "level": 1}),
    "sell_no_tile": (lambda: (goods_game([("worcester", 0, 1, "cotton", 1)],
                                         ["gloucester--worcester"]),
                              sell(CARD, ("worcester", 0, "gloucester"))),
                     {"location": "worcester", "slot": 0}),
    "sell_not_goods": (lambda: (goods_game([("redditch", 0, 0, "coal", 1)],
                                           ["gloucester--redditch"]),
                                sell(CARD, ("redditch", 0, "gloucester"))), {"industry": "coal"}),
    "sell_already_sold": (
        lambda: (with_tile(goods_game([], ["gloucester--worcester"]), "worcester", 0, 0,
                           "cotton", 1, flipped=True), sell(CARD, ("worcester", 0, "gloucester"))),
        {"industry": "cotton", "level": 1, "location": "worcester"}),
    "sell_not_connected": (lambda: (goods_game([("worcester", 0, 0, "cotton", 1)], []),
                                    sell(CARD, ("worcester", 0, "gloucester"))),
                           {"location": "worcester", "merchant": "gloucester"}),
    "sell_no_merchant": (lambda: (goods_game([("birmingham", 0, 0, "cotton", 1)],
                                             ["birmingham--oxford"]),
                                  sell(CARD, ("birmingham", 0, "oxford"))),
                         {"merchant": "oxford", "industry": "cotton"}),
    "free_develop_not_gloucester": (
        lambda: (goods_game([("birmingham", 1, 0, "manufacturer", 1)], ["birmingham--oxford"]),
                 sell(CARD, ("birmingham", 1, "oxford", "coal"))), {}),
    "coal_missing": (
        lambda: (with_tile(scenario(era="rail", hand=[CARD]), "worcester", 0, 0, "cotton", 2),
                 network(CARD, "kidderminster--worcester")),
        {"subject": {"code": "railway_link", "params": {"link": "kidderminster--worcester"}},
         "amount": 1, "at": ["kidderminster", "worcester", "farm_brewery_south"]}),
    "beer_missing": (
        lambda: (goods_game([("worcester", 0, 0, "cotton", 1),
                             ("kidderminster", 1, 0, "cotton", 1),
                             ("burton_on_trent", 1, 1, "brewery", 1)],
                            ["gloucester--worcester", "kidderminster--worcester"]),
                 sell(CARD, ("worcester", 0, "gloucester"), ("kidderminster", 1, "gloucester"))),
        {"subject": {"code": "sell", "params": {
            "industry": "cotton", "level": 1, "location": "kidderminster"}},
         "amount": 1, "at": ["kidderminster"]}),
}

# code -> (the JSON given to parse_action, the params expected)
MALFORMED: dict[str, tuple[Any, dict[str, Any]]] = {
    "not_an_action": ({"kind": "build", "card": CARD}, {"fields": ["build.industry",
                                                                   "build.location",
                                                                   "build.slot"]}),
    "unknown_card": ({"kind": "pass", "card": "industry:gold"}, {"card": "industry:gold"}),
    "unknown_location": ({"kind": "build", "card": CARD, "industry": "coal", "location": "paris",
                          "slot": 0}, {"location": "paris"}),
    "unknown_industry": ({"kind": "develop", "card": CARD, "industries": ["gold"]},
                         {"industry": "gold"}),
    "no_such_slot": ({"kind": "build", "card": CARD, "industry": "coal", "location": "dudley",
                      "slot": 7}, {"location": "dudley", "slot": 7}),
    "link_count": ({"kind": "network", "card": CARD, "links": []}, {"count": 0}),
    "unknown_link": ({"kind": "network", "card": CARD, "links": ["dudley--paris"]},
                     {"link": "dudley--paris"}),
    "repeated_link": ({"kind": "network", "card": CARD,
                       "links": ["birmingham--dudley", "birmingham--dudley"]},
                      {"link": "birmingham--dudley"}),
    "develop_count": ({"kind": "develop", "card": CARD,
                       "industries": ["coal", "iron", "coal"]}, {"count": 3}),
    "no_sales": ({"kind": "sell", "card": CARD, "sales": []}, {}),
    "not_a_merchant": ({"kind": "sell", "card": CARD, "sales": [
        {"location": "worcester", "slot": 0, "merchant": "dudley"}]}, {"location": "dudley"}),
    "scout_card_count": ({"kind": "scout", "cards": [CARD]}, {"count": 1}),
}


def test_every_code_is_triggered() -> None:
    assert set(ILLEGAL) == set(ILLEGAL_CODES)
    assert set(MALFORMED) == set(MALFORMED_CODES)
    subjects = {p["subject"]["code"] for _, p in ILLEGAL.values() if "subject" in p}
    assert subjects <= set(SUBJECTS)


@pytest.mark.parametrize("code", sorted(ILLEGAL))
def test_illegal_code(code: str) -> None:
    case, params = ILLEGAL[code]
    game, action = case()
    with pytest.raises(IllegalAction) as info:
        apply_action(game, action)
    assert (info.value.code, info.value.params) == (code, params), str(info.value)
    assert str(info.value) and str(info.value) == info.value.args[0]  # the English message


@pytest.mark.parametrize("code", sorted(MALFORMED))
def test_malformed_code(code: str) -> None:
    obj, params = MALFORMED[code]
    with pytest.raises(MalformedAction) as info:
        parse_action(obj)
    assert (info.value.code, info.value.params) == (code, params), str(info.value)


def test_subjects_name_every_kind_of_price() -> None:
    """Every subject a `not_affordable` or a missing resource can name (a railway, two, a
    canal, a develop...) is triggered too."""
    cases = {
        "canal": (scenario(hand=[CARD], money=2), network(CARD, "birmingham--dudley"),
                  "link_money"),
        "railway": (with_tile(scenario(era="rail", hand=[CARD], money=5), "birmingham", 0, 0,
                              "cotton", 2),
                    network(CARD, "birmingham--oxford"), "not_affordable"),
        # £15 for two railways, the first one's coal from Dudley's last cube, the second's
        # from the market (Gloucester is connected): £16
        "railways": (with_link(with_tile(_rail(money=15), "dudley", 0, 0, "coal", 2, resources=1),
                               "gloucester--worcester", 1),
                     network(CARD, "dudley--kidderminster", "kidderminster--worcester"),
                     "not_affordable"),
        "second_railway": (with_tile(with_tile(scenario(era="rail", hand=[CARD]), "dudley", 0,
                                               0, "coal", 2), "burton_on_trent", 1, 1,
                                     "brewery", 2),
                           network(CARD, "dudley--kidderminster", "kidderminster--worcester"),
                           "beer_missing"),
        "develop": (scenario(hand=[CARD], money=3), develop(CARD, "coal", "coal"),
                    "not_affordable"),
    }
    for subject, (game, action, code) in cases.items():
        with pytest.raises(IllegalAction) as info:
            apply_action(game, action)
        assert info.value.code == code, (subject, str(info.value))
        if code == "link_money":
            assert info.value.params["kind"] == subject
        else:
            assert info.value.params["subject"]["code"] == subject, info.value.params


def test_a_refusal_survives_pickling() -> None:
    """The server computes extensions in worker processes: the code crosses with the error."""
    import pickle

    exc = IllegalAction("The game is over", code="game_over")
    back = pickle.loads(pickle.dumps(exc))
    assert (type(back), str(back), back.code, back.params) == (
        IllegalAction, "The game is over", "game_over", {})


def test_an_undeclared_code_or_param_is_a_bug() -> None:
    with pytest.raises(AssertionError):
        IllegalAction("x", code="no_such_code")
    with pytest.raises(AssertionError):
        MalformedAction("x", code="unknown_card", params={"cards": "x"})
    with pytest.raises(AssertionError):
        Subject("x", "build", industry="coal")


def test_the_client_knows_every_code() -> None:
    """The web client renders each refusal from its code (web/src/i18n/refusals.ts lists them,
    every catalogue has a message for each: web/src/i18n/catalogues.test.ts)."""
    import json
    import re
    from pathlib import Path

    web = Path(__file__).parents[2] / "web" / "src" / "i18n"
    listed = re.search(r"REFUSAL_CODES = \[(.*?)\];", (web / "refusals.ts").read_text(), re.S)
    assert listed is not None
    assert set(re.findall(r'"([a-z_]+)"', listed.group(1))) == set(ILLEGAL_CODES) | set(
        MALFORMED_CODES)
    subjects = re.search(r"SUBJECT_CODES = \[(.*?)\];", (web / "refusals.ts").read_text(), re.S)
    assert subjects is not None
    assert set(re.findall(r'"([a-z_]+)"', subjects.group(1))) == set(SUBJECTS)
    english = json.loads((web / "en.json").read_text())
    assert {k.removeprefix("refusal.") for k in english if k.startswith("refusal.")} == set(
        ILLEGAL_CODES) | set(MALFORMED_CODES)
