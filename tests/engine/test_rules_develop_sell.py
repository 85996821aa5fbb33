"""RULES.md §6.3 (Develop), §6.4 (Sell), §7 (beer) and §8 (flipping and income)."""

from __future__ import annotations

import pytest
from helpers import (
    develop,
    merchant_at,
    play,
    refused,
    scenario,
    sell,
    tile_at,
    with_empty_stack,
    with_next_tile,
)

from brass.engine import DATA, quote, view
from brass.engine.scenario import (
    with_link,
    with_markets,
    with_merchant_beer,
    with_player,
    with_tile,
)

CARD = "location:stafford"  # only Build cares which card is used


def mat(game, industry):
    return view(game, 0)["players"][0]["mat"][industry]


# -- develop ---------------------------------------------------------------------------------

def test_develop_removes_the_lowest_tile_and_consumes_one_iron():
    game = scenario(hand=[CARD])
    after = play(game, develop(CARD, "coal"))
    assert mat(after, "coal") == [2, 2, 3, 3, 4, 4]
    assert after.players[0].money == 17 - 2  # 8 iron cubes: the cheapest costs £2
    assert after.players[0].spent == 2
    assert after.iron_market == 8 - 1
    assert after.players[0].retired == 1


def test_develop_two_tiles_of_the_same_industry():
    game = scenario(hand=[CARD])
    after = play(game, develop(CARD, "cotton", "cotton"))
    assert mat(after, "cotton") == [1, 2, 2, 3, 3, 3, 4, 4, 4]
    assert after.players[0].money == 17 - 2 - 2  # the two £2 cubes
    assert after.iron_market == 8 - 2


def test_develop_two_industries_with_iron_from_an_ironworks():
    game = scenario(hand=[CARD])
    game = with_tile(game, "dudley", 1, 1, "iron", 2)  # anyone's, no connection needed
    after = play(game, develop(CARD, "coal", "brewery"))
    assert mat(after, "coal") == [2, 2, 3, 3, 4, 4]
    assert mat(after, "brewery") == [1, 2, 2, 3, 3, 4]
    assert tile_at(after, "dudley", 1).resources == 4 - 2
    assert after.players[0].money == 17


def test_develop_iron_costs_6_once_the_iron_market_is_empty():
    game = with_markets(scenario(hand=[CARD]), iron=0)
    after = play(game, develop(CARD, "coal", "iron"))
    assert after.players[0].money == 17 - 6 - 6


def test_pottery_i_and_iii_carry_a_lightbulb_and_are_never_developed():
    game = scenario(hand=[CARD])
    refused(game, develop(CARD, "pottery"), "Pottery")
    refused(with_next_tile(game, 0, "pottery", 3), develop(CARD, "pottery"), "Pottery")
    after = play(with_next_tile(game, 0, "pottery", 2), develop(CARD, "pottery"))
    assert mat(after, "pottery") == [3, 4, 5]
    after = play(with_next_tile(game, 0, "pottery", 4), develop(CARD, "pottery"))
    assert mat(after, "pottery") == [5]


def test_develop_needs_a_tile_left_on_the_mat():
    game = with_next_tile(scenario(hand=[CARD, CARD]), 0, "iron", 4)
    refused(play(game, develop(CARD, "iron")), develop(CARD, "iron"), "Ironworks")
    refused(game, develop(CARD, "iron", "iron"), "Ironworks")


def test_develop_you_cannot_afford_is_refused():
    game = scenario(hand=[CARD], money=3)
    refused(game, develop(CARD, "coal", "coal"), "£4", "£3")  # 2 iron: £2 + £2


# -- sell ------------------------------------------------------------------------------------

def goods_game(tiles, links, merchants=None, players=2, **kw):
    """Seat 0 holds CARD; `tiles` are (town, slot, owner, industry, level), `links` anyone's."""
    game = scenario(players=players, hand=[CARD], merchants=merchants, **kw)
    for town, slot, owner, industry, level in tiles:
        game = with_tile(game, town, slot, owner, industry, level)
    for link in links:
        game = with_link(game, link, 1)
    return game


def test_sell_flips_the_tile_and_moves_income_forward_by_its_income():
    game = goods_game([("worcester", 0, 0, "cotton", 1)], ["gloucester--worcester"])
    after = play(game, sell(CARD, ("worcester", 0, "gloucester")))
    assert tile_at(after, "worcester", 0).flipped
    assert after.players[0].income_space == 10 + 5  # Cotton I: +5
    assert after.players[0].money == 17
    assert after.players[0].vp == 0  # VP come at the end of the era
    assert not merchant_at(after, "gloucester", 0).beer  # the `all` tile's barrel is used
    assert quote(game, sell(CARD, ("worcester", 0, "gloucester"))).to_json() == {
        "money": 0, "received": 0, "coal": [], "iron": [],
        "beer": [{"source": "merchant", "count": 1, "location": "gloucester", "slot": 0}]}


