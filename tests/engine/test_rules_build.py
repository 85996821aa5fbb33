"""RULES.md §6.1 (Build) and §7 (where coal and iron come from), with DATA.md's tile table."""

from __future__ import annotations

import pytest
from helpers import build, play, refused, scenario, tile_at, with_empty_stack, with_next_tile

from brass.engine import quote, view
from brass.engine.scenario import with_link, with_markets, with_player, with_tile, with_turn

# DATA.md "Industry tiles": industry, level, £, coal, iron, era (canal only / rail only / both)
TILE_TABLE = [
    ("cotton", 1, 12, 0, 0, "canal"),
    ("cotton", 2, 14, 1, 0, "both"),
    ("cotton", 3, 16, 1, 1, "both"),
    ("cotton", 4, 18, 1, 1, "both"),
    ("manufacturer", 1, 8, 1, 0, "canal"),
    ("manufacturer", 2, 10, 0, 1, "both"),
    ("manufacturer", 3, 12, 2, 0, "both"),
    ("manufacturer", 4, 8, 0, 1, "both"),
    ("manufacturer", 5, 16, 1, 0, "both"),
    ("manufacturer", 6, 20, 0, 0, "both"),
    ("manufacturer", 7, 16, 1, 1, "both"),
    ("manufacturer", 8, 20, 0, 2, "both"),
    ("pottery", 1, 17, 0, 1, "both"),
    ("pottery", 2, 0, 1, 0, "both"),
    ("pottery", 3, 22, 2, 0, "both"),
    ("pottery", 4, 0, 1, 0, "both"),
    ("pottery", 5, 24, 2, 0, "rail"),
    ("coal", 1, 5, 0, 0, "canal"),
    ("coal", 2, 7, 0, 0, "both"),
    ("coal", 3, 8, 0, 1, "both"),
    ("coal", 4, 10, 0, 1, "both"),
    ("iron", 1, 5, 1, 0, "canal"),
    ("iron", 2, 7, 1, 0, "both"),
    ("iron", 3, 9, 1, 0, "both"),
    ("iron", 4, 12, 1, 0, "both"),
    ("brewery", 1, 5, 0, 1, "canal"),
    ("brewery", 2, 7, 0, 1, "both"),
    ("brewery", 3, 9, 0, 1, "both"),
    ("brewery", 4, 9, 0, 1, "rail"),
]
# where each industry is built in the table test: (town, the single-industry slot, coal slot)
WHERE = {
    "cotton": ("kidderminster", 1, 0),
    "manufacturer": ("wolverhampton", 0, 1),
    "pottery": ("coventry", 0, 1),
    "coal": ("dudley", 0, None),
    "iron": ("coalbrookdale", 1, 2),
    "brewery": ("burton_on_trent", 1, 0),
}
# DATA.md "cubes": coal/iron cubes placed, by level
CUBES = {"coal": [2, 3, 4, 5], "iron": [4, 4, 5, 6]}

TABLE_CASES = [pytest.param(industry, level, money, coal, iron, era,
                            id=f"{industry}-{level}-{era}")
               for industry, level, money, coal, iron, allowed in TILE_TABLE
               for era in ("canal", "rail") if allowed in (era, "both")]


@pytest.mark.parametrize(("industry", "level", "money", "coal", "iron", "era"), TABLE_CASES)
def test_each_tile_of_the_industry_table_builds_at_its_cost(industry, level, money, coal, iron,
                                                            era):
    town, slot, coal_slot = WHERE[industry]
    game = scenario(era=era, hand=[f"location:{town}"], money=30)
    game = with_next_tile(game, 0, industry, level)
    # an opponent's coal mine in the same town (5 cubes), an opponent's ironworks (6 cubes)
    if coal_slot is not None:
        game = with_tile(game, town, coal_slot, 1, "coal", 4)
    game = with_tile(game, "dudley", 1, 1, "iron", 4)
    game = with_markets(game, iron=10)  # full: a new ironworks sells nothing
    action = build(f"location:{town}", industry, town, slot)

    assert quote(game, action).money == money
    after = play(game, action)

    built = tile_at(after, town, slot)
    assert (built.owner, built.industry, built.level, built.flipped) == (0, industry, level, False)
    assert after.players[0].money == 30 - money
    assert after.players[0].spent == money
    if coal_slot is not None:
        assert tile_at(after, town, coal_slot).resources == 5 - coal
    assert tile_at(after, "dudley", 1).resources == 6 - iron
    assert (after.coal_market, after.iron_market) == (13, 10)  # nothing bought or sold
    if industry in CUBES:
        assert built.resources == CUBES[industry][level - 1]
    if industry == "brewery":
        assert built.resources == (1 if era == "canal" else 2)


