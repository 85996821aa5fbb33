"""Bots: move choice on top of `brass.engine`, at three levels (`choose`), each from what
its seat may see only (an `Observation`: the seat's view and the public log)."""

from __future__ import annotations

from .easy import choose_action, position_value, valued_moves
from .entries import choose_entry, score
from .levels import LEVELS, LevelName, choose
from .observe import Observation, observe

__all__ = ["LEVELS", "LevelName", "Observation", "choose", "choose_action", "choose_entry",
           "observe", "position_value", "score", "valued_moves"]
