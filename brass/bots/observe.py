"""What a bot may know: its seat's `view` and the public log, nothing else.

An `Observation` is plain JSON (what a client of the server could hold), so a bot cannot
reach into a `Game`: the only way to build one from a game is `observe`, which copies
`view(game, seat)` and takes the log from the caller (the public events of every action so
far, as the server stores them: `public_events(events, None)`; another seat's drawn cards are
not in it). `knowledge` reads from the log what the view leaves out but every player saw:
the cards each seat played face up this era and the wild cards each seat holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from brass.engine import Game, view

WILDS = ("wild:location", "wild:industry")


class Observation(TypedDict):
    """A seat's view (`brass.engine.view`) and the public log (None: not known, e.g. a log
    stored before the server kept events)."""

    view: dict[str, Any]
    log: list[Mapping[str, Any]] | None


def observe(game: Game, seat: int, log: Iterable[Mapping[str, Any]] | None) -> Observation:
    """The observation of `seat`: its view of `game` and the public `log` given."""
    return {"view": view(game, seat), "log": None if log is None else list(log)}


@dataclass(frozen=True)
class Knowledge:
    """Public facts beyond the view, by seat: the face-up discards of this era (oldest
    first) and the wild cards held (location, industry). None where the log is unknown or
    does not agree with the view."""

    discards: tuple[tuple[str, ...], ...] | None
    wilds: tuple[tuple[int, int], ...] | None


def played_cards(action: Mapping[str, Any]) -> list[str]:
    """The cards an action (as JSON) discards."""
    cards = action.get("cards") if action.get("kind") == "scout" else [action.get("card")]
    return [c for c in cards or () if isinstance(c, str)]


def knowledge(observation: Observation) -> Knowledge:
    """What the log tells beyond the view (see `Knowledge`)."""
    seen = observation["view"]
    log = observation["log"]
    players = seen["players"]
    if log is None:
        return Knowledge(None, None)
    discards: list[list[str]] = [[] for _ in players]
    wilds = [[0, 0] for _ in players]
    for event in log:
        if event.get("type") == "era_end":
            discards = [[] for _ in players]
            wilds = [[0, 0] for _ in players]
        elif event.get("type") == "move":
            seat, action = event["seat"], event["action"]
            for card in played_cards(action):
                if card in WILDS:
                    wilds[seat][WILDS.index(card)] -= 1
                else:
                    discards[seat].append(card)
            if action.get("kind") == "scout":
                wilds[seat] = [wilds[seat][0] + 1, wilds[seat][1] + 1]
    if not _agrees(players, discards, wilds):
        return Knowledge(None, None)
    return (Knowledge(tuple(tuple(d) for d in discards), tuple((a, b) for a, b in wilds)))


def _agrees(players: Sequence[Mapping[str, Any]], discards: list[list[str]],
            wilds: list[list[int]]) -> bool:
    for p, pile, held in zip(players, discards, wilds, strict=True):
        top = pile[-1] if pile else None
        if top != p["discard_top"] or len(pile) > p["discard_size"]:
            return False
        if min(held) < 0 or sum(held) > p["hand_size"]:
            return False
        if p["hand"] is not None and [p["hand"].count(w) for w in WILDS] != held:
            return False
    return True