def test_new_brewery_gets_one_barrel_in_the_canal_era_and_two_in_the_rail_era():
    for era, barrels in (("canal", 1), ("rail", 2)):
        game = with_next_tile(scenario(era=era, hand=["industry:brewery"]), 0, "brewery", 2)
        after = play(game, build("industry:brewery", "brewery", "burton_on_trent", 1))
        assert tile_at(after, "burton_on_trent", 1).resources == barrels


# -- cards ------------------------------------------------------------------------------------

def test_location_card_builds_in_that_town_even_outside_your_network():
    game = scenario(hand=["location:coventry"])
    game = with_tile(game, "dudley", 1, 0, "iron", 1)  # your network is Dudley only
    after = play(game, build("location:coventry", "coal", "coventry", 1))
    assert tile_at(after, "coventry", 1).owner == 0
    assert after.players[0].money == 17 - 5  # Coal I


def test_industry_card_builds_only_in_your_network():
    game = scenario(hand=["industry:coal"])
    game = with_link(game, "dudley--kidderminster", 0)  # network: Dudley and Kidderminster
    refused(game, build("industry:coal", "coal", "cannock", 1), "Cannock", "network")
    after = play(game, build("industry:coal", "coal", "kidderminster", 0))
    assert tile_at(after, "kidderminster", 0).industry == "coal"


def test_industry_card_builds_only_its_own_industry():
    game = scenario(hand=["industry:coal"])
    refused(game, build("industry:coal", "cotton", "kidderminster", 1), "industry:coal")


def test_location_card_builds_only_in_its_own_town():
    game = scenario(hand=["location:coventry"])
    refused(game, build("location:coventry", "coal", "cannock", 1), "Coventry")


def test_cotton_manufacturer_card_builds_either_industry():
    game = scenario(players=3, hand=["industry:cotton_manufacturer"])
    game = with_tile(game, "wolverhampton", 1, 1, "coal", 2)
    assert quote(game, build("industry:cotton_manufacturer", "cotton", "kidderminster", 1)
                 ).money == 12  # Cotton I
    assert quote(game, build("industry:cotton_manufacturer", "manufacturer", "wolverhampton", 0)
                 ).money == 8  # Manufacturer I, its coal from the mine next door
    refused(game, build("industry:cotton_manufacturer", "coal", "dudley", 0), "Coal")


def test_wild_location_card_builds_in_any_town_and_goes_back_to_its_pile():
    game = scenario(hand=["wild:location", "location:dudley"])
    game = with_turn(game, wild_location_left=3)
    game = with_tile(game, "dudley", 0, 0, "coal", 1)  # network: Dudley only
    after = play(game, build("wild:location", "coal", "cannock", 1))
    assert tile_at(after, "cannock", 1).owner == 0
    assert after.wild_location_left == 4
    assert after.players[0].hand == ("location:dudley",)
    assert after.players[0].discard == ()


def test_wild_industry_card_builds_any_industry_in_your_network_only():
    game = scenario(hand=["wild:industry"])
    game = with_turn(game, wild_industry_left=3)
    game = with_link(game, "dudley--kidderminster", 0)
    refused(game, build("wild:industry", "cotton", "worcester", 0), "Worcester", "network")
    after = play(game, build("wild:industry", "cotton", "kidderminster", 1))
    assert tile_at(after, "kidderminster", 1).industry == "cotton"
    assert after.wild_industry_left == 4


def test_farm_brewery_builds_only_with_a_brewery_or_wild_industry_card():
    game = scenario(hand=["industry:brewery", "wild:industry", "wild:location",
                          "location:cannock"])
    game = with_turn(game, wild_industry_left=3, wild_location_left=3)
    for card in ("industry:brewery", "wild:industry"):
        after = play(game, build(card, "brewery", "farm_brewery_north", 0))
        assert tile_at(after, "farm_brewery_north", 0).owner == 0
        assert after.players[0].money == 17 - 5 - 2  # Brewery I, 1 iron from the market at £2
    refused(game, build("wild:location", "brewery", "farm_brewery_north", 0), "brewery card")
    refused(game, build("location:cannock", "brewery", "farm_brewery_north", 0), "brewery card")