def test_sale_needs_a_connection_to_a_merchant_tile_that_buys_the_good():
    game = goods_game([("worcester", 0, 0, "cotton", 1)], [])
    refused(game, sell(CARD, ("worcester", 0, "gloucester")), "Worcester")
    # Oxford (manufacturer, blank) is connected but buys no cotton
    game = goods_game([("birmingham", 0, 0, "cotton", 1)], ["birmingham--oxford"])
    refused(game, sell(CARD, ("birmingham", 0, "oxford")), "Oxford")


def test_blank_merchant_tiles_buy_nothing():
    merchants = {"shrewsbury": ["all"], "oxford": ["cotton", "manufacturer"],
                 "gloucester": ["blank", "blank"]}
    game = goods_game([("worcester", 0, 0, "cotton", 1)], ["gloucester--worcester"], merchants)
    refused(game, sell(CARD, ("worcester", 0, "gloucester")), "Gloucester")


def test_all_merchant_tile_buys_cotton_manufactured_goods_and_pottery():
    merchants = {"shrewsbury": ["blank"], "oxford": ["all", "blank"],
                 "gloucester": ["cotton", "manufacturer"]}
    links = ["birmingham--coventry", "birmingham--oxford"]
    for town, slot, industry, income in (("coventry", 0, "pottery", 5),
                                         ("birmingham", 0, "cotton", 5),
                                         ("birmingham", 1, "manufacturer", 5)):
        game = goods_game([(town, slot, 0, industry, 1)], links, merchants)
        after = play(game, sell(CARD, (town, slot, "oxford")))
        assert tile_at(after, town, slot).flipped
        # Pottery I, Cotton I, Manufacturer I: +5 each; Oxford's barrel: +2 more
        assert after.players[0].income_space == 10 + income + 2


def test_sale_merchant_tile_with_a_barrel_first():
    merchants = {"shrewsbury": ["blank"], "oxford": ["cotton", "all"],
                 "gloucester": ["manufacturer", "blank"]}
    game = goods_game([("birmingham", 0, 0, "cotton", 1)], ["birmingham--oxford"], merchants)
    game = with_merchant_beer(game, "oxford", 0, False)
    action = sell(CARD, ("birmingham", 0, "oxford"))
    [beer] = quote(game, action).beer
    assert (beer.source, beer.slot) == ("merchant", DATA.merchant_slot_index("oxford", 1))
    after = play(game, action)
    assert not merchant_at(after, "oxford", 1).beer


def test_sale_merchant_tile_buying_exactly_that_good_before_an_all_tile():
    merchants = {"shrewsbury": ["blank"], "oxford": ["all", "cotton"],
                 "gloucester": ["manufacturer", "blank"]}
    game = goods_game([("birmingham", 0, 0, "cotton", 1)], ["birmingham--oxford"], merchants)
    after = play(game, sell(CARD, ("birmingham", 0, "oxford")))
    assert not merchant_at(after, "oxford", 1).beer
    assert merchant_at(after, "oxford", 0).beer


def test_sale_merchant_tile_in_the_lower_slot_when_both_buy_the_good():
    merchants = {"shrewsbury": ["blank"], "oxford": ["cotton", "cotton"],
                 "gloucester": ["all", "blank"], "warrington": ["pottery", "blank"],
                 "nottingham": ["manufacturer", "manufacturer"]}
    game = goods_game([("birmingham", 0, 0, "cotton", 1)], ["birmingham--oxford"], merchants,
                      players=4)
    after = play(game, sell(CARD, ("birmingham", 0, "oxford")))
    assert not merchant_at(after, "oxford", 0).beer
    assert merchant_at(after, "oxford", 1).beer


