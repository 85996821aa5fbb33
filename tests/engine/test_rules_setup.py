"""RULES.md §2 (setup), §10 (who sees what) and the data files."""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from helpers import deal, deck_cards, play

from brass.engine import DataError, InvalidSetup, Pass, new_game, view
from brass.engine.data import GameData

DATA_DIR = Path(__file__).resolve().parents[2] / "data"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_each_player_starts_with_17_pounds_income_space_10_and_14_links(players):
    game = new_game(players, seed=5)
    for p in view(game, None)["players"]:
        assert p["money"] == 17
        assert p["vp"] == 0
        assert p["income_space"] == 10
        assert p["income_level"] == 0
        assert p["links_left"] == 14
        assert p["spent"] == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_player_mat_holds_45_tiles_lowest_level_on_top(players):
    game = new_game(players, seed=5)
    mat = view(game, 0)["players"][0]["mat"]
    # DATA.md "Industry tiles": tiles per level, lowest first
    assert mat == {
        "cotton": [1, 1, 1, 2, 2, 3, 3, 3, 4, 4, 4],
        "manufacturer": [1, 2, 2, 3, 4, 5, 5, 6, 7, 8, 8],
        "pottery": [1, 2, 3, 4, 5],
        "coal": [1, 2, 2, 3, 3, 4, 4],
        "iron": [1, 2, 3, 4],
        "brewery": [1, 1, 2, 2, 3, 3, 4],
    }
    assert sum(len(levels) for levels in mat.values()) == 45  # 11 + 11 + 5 + 7 + 4 + 7


@pytest.mark.parametrize(("players", "cards"), [(2, 40), (3, 54), (4, 64)])
def test_setup_deals_8_cards_and_1_face_down_card_each_from_a_40_54_64_card_deck(players, cards):
    game = new_game(players, seed=11)
    for p in game.players:
        assert len(p.hand) == 8
        assert len(p.face_down) == 1
        assert p.discard == ()
    assert [p["discard_top"] for p in view(game, 0)["players"]] == [None] * players
    assert len(game.deck) == cards - 9 * players  # 22, 27, 28 cards left in the deck
    dealt = Counter(game.deck)
    for p in game.players:
        dealt.update(p.hand + p.face_down)
    assert sum(dealt.values()) == cards


def test_setup_deck_composition_by_player_count():
    # DATA.md "The draw deck": a few rows that differ by player count
    two, three, four = deck_cards(2), deck_cards(3), deck_cards(4)
    assert (two["location:belper"], three["location:belper"], four["location:belper"]) == (0, 0, 2)
    assert (two["location:leek"], three["location:leek"], four["location:leek"]) == (0, 2, 2)
    assert (two["industry:coal"], three["industry:coal"], four["industry:coal"]) == (2, 2, 3)
    assert (two["industry:cotton_manufacturer"], three["industry:cotton_manufacturer"],
            four["industry:cotton_manufacturer"]) == (0, 6, 8)
    assert two["location:birmingham"] == three["location:birmingham"] == 3


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_wild_cards_stay_in_two_face_up_piles_of_4(players):
    game = new_game(players, seed=3)
    v = view(game, None)
    assert (v["wild_location_left"], v["wild_industry_left"]) == (4, 4)
    everywhere = list(game.deck) + [c for p in game.players for c in p.hand + p.face_down]
    assert not [c for c in everywhere if c.startswith("wild:")]


def test_setup_markets_start_with_13_coal_and_8_iron():
    v = view(new_game(2, seed=1), None)
    assert v["coal_market"] == 13
    assert v["iron_market"] == 8
    assert v["coal_price"] == 1  # one £1 space empty, the other £1 cube is the cheapest
    assert v["iron_price"] == 2  # both £1 spaces empty


@pytest.mark.parametrize(("players", "tiles", "blank"), [(2, 5, 2), (3, 7, 3), (4, 9, 3)])
def test_setup_merchant_tiles_5_7_9_each_buying_tile_gets_a_barrel(players, tiles, blank):
    merchants = view(new_game(players, seed=9), None)["merchants"]
    assert len(merchants) == tiles
    assert sum(m["buys"] == "blank" for m in merchants) == blank
    for m in merchants:
        assert m["beer"] == (m["buys"] != "blank")
    places = {m["location"] for m in merchants}
    assert ("warrington" in places) == (players >= 3)
    assert ("nottingham" in places) == (players == 4)