def test_build_needs_the_card_in_your_hand():
    game = scenario(hand=["location:dudley"])
    refused(game, build("location:coventry", "coal", "coventry", 1), "location:coventry")


# -- which tile, which slot, how many -----------------------------------------------------------

def test_build_places_the_lowest_tile_of_that_industry_on_your_mat():
    game = scenario(hand=["location:kidderminster", "location:worcester"])
    after = play(game, build("location:kidderminster", "cotton", "kidderminster", 1))
    assert tile_at(after, "kidderminster", 1).level == 1
    assert view(after, 0)["players"][0]["mat"]["cotton"] == [1, 1, 2, 2, 3, 3, 3, 4, 4, 4]


def test_slot_rule_a_slot_showing_only_that_industry_is_used_first():
    game = scenario(hand=["location:kidderminster"])
    # Kidderminster: [cotton/coal] · [cotton]
    refused(game, build("location:kidderminster", "cotton", "kidderminster", 0), "Kidderminster")
    taken = with_tile(game, "kidderminster", 1, 1, "cotton", 1)
    after = play(taken, build("location:kidderminster", "cotton", "kidderminster", 0))
    assert tile_at(after, "kidderminster", 0).owner == 0


def test_slot_rule_does_not_apply_when_no_slot_shows_only_that_industry():
    game = scenario(hand=["location:kidderminster"])
    after = play(game, build("location:kidderminster", "coal", "kidderminster", 0))
    assert tile_at(after, "kidderminster", 0).industry == "coal"


def test_slot_must_show_the_industry_built():
    game = scenario(hand=["location:dudley"])
    refused(game, build("location:dudley", "coal", "dudley", 1), "Dudley")


def test_canal_era_one_of_your_tiles_per_location():
    game = scenario(hand=["location:kidderminster"])
    mine = with_tile(game, "kidderminster", 1, 0, "cotton", 1)
    refused(mine, build("location:kidderminster", "coal", "kidderminster", 0), "Kidderminster")
    theirs = with_tile(game, "kidderminster", 1, 1, "cotton", 1)
    after = play(theirs, build("location:kidderminster", "coal", "kidderminster", 0))
    assert tile_at(after, "kidderminster", 0).owner == 0


def test_rail_era_has_no_one_tile_per_location_limit():
    game = scenario(era="rail", hand=["location:kidderminster"])
    game = with_tile(game, "kidderminster", 1, 0, "cotton", 2)
    game = with_next_tile(game, 0, "coal", 2)
    after = play(game, build("location:kidderminster", "coal", "kidderminster", 0))
    assert tile_at(after, "kidderminster", 0).owner == 0
    assert after.players[0].money == 17 - 7  # Coal II


def test_canal_era_one_tile_rule_treats_each_farm_brewery_as_its_own_location():
    game = scenario(hand=["location:kidderminster", "location:worcester", "industry:brewery"])
    game = with_tile(game, "farm_brewery_south", 0, 0, "brewery", 1)
    game = with_next_tile(game, 0, "brewery", 2)
    # the farm beside the Kidderminster--Worcester link is not Kidderminster nor Worcester
    after = play(game, build("location:kidderminster", "cotton", "kidderminster", 1))
    assert tile_at(after, "kidderminster", 1).owner == 0
    after = play(game, build("location:worcester", "cotton", "worcester", 0))
    assert tile_at(after, "worcester", 0).owner == 0
    # a canal-era overbuild of your own farm brewery keeps you at one tile there
    after = play(game, build("industry:brewery", "brewery", "farm_brewery_south", 0))
    assert tile_at(after, "farm_brewery_south", 0).level == 2
    assert after.players[0].money == 17 - 7 - 2  # Brewery II: £7 and 1 market iron at £2


def test_farm_brewery_north_joins_your_network_only_by_its_own_link():
    game = scenario(hand=["industry:brewery"])
    game = with_tile(game, "cannock", 1, 0, "coal", 1)  # your only tile: Cannock
    # the farm brewery north is reached by its own link, not by being in Cannock
    refused(game, build("industry:brewery", "brewery", "farm_brewery_north", 0), "network")
    game = with_link(game, "cannock--farm_brewery_north", 0)
    after = play(game, build("industry:brewery", "brewery", "farm_brewery_north", 0))
    assert tile_at(after, "farm_brewery_north", 0).owner == 0


