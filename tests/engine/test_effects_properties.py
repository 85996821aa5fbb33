"""Effects checked against the state change, at every move of random legal games.

Games of 2, 3 and 4 players are played to the end with `play`, choosing among
`legal_actions` uniformly or with the "rich" bias of selfplay (boards fill up, tiles flip and
sell, eras score). At every move:

- `play(g, a)[0] == apply_action(g, a)`; the events are one `move`, then in this order at most
  one each of `draw`, `turn_end`, `round_end`, `era_end`, `game_end`;
- `turn_end` names the mover, and comes exactly when the state shows its turn ended (another
  seat, round or era, or no action left), with or without a draw;
- the move's price is the quote's: paid, received and every supply;
- money: each seat's change is the sum of its money deltas (the move's, then the income and
  shortfall of the round end); the mover's delta is received - paid;
- VP: each seat's change is its move delta, minus VP lost to a shortfall, plus the era's link
  and tile VP (which add up link by link and tile by tile); income spaces: the move's delta;
- the board: the tiles before, with the tiles placed, removed (overbuilt, shortfall, level I),
  the cubes and barrels taken and sold to a market, and the flips of the events, are exactly
  the tiles after; so are the links (placed, removed at the canal era's end), the merchant
  barrels (used, put back) and the markets;
- cards: the cards drawn are the top of the deck and land in the drawer's hand; the rail
  deal's hands are the hands dealt; the round end's turn order is the new one;
- every event round-trips through JSON and `EVENTS_ADAPTER`;
- secrets: for every seat and the spectator, `public_events` names no card except the cards
  played (the action: face-up discards) and the viewer's own hand as it is after the move; so
  another seat's drawn cards, hand or rail-era deal never show.

The last test feeds the secrecy check unfiltered events, to show that it is not vacuous.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brass.engine import (
    DATA,
    Action,
    Event,
    Game,
    apply_action,
    legal_actions,
    new_game,
    play,
    public_events,
    quote,
)
from brass.engine.effects import EVENTS_ADAPTER
from brass.engine.selfplay import choose

BETWEEN_TURNS = ("draw", "turn_end", "round_end", "era_end", "game_end")
SEEDS = st.integers(min_value=0, max_value=2**62)


def check_play(before: Game, action: Action) -> Game:
    after, events = play(before, action)
    assert after == apply_action(before, action)
    check_order(events)
    check_turn_end(before, after, events)
    check_price(before, action, events[0])
    check_figures(before, after, events)
    check_board(before, after, events)
    check_cards(before, after, events)
    check_json(events)
    for viewer in (*range(before.num_players), None):
        check_secrets(after, public_events(events, viewer), viewer)
    return after


def check_order(events: tuple[Event, ...]) -> None:
    kinds = [e["type"] for e in events]
    assert kinds[0] == "move"
    rest = kinds[1:]
    assert rest == [k for k in BETWEEN_TURNS if k in rest], kinds


def check_turn_end(before: Game, after: Game, events: tuple[Event, ...]) -> None:
    seat = before.current_seat
    goes_on = (after.current_seat == seat and (after.era, after.round, after.turn_index) == (
        before.era, before.round, before.turn_index)
        and after.actions_left == before.actions_left - 1)
    ends = [e for e in events if e["type"] == "turn_end"]
    assert ends == ([] if goes_on else [{"type": "turn_end", "seat": seat}]), events[1:]


def check_price(before: Game, action: Action, move: Any) -> None:
    q = quote(before, action).to_json()
    assert move["seat"] == before.current_seat
    assert move["action"] == action.to_json()
    assert (move["paid"], move["received"]) == (q["money"], q["received"])
    for resource in ("coal", "iron", "beer"):
        assert [{k: v for k, v in s.items() if k != "resource"}
                for s in move["supplies"] if s["resource"] == resource] == q[resource]


def check_figures(before: Game, after: Game, events: tuple[Event, ...]) -> None:
    n = before.num_players
    money, vp, space, level = [0] * n, [0] * n, [0] * n, [0] * n
    for event in events:
        if event["type"] == "move":
            for d in event["players"]:
                assert (d["money"], d["vp"], d["income_space"]) != (0, 0, 0)
                money[d["seat"]] += d["money"]
                vp[d["seat"]] += d["vp"]
                space[d["seat"]] += d["income_space"]
                level[d["seat"]] += d["income_level"]
            mover = [d["money"] for d in event["players"] if d["seat"] == event["seat"]]
            assert sum(mover) == event["received"] - event["paid"]
        elif event["type"] == "round_end":
            for income in event["income"]:
                money[income["seat"]] += income["money_after"] - income["money_before"]
                vp[income["seat"]] -= income["vp_lost"]
                assert income["level"] == before.players[income["seat"]].income_level + level[
                    income["seat"]]
            assert event["previous_order"] == list(before.turn_order)
            assert event["turn_order"] == list(after.turn_order)
            assert event["spent"] == [p.spent + (events[0]["paid"] if p.seat == events[0][
                "seat"] else 0) for p in before.players]
        elif event["type"] == "era_end":
            for score in event["scores"]:
                assert score["link_vp"] == sum(s["vp"] for s in score["links"])
                assert score["tile_vp"] == sum(s["vp"] for s in score["tiles"])
                vp[score["seat"]] += score["link_vp"] + score["tile_vp"]
                assert score["vp"] == before.players[score["seat"]].vp + vp[score["seat"]]
            assert list(after.era_scores[-1]) == [
                (s["link_vp"], s["tile_vp"]) for s in event["scores"]]
        elif event["type"] == "game_end":
            assert [r["seat"] for r in event["ranking"]] == after.winner_order
            ranks = after.ranks()
            assert all(r["rank"] == ranks[r["seat"]] for r in event["ranking"])
    for s, (old, new) in enumerate(zip(before.players, after.players, strict=True)):
        assert new.money - old.money == money[s], f"seat {s}: money"
        assert new.vp - old.vp == vp[s], f"seat {s}: VP"
        assert new.income_space - old.income_space == space[s], f"seat {s}: income"
        assert new.income_level - old.income_level == level[s], f"seat {s}: income level"


def _slot(ref: Any) -> int:
    return DATA.slot_index(ref["location"], ref["slot"])


def _tiles(game: Game) -> dict[int, tuple[int, str, int, bool, int]]:
    return {slot: (t.owner, t.industry, t.level, t.flipped, t.resources)
            for slot, t in enumerate(game.tiles) if t is not None}


def _pop(tiles: dict[int, tuple[int, str, int, bool, int]], ref: Any) -> None:
    owner, industry, level, flipped, _ = tiles.pop(_slot(ref))
    assert (owner, industry, level) == (ref["owner"], ref["industry"], ref["level"])
    if "flipped" in ref:
        assert flipped == ref["flipped"]


def check_board(before: Game, after: Game, events: tuple[Event, ...]) -> None:
    tiles = _tiles(before)
    links = {i: o for i, o in enumerate(before.links) if o is not None}
    beer = [m is not None and m.beer for m in before.merchants]
    for event in events:
        if event["type"] == "move":
            for s in event["supplies"]:
                if s["source"] == "tile":
                    o, i, lv, f, r = tiles[_slot(s)]
                    assert (o, i, not f, r >= s["count"]) == (s["owner"], i, True, True)
                    tiles[_slot(s)] = (o, i, lv, f, r - s["count"])
                elif s["source"] == "merchant":
                    index = DATA.merchant_slot_index(s["location"], s["slot"])
                    assert beer[index]
                    beer[index] = False
            for ref in event["removed"]:
                _pop(tiles, ref)
            placed = event["placed"]
            if placed is not None:
                assert _slot(placed) not in tiles
                tiles[_slot(placed)] = (placed["owner"], placed["industry"], placed["level"],
                                        False, placed["resources"])
            sale = event["to_market"]
            if sale is not None:
                assert placed is not None and sale["resource"] == placed["industry"]
                o, i, lv, f, r = tiles[_slot(placed)]
                tiles[_slot(placed)] = (o, i, lv, f, r - sale["count"])
            for ref in event["flipped"]:
                o, i, lv, f, r = tiles[_slot(ref)]
                assert (o, i, lv, f, r) == (ref["owner"], ref["industry"], ref["level"], False, 0)
                tiles[_slot(ref)] = (o, i, lv, True, r)
            for link in event["links"]:
                index = DATA.link_index[link["id"]]
                assert index not in links and link["owner"] == event["seat"]
                links[index] = link["owner"]
            assert event["coal_market"] == {"before": before.coal_market,
                                            "after": after.coal_market}
            assert event["iron_market"] == {"before": before.iron_market,
                                            "after": after.iron_market}
        elif event["type"] == "round_end":
            for income in event["income"]:
                for ref in income["removed"]:
                    assert ref["owner"] == income["seat"]
                    _pop(tiles, ref)
        elif event["type"] == "era_end":
            for ref in event["removed"]:
                assert ref["level"] == 1
                _pop(tiles, ref)
            assert not any(lv == 1 for _, _, lv, _, _ in tiles.values()) or event["era"] == "rail"
            removed = {DATA.link_index[link["id"]]: link["owner"]
                       for link in event["links_removed"]}
            assert removed == (links if event["era"] == "canal" else {})
            for index in removed:
                del links[index]
            for ref in event["merchants_refilled"]:
                index = DATA.merchant_slot_index(ref["location"], ref["slot"])
                assert not beer[index]
                beer[index] = True
    assert tiles == _tiles(after)
    assert links == {i: o for i, o in enumerate(after.links) if o is not None}
    assert beer == [m is not None and m.beer for m in after.merchants]


def check_cards(before: Game, after: Game, events: tuple[Event, ...]) -> None:
    for event in events:
        if event["type"] == "draw":
            cards = event["cards"]
            assert cards is not None and len(cards) == event["count"] > 0
            assert cards == list(before.deck[:event["count"]])
            assert event["deck_left"] == len(before.deck) - event["count"]
            if after.era == before.era:
                assert list(after.players[event["seat"]].hand[-len(cards):]) == cards
        elif event["type"] == "era_end" and event["deal"] is not None:
            hands = event["deal"]["hands"]
            assert [h["seat"] for h in hands] == list(after.turn_order)
            for h in hands:
                assert h["cards"] == list(after.players[h["seat"]].hand)
                assert h["count"] == len(h["cards"])
            assert event["deal"]["deck_left"] == len(after.deck)


def check_json(events: tuple[Event, ...]) -> None:
    text = json.dumps(list(events))
    assert EVENTS_ADAPTER.validate_json(text) == list(events)
    assert json.loads(EVENTS_ADAPTER.dump_json(list(events))) == json.loads(text)


def card_names(value: Any) -> Iterator[str]:
    """Every card name in a JSON value."""
    if isinstance(value, str):
        if value in DATA.cards:
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from card_names(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from card_names(item)


def check_secrets(after: Game, shown: list[Event], viewer: int | None) -> None:
    """No card is named outside the actions (public discards) but the viewer's own hand."""
    named = Counter(card for event in shown for key, value in event.items()
                    if not (event["type"] == "move" and key == "action")
                    for card in card_names(value))
    own = Counter(after.players[viewer].hand) if viewer is not None else Counter()
    assert not named - own, f"seat {viewer} is shown {sorted(named - own)}"
    # by seat, too (a card of the same name in the viewer's hand hides none of another's)
    for event in shown:
        drawn = [event] if event["type"] == "draw" else (
            event["deal"]["hands"] if event["type"] == "era_end" and event["deal"] else [])
        for hand in drawn:
            assert hand["seat"] == viewer or hand["cards"] is None, (
                f"seat {viewer} is shown the cards of seat {hand['seat']}")


