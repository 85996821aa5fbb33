"""Effects as data: the events `play` yields for a move and between turns, with the numbers
worked out by hand from RULES.md and DATA.md (the rules tests beside this file check the
state; these check that the events tell the same story)."""

from __future__ import annotations

import json
from typing import Any

from helpers import build, deal, loan, network, pass_, scenario, sell, with_next_tile

from brass.engine import (
    EVENT_ADAPTER,
    Event,
    Game,
    apply_action,
    legal_actions,
    new_game,
    play,
    public_events,
)
from brass.engine.scenario import (
    with_link,
    with_markets,
    with_merchant_beer,
    with_player,
    with_tile,
    with_turn,
)

CARD = "location:stafford"


def effects(game: Game, action: Any) -> tuple[Game, list[Event]]:
    """`play` a listed action; its game is `apply_action`'s."""
    assert action in legal_actions(game) or action.kind == "sell", f"not listed: {action}"
    after, events = play(game, action)
    assert after == apply_action(game, action)
    return after, list(events)


def passes_until(game: Game, done: Any) -> tuple[Game, list[Event]]:
    """Every player passes with the first card in hand until `done(game)`; all the events."""
    out: list[Event] = []
    while not done(game):
        seat = game.current_seat
        assert seat is not None
        game, events = play(game, pass_(game.players[seat].hand[0]))
        out += events
    return game, out


def only(events: list[Event], kind: str) -> Any:
    found = [e for e in events if e["type"] == kind]
    assert len(found) == 1, f"{len(found)} {kind} events"
    return found[0]


def unchanged(cubes: int) -> dict[str, int]:
    return {"before": cubes, "after": cubes}


# -- moves -----------------------------------------------------------------------------------

def test_new_coal_mine_selling_to_the_coal_market_pays_its_cost_and_receives_the_cubes():
    game = scenario(hand=["location:dudley"])
    game = with_link(game, "birmingham--dudley", 1)
    game = with_link(game, "birmingham--oxford", 1)  # connected to a merchant
    game = with_markets(game, coal=11)  # empty spaces: £1, £1, £2
    _, events = effects(game, build("location:dudley", "coal", "dudley", 0))
    # its only card: the turn ends
    assert [e["type"] for e in events] == ["move", "draw", "turn_end"]
    assert events[0] == {
        "type": "move", "seat": 0,
        "action": {"kind": "build", "card": "location:dudley", "industry": "coal",
                   "location": "dudley", "slot": 0},
        "paid": 5, "received": 2 + 1,  # Coal I costs £5; its 2 cubes fill £2 and £1
        "supplies": [],
        "placed": {"location": "dudley", "slot": 0, "owner": 0, "industry": "coal", "level": 1,
                   "resources": 2, "vp": 1, "income": 4, "link_icons": 2},
        "removed": [],
        "to_market": {"resource": "coal", "count": 2, "received": 3},
        "flipped": [{"location": "dudley", "slot": 0, "owner": 0, "industry": "coal",
                     "level": 1, "income": 4}],  # emptied: it flips at once
        "links": [], "developed": [], "sales": [],
        # £17 - 5 + 3; income space 10 -> 14 (level 0 -> 2)
        "players": [{"seat": 0, "money": -2, "vp": 0, "income_space": 4, "income_level": 2}],
        "coal_market": {"before": 11, "after": 13}, "iron_market": unchanged(8),
    }