# -- era-restricted tiles ------------------------------------------------------------------------

def test_canal_era_rail_only_tiles_cannot_be_built():
    game = scenario(hand=["location:coventry", "location:burton_on_trent"], money=50)
    game = with_next_tile(game, 0, "pottery", 5)
    game = with_next_tile(game, 0, "brewery", 4)
    refused(game, build("location:coventry", "pottery", "coventry", 0), "Pottery")
    refused(game, build("location:burton_on_trent", "brewery", "burton_on_trent", 1), "Brewery")


def test_rail_era_canal_only_tiles_cannot_be_built_and_are_not_skipped():
    game = scenario(era="rail", hand=["location:kidderminster", "location:dudley"])
    game = with_tile(game, "dudley", 1, 1, "iron", 4)
    refused(game, build("location:kidderminster", "cotton", "kidderminster", 1), "Cotton")
    refused(game, build("location:dudley", "coal", "dudley", 0), "Coal")


def test_pottery_i_is_not_canal_only():
    game = scenario(era="rail", hand=["location:coventry"], money=30)
    after = play(game, build("location:coventry", "pottery", "coventry", 0))
    assert tile_at(after, "coventry", 0).level == 1
    assert after.players[0].money == 30 - 17 - 2  # £17 and 1 iron from the market at £2


# -- overbuilding ------------------------------------------------------------------------------

def test_overbuild_your_own_tile_with_a_higher_level_of_the_same_industry():
    game = scenario(hand=["location:dudley"])
    game = with_tile(game, "dudley", 0, 0, "coal", 1, resources=1)  # still holds a cube
    retired = game.players[0].retired
    after = play(game, build("location:dudley", "coal", "dudley", 0))
    new = tile_at(after, "dudley", 0)
    assert (new.owner, new.level, new.resources) == (0, 2, 3)  # Coal II with its 3 cubes
    assert after.players[0].money == 17 - 7
    assert after.players[0].retired == retired + 1  # the Coal I left the game


def test_overbuild_needs_a_lower_level_of_the_same_industry():
    game = scenario(era="rail", hand=["location:dudley", "location:kidderminster"])
    same = with_tile(game, "dudley", 0, 0, "coal", 2)  # the other Coal II is next on the mat
    refused(same, build("location:dudley", "coal", "dudley", 0), "Dudley")
    other = with_tile(game, "kidderminster", 0, 0, "cotton", 2)
    other = with_next_tile(other, 0, "coal", 3)
    refused(other, build("location:kidderminster", "coal", "kidderminster", 0), "Kidderminster")


def test_overbuild_an_opponents_coal_mine_only_when_no_coal_is_left_anywhere():
    game = scenario(hand=["location:dudley"])
    game = with_next_tile(game, 0, "coal", 2)
    game = with_tile(game, "dudley", 0, 1, "coal", 1, flipped=True)
    action = build("location:dudley", "coal", "dudley", 0)
    refused(game, action, "coal", "market")  # the coal market still has 13 cubes
    no_market = with_markets(game, coal=0)
    refused(with_tile(no_market, "cannock", 1, 1, "coal", 2, resources=1), action, "coal")
    after = play(no_market, action)
    assert tile_at(after, "dudley", 0).owner == 0
    assert after.players[0].money == 17 - 7  # Coal II
    assert after.players[1].mat == game.players[1].mat  # the old tile does not go back
    assert after.players[1].retired == game.players[1].retired + 1


def test_overbuild_an_opponents_ironworks_only_when_no_iron_is_left_anywhere():
    game = scenario(hand=["location:dudley"])
    game = with_next_tile(game, 0, "iron", 2)
    game = with_tile(game, "dudley", 1, 1, "iron", 1, flipped=True)
    game = with_tile(game, "dudley", 0, 1, "coal", 2, resources=2)
    action = build("location:dudley", "iron", "dudley", 1)
    refused(game, action, "iron", "market")  # the iron market still has 8 cubes
    no_market = with_markets(game, iron=0)
    refused(with_tile(no_market, "coalbrookdale", 1, 1, "iron", 2, resources=1), action, "iron")
    after = play(no_market, action)
    assert tile_at(after, "dudley", 1).owner == 0
    # Iron II: £7 and 1 coal from the mine in Dudley; its 4 cubes fill the empty iron market's
    # dearest spaces £5, £5, £4, £4 = £18; emptied, it flips: +3 income spaces
    assert after.players[0].money == 17 - 7 + 18
    assert after.players[0].spent == 7
    assert tile_at(after, "dudley", 0).resources == 2 - 1
    assert after.iron_market == 4
    assert tile_at(after, "dudley", 1).flipped
    assert after.players[0].income_space == 10 + 3