def random_game(players: int, policy: str, seed: int) -> Iterator[tuple[Game, Action]]:
    rng = random.Random(seed)
    game = new_game(players, seed)
    while not game.is_over:
        action = choose(rng, legal_actions(game), policy)
        yield game, action
        game = apply_action(game, action)


@pytest.mark.parametrize("policy", ["uniform", "rich"])
@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=6, deadline=None)
@given(seed=SEEDS)
def test_events_tell_what_changed_and_show_no_secret(players: int, policy: str,
                                                     seed: int) -> None:
    kinds: Counter[str] = Counter()
    for game, action in random_game(players, policy, seed):
        after = check_play(game, action)
        kinds.update(e["type"] for e in play(game, action)[1])
    assert kinds["game_end"] == 1 and kinds["era_end"] == 2
    assert kinds["round_end"] == 2 * {2: 10, 3: 9, 4: 8}[players]
    assert after.is_over


def test_the_secrecy_check_catches_cards_shown_to_another_seat() -> None:
    game = new_game(3, 11)
    while True:  # the first turn whose drawn cards are not all in the next seat's hand
        after, events = play(game, legal_actions(game)[-1])
        draws = [e for e in events if e["type"] == "draw"]
        if draws:
            drawn, other = draws[0], (draws[0]["seat"] + 1) % 3
            if Counter(drawn["cards"]) - Counter(after.players[other].hand):
                break
        game = after
    check_secrets(after, public_events(events, other), other)
    for viewer in (other, None):
        with pytest.raises(AssertionError, match="is shown"):
            check_secrets(after, list(events), viewer)


