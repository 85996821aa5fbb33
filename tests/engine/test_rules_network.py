"""RULES.md §5 (your network) and §6.2 (Network: canal and rail links)."""

from __future__ import annotations

from helpers import build, network, play, refused, scenario, tile_at

from brass.engine import DATA, quote, view
from brass.engine.scenario import with_link, with_markets, with_player, with_tile

CARD = "location:stafford"  # only Build cares which card is used


def test_canal_link_costs_3():
    game = scenario(hand=[CARD])
    after = play(game, network(CARD, "birmingham--dudley"))
    assert after.players[0].money == 17 - 3
    assert after.players[0].spent == 3
    assert after.players[0].links_left == 14 - 1
    assert view(after, None)["links"] == [{"id": "birmingham--dudley", "owner": 0,
                                           "kind": "canal"}]


def test_canal_era_links_only_where_canals_are_allowed():
    game = scenario(hand=[CARD])
    refused(game, network(CARD, "birmingham--nuneaton"), "canal")  # rails only


def test_rail_era_links_only_where_rails_are_allowed():
    game = scenario(era="rail", hand=[CARD])
    game = with_tile(game, "walsall", 0, 0, "iron", 2)
    refused(game, network(CARD, "burton_on_trent--walsall"), "rail")  # canals only


def test_canal_era_places_one_link_per_action():
    game = scenario(hand=[CARD])
    refused(game, network(CARD, "birmingham--dudley", "dudley--kidderminster"), "one canal")


def test_a_link_must_touch_your_network():
    game = scenario(hand=[CARD])
    game = with_tile(game, "dudley", 1, 0, "iron", 1)  # your network: Dudley
    game = with_link(game, "cannock--walsall", 1)  # an opponent's link is not your network
    refused(game, network(CARD, "cannock--wolverhampton"), "network")
    after = play(game, network(CARD, "dudley--kidderminster"))
    assert after.links[DATA.link_index["dudley--kidderminster"]] == 0


def test_locations_touching_your_links_are_in_your_network():
    game = scenario(hand=[CARD])
    game = with_link(game, "dudley--kidderminster", 0)
    after = play(game, network(CARD, "kidderminster--worcester"))
    assert after.players[0].links_left == 14 - 2
    refused(game, network(CARD, "gloucester--worcester"), "network")


def test_with_none_of_your_tiles_or_links_on_the_board_every_location_is_in_your_network():
    game = scenario(hand=[CARD, "industry:coal"])
    game = with_tile(game, "dudley", 0, 1, "coal", 1)  # an opponent's tile changes nothing
    game = with_link(game, "birmingham--dudley", 1)
    after = play(game, network(CARD, "cannock--walsall"))
    assert after.players[0].money == 17 - 3
    after = play(game, build("industry:coal", "coal", "cannock", 1))
    assert tile_at(after, "cannock", 1).owner == 0


def test_a_link_already_placed_cannot_be_placed_again():
    game = scenario(hand=[CARD])
    game = with_link(game, "birmingham--dudley", 1)
    refused(game, network(CARD, "birmingham--dudley"), "already")


def test_you_own_14_link_tiles_in_all():
    game = scenario(hand=[CARD])
    game = with_player(game, 0, links_left=0)
    refused(game, network(CARD, "birmingham--dudley"), "link")


def test_network_you_cannot_afford_is_refused_and_nothing_changes():
    game = scenario(hand=[CARD], money=2)
    refused(game, network(CARD, "birmingham--dudley"), "£3", "£2")


# -- rail links ------------------------------------------------------------------------------

def test_rail_link_costs_5_and_1_coal_from_a_mine_at_either_end():
    game = scenario(era="rail", hand=[CARD])
    game = with_tile(game, "kidderminster", 1, 0, "cotton", 2)  # your network: Kidderminster
    game = with_tile(game, "dudley", 0, 1, "coal", 2)  # the far end of the new link
    after = play(game, network(CARD, "dudley--kidderminster"))
    assert after.players[0].money == 17 - 5
    assert after.players[0].spent == 5
    assert tile_at(after, "dudley", 0).resources == 3 - 1
    assert view(after, None)["links"][0]["kind"] == "rail"


def test_rail_link_coal_from_the_nearest_mine_connected_to_either_end():
    game = scenario(era="rail", hand=[CARD])
    game = with_tile(game, "kidderminster", 1, 0, "cotton", 2)
    game = with_link(game, "coalbrookdale--kidderminster", 1)
    game = with_link(game, "coalbrookdale--wolverhampton", 1)
    game = with_tile(game, "wolverhampton", 1, 1, "coal", 2)  # 2 links from Kidderminster
    game = with_tile(game, "coalbrookdale", 2, 1, "coal", 2)  # 1 link from Kidderminster
    after = play(game, network(CARD, "dudley--kidderminster"))
    assert tile_at(after, "coalbrookdale", 2).resources == 3 - 1
    assert tile_at(after, "wolverhampton", 1).resources == 3


def test_rail_link_coal_from_the_market_only_when_the_link_is_connected_to_a_merchant():
    game = scenario(era="rail", hand=[CARD])
    game = with_tile(game, "worcester", 0, 0, "cotton", 2)  # your network: Worcester
    refused(game, network(CARD, "kidderminster--worcester"), "coal")
    after = play(game, network(CARD, "gloucester--worcester"))
    assert after.players[0].money == 17 - 5 - 1  # market coal: the cheapest of 13 is £1
    assert after.players[0].spent == 5 + 1
    assert after.coal_market == 13 - 1
    empty = with_markets(game, coal=0)
    assert quote(empty, network(CARD, "gloucester--worcester")).money == 5 + 8


