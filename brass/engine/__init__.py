"""The Brass: Birmingham rules engine: pure functions over immutable game states.

>>> game = new_game(players=2, seed=7)
>>> action = legal_actions(game)[-1]
>>> action.kind
'pass'
>>> after = apply_action(game, action)
>>> after is not game and game.action_count == 0 and after.action_count == 1
True
"""

from __future__ import annotations

from .actions import (
    ACTION_ADAPTER,
    Action,
    ActionKind,
    Build,
    Develop,
    Loan,
    Network,
    Pass,
    Sale,
    Scout,
    Sell,
    parse_action,
)
from .data import DATA, INDUSTRIES, Era, Industry, MerchantBuys
from .draft import Quote, Supply
from .effects import (
    EVENT_ADAPTER,
    DrawEvent,
    EraEndEvent,
    Event,
    GameEndEvent,
    MoveEvent,
    RoundEndEvent,
    TurnEndEvent,
    public_events,
)
from .errors import DataError, IllegalAction, InvalidSetup, MalformedAction
from .legal import Move, extensions, legal_actions, legal_groups, legal_moves
from .replay import replay
from .rules import apply_action, play, quote
from .setup import new_game
from .state import Game, MerchantTile, PlayerState, Tile
from .view import view, views

# "2": play() emits `turn_end`; the rules, and so every state, are those of "1"
ENGINE_VERSION = "2"
# the versions whose stored logs this engine replays to the very same states (a later version
# only added to the events): a game stored under one of them is not "of an older engine"
REPLAYS_VERSIONS = frozenset({"1", "2"})

__all__ = [
    "ACTION_ADAPTER",
    "DATA",
    "ENGINE_VERSION",
    "EVENT_ADAPTER",
    "INDUSTRIES",
    "REPLAYS_VERSIONS",
    "Action",
    "ActionKind",
    "Build",
    "DataError",
    "Develop",
    "DrawEvent",
    "Era",
    "EraEndEvent",
    "Event",
    "Game",
    "GameEndEvent",
    "IllegalAction",
    "Industry",
    "InvalidSetup",
    "Loan",
    "MalformedAction",
    "MerchantBuys",
    "MerchantTile",
    "MoveEvent",
    "Network",
    "Pass",
    "PlayerState",
    "Quote",
    "RoundEndEvent",
    "Sale",
    "Scout",
    "Sell",
    "Supply",
    "Tile",
    "TurnEndEvent",
    "apply_action",
    "legal_actions",
    "new_game",
    "parse_action",
    "play",
    "public_events",
    "quote",
    "replay",
    "view",
    "views",
]
__all__ += ["Move", "extensions", "legal_groups", "legal_moves"]
