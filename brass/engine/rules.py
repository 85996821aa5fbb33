"""`play`, `apply_action` and `quote`: one action carried out on a draft of the game."""

from __future__ import annotations

from collections import Counter

from .actions import (
    Action,
    Build,
    Develop,
    Loan,
    Network,
    Pass,
    Scout,
    Sell,
    action_cards,
    check_ids,
)
from .build import build
from .data import DATA
from .develop import develop
from .draft import Draft, Quote
from .effects import Event, move_event
from .errors import IllegalAction
from .feasible import loan_ok, scout_refusal
from .links import network_action
from .sell import sell
from .state import Game
from .turns import turn_over

LOAN = DATA.rules["loan"]


def carry_out(game: Game, action: Action) -> Draft:
    """Check and carry out `action` for the player to move on a draft (the turn is not ended)."""
    check_ids(action)
    if game.is_over:
        raise IllegalAction("The game is over", code="game_over")
    d = Draft(game)
    _carry_out(d, action)
    return d


def carry_on(d: Draft, action: Action) -> None:
    """`apply_action` on a draft: the draft becomes the game after `action` (with the turn
    ended) without a `Game` made for it; `action`'s ids are checked already. A refused
    action leaves the draft half-changed: `replay` stops there."""
    if d.is_over:
        raise IllegalAction("The game is over", code="game_over")
    d.begin()
    _carry_out(d, action)
    turn_over(d)


def _carry_out(d: Draft, action: Action) -> None:
    cards = action_cards(action)
    _check_cards_in_hand(d, cards)
    match action:
        case Build():
            build(d, action.card, action.industry,
                  DATA.slot_index(action.location, action.slot))
        case Network():
            network_action(d, [DATA.link_index[link] for link in action.links])
        case Develop():
            develop(d, action.industries)
        case Sell():
            sell(d, action.sales)
        case Loan():
            _loan(d)
        case Scout():
            _check_scout(d)
        case Pass():
            pass
    _discard(d, cards)
    if isinstance(action, Scout):
        d.update_hand(d.seat, (*d.me.hand, "wild:location", "wild:industry"))
        d.wild_location_left -= 1
        d.wild_industry_left -= 1


def play(game: Game, action: Action) -> tuple[Game, tuple[Event, ...]]:
    """`apply_action` with its effect: the new `Game` and its events, in order: the `move`
    event, then every event between turns it caused (effects.py)."""
    events: list[Event] = []
    return _apply(game, action, events), tuple(events)


def apply_action(game: Game, action: Action) -> Game:
    """Validate and apply one action of the player to move; returns a new `Game`
    (`play(game, action)[0]`, without building the events)."""
    return _apply(game, action, None)


def _apply(game: Game, action: Action, events: list[Event] | None) -> Game:
    d = carry_out(game, action)
    if events is not None:
        events.append(move_event(game, action, d))
    turn_over(d, events)
    return d.freeze()


def quote(game: Game, action: Action) -> Quote:
    """The full price of a legal action; raises `IllegalAction` for an illegal one."""
    return carry_out(game, action).quote()


def _check_cards_in_hand(d: Draft, cards: tuple[str, ...]) -> None:
    if len(cards) == 1 and cards[0] in d.me.hand:
        return  # the usual case, without counting
    hand = Counter(d.me.hand)
    for card, n in Counter(cards).items():
        if hand[card] < n:
            raise IllegalAction(f"You do not hold the card {card}" if hand[card] == 0 else
                                f"You hold only {hand[card]} of the card {card}",
                                code="card_not_held", params={"card": card, "held": hand[card]})


def _discard(d: Draft, cards: tuple[str, ...]) -> None:
    me = d.me
    hand = list(me.hand)
    if len(cards) == 1 and not cards[0].startswith("wild:"):  # the usual case, in short
        hand.remove(cards[0])
        d.update_cards(d.seat, tuple(hand), (*me.discard, cards[0]))
        return
    discard = list(me.discard)
    for card in cards:
        hand.remove(card)
        if card == "wild:location":
            d.wild_location_left += 1
        elif card == "wild:industry":
            d.wild_industry_left += 1
        else:
            discard.append(card)
    d.update_cards(d.seat, tuple(hand), tuple(discard))


def _loan(d: Draft) -> None:
    if not loan_ok(d.me):  # the rule, which listing asks too
        raise IllegalAction(f"A loan would take your income below {LOAN['min_level']}",
                            code="loan_income_floor", params={"min_level": LOAN["min_level"]})
    d.update_income_space(d.seat, DATA.income_top_space[d.me.income_level - LOAN["levels"]])
    d.receive(d.seat, LOAN["money"])


def _check_scout(d: Draft) -> None:
    """`feasible.scout_refusal` (the rule, which listing asks too), in words."""
    refusal = scout_refusal(d, d.me)
    if refusal is not None:
        raise IllegalAction(_SCOUT_REFUSALS[refusal], code=refusal)


_SCOUT_REFUSALS = {
    "scout_holding_wild": "You cannot scout while you hold a wild card",
    "scout_pile_empty": "A wild card pile is empty: you cannot scout",
}