def test_overbuild_an_opponents_tile_never_for_other_industries():
    game = scenario(era="rail", hand=["location:kidderminster"])
    game = with_next_tile(game, 0, "cotton", 2)
    game = with_tile(game, "kidderminster", 1, 1, "cotton", 1, flipped=True)
    game = with_tile(game, "kidderminster", 0, 1, "coal", 2)
    refused(game, build("location:kidderminster", "cotton", "kidderminster", 1), "opponent")


# -- coal and iron (RULES.md §7) --------------------------------------------------------------

def _cotton_ii(game, town="worcester", slot=0, card=None):
    """Seat 0 about to build a Cotton Mill II (£14 + 1 coal) in `town`."""
    card = card or f"location:{town}"
    game = with_next_tile(with_player(game, 0, hand=[card]), 0, "cotton", 2)
    return game, build(card, "cotton", town, slot)


def test_coal_comes_from_the_nearest_connected_mine():
    game, action = _cotton_ii(scenario())
    game = with_link(game, "kidderminster--worcester", 1)
    game = with_link(game, "dudley--kidderminster", 1)
    game = with_tile(game, "dudley", 0, 1, "coal", 2)  # 2 links away, earlier in board order
    game = with_tile(game, "kidderminster", 0, 1, "coal", 2)  # 1 link away
    after = play(game, action)
    assert tile_at(after, "kidderminster", 0).resources == 3 - 1
    assert tile_at(after, "dudley", 0).resources == 3
    assert after.players[0].money == 17 - 14  # Cotton II, its coal free from a mine


def _two_mines_one_link_from_kidderminster(owner_of_dudley_mine):
    game, action = _cotton_ii(scenario(), "kidderminster", 1)
    game = with_link(game, "coalbrookdale--kidderminster", 1)
    game = with_link(game, "dudley--kidderminster", 1)
    game = with_tile(game, "coalbrookdale", 2, 1, "coal", 2)  # board order: before Dudley
    game = with_tile(game, "dudley", 0, owner_of_dudley_mine, "coal", 2)
    return game, action


def test_coal_at_equal_distance_comes_from_your_own_mine_first():
    game, action = _two_mines_one_link_from_kidderminster(0)
    after = play(game, action)
    assert tile_at(after, "dudley", 0).resources == 3 - 1
    assert tile_at(after, "coalbrookdale", 2).resources == 3


def test_coal_at_equal_distance_then_in_board_order():
    game, action = _two_mines_one_link_from_kidderminster(1)
    after = play(game, action)
    assert tile_at(after, "coalbrookdale", 2).resources == 3 - 1
    assert tile_at(after, "dudley", 0).resources == 3


def test_coal_from_several_mines_nearest_first_then_the_next():
    game = scenario(hand=["location:birmingham"])
    game = with_next_tile(game, 0, "manufacturer", 3)  # £12 + 2 coal
    game = with_link(game, "birmingham--dudley", 1)
    game = with_link(game, "dudley--kidderminster", 1)
    game = with_tile(game, "dudley", 0, 1, "coal", 2, resources=1)
    game = with_tile(game, "kidderminster", 0, 1, "coal", 2)
    action = build("location:birmingham", "manufacturer", "birmingham", 1)
    supplies = [(s.source, s.slot, s.count) for s in quote(game, action).coal]
    assert [count for _, _, count in supplies] == [1, 1]
    after = play(game, action)
    assert after.players[0].money == 17 - 12
    assert tile_at(after, "kidderminster", 0).resources == 3 - 1
    dudley = tile_at(after, "dudley", 0)
    assert (dudley.resources, dudley.flipped) == (0, True)  # its last cube: it flips
    assert after.players[1].income_space == 10 + 7  # Coal II: +7 income spaces for its owner