def test_multi_tile_sale_beer_from_the_barrel_then_your_brewery_then_a_connected_opponents():
    merchants = {"shrewsbury": ["blank"], "oxford": ["all", "manufacturer"],
                 "gloucester": ["cotton", "blank"]}
    game = goods_game(
        [("worcester", 0, 0, "cotton", 1), ("kidderminster", 1, 0, "cotton", 1),
         ("birmingham", 0, 0, "cotton", 1),
         ("burton_on_trent", 1, 0, "brewery", 1),  # yours, not connected: 1 barrel
         ("farm_brewery_south", 0, 1, "brewery", 1),  # opponent's, connected: 1 barrel
         ("farm_brewery_north", 0, 1, "brewery", 1)],  # opponent's, not connected
        ["gloucester--worcester", "kidderminster--worcester", "birmingham--worcester"], merchants)
    action = sell(CARD, ("worcester", 0, "gloucester"), ("kidderminster", 1, "gloucester"),
                  ("birmingham", 0, "gloucester"))
    sources = [(b.source, b.owner) for b in quote(game, action).beer]
    assert sources == [("merchant", None), ("tile", 0), ("tile", 1)]
    after = play(game, action)
    for town, slot in (("worcester", 0), ("kidderminster", 1), ("birmingham", 0)):
        assert tile_at(after, town, slot).flipped
    assert not merchant_at(after, "gloucester", 0).beer
    assert tile_at(after, "burton_on_trent", 1).flipped
    assert tile_at(after, "farm_brewery_south", 0).flipped
    assert tile_at(after, "farm_brewery_north", 0).resources == 1
    # three Cotton I (+5 each) and your Brewery I (+4) flipped
    assert after.players[0].income_space == 10 + 5 + 5 + 5 + 4
    assert after.players[1].income_space == 10 + 4  # the opponent's Brewery I flipped


def test_sale_whose_beer_cannot_be_found_is_illegal_and_nothing_is_sold():
    game = goods_game([("worcester", 0, 0, "cotton", 1), ("kidderminster", 1, 0, "cotton", 1),
                       ("burton_on_trent", 1, 1, "brewery", 1)],  # opponent's, not connected
                      ["gloucester--worcester", "kidderminster--worcester"])
    refused(game, sell(CARD, ("worcester", 0, "gloucester"), ("kidderminster", 1, "gloucester")),
            "beer")


def test_sale_of_a_tile_needing_no_beer_uses_no_barrel_and_gets_no_bonus():
    game = goods_game([("birmingham", 1, 0, "manufacturer", 3)], ["birmingham--oxford"])
    after = play(game, sell(CARD, ("birmingham", 1, "oxford")))
    assert tile_at(after, "birmingham", 1).flipped
    assert merchant_at(after, "oxford", 0).beer
    assert after.players[0].income_space == 10 + 4  # Manufacturer III: +4, no Oxford bonus


def test_sale_needing_two_beer_takes_them_one_after_another():
    game = goods_game([("birmingham", 1, 0, "manufacturer", 5),
                       ("burton_on_trent", 1, 0, "brewery", 2)], ["birmingham--oxford"],
                      era="rail")
    after = play(game, sell(CARD, ("birmingham", 1, "oxford")))
    assert not merchant_at(after, "oxford", 0).beer
    assert tile_at(after, "burton_on_trent", 1).resources == 2 - 1
    assert after.players[0].income_space == 10 + 2 + 2  # Manufacturer V: +2; Oxford: +2


def test_sell_only_your_own_unflipped_goods():
    game = goods_game([("worcester", 0, 1, "cotton", 1)], ["gloucester--worcester"])
    refused(game, sell(CARD, ("worcester", 0, "gloucester")), "Worcester")
    flipped = with_tile(game, "worcester", 0, 0, "cotton", 1, flipped=True)
    refused(flipped, sell(CARD, ("worcester", 0, "gloucester")), "already sold")
    mine = goods_game([("redditch", 0, 0, "coal", 1)], ["gloucester--redditch"])
    refused(mine, sell(CARD, ("redditch", 0, "gloucester")), "Coal Mine")


def test_a_used_barrel_is_gone_until_the_end_of_the_canal_era():
    game = goods_game([("worcester", 0, 0, "cotton", 1), ("kidderminster", 1, 0, "cotton", 1)],
                      ["gloucester--worcester", "kidderminster--worcester"])
    game = with_player(game, 0, hand=[CARD, CARD])
    after = play(game, sell(CARD, ("worcester", 0, "gloucester")))
    refused(after, sell(CARD, ("kidderminster", 1, "gloucester")), "beer")


# -- merchant bonuses ------------------------------------------------------------------------

def test_oxford_bonus_is_2_income_spaces():
    game = goods_game([("birmingham", 1, 0, "manufacturer", 1)], ["birmingham--oxford"])
    after = play(game, sell(CARD, ("birmingham", 1, "oxford")))
    assert after.players[0].income_space == 10 + 5 + 2  # Manufacturer I: +5; Oxford: +2


