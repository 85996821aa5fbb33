"""RULES.md §3 (rounds, turns, spending, income, shortfall), §4 (income track), §6.5-6.7."""

from __future__ import annotations

import pytest
from helpers import (
    build,
    deal,
    loan,
    network,
    pass_,
    play,
    play_passes,
    refused,
    scenario,
    sell,
    tile_at,
)

from brass.engine import Scout, new_game, quote, view
from brass.engine.scenario import with_link, with_player, with_tile, with_turn

CARD = "location:stafford"


# -- rounds and turns ------------------------------------------------------------------------

def test_first_canal_round_one_action_each_then_two():
    game = new_game(2, seed=1, setup=deal(2, turn_order=[1, 0]))
    assert (game.current_seat, game.actions_left) == (1, 1)
    game = play(game, pass_(game.players[1].hand[0]))
    assert (game.current_seat, game.actions_left, game.round) == (0, 1, 1)
    game = play(game, pass_(game.players[0].hand[0]))
    assert (game.round, game.actions_left) == (2, 2)
    assert game.turn_order == (1, 0)  # nobody spent anything: the order stays
    game = play(game, pass_(game.players[1].hand[0]))
    assert (game.current_seat, game.actions_left) == (1, 1)  # the same player's second action


def test_hand_is_refilled_to_8_at_the_end_of_the_turn_not_between_actions():
    game = scenario()
    deck = len(game.deck)
    game = play(game, pass_(game.players[0].hand[0]))
    assert len(game.players[0].hand) == 7
    game = play(game, pass_(game.players[0].hand[0]))
    assert len(game.players[0].hand) == 8
    assert len(game.deck) == deck - 2


def test_hand_is_refilled_only_while_the_deck_has_cards():
    game = scenario(hand=[CARD, CARD, CARD])
    game = with_turn(game, deck=("location:dudley",))
    game = play(play(game, pass_(CARD)), pass_(CARD))
    assert game.players[0].hand == (CARD, "location:dudley")  # 1 + the deck's last card
    assert game.deck == ()


def test_a_player_without_cards_is_skipped_and_the_era_ends_when_every_hand_is_empty():
    game = scenario()
    game = with_turn(game, deck=(), turn_order=(1, 0))
    game = with_player(game, 1, hand=[CARD, CARD])
    game = with_player(game, 0, hand=[])
    assert game.current_seat == 1
    game = play(play(game, pass_(CARD)), pass_(CARD))
    assert game.era == "rail"  # seat 0 had no card to play: the round and the era are over


@pytest.mark.parametrize(("players", "rounds"), [(2, 10), (3, 9), (4, 8)])
def test_each_era_lasts_10_9_8_rounds(players, rounds):
    game = new_game(players, seed=players, setup=deal(players))
    canal_rounds = 0

    def rail_started(g):
        nonlocal canal_rounds
        canal_rounds = max(canal_rounds, g.round if g.era == "canal" else 0)
        return g.era == "rail"

    game = play_passes(game, rail_started)
    assert canal_rounds == rounds
    assert (game.round, game.actions_left) == (1, 2)
    rail_rounds = 0

    def over(g):
        nonlocal rail_rounds
        rail_rounds = max(rail_rounds, g.round)
        return g.is_over

    play_passes(game, over)
    assert rail_rounds == rounds


def test_a_card_not_in_your_hand_cannot_be_played():
    game = scenario(hand=[CARD])
    refused(game, pass_("location:dudley"), "location:dudley")


def test_every_action_discards_its_card_face_up_for_everyone_to_see():
    game = scenario(hand=[CARD, "location:dudley"])
    after = play(game, build("location:dudley", "coal", "dudley", 0))
    assert after.players[0].discard[-1] == "location:dudley"
    assert view(after, 1)["players"][0]["discard_top"] == "location:dudley"


# -- spending and turn order -----------------------------------------------------------------

def test_turn_order_by_money_spent_ties_keep_the_previous_order():
    game = scenario(players=3)
    game = with_turn(game, turn_order=(2, 0, 1))
    for seat in range(3):
        game = with_player(game, seat, hand=[CARD, CARD])
    link = {2: "birmingham--dudley", 1: "cannock--walsall"}
    for seat in (2, 0, 1):
        assert game.current_seat == seat
        first = network(CARD, link[seat]) if seat in link else pass_(CARD)
        game = play(play(game, first), pass_(CARD))
    # spent: seat 2 £3, seat 0 £0, seat 1 £3: seat 0 first, then 2 before 1 as before
    assert game.turn_order == (0, 2, 1)
    assert [p.spent for p in game.players] == [0, 0, 0]