def test_build_names_each_cube_with_its_source_and_a_flip_on_an_opponents_mine():
    game = scenario(era="rail", hand=["location:birmingham"], money=30)
    game = with_next_tile(game, 0, "cotton", 3)  # Cotton III: £16, 1 coal, 1 iron
    game = with_tile(game, "dudley", 0, 1, "coal", 2, resources=1)
    game = with_link(game, "birmingham--dudley", 1)
    _, events = effects(game, build("location:birmingham", "cotton", "birmingham", 0))
    move = events[0]
    # the coal: seat 1's mine in Dudley (connected); the iron: no ironworks, so the market,
    # whose cheapest cube is £2 (8 cubes: both £1 spaces are empty)
    assert move["supplies"] == [
        {"resource": "coal", "source": "tile", "count": 1, "location": "dudley", "slot": 0,
         "owner": 1},
        {"resource": "iron", "source": "market", "count": 1, "cost": 2}]
    assert (move["paid"], move["received"]) == (16 + 2, 0)
    assert move["placed"] == {"location": "birmingham", "slot": 0, "owner": 0,
                              "industry": "cotton", "level": 3, "resources": 0, "vp": 9,
                              "income": 3, "link_icons": 1}
    assert move["to_market"] is None
    # the last cube leaves seat 1's Coal II: it flips, and seat 1's income moves 7 spaces
    assert move["flipped"] == [{"location": "dudley", "slot": 0, "owner": 1,
                                "industry": "coal", "level": 2, "income": 7}]
    assert move["players"] == [
        {"seat": 0, "money": -18, "vp": 0, "income_space": 0, "income_level": 0},
        {"seat": 1, "money": 0, "vp": 0, "income_space": 7, "income_level": 4}]  # 17: level 4
    assert move["coal_market"] == unchanged(13)
    assert move["iron_market"] == {"before": 8, "after": 7}


def test_overbuilding_your_own_tile_names_the_tile_removed():
    game = scenario(hand=["location:dudley"])
    game = with_tile(game, "dudley", 0, 0, "coal", 1, resources=1)
    game = with_next_tile(game, 0, "coal", 2)
    _, events = effects(game, build("location:dudley", "coal", "dudley", 0))
    move = events[0]
    assert move["removed"] == [{"location": "dudley", "slot": 0, "owner": 0, "industry": "coal",
                                "level": 1, "flipped": False}]
    assert move["placed"] is not None and move["placed"]["level"] == 2
    assert move["placed"]["resources"] == 3  # not connected to a merchant: it keeps them
    assert move["to_market"] is None and move["paid"] == 7


def test_a_sale_names_its_merchant_and_bonus_and_only_the_sale_using_the_barrel_gets_it():
    game = scenario(hand=[CARD])
    game = with_tile(game, "worcester", 0, 0, "cotton", 1)
    game = with_tile(game, "kidderminster", 1, 0, "cotton", 1)
    game = with_tile(game, "burton_on_trent", 1, 0, "brewery", 1)  # 1 barrel
    game = with_link(game, "gloucester--worcester", 1)
    game = with_link(game, "kidderminster--worcester", 1)
    # Gloucester holds an `all` tile (with its barrel) and a blank one
    action = sell(CARD, ("worcester", 0, "gloucester", "coal"),
                  ("kidderminster", 1, "gloucester"))
    _, events = effects(game, action)
    move = events[0]
    assert move["sales"] == [
        {"location": "worcester", "slot": 0, "industry": "cotton", "level": 1,
         "merchant": "gloucester", "bonus": {"kind": "develop", "amount": 1, "develop": "coal"}},
        # the barrel is gone: this sale's beer comes from seat 0's own brewery, and no bonus
        {"location": "kidderminster", "slot": 1, "industry": "cotton", "level": 1,
         "merchant": "gloucester", "bonus": None}]
    assert move["supplies"] == [
        {"resource": "beer", "source": "merchant", "count": 1, "location": "gloucester",
         "slot": 0},
        {"resource": "beer", "source": "tile", "count": 1, "location": "burton_on_trent",
         "slot": 1, "owner": 0}]
    assert move["developed"] == [{"industry": "coal", "level": 1}]  # free: no iron
    assert move["flipped"] == [  # in order: the first mill, the emptied brewery, the second
        {"location": "worcester", "slot": 0, "owner": 0, "industry": "cotton", "level": 1,
         "income": 5},
        {"location": "burton_on_trent", "slot": 1, "owner": 0, "industry": "brewery",
         "level": 1, "income": 4},
        {"location": "kidderminster", "slot": 1, "owner": 0, "industry": "cotton", "level": 1,
         "income": 5}]
    # income space 10 + 5 + 4 + 5 = 24: level 7
    assert move["players"] == [{"seat": 0, "money": 0, "vp": 0, "income_space": 14,
                                "income_level": 7}]
    assert (move["paid"], move["received"]) == (0, 0)