def test_shrewsbury_bonus_is_4_vp():
    game = goods_game([("kidderminster", 1, 0, "cotton", 1)],
                      ["coalbrookdale--kidderminster", "coalbrookdale--shrewsbury"])
    after = play(game, sell(CARD, ("kidderminster", 1, "shrewsbury")))
    assert after.players[0].vp == 4
    assert after.players[0].income_space == 10 + 5


def test_warrington_bonus_is_5_pounds_and_not_spending():
    merchants = {"shrewsbury": ["pottery"], "oxford": ["manufacturer", "blank"],
                 "gloucester": ["all", "blank"], "warrington": ["cotton", "blank"]}
    game = goods_game([("stoke_on_trent", 0, 0, "cotton", 1)], ["stoke_on_trent--warrington"],
                      merchants, players=3)
    action = sell(CARD, ("stoke_on_trent", 0, "warrington"))
    assert quote(game, action).received == 5
    after = play(game, action)
    assert after.players[0].money == 17 + 5
    assert after.players[0].spent == 0


def test_nottingham_bonus_is_3_vp():
    game = goods_game([("derby", 1, 0, "cotton", 1)], ["derby--nottingham"], players=4)
    after = play(game, sell(CARD, ("derby", 1, "nottingham")))
    assert after.players[0].vp == 3


def test_gloucester_bonus_develops_one_tile_free_without_iron():
    game = goods_game([("worcester", 0, 0, "cotton", 1)], ["gloucester--worcester"])
    after = play(game, sell(CARD, ("worcester", 0, "gloucester", "coal")))
    assert mat(after, "coal") == [2, 2, 3, 3, 4, 4]
    assert after.iron_market == 8
    assert after.players[0].money == 17


def test_gloucester_bonus_may_be_declined():
    game = goods_game([("worcester", 0, 0, "cotton", 1)], ["gloucester--worcester"])
    after = play(game, sell(CARD, ("worcester", 0, "gloucester", None)))
    assert after.players[0].mat == game.players[0].mat
    assert not merchant_at(after, "gloucester", 0).beer


def test_gloucester_develop_named_without_its_barrel_is_illegal():
    game = goods_game([("worcester", 0, 0, "cotton", 1), ("burton_on_trent", 1, 0, "brewery", 1)],
                      ["gloucester--worcester"])
    game = with_merchant_beer(game, "gloucester", 0, False)  # beer from your brewery instead
    refused(game, sell(CARD, ("worcester", 0, "gloucester", "coal")), "Gloucester")
    after = play(game, sell(CARD, ("worcester", 0, "gloucester")))
    assert tile_at(after, "worcester", 0).flipped
    oxford = goods_game([("birmingham", 1, 0, "manufacturer", 1)], ["birmingham--oxford"])
    refused(oxford, sell(CARD, ("birmingham", 1, "oxford", "coal")), "Gloucester")


def test_gloucester_develop_cannot_take_a_lightbulb_tile():
    game = goods_game([("worcester", 0, 0, "cotton", 1)], ["gloucester--worcester"])
    refused(game, sell(CARD, ("worcester", 0, "gloucester", "pottery")), "Pottery")


def test_each_merchant_barrel_used_gives_its_bonus():
    merchants = {"shrewsbury": ["blank"], "oxford": ["cotton", "all"],
                 "gloucester": ["manufacturer", "blank"]}
    game = goods_game([("birmingham", 0, 0, "cotton", 1), ("worcester", 0, 0, "cotton", 1)],
                      ["birmingham--oxford", "birmingham--worcester"], merchants)
    after = play(game, sell(CARD, ("birmingham", 0, "oxford"), ("worcester", 0, "oxford")))
    assert not merchant_at(after, "oxford", 0).beer
    assert not merchant_at(after, "oxford", 1).beer
    assert after.players[0].income_space == 10 + (5 + 2) + (5 + 2)  # two Cotton I, two barrels


def test_sale_beer_from_your_own_breweries_in_board_order():
    game = goods_game([("worcester", 0, 0, "cotton", 1),
                       ("coalbrookdale", 0, 0, "brewery", 1),
                       ("burton_on_trent", 1, 0, "brewery", 1)],  # Burton comes first
                      ["gloucester--worcester"])
    game = with_merchant_beer(game, "gloucester", 0, False)
    after = play(game, sell(CARD, ("worcester", 0, "gloucester")))
    assert tile_at(after, "burton_on_trent", 1).resources == 0
    assert tile_at(after, "coalbrookdale", 0).resources == 1