def test_money_received_does_not_reduce_spending():
    game = scenario(hand=[CARD, CARD])
    game = play(game, network(CARD, "birmingham--dudley"))
    game = play(game, loan(CARD))
    assert game.players[0].spent == 3
    assert game.players[0].money == 17 - 3 + 30


# -- income and shortfall ----------------------------------------------------------------------

def end_round(game):
    """Both players of a 2-player game pass their two actions."""
    for seat in game.turn_order:
        game = with_player(game, seat, hand=[CARD, CARD, *game.players[seat].hand])
    start = (game.era, game.round)
    return play_passes(game, lambda g: (g.era, g.round) != start)


def test_income_is_paid_at_the_end_of_each_round_negative_income_too():
    game = scenario()
    game = with_player(game, 0, income_space=20)  # level 5
    game = with_player(game, 1, income_space=5)  # level -5
    after = end_round(game)
    assert after.players[0].money == 17 + 5
    assert after.players[1].money == 17 - 5


def test_no_income_after_the_last_round_of_the_game():
    game = scenario(era="rail")
    game = with_turn(game, deck=())
    game = with_player(game, 0, hand=[CARD, CARD], income_space=20)
    game = with_player(game, 1, hand=[CARD, CARD], income_space=5)
    after = play_passes(game, lambda g: g.is_over)
    assert after.players[0].money == 17
    assert after.players[1].money == 17


def test_shortfall_removes_your_cheapest_tiles_for_half_their_cost_until_the_debt_is_paid():
    game = scenario()
    game = with_player(game, 0, money=0, income_space=7)  # level -3: owes £3
    game = with_tile(game, "kidderminster", 1, 0, "cotton", 1)  # £12
    game = with_tile(game, "birmingham", 1, 0, "manufacturer", 2)  # £10
    game = with_tile(game, "dudley", 0, 0, "coal", 1)  # £5
    after = end_round(game)
    # Coal I: £5 // 2 = £2, still £1 owed; Manufacturer II: £10 // 2 = £5; 2 + 5 - 3 = £4 kept
    assert tile_at(after, "dudley", 0) is None
    assert tile_at(after, "birmingham", 1) is None
    assert tile_at(after, "kidderminster", 1).owner == 0
    assert after.players[0].money == 2 + 5 - 3
    assert after.players[0].vp == 0


def test_shortfall_pays_what_you_have_before_removing_tiles():
    game = scenario()
    game = with_player(game, 0, money=1, income_space=7)  # owes £3, holds £1
    game = with_tile(game, "dudley", 0, 0, "coal", 1)  # £5 // 2 = £2 covers the other £2
    game = with_tile(game, "kidderminster", 1, 0, "cotton", 1)
    after = end_round(game)
    assert tile_at(after, "dudley", 0) is None
    assert tile_at(after, "kidderminster", 1) is not None
    assert after.players[0].money == 1 + 2 - 3


def test_shortfall_equal_cost_lower_level_first_then_board_order():
    game = scenario(era="rail")
    game = with_player(game, 0, money=0, income_space=7)  # owes £3
    game = with_tile(game, "birmingham", 1, 0, "manufacturer", 4)  # £8, level IV
    game = with_tile(game, "coventry", 1, 0, "coal", 3)  # £8, level III, later in board order
    after = end_round(game)
    assert tile_at(after, "coventry", 1) is None
    assert tile_at(after, "birmingham", 1) is not None
    assert after.players[0].money == 8 // 2 - 3
    game = with_player(scenario(), 0, money=0, income_space=8)  # owes £2
    game = with_tile(game, "dudley", 0, 0, "coal", 1)  # £5, level I
    game = with_tile(game, "burton_on_trent", 1, 0, "brewery", 1)  # £5, level I, Burton first
    after = end_round(game)
    assert tile_at(after, "burton_on_trent", 1) is None
    assert tile_at(after, "dudley", 0) is not None
    assert after.players[0].money == 5 // 2 - 2


def test_shortfall_without_tiles_costs_1_vp_per_pound_never_below_0():
    game = scenario()
    game = with_player(game, 0, money=0, income_space=6, vp=10)  # level -4: owes £4
    game = with_tile(game, "dudley", 0, 0, "coal", 1)  # £2 of it
    game = with_player(game, 1, money=1, income_space=6, vp=2)  # owes £4, holds £1
    after = end_round(game)
    assert tile_at(after, "dudley", 0) is None
    assert (after.players[0].money, after.players[0].vp) == (0, 10 - (4 - 2))
    assert (after.players[1].money, after.players[1].vp) == (0, 0)  # 2 - 3 stops at 0


# -- income track ------------------------------------------------------------------------------