def test_setup_merchant_tiles_for_the_player_count():
    # DATA.md: 2 players: all, cotton, manufacturer, blank x2; 3: + pottery, blank;
    # 4: + cotton, manufacturer
    def tiles(players):
        return sorted(m["buys"] for m in view(new_game(players, seed=4), None)["merchants"])
    assert tiles(2) == ["all", "blank", "blank", "cotton", "manufacturer"]
    assert tiles(3) == ["all", "blank", "blank", "blank", "cotton", "manufacturer", "pottery"]
    assert tiles(4) == ["all", "blank", "blank", "blank", "cotton", "cotton", "manufacturer",
                        "manufacturer", "pottery"]


def test_setup_object_fixes_the_deal_exactly():
    setup = deal(3, hands={1: ["location:leek", "industry:cotton_manufacturer"]},
                 turn_order=[2, 0, 1])
    game = new_game(3, seed=99, setup=setup)
    v = view(game, 1)
    assert v["turn_order"] == [2, 0, 1]
    assert v["current_seat"] == 2
    assert v["players"][1]["hand"] == setup["hands"][1]
    assert list(game.deck) == setup["deck"]
    assert [p.face_down for p in game.players] == [(c,) for c in setup["face_down"]]
    assert sorted((m["location"], m["slot"], m["buys"]) for m in v["merchants"]) == sorted(
        (loc, slot, buys) for loc, row in setup["merchants"].items()
        for slot, buys in enumerate(row))


def test_setup_that_does_not_add_up_is_refused():
    setup = deal(2)
    setup["hands"][0][0] = "location:derby"  # not in the 2-player deck
    with pytest.raises(InvalidSetup, match="derby"):
        new_game(2, seed=1, setup=setup)
    short = deal(2)
    short["deck"] = short["deck"][1:]  # one card goes missing
    with pytest.raises(InvalidSetup):
        new_game(2, seed=1, setup=short)


def test_setup_first_round_turn_order_is_drawn_from_the_seed():
    orders = {tuple(new_game(4, seed=s).turn_order) for s in range(20)}
    assert len(orders) > 1
    assert all(sorted(o) == [0, 1, 2, 3] for o in orders)
    assert new_game(4, seed=7).to_json() == new_game(4, seed=7).to_json()


def test_first_canal_round_gives_one_action_per_turn():
    game = new_game(2, seed=1, setup=deal(2))
    assert view(game, None)["actions_left"] == 1


def test_view_hides_other_hands_the_deck_face_down_cards_and_the_seed():
    game = new_game(3, seed=424242, setup=deal(3))
    for seat in (0, 1, 2, None):
        v = view(game, seat)
        for p in v["players"]:
            assert p["hand_size"] == 8
            assert p["hand"] == (list(game.players[p["seat"]].hand) if p["seat"] == seat
                                 else None)
        assert v["deck_size"] == len(game.deck)
        text = json.dumps(v)
        assert "424242" not in text
        assert "deck" not in v
        assert "face_down" not in text
        # the only card names a seat sees are those in its own hand (no discards yet)
        own = set(game.players[seat].hand) if seat is not None else set()
        assert set(re.findall(r"(?:location|industry|wild):[a-z_]+", text)) <= own


def test_view_shows_discard_tops_and_hand_sizes_to_everyone():
    game = new_game(2, seed=1, setup=deal(2))
    card = game.players[0].hand[0]
    game = play(game, Pass(card=card))
    for seat in (1, None):
        p0 = view(game, seat)["players"][0]
        assert p0["discard_top"] == card
        assert p0["hand_size"] == 8  # refilled at the end of the turn
        assert p0["hand"] is None


def _broken_copy(tmp_path: Path, name: str) -> dict:
    for f in DATA_DIR.glob("*.json"):
        shutil.copy(f, tmp_path / f.name)
    return json.loads((tmp_path / f"{name}.json").read_text())


def test_broken_data_file_fails_with_data_error_naming_file_and_entry(tmp_path):
    assert GameData(DATA_DIR).links  # the real files load
    links = _broken_copy(tmp_path, "links")
    entry = links["links"][0]
    entry["ends"] = [entry["ends"][0], "atlantis"]
    (tmp_path / "links.json").write_text(json.dumps(links))
    with pytest.raises(DataError) as info:
        GameData(tmp_path)
    assert "links.json" in str(info.value)
    assert entry["id"] in str(info.value)
    assert "atlantis" in str(info.value)


def test_broken_tile_entry_fails_with_data_error_naming_the_tile(tmp_path):
    tiles = _broken_copy(tmp_path, "tiles")
    tiles["tiles"][0]["era"] = "bronze"
    (tmp_path / "tiles.json").write_text(json.dumps(tiles))
    with pytest.raises(DataError) as info:
        GameData(tmp_path)
    assert "tiles.json" in str(info.value)
    assert f"{tiles['tiles'][0]['industry']} {tiles['tiles'][0]['level']}" in str(info.value)