def test_coal_from_the_market_only_when_the_build_is_connected_to_a_merchant():
    game, action = _cotton_ii(scenario())
    game = with_tile(game, "dudley", 0, 1, "coal", 2)  # a mine, but not connected to Worcester
    refused(game, action, "Worcester", "coal")
    connected = with_link(game, "gloucester--worcester", 1)
    after = play(connected, action)
    assert after.players[0].money == 17 - 14 - 1  # 13 cubes: the cheapest one costs £1
    assert after.players[0].spent == 14 + 1
    assert after.coal_market == 13 - 1
    assert tile_at(after, "dudley", 0).resources == 3


def test_coal_market_connection_counts_a_merchant_without_tiles():
    # 2 players: Warrington has no merchant tiles but is still "a merchant" for coal
    game, action = _cotton_ii(scenario(), "stoke_on_trent", 0, card="wild:location")
    refused(game, action, "coal")
    after = play(with_link(game, "stoke_on_trent--warrington", 1), action)
    assert after.players[0].money == 17 - 14 - 1


def test_coal_costs_8_once_the_coal_market_is_empty():
    game, action = _cotton_ii(scenario(money=30))
    game = with_markets(with_link(game, "gloucester--worcester", 1), coal=0)
    assert quote(game, action).money == 14 + 8
    after = play(game, action)
    assert after.players[0].money == 30 - 14 - 8
    assert after.coal_market == 0


def _brewery_i():
    return scenario(hand=["location:burton_on_trent"]), build(
        "location:burton_on_trent", "brewery", "burton_on_trent", 1)


def test_iron_comes_from_your_own_ironworks_first():
    game, action = _brewery_i()
    game = with_tile(game, "coalbrookdale", 1, 1, "iron", 2)  # earlier in board order
    game = with_tile(game, "dudley", 1, 0, "iron", 2)
    after = play(game, action)
    assert tile_at(after, "dudley", 1).resources == 4 - 1
    assert tile_at(after, "coalbrookdale", 1).resources == 4
    assert after.players[0].money == 17 - 5  # free iron, no connection needed


def test_iron_from_opponents_ironworks_in_board_order():
    game, action = _brewery_i()
    game = with_tile(game, "coalbrookdale", 1, 1, "iron", 2)
    game = with_tile(game, "dudley", 1, 1, "iron", 2)
    after = play(game, action)
    assert tile_at(after, "coalbrookdale", 1).resources == 4 - 1
    assert tile_at(after, "dudley", 1).resources == 4


def test_iron_from_the_market_needs_no_connection_and_costs_6_once_empty():
    game, action = _brewery_i()
    after = play(game, action)
    assert after.players[0].money == 17 - 5 - 2  # 8 cubes: the cheapest costs £2
    assert after.iron_market == 8 - 1
    empty = with_markets(game, iron=0)
    after = play(empty, action)
    assert after.players[0].money == 17 - 5 - 6
    assert after.players[0].spent == 5 + 6


# -- new mines and ironworks sell to the markets --------------------------------------------------

def test_new_coal_mine_keeps_its_cubes_when_not_connected_to_a_merchant():
    game = scenario(hand=["location:dudley"])
    after = play(game, build("location:dudley", "coal", "dudley", 0))
    assert tile_at(after, "dudley", 0).resources == 2
    assert after.coal_market == 13
    assert after.players[0].money == 17 - 5


def test_new_coal_mine_connected_to_a_merchant_sells_to_the_coal_market():
    game = scenario(hand=["location:dudley"])
    game = with_link(game, "birmingham--dudley", 1)
    game = with_link(game, "birmingham--oxford", 1)
    action = build("location:dudley", "coal", "dudley", 0)
    # 13 cubes: only one £1 space is empty, so 1 of Coal I's 2 cubes is sold
    after = play(game, action)
    assert tile_at(after, "dudley", 0).resources == 1
    assert after.coal_market == 14
    assert after.players[0].money == 17 - 5 + 1
    # 11 cubes: the empty spaces are £1, £1, £2; the 2 cubes fill £2 and £1
    game = with_markets(game, coal=11)
    assert quote(game, action).received == 2 + 1
    after = play(game, action)
    assert after.players[0].money == 17 - 5 + 3
    assert after.players[0].spent == 5  # money received does not reduce spending
    mine = tile_at(after, "dudley", 0)
    assert (mine.resources, mine.flipped) == (0, True)  # emptied: flips at once
    assert after.players[0].income_space == 10 + 4  # Coal I: +4
    assert after.coal_market == 13


