"""RULES.md §9 (end of an era: link and tile scoring, the canal-to-rail change, the end of the
game) and §1 (tie-breaks)."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import (
    deal,
    deck_cards,
    network,
    pass_,
    play,
    play_passes,
    refused,
    scenario,
    tile_at,
)

from brass.engine import legal_actions, new_game, view
from brass.engine.scenario import (
    with_link,
    with_merchant_beer,
    with_player,
    with_tile,
    with_turn,
)

CARD = "location:stafford"


def finish_era(game, first_actions=None):
    """The deck is empty and each hand holds 2 cards: one more round ends the era. Seat 0 may
    play `first_actions` instead of passing."""
    game = with_turn(game, deck=())
    for seat in range(game.num_players):
        game = with_player(game, seat, hand=[CARD, CARD])
    for action in first_actions or ():
        game = play(game, action)
    era = game.era
    return play_passes(game, lambda g: g.era != era or g.is_over)


def test_link_scores_2_for_a_merchant_and_the_link_icons_of_flipped_tiles_in_a_town():
    game = scenario()
    game = with_link(game, "birmingham--oxford", 0)
    game = with_tile(game, "birmingham", 0, 1, "cotton", 1, flipped=True)  # 1 icon
    game = with_tile(game, "birmingham", 1, 0, "manufacturer", 1, flipped=True)  # 2 icons
    game = with_tile(game, "birmingham", 3, 1, "manufacturer", 1)  # unflipped: no icons
    after = finish_era(game)
    scores = view(after, None)["era_scores"]
    assert scores == [[{"links": 2 + 1 + 2, "industries": 3},  # Manufacturer I: 3 VP
                       {"links": 0, "industries": 5}]]  # Cotton I: 5 VP
    assert after.players[0].vp == 5 + 3
    assert after.players[1].vp == 5


def test_only_flipped_tiles_give_link_icons_and_vp():
    game = scenario()
    game = with_link(game, "dudley--kidderminster", 0)
    game = with_tile(game, "dudley", 0, 0, "coal", 1)  # unflipped
    game = with_tile(game, "kidderminster", 1, 1, "cotton", 1)  # unflipped
    after = finish_era(game)
    assert [p.vp for p in after.players] == [0, 0]


def test_kidderminster_worcester_link_also_counts_the_southern_farm_brewery():
    game = scenario()
    game = with_link(game, "kidderminster--worcester", 0)
    game = with_tile(game, "kidderminster", 1, 0, "cotton", 1, flipped=True)  # 1 icon, 5 VP
    game = with_tile(game, "worcester", 0, 1, "cotton", 1, flipped=True)  # 1 icon, 5 VP
    game = with_tile(game, "farm_brewery_south", 0, 1, "brewery", 1, flipped=True)  # 2, 4 VP
    after = finish_era(game)
    assert after.players[0].vp == (1 + 1 + 2) + 5
    assert after.players[1].vp == 5 + 4


def test_a_link_to_the_northern_farm_brewery_counts_its_brewery():
    game = scenario()
    game = with_link(game, "cannock--farm_brewery_north", 0)
    game = with_tile(game, "farm_brewery_north", 0, 1, "brewery", 2, flipped=True)  # 2, 5 VP
    game = with_tile(game, "cannock", 1, 1, "coal", 1, flipped=True)  # 2 icons, 1 VP
    after = finish_era(game)
    assert after.players[0].vp == 2 + 2
    assert after.players[1].vp == 5 + 1


def test_every_merchant_location_counts_2_link_icons_even_without_merchant_tiles():
    game = scenario()  # 2 players: Warrington has no merchant tiles
    game = with_link(game, "stoke_on_trent--warrington", 0)
    assert finish_era(game).players[0].vp == 2


def test_links_leave_the_board_and_return_to_their_owners_after_an_era():
    game = scenario()
    game = with_link(game, "birmingham--oxford", 0)
    game = with_link(game, "cannock--walsall", 1)
    after = finish_era(game)
    assert after.era == "rail"
    assert view(after, None)["links"] == []
    assert [p.links_left for p in after.players] == [14, 14]


def test_the_last_canal_round_still_pays_income():
    game = with_player(scenario(), 0, income_space=20)  # level 5
    after = finish_era(game)
    assert after.era == "rail"
    assert after.players[0].money == 17 + 5


def test_canal_end_removes_every_level_i_tile_flipped_or_not():
    game = scenario()
    game = with_tile(game, "kidderminster", 1, 0, "cotton", 1, flipped=True)
    game = with_tile(game, "dudley", 0, 0, "coal", 1)
    game = with_tile(game, "worcester", 0, 1, "cotton", 2, flipped=True)
    game = with_tile(game, "coventry", 0, 1, "pottery", 1, flipped=True)
    retired = game.players[0].retired
    after = finish_era(game)
    assert tile_at(after, "kidderminster", 1) is None
    assert tile_at(after, "dudley", 0) is None
    assert tile_at(after, "coventry", 0) is None  # Pottery I is level I too
    assert tile_at(after, "worcester", 0).level == 2
    assert after.players[0].vp == 5  # the flipped Cotton I scored before it left
    assert after.players[1].vp == 5 + 10  # Cotton II and Pottery I
    assert after.players[0].retired == retired + 2


def test_with_only_level_i_tiles_removed_the_whole_map_is_your_network_again():
    game = scenario()
    game = with_tile(game, "dudley", 0, 0, "coal", 1, flipped=True)
    game = with_link(game, "birmingham--dudley", 0)
    game = finish_era(game)
    assert game.current_seat == 0
    assert game.players[0].vp == 2 + 1  # the link: Coal I's 2 icons; the tile: 1 VP
    game = with_player(game, 0, hand=[CARD])
    game = with_tile(game, "coalbrookdale", 2, 1, "coal", 2)
    after = play(game, network(CARD, "coalbrookdale--shrewsbury"))
    assert after.players[0].money == 17 - 5  # far from Dudley, and coal from Coalbrookdale


def test_canal_end_puts_a_barrel_back_beside_every_merchant_tile_that_buys_something():
    game = scenario()
    for location, slot in (("shrewsbury", 0), ("oxford", 0), ("gloucester", 0)):
        game = with_merchant_beer(game, location, slot, False)
    after = finish_era(game)
    merchants = {(m["location"], m["slot"]): (m["buys"], m["beer"])
                 for m in view(after, None)["merchants"]}
    assert merchants == {("shrewsbury", 0): ("cotton", True),
                         ("oxford", 0): ("manufacturer", True), ("oxford", 1): ("blank", False),
                         ("gloucester", 0): ("all", True), ("gloucester", 1): ("blank", False)}


def test_rail_era_deals_8_cards_each_from_the_new_deck_in_the_last_canal_turn_order():
    rail_deck = sorted(deck_cards(2).elements(), reverse=True)
    game = new_game(2, seed=3, setup=deal(2, rail_deck=rail_deck))
    game = with_turn(game, round=10, actions_left=2)
    # seat 0 spends £3 in the last canal round, seat 1 nothing: seat 1 goes first in the rail era
    after = finish_era(game, [network(CARD, "birmingham--dudley")])
    assert after.era == "rail"
    assert after.turn_order == (1, 0)
    assert (after.round, after.current_seat, after.actions_left) == (1, 1, 2)
    assert list(after.players[1].hand) == rail_deck[:8]
    assert list(after.players[0].hand) == rail_deck[8:16]
    assert list(after.deck) == rail_deck[16:]
    assert [p.discard for p in after.players] == [(), ()]


def test_rail_deck_is_every_discard_including_the_face_down_cards():
    game = new_game(2, seed=8, setup=deal(2))
    after = play_passes(game, lambda g: g.era == "rail")
    cards = Counter(after.deck)
    for p in after.players:
        cards.update(p.hand)
        assert p.face_down == ()
    assert cards == deck_cards(2)  # all 40 cards again
    assert len(after.deck) == 40 - 2 * 8


def test_tiles_of_level_ii_and_up_score_again_at_the_end_of_the_rail_era():
    game = scenario()
    game = with_tile(game, "worcester", 0, 0, "cotton", 2, flipped=True)  # 5 VP
    game = finish_era(game)
    assert game.players[0].vp == 5
    game = finish_era(game)
    assert game.is_over
    assert game.players[0].vp == 5 + 5
    assert view(game, None)["era_scores"][1][0] == {"links": 0, "industries": 5}


def test_the_game_ends_after_the_rail_era():
    game = finish_era(scenario(era="rail"))
    assert game.is_over
    assert game.current_seat is None
    assert view(game, None)["is_over"]
    assert legal_actions(game) == []
    refused(game, pass_(CARD), "over")


def test_final_ranking_vp_then_income_level_then_money_and_full_ties_share_a_rank():
    game = scenario(players=4, era="rail")
    game = with_player(game, 0, vp=10, income_space=15, money=4)  # level 3
    game = with_player(game, 1, vp=10, income_space=16, money=4)  # level 3 too
    game = with_player(game, 2, vp=10, income_space=13, money=50)  # level 2
    game = with_player(game, 3, vp=12, income_space=5, money=0)  # level -5
    game = finish_era(game)
    v = view(game, None)
    assert v["ranks"] == [2, 2, 4, 1]
    assert v["winner_order"][0] == 3
    assert sorted(v["winner_order"][1:3]) == [0, 1]
    assert v["winner_order"][3] == 2
    assert [p["money"] for p in v["players"]] == [4, 4, 50, 0]  # no income after the last round


def test_more_money_breaks_a_tie_on_vp_and_income():
    game = scenario(era="rail")
    game = with_player(game, 0, vp=7, money=3)
    game = with_player(game, 1, vp=7, money=9)
    game = finish_era(game)
    assert view(game, None)["winner_order"] == [1, 0]
    assert view(game, None)["ranks"] == [2, 1]


# DATA.md "Industry tiles": level -> (VP, link icons), counted only once flipped
SCORE_TABLE = {
    "cotton": {1: (5, 1), 2: (5, 2), 3: (9, 1), 4: (12, 1)},
    "manufacturer": {1: (3, 2), 2: (5, 1), 3: (4, 0), 4: (3, 1), 5: (8, 2), 6: (7, 1),
                     7: (9, 0), 8: (11, 1)},
    "pottery": {1: (10, 1), 2: (1, 1), 3: (11, 1), 4: (1, 1), 5: (20, 1)},
    "coal": {1: (1, 2), 2: (2, 1), 3: (3, 1), 4: (4, 1)},
    "iron": {1: (3, 1), 2: (5, 1), 3: (7, 1), 4: (9, 1)},
    "brewery": {1: (4, 2), 2: (5, 2), 3: (7, 2), 4: (10, 2)},
}
# where the tile stands, and a link from there to a town left empty
SCORE_AT = {"cotton": ("kidderminster", 1, "dudley--kidderminster"),
            "manufacturer": ("wolverhampton", 0, "walsall--wolverhampton"),
            "pottery": ("coventry", 0, "birmingham--coventry"),
            "coal": ("dudley", 0, "birmingham--dudley"),
            "iron": ("coalbrookdale", 1, "coalbrookdale--kidderminster"),
            "brewery": ("burton_on_trent", 1, "burton_on_trent--stone")}


@pytest.mark.parametrize(("industry", "level"), [(i, lv) for i, t in SCORE_TABLE.items()
                                                 for lv in t])
def test_each_flipped_tile_scores_its_vp_and_its_link_icons(industry, level):
    vp, icons = SCORE_TABLE[industry][level]
    town, slot, link = SCORE_AT[industry]
    game = scenario()
    game = with_tile(game, town, slot, 0, industry, level, flipped=True)
    game = with_link(game, link, 1)
    after = finish_era(game)
    assert after.players[0].vp == vp
    assert after.players[1].vp == icons