def test_warrington_bonus_is_money_received_and_shrewsbury_bonus_is_vp():
    merchants = {"shrewsbury": ["cotton"], "oxford": ["manufacturer", "blank"],
                 "gloucester": ["all", "blank"], "warrington": ["pottery", "blank"]}
    game = scenario(players=3, hand=[CARD], merchants=merchants)
    game = with_tile(game, "stoke_on_trent", 1, 0, "pottery", 1)  # needs 1 beer
    game = with_tile(game, "coalbrookdale", 0, 0, "cotton", 1)
    game = with_link(game, "stoke_on_trent--warrington", 1)
    game = with_link(game, "coalbrookdale--shrewsbury", 1)
    action = sell(CARD, ("stoke_on_trent", 1, "warrington"), ("coalbrookdale", 0, "shrewsbury"))
    _, events = effects(game, action)
    move = events[0]
    assert [s["bonus"] for s in move["sales"]] == [
        {"kind": "money", "amount": 5, "develop": None},
        {"kind": "vp", "amount": 4, "develop": None}]
    assert (move["paid"], move["received"]) == (0, 5)
    # Pottery I +5 and Cotton I +5 income spaces: 20, level 5
    assert move["players"] == [{"seat": 0, "money": 5, "vp": 4, "income_space": 10,
                                "income_level": 5}]


def test_a_loan_is_money_received_and_three_income_levels_lost():
    game = with_player(scenario(hand=[CARD]), 0, income_space=20)  # level 5
    _, events = effects(game, loan(CARD))
    move = events[0]
    assert (move["paid"], move["received"]) == (0, 30)
    # level 2: the marker goes to the highest space of level 2, 14
    assert move["players"] == [{"seat": 0, "money": 30, "vp": 0, "income_space": 14 - 20,
                                "income_level": -3}]


def test_a_network_action_names_its_links():
    game = scenario(era="rail", hand=[CARD], money=30)
    game = with_tile(game, "dudley", 0, 0, "coal", 2)
    game = with_tile(game, "burton_on_trent", 1, 0, "brewery", 2)
    links = ("birmingham--dudley", "birmingham--walsall")
    _, events = effects(game, network(CARD, *links))
    move = events[0]
    assert move["links"] == [{"id": link, "owner": 0, "kind": "rail"} for link in links]
    assert move["paid"] == 15  # two railways: £15, 2 coal (own mine) and 1 beer (own brewery)
    assert [(s["resource"], s.get("location")) for s in move["supplies"]] == [
        ("coal", "dudley"), ("coal", "dudley"), ("beer", "burton_on_trent")]


# -- between turns ---------------------------------------------------------------------------

def test_end_of_turn_draw_shows_the_cards_to_the_drawer_and_a_count_to_everyone_else():
    game = scenario()
    top = list(game.deck[:2])
    game, _ = effects(game, pass_(game.players[0].hand[0]))
    _, events = effects(game, pass_(game.players[0].hand[0]))
    draw = only(events, "draw")
    assert draw == {"type": "draw", "seat": 0, "count": 2, "cards": top,
                    "deck_left": len(game.deck) - 2}
    assert only(public_events(events, 0), "draw")["cards"] == top
    for viewer in (1, None):
        assert only(public_events(events, viewer), "draw") == {**draw, "cards": None}
    assert draw["cards"] == top  # the filter changed nothing it was given