def test_sale_beer_from_the_nearest_connected_opponents_brewery():
    game = goods_game([("worcester", 0, 0, "cotton", 1),
                       ("coalbrookdale", 0, 1, "brewery", 1),  # 2 links away, earlier
                       ("farm_brewery_south", 0, 1, "brewery", 1)],  # 1 link away
                      ["gloucester--worcester", "kidderminster--worcester",
                       "coalbrookdale--kidderminster"])
    game = with_merchant_beer(game, "gloucester", 0, False)
    after = play(game, sell(CARD, ("worcester", 0, "gloucester")))
    assert tile_at(after, "farm_brewery_south", 0).resources == 0
    assert tile_at(after, "coalbrookdale", 0).resources == 1


def test_a_tile_is_sold_once_per_action():
    game = goods_game([("worcester", 0, 0, "cotton", 1), ("burton_on_trent", 1, 0, "brewery", 1)],
                      ["gloucester--worcester"])
    refused(game, sell(CARD, ("worcester", 0, "gloucester"), ("worcester", 0, "gloucester")),
            "already sold")


def test_develop_iron_from_the_last_market_cube_then_at_6():
    game = with_markets(scenario(hand=[CARD]), iron=1)
    after = play(game, develop(CARD, "coal", "coal"))
    assert after.players[0].money == 17 - 5 - 6
    assert after.iron_market == 0


def test_gloucester_develop_needs_a_tile_left_of_that_industry():
    game = goods_game([("worcester", 0, 0, "cotton", 1)], ["gloucester--worcester"])
    game = with_empty_stack(game, 0, "iron")
    refused(game, sell(CARD, ("worcester", 0, "gloucester", "iron")), "Ironworks")


def test_sale_beer_only_from_the_barrel_beside_the_tile_sold_to():
    # Oxford's second tile (manufacturer) has a barrel, but it does not buy cotton
    merchants = {"shrewsbury": ["blank"], "oxford": ["cotton", "manufacturer"],
                 "gloucester": ["all", "blank"]}
    game = goods_game([("birmingham", 0, 0, "cotton", 1)], ["birmingham--oxford"], merchants)
    game = with_merchant_beer(game, "oxford", 0, False)
    refused(game, sell(CARD, ("birmingham", 0, "oxford")), "beer")


def test_sale_beer_never_from_another_merchants_barrel():
    merchants = {"shrewsbury": ["blank"], "oxford": ["all", "blank"],
                 "gloucester": ["cotton", "manufacturer"]}
    game = goods_game([("birmingham", 0, 0, "cotton", 1)],
                      ["birmingham--oxford", "oxford--redditch", "gloucester--redditch"],
                      merchants)
    game = with_merchant_beer(game, "gloucester", 0, False)
    refused(game, sell(CARD, ("birmingham", 0, "gloucester")), "beer")
    after = play(game, sell(CARD, ("birmingham", 0, "oxford")))
    assert not merchant_at(after, "oxford", 0).beer


# DATA.md "Industry tiles", goods: level -> (beer to sell, income spaces when flipped)
GOODS_TABLE = {
    "cotton": {1: (1, 5), 2: (1, 4), 3: (1, 3), 4: (1, 2)},
    "manufacturer": {1: (1, 5), 2: (1, 1), 3: (0, 4), 4: (1, 6), 5: (2, 2), 6: (1, 6),
                     7: (0, 4), 8: (1, 1)},
    "pottery": {1: (1, 5), 2: (1, 1), 3: (2, 5), 4: (1, 1), 5: (2, 5)},
}
GOODS_AT = {"cotton": ("birmingham", 0), "manufacturer": ("birmingham", 1),
            "pottery": ("coventry", 0)}


@pytest.mark.parametrize(("industry", "level"), [(i, lv) for i, t in GOODS_TABLE.items()
                                                 for lv in t])
def test_each_goods_tile_sells_with_its_beer_and_gains_its_income(industry, level):
    beer, income = GOODS_TABLE[industry][level]
    town, slot = GOODS_AT[industry]
    merchants = {"shrewsbury": ["blank"], "oxford": ["all", "blank"],
                 "gloucester": ["cotton", "manufacturer"]}
    game = goods_game([(town, slot, 0, industry, level)],
                      ["birmingham--oxford", "birmingham--coventry"], merchants)
    game = with_merchant_beer(game, "oxford", 0, False)  # all beer from your brewery
    game = with_tile(game, "burton_on_trent", 1, 0, "brewery", 2, resources=2)
    after = play(game, sell(CARD, (town, slot, "oxford")))
    assert tile_at(after, town, slot).flipped
    assert 2 - tile_at(after, "burton_on_trent", 1).resources == beer
    brewery_flip = 5 if beer == 2 else 0  # Brewery II emptied: +5
    assert after.players[0].income_space == 10 + income + brewery_flip