def test_new_ironworks_sells_to_the_iron_market_without_any_connection():
    game = scenario(hand=["location:coalbrookdale"])
    game = with_tile(game, "coalbrookdale", 2, 1, "coal", 1)
    action = build("location:coalbrookdale", "iron", "coalbrookdale", 1)
    # 8 cubes: both £1 spaces empty; 2 of Iron I's 4 cubes are sold for £1 + £1
    after = play(game, action)
    assert after.players[0].money == 17 - 5 + 2
    assert tile_at(after, "coalbrookdale", 1).resources == 4 - 2
    assert after.iron_market == 10
    # 4 cubes: empty £1, £1, £2, £2, £3, £3; the 4 cubes fill £3, £3, £2, £2 = £10 and it flips
    after = play(with_markets(game, iron=4), action)
    assert after.players[0].money == 17 - 5 + 10
    assert after.iron_market == 8
    assert tile_at(after, "coalbrookdale", 1).flipped
    assert after.players[0].income_space == 10 + 3  # Iron I: +3


# -- money -------------------------------------------------------------------------------------

def test_build_you_cannot_afford_is_refused_and_nothing_changes():
    game = scenario(hand=["location:dudley"], money=4)
    refused(game, build("location:dudley", "coal", "dudley", 0), "£5", "£4")  # Coal I: £5


def test_build_you_cannot_afford_with_market_coal_is_refused():
    game, action = _cotton_ii(scenario(money=14))
    game = with_link(game, "gloucester--worcester", 1)
    refused(game, action, "£15", "market")  # £14 and 1 market coal at £1 = £15 > £14


def test_new_coal_mine_sells_when_connected_to_a_merchant_location_without_tiles():
    # 2 players: Warrington holds no merchant tiles but is still a merchant for coal
    game = scenario(hand=["wild:location"])
    game = with_link(game, "stoke_on_trent--warrington", 1)
    after = play(game, build("wild:location", "coal", "leek", 1))
    assert tile_at(after, "leek", 1).resources == 2  # Leek is not connected yet
    game = with_link(game, "leek--stoke_on_trent", 1)
    after = play(game, build("wild:location", "coal", "leek", 1))
    assert tile_at(after, "leek", 1).resources == 2 - 1  # one £1 space was empty
    assert after.players[0].money == 17 - 5 + 1


def test_quote_names_every_source_and_the_market_price():
    game, action = _cotton_ii(scenario())
    game = with_link(game, "gloucester--worcester", 1)
    game = with_tile(game, "dudley", 1, 1, "iron", 2)
    q = quote(game, action)
    assert q.money == 14 + 1
    assert q.to_json() == {"money": 15, "received": 0, "iron": [], "beer": [],
                           "coal": [{"source": "market", "count": 1, "cost": 1}]}
    game = with_next_tile(game, 0, "cotton", 3)  # Cotton III: + 1 iron
    game = with_tile(game, "kidderminster", 0, 0, "coal", 2)
    game = with_link(game, "kidderminster--worcester", 1)
    q = quote(game, action)
    assert q.money == 16
    assert q.to_json()["coal"] == [{"source": "tile", "count": 1, "location": "kidderminster",
                                    "slot": 0, "owner": 0}]
    assert q.to_json()["iron"] == [{"source": "tile", "count": 1, "location": "dudley",
                                    "slot": 1, "owner": 1}]


def test_market_coal_is_bought_cheapest_first():
    game = scenario(hand=["location:birmingham"])
    game = with_next_tile(game, 0, "manufacturer", 3)  # £12 + 2 coal
    game = with_link(game, "birmingham--oxford", 1)
    after = play(game, build("location:birmingham", "manufacturer", "birmingham", 1))
    assert after.players[0].money == 17 - 12 - 1 - 2  # 13 cubes: the £1 cube, then a £2 one
    assert after.coal_market == 13 - 2


def test_market_coal_costs_8_for_each_cube_beyond_the_last_one():
    game = scenario(hand=["location:birmingham"], money=30)
    game = with_next_tile(game, 0, "manufacturer", 3)  # £12 + 2 coal
    game = with_markets(with_link(game, "birmingham--oxford", 1), coal=1)
    after = play(game, build("location:birmingham", "manufacturer", "birmingham", 1))
    assert after.players[0].money == 30 - 12 - 7 - 8  # the last cube (£7), then £8
    assert after.coal_market == 0