def test_these_random_games_show_every_kind_of_effect() -> None:
    """The games above are not all quiet: fixed games that build, flip, sell with a bonus,
    overbuild, fall short at a round's end and clear the board at the canal era's end, all
    checked as above; and turns that end with the deck empty (no draw, a `turn_end`)."""
    seen: Counter[str] = Counter()
    for players, policy, seed in ((2, "rich", 1), (3, "rich", 2), (4, "rich", 3),
                                  (4, "uniform", 4)):
        for game, action in random_game(players, policy, seed):
            check_play(game, action)
            events = play(game, action)[1]
            for e in events:
                seen.update(kind_of_effect(e))
            kinds = {e["type"] for e in events}
            if "turn_end" in kinds and "draw" not in kinds:  # the deck is empty
                seen["turn_end_without_draw"] += 1
    assert set(seen) == {"placed", "removed", "to_market", "flipped", "links", "developed",
                         "sales", "bonus", "market", "other_seat", "shortfall",
                         "shortfall_removed", "vp_lost", "level_i_removed", "refilled", "deal",
                         "turn_end_without_draw"}


def kind_of_effect(e: Event) -> Iterator[str]:
    if e["type"] == "move":
        yield from (k for k in ("placed", "removed", "to_market", "flipped", "links",
                                "developed", "sales") if e[k])
        if any(s["bonus"] for s in e["sales"]):
            yield "bonus"
        if any(s["source"] == "market" for s in e["supplies"]):
            yield "market"
        if any(d["seat"] != e["seat"] for d in e["players"]):
            yield "other_seat"
    elif e["type"] == "round_end":
        for key in ("shortfall", "vp_lost"):
            if any(i[key] for i in e["income"]):
                yield key
        if any(i["removed"] for i in e["income"]):
            yield "shortfall_removed"
    elif e["type"] == "era_end" and e["deal"] is not None:
        yield "deal"
        if e["removed"]:
            yield "level_i_removed"
        if e["merchants_refilled"]:
            yield "refilled"