def test_double_rail_costs_15_two_coal_and_a_beer_and_the_second_link_is_judged_after_the_first():
    game = scenario(era="rail", hand=[CARD])
    game = with_tile(game, "dudley", 0, 0, "coal", 2, resources=2)  # your network: Dudley
    game = with_tile(game, "burton_on_trent", 1, 0, "brewery", 2)  # 2 barrels, not connected
    # the second link's coal comes from Dudley only through the first link
    after = play(game, network(CARD, "dudley--kidderminster", "kidderminster--worcester"))
    assert after.players[0].money == 17 - 15
    assert after.players[0].spent == 15
    assert after.players[0].links_left == 14 - 2
    mine = tile_at(after, "dudley", 0)
    assert (mine.resources, mine.flipped) == (0, True)
    assert after.players[0].income_space == 10 + 7  # Coal II flipped: +7
    assert tile_at(after, "burton_on_trent", 1).resources == 2 - 1  # your brewery, anywhere


def test_double_rail_beer_never_comes_from_a_merchant():
    game = scenario(era="rail", hand=[CARD])
    game = with_tile(game, "dudley", 0, 0, "coal", 2)
    # Oxford's merchant barrel is connected, but merchant beer may not be used
    refused(game, network(CARD, "birmingham--dudley", "birmingham--oxford"), "beer")


def test_double_rail_beer_from_an_opponents_brewery_only_when_connected_to_the_second_link():
    game = scenario(era="rail", hand=[CARD])
    game = with_tile(game, "dudley", 0, 0, "coal", 2)
    links = network(CARD, "dudley--kidderminster", "kidderminster--worcester")
    far = with_tile(game, "burton_on_trent", 1, 1, "brewery", 2)
    refused(far, links, "beer")
    # the Kidderminster--Worcester link also connects the southern farm brewery
    near = with_tile(game, "farm_brewery_south", 0, 1, "brewery", 2, resources=1)
    after = play(near, links)
    farm = tile_at(after, "farm_brewery_south", 0)
    assert (farm.resources, farm.flipped) == (0, True)
    assert after.players[1].income_space == 10 + 5  # Brewery II flipped: +5 for its owner


def test_double_rail_uses_your_own_brewery_before_an_opponents():
    game = scenario(era="rail", hand=[CARD])
    game = with_tile(game, "dudley", 0, 0, "coal", 2)
    game = with_tile(game, "farm_brewery_south", 0, 1, "brewery", 2)
    game = with_tile(game, "burton_on_trent", 1, 0, "brewery", 2)
    after = play(game, network(CARD, "dudley--kidderminster", "kidderminster--worcester"))
    assert tile_at(after, "burton_on_trent", 1).resources == 2 - 1
    assert tile_at(after, "farm_brewery_south", 0).resources == 2


def test_double_rail_you_cannot_afford_is_refused():
    game = scenario(era="rail", hand=[CARD], money=14)
    game = with_tile(game, "dudley", 0, 0, "coal", 2)
    game = with_tile(game, "burton_on_trent", 1, 0, "brewery", 2)
    refused(game, network(CARD, "dudley--kidderminster", "kidderminster--worcester"), "£15")


def test_double_rail_second_link_must_touch_your_network_or_the_first_link():
    game = scenario(era="rail", hand=[CARD])
    game = with_tile(game, "dudley", 0, 0, "coal", 2)
    game = with_tile(game, "burton_on_trent", 1, 0, "brewery", 2)
    refused(game, network(CARD, "dudley--kidderminster", "cannock--walsall"), "network")


def test_double_rail_first_link_coal_is_judged_before_the_second_link_is_placed():
    game = scenario(era="rail", hand=[CARD])
    game = with_tile(game, "dudley", 1, 0, "iron", 2)  # your network: Dudley, no coal there
    game = with_tile(game, "coventry", 1, 1, "coal", 2)  # reached only by the second link
    game = with_tile(game, "burton_on_trent", 1, 0, "brewery", 2)
    refused(game, network(CARD, "birmingham--dudley", "birmingham--coventry"), "coal")


def test_the_kidderminster_worcester_link_puts_the_southern_farm_brewery_in_your_network():
    game = scenario(hand=["industry:brewery"])
    game = with_link(game, "kidderminster--worcester", 0)
    after = play(game, build("industry:brewery", "brewery", "farm_brewery_south", 0))
    assert tile_at(after, "farm_brewery_south", 0).owner == 0


def test_double_rail_needs_two_link_tiles_left():
    game = scenario(era="rail", hand=[CARD])
    game = with_tile(game, "dudley", 0, 0, "coal", 2)
    game = with_tile(game, "burton_on_trent", 1, 0, "brewery", 2)
    game = with_player(game, 0, links_left=1)
    refused(game, network(CARD, "dudley--kidderminster", "kidderminster--worcester"), "link")


def test_double_rail_with_nothing_on_the_board_the_second_link_must_touch_the_first():
    # with none of your tiles or links on the board the first link may go anywhere; once it is
    # placed you have a link on the board, so your network is its two ends
    game = scenario(era="rail", hand=[CARD])
    game = with_tile(game, "dudley", 0, 1, "coal", 2)
    game = with_tile(game, "cannock", 1, 1, "coal", 2)
    game = with_tile(game, "walsall", 1, 1, "brewery", 2)  # connected to the second link
    refused(game, network(CARD, "dudley--kidderminster", "cannock--walsall"), "network")
    after = play(game, network(CARD, "dudley--wolverhampton", "walsall--wolverhampton"))
    assert after.players[0].money == 17 - 15
    assert tile_at(after, "dudley", 0).resources == 3 - 2  # both links' coal: Dudley is nearest
    assert tile_at(after, "walsall", 1).resources == 2 - 1