def test_new_coal_mine_fills_an_empty_coal_market_from_its_dearest_spaces():
    game = scenario(hand=["location:dudley"])
    game = with_link(game, "birmingham--dudley", 1)
    game = with_link(game, "birmingham--oxford", 1)
    after = play(with_markets(game, coal=0), build("location:dudley", "coal", "dudley", 0))
    assert after.players[0].money == 17 - 5 + 7 + 7
    assert after.coal_market == 2
    assert tile_at(after, "dudley", 0).flipped


def test_coal_your_own_mine_comes_first_only_at_equal_distance():
    game, action = _cotton_ii(scenario(), "kidderminster", 1)
    game = with_link(game, "dudley--kidderminster", 1)
    game = with_link(game, "birmingham--dudley", 1)
    game = with_tile(game, "birmingham", 1, 0, "coal", 2, from_mat=False)  # yours, 2 links away
    game = with_tile(game, "dudley", 0, 1, "coal", 2)  # the opponent's, 1 link away
    after = play(game, action)
    assert tile_at(after, "dudley", 0).resources == 3 - 1
    assert tile_at(after, "birmingham", 1).resources == 3


def test_slot_rule_applies_to_an_overbuild_too():
    # RULES.md §6.1 speaks of any build: with Kidderminster's cotton-only slot empty, the
    # cotton/coal slot cannot be used, not even to overbuild your own Cotton Mill there
    game = scenario(era="rail", hand=["location:kidderminster"])
    game = with_tile(game, "kidderminster", 0, 0, "cotton", 2)
    game = with_next_tile(game, 0, "cotton", 3)
    game = with_tile(game, "dudley", 1, 1, "iron", 2)
    refused(game, build("location:kidderminster", "cotton", "kidderminster", 0), "Kidderminster")
    taken = with_tile(game, "kidderminster", 1, 1, "cotton", 2)
    taken = with_tile(taken, "dudley", 0, 1, "coal", 2)
    taken = with_link(taken, "dudley--kidderminster", 1)
    after = play(taken, build("location:kidderminster", "cotton", "kidderminster", 0))
    assert tile_at(after, "kidderminster", 0).level == 3


def test_coal_still_missing_after_the_mines_comes_from_the_market():
    game = scenario(hand=["location:birmingham"])
    game = with_next_tile(game, 0, "manufacturer", 3)  # £12 + 2 coal
    game = with_link(game, "birmingham--oxford", 1)
    game = with_link(game, "birmingham--dudley", 1)
    game = with_tile(game, "dudley", 0, 1, "coal", 2, resources=1)
    after = play(game, build("location:birmingham", "manufacturer", "birmingham", 1))
    assert tile_at(after, "dudley", 0).resources == 0
    assert after.coal_market == 13 - 1
    assert after.players[0].money == 17 - 12 - 1


def test_iron_still_missing_after_the_ironworks_comes_from_the_market():
    game = scenario(hand=["location:birmingham"], money=30)
    game = with_next_tile(game, 0, "manufacturer", 8)  # £20 + 2 iron
    game = with_tile(game, "dudley", 1, 1, "iron", 2, resources=1)
    after = play(game, build("location:birmingham", "manufacturer", "birmingham", 1))
    assert tile_at(after, "dudley", 1).flipped
    assert after.iron_market == 8 - 1
    assert after.players[0].money == 30 - 20 - 2
    assert after.players[1].income_space == 10 + 3  # Iron II flipped: +3 for its owner


def test_a_town_without_location_cards_in_the_deck_still_takes_industry_and_wild_cards():
    # 2 players: no Belper cards in the deck (DATA.md)
    game = scenario(hand=["industry:coal", "wild:location"])
    game = with_turn(game, wild_location_left=3)
    for card in ("industry:coal", "wild:location"):
        after = play(game, build(card, "coal", "belper", 1))
        assert tile_at(after, "belper", 1).owner == 0


def test_build_needs_a_tile_of_that_industry_left_on_your_mat():
    game = scenario(era="rail", hand=["location:dudley"], money=50)
    game = with_empty_stack(game, 0, "iron")
    game = with_tile(game, "dudley", 0, 1, "coal", 2)
    refused(game, build("location:dudley", "iron", "dudley", 1), "Ironworks")