def test_round_end_names_the_new_order_the_income_and_each_shortfall():
    game = scenario()
    game = with_player(game, 0, money=0, income_space=7, spent=5)  # level -3: owes £3
    game = with_tile(game, "kidderminster", 1, 0, "cotton", 1)  # £12
    game = with_tile(game, "birmingham", 1, 0, "manufacturer", 2)  # £10
    game = with_tile(game, "dudley", 0, 0, "coal", 1)  # £5
    game = with_player(game, 1, money=1, income_space=6, vp=2)  # level -4, holds £1, no tiles
    for seat in (0, 1):
        game = with_player(game, seat, hand=[CARD, CARD, *game.players[seat].hand])
    after, events = passes_until(game, lambda g: g.round == 3)
    end = only(events, "round_end")
    assert end == {
        "type": "round_end", "era": "canal", "round": 2, "spent": [5, 0],
        "previous_order": [0, 1], "turn_order": [1, 0],  # seat 1 spent less
        "income_paid": True,
        "income": [
            # owes £3 with £0: Coal I raises £5 // 2 = 2, Manufacturer II £10 // 2 = 5;
            # 2 + 5 - 3 = £4 kept
            {"seat": 0, "level": -3, "money_before": 0, "money_after": 4, "shortfall": 3,
             "removed": [
                 {"location": "dudley", "slot": 0, "owner": 0, "industry": "coal", "level": 1,
                  "raised": 2},
                 {"location": "birmingham", "slot": 1, "owner": 0, "industry": "manufacturer",
                  "level": 2, "raised": 5}],
             "vp_lost": 0},
            # owes £4 with £1: £3 short, no tiles: 3 VP, but VP stop at 0
            {"seat": 1, "level": -4, "money_before": 1, "money_after": 0, "shortfall": 3,
             "removed": [], "vp_lost": 2}]}
    assert after.players[1].vp == 0 and after.players[0].money == 4
    assert events.index(end) > max(i for i, e in enumerate(events) if e["type"] == "move")


def canal_era_end() -> Game:
    rail_deck = sorted(deal(2)["deck"] + [c for h in deal(2)["hands"] for c in h]
                       + deal(2)["face_down"], reverse=True)
    game = new_game(2, 1, setup=deal(2, rail_deck=rail_deck))
    game = with_turn(game, round=10, turn_index=0, actions_left=2, deck=())
    for seat in (0, 1):
        game = with_player(game, seat, hand=[CARD, CARD])
    game = with_link(game, "birmingham--oxford", 0)
    game = with_link(game, "dudley--kidderminster", 1)
    game = with_tile(game, "birmingham", 0, 1, "cotton", 1, flipped=True)  # 1 icon, 5 VP
    game = with_tile(game, "birmingham", 1, 0, "manufacturer", 1, flipped=True)  # 2 icons, 3 VP
    game = with_tile(game, "birmingham", 3, 1, "manufacturer", 1)  # unflipped: nothing
    game = with_tile(game, "dudley", 0, 1, "coal", 2, flipped=True)  # 1 icon, 2 VP; stays
    return with_merchant_beer(game, "oxford", 0, False)


def test_canal_era_end_scores_link_by_link_and_tile_by_tile_then_clears_the_board_and_deals():
    game = canal_era_end()
    after, events = passes_until(game, lambda g: g.era == "rail")
    assert [e["type"] for e in events][-2:] == ["round_end", "era_end"]
    end = only(events, "era_end")
    assert end["era"] == "canal"
    assert end["scores"] == [
        # Birmingham--Oxford: Oxford 2 + Birmingham's flipped Cotton I 1 + Manufacturer I 2
        {"seat": 0, "links": [{"id": "birmingham--oxford", "vp": 2 + 1 + 2}],
         "tiles": [{"location": "birmingham", "slot": 1, "industry": "manufacturer",
                    "level": 1, "vp": 3}],
         "link_vp": 5, "tile_vp": 3, "vp": 8},
        # Dudley--Kidderminster: Dudley's Coal II 1 + Kidderminster 0; tiles in board order
        {"seat": 1, "links": [{"id": "dudley--kidderminster", "vp": 1}],
         "tiles": [{"location": "dudley", "slot": 0, "industry": "coal", "level": 2, "vp": 2},
                   {"location": "birmingham", "slot": 0, "industry": "cotton", "level": 1,
                    "vp": 5}],
         "link_vp": 1, "tile_vp": 7, "vp": 8}]
    assert end["links_removed"] == [
        {"id": "birmingham--oxford", "owner": 0, "kind": "canal"},
        {"id": "dudley--kidderminster", "owner": 1, "kind": "canal"}]
    assert end["removed"] == [  # every level-I tile, flipped or not; Coal II stays
        {"location": "birmingham", "slot": s, "owner": o, "industry": i, "level": 1,
         "flipped": f}
        for s, o, i, f in ((0, 1, "cotton", True), (1, 0, "manufacturer", True),
                           (3, 1, "manufacturer", False))]
    assert end["merchants_refilled"] == [{"location": "oxford", "slot": 0}]  # never a blank
    deck = list(game.rail_deck or ())
    assert end["deal"] == {"hands": [{"seat": 0, "count": 8, "cards": deck[:8]},
                                     {"seat": 1, "count": 8, "cards": deck[8:16]}],
                           "deck_left": 40 - 16}
    assert [p.vp for p in after.players] == [8, 8]
    assert list(after.players[1].hand) == deck[8:16]
    seen = only(public_events(events, 1), "era_end")["deal"]["hands"]
    assert [h["cards"] for h in seen] == [None, deck[8:16]]
    assert [h["cards"] for h in only(public_events(events, None), "era_end")["deal"]["hands"]
            ] == [None, None]


