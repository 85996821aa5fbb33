"""The roads a notice outside the game takes, together (push, e-mail, game webhooks): the core
calls one `Reaching` (core.py), this one calls each road in turn. A road that fails is logged
and the others still go: a notice never fails the move that began it."""

from __future__ import annotations

import logging

from .core import Reaching
from .runtime import Runtime

log = logging.getLogger("brass.server")


class Reaches:
    def __init__(self, *roads: Reaching) -> None:
        self.roads = roads

    def turn_began(self, rt: Runtime) -> None:
        for road in self.roads:
            try:
                road.turn_began(rt)
            except Exception:
                log.exception("a turn notice of game %s failed", rt.id)

    def game_ended(self, rt: Runtime) -> None:
        for road in self.roads:
            try:
                road.game_ended(rt)
            except Exception:
                log.exception("an end notice of game %s failed", rt.id)