@pytest.mark.parametrize(("space", "level"), [
    (0, -10), (5, -5), (10, 0), (11, 1), (12, 1), (13, 2), (29, 10), (30, 10), (31, 11),
    (33, 11), (34, 12), (60, 20), (61, 21), (64, 21), (65, 22), (96, 29), (97, 30), (99, 30)])
def test_income_track_maps_progress_spaces_to_levels(space, level):
    game = with_player(scenario(), 0, income_space=space)
    assert view(game, None)["players"][0]["income_level"] == level


def test_income_marker_stops_at_space_99():
    game = scenario(hand=[CARD])
    game = with_player(game, 0, income_space=97)
    game = with_tile(game, "worcester", 0, 0, "cotton", 1)
    game = with_link(game, "gloucester--worcester", 1)
    after = play(game, sell(CARD, ("worcester", 0, "gloucester")))
    assert after.players[0].income_space == 99  # 97 + 5, capped


# -- loan --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("space", "new_space"), [
    (10, 7),  # level 0 -> -3, spaces one per level
    (20, 14),  # level 5 -> 2: the highest space of level 2 is 14
    (31, 26),  # level 11 -> 8: 26
    (50, 42),  # level 17 -> 14: 42
    (70, 60),  # level 23 -> 20: 60
    (3, 0),  # level -7 -> -10: still allowed
    (99, 88),  # level 30 -> 27: 88
])
def test_loan_gives_30_pounds_and_puts_the_marker_on_the_highest_space_3_levels_down(
        space, new_space):
    game = with_player(scenario(hand=[CARD]), 0, income_space=space)
    after = play(game, loan(CARD))
    assert after.players[0].money == 17 + 30
    assert after.players[0].income_space == new_space
    assert after.players[0].spent == 0


def test_loan_money_is_received_not_paid():
    game = scenario(hand=[CARD])
    q = quote(game, loan(CARD))
    assert (q.money, q.received) == (0, 30)


def test_loan_not_allowed_if_income_would_fall_below_minus_10():
    game = with_player(scenario(hand=[CARD]), 0, income_space=2)  # level -8
    refused(game, loan(CARD), "-10")


# -- scout and pass ----------------------------------------------------------------------------

def test_scout_discards_three_cards_and_takes_one_wild_location_and_one_wild_industry():
    cards = ["location:dudley", "location:cannock", "industry:coal", CARD]
    game = scenario(hand=cards)
    after = play(game, Scout(cards=tuple(cards[:3])))
    assert sorted(after.players[0].hand) == sorted([CARD, "wild:location", "wild:industry"])
    assert sorted(after.players[0].discard) == sorted(cards[:3])
    assert (after.wild_location_left, after.wild_industry_left) == (4 - 1, 4 - 1)


def test_scout_not_allowed_while_you_hold_a_wild_card():
    game = scenario(hand=["location:dudley", "location:cannock", "industry:coal",
                          "wild:industry"])
    game = with_turn(game, wild_industry_left=3)
    refused(game, Scout(cards=("location:dudley", "location:cannock", "industry:coal")), "wild")


def test_scout_not_allowed_when_a_wild_pile_is_empty():
    cards = ("location:dudley", "location:cannock", "industry:coal")
    game = scenario(hand=list(cards))
    refused(with_turn(game, wild_location_left=0), Scout(cards=cards), "wild")
    refused(with_turn(game, wild_industry_left=0), Scout(cards=cards), "wild")


def test_scout_needs_three_cards_from_your_hand():
    game = scenario(hand=["location:dudley", "location:cannock"])
    refused(game, Scout(cards=("location:dudley", "location:cannock", "location:cannock")),
            "location:cannock")


def test_pass_discards_one_card_and_does_nothing_else():
    game = scenario(hand=[CARD, "location:dudley"])
    after = play(game, pass_(CARD))
    assert after.players[0].hand == ("location:dudley",)
    assert after.players[0].discard == (CARD,)
    before = view(game, None)
    now = view(after, None)
    for key in ("coal_market", "iron_market", "industries", "links", "merchants", "deck_size"):
        assert now[key] == before[key]
    for was, p in zip(before["players"], now["players"], strict=True):
        for key in ("money", "vp", "income_space", "spent", "links_left", "mat"):
            assert p[key] == was[key]


def test_a_used_wild_card_goes_back_to_its_pile_not_to_the_discards():
    game = scenario(hand=["wild:industry", CARD])
    game = with_turn(game, wild_industry_left=3)
    after = play(game, pass_("wild:industry"))
    assert after.wild_industry_left == 4
    assert after.players[0].discard == ()
    assert after.players[0].hand == (CARD,)