def game_end(players: int, figures: list[tuple[int, int, int]]) -> list[Event]:
    """The events of the last round of the rail era, each seat holding (vp, income space,
    money) and passing twice."""
    game = scenario(players=players, era="rail")
    game = with_turn(game, round=8, turn_order=list(range(players)), turn_index=0, deck=())
    for seat, (vp, space, money) in enumerate(figures):
        game = with_player(game, seat, vp=vp, income_space=space, money=money,
                           hand=[CARD, CARD])
    after, events = passes_until(game, lambda g: g.is_over)
    assert [e["type"] for e in events][-3:] == ["round_end", "era_end", "game_end"]
    end = only(events, "round_end")
    assert (end["income_paid"], end["income"]) == (False, [])  # none after the last round
    assert only(events, "era_end")["deal"] is None
    ranking = only(events, "game_end")["ranking"]
    assert [r["seat"] for r in ranking] == after.winner_order
    assert [r["rank"] for r in sorted(ranking, key=lambda r: r["seat"])] == after.ranks()
    return events


def test_game_end_ranks_by_vp_then_income_then_money_and_says_which_broke_each_tie():
    # three seats on 10 VP: seats 0 and 1 at income level 5 (space 20), seat 2 at level 2
    events = game_end(4, [(10, 20, 8), (10, 20, 3), (10, 14, 50), (4, 10, 0)])
    assert only(events, "game_end")["ranking"] == [
        {"seat": 0, "rank": 1, "vp": 10, "income_level": 5, "money": 8, "tie_break": "money"},
        {"seat": 1, "rank": 2, "vp": 10, "income_level": 5, "money": 3, "tie_break": "money"},
        {"seat": 2, "rank": 3, "vp": 10, "income_level": 2, "money": 50, "tie_break": "income"},
        {"seat": 3, "rank": 4, "vp": 4, "income_level": 0, "money": 0, "tie_break": "none"}]


def test_game_end_players_equal_on_vp_income_and_money_share_the_rank():
    events = game_end(2, [(30, 20, 5), (30, 20, 5)])
    assert only(events, "game_end")["ranking"] == [
        {"seat": s, "rank": 1, "vp": 30, "income_level": 5, "money": 5, "tie_break": "shared"}
        for s in (0, 1)]


# -- the schema ------------------------------------------------------------------------------

def test_events_have_a_json_schema_discriminated_on_type_with_the_action_as_an_action():
    schema = EVENT_ADAPTER.json_schema()
    assert set(schema["discriminator"]["mapping"]) == {
        "move", "draw", "turn_end", "round_end", "era_end", "game_end"}
    move = schema["$defs"]["MoveEvent"]
    # the action refers to the one `Action` definition (the server's bodies use it too)
    assert move["properties"]["action"] == {"$ref": "#/$defs/Action"}
    assert schema["$defs"]["Action"]["discriminator"]["propertyName"] == "kind"
    assert "Build" in schema["$defs"] and "SeatScore" in schema["$defs"]
    assert EVENT_ADAPTER.json_schema(mode="serialization")["discriminator"]["propertyName"] \
        == "type"
    json.dumps(schema)


def test_every_event_of_these_scenarios_round_trips_through_the_schema():
    game = canal_era_end()
    _, events = passes_until(game, lambda g: g.era == "rail")
    for event in events:
        text = json.dumps(event)
        assert EVENT_ADAPTER.validate_json(text) == event
        assert json.loads(EVENT_ADAPTER.dump_json(event)) == event
