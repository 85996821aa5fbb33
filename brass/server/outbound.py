"""The one door: every payload that leaves the server about a game is built here.

A game's state leaves only through the engine's `view(game, seat)`, which shows a seat what it
may see (a spectator: the public view). Nothing here serializes a `Game`, a table row or a
token hash; each payload is written field by field (deny by default). The seed and setup of a
game leave only once it is finished (a finished game has no secrets).

The action log of a running game is public: every action discards its cards face up, so the
list of actions (who did what, with which card) is what everyone at the table saw. Undone
actions are left out (their cards went back to the hand).
"""

from __future__ import annotations

import json
from typing import Any

from brass.engine import Game, legal_actions, quote, view

from . import metrics
from .schemas import GameInfo, GameLog, LogEntry, ReplayFrame, SeatInfo
from .storage import ActionRecord, GameRecord


def dumps(payload: dict[str, Any]) -> str:
    return json.dumps(payload, separators=(",", ":"))


def error(code: str, message: str, action_id: str | None = None) -> dict[str, Any]:
    metrics.ERRORS.labels(code).inc()
    out: dict[str, Any] = {"code": code, "message": message}
    if action_id is not None:
        out["action_id"] = action_id
    return out


def ws_error(code: str, message: str, action_id: str | None = None) -> dict[str, Any]:
    return {"type": "error", **error(code, message, action_id)}


def ws_ack(action_id: str | None, version: int) -> dict[str, Any]:
    return {"type": "ack", "action_id": action_id, "version": version}


def state(record: GameRecord, game: Game | None, seat: int | None) -> dict[str, Any]:
    """The state message for one seat (None: a spectator)."""
    return {"type": "state", "game": record.id, "status": record.status,
            "version": record.version, "seat": seat,
            "view": None if game is None else view(game, seat)}


def seats(record: GameRecord) -> list[SeatInfo]:
    return [SeatInfo(seat=s.seat, name=s.name, bot=s.bot, taken=s.taken) for s in record.seats]


def game_info(record: GameRecord, game: Game | None) -> GameInfo:
    return GameInfo(
        id=record.id, name=record.name, players=record.players,
        status=record.status,  # type: ignore[arg-type]
        version=record.version, current_seat=None if game is None else game.current_seat,
        seats=seats(record), scores=record.scores if record.status == "finished" else None,
        listed=record.listed)


def log(record: GameRecord, entries: list[ActionRecord]) -> GameLog:
    """The log: public parts of a running game; everything (seed, setup) once finished."""
    finished = record.status == "finished"
    return GameLog(
        id=record.id, name=record.name, players=record.players, status=record.status,
        version=record.version, engine_version=record.engine_version, seats=seats(record),
        actions=[LogEntry(seq=a.seq, seat=a.seat, action=a.action,
                          time=a.created_at.isoformat()) for a in entries],
        seed=record.seed if finished else None,
        setup=record.setup if finished else None,
        scores=record.scores if finished else None)


def replay_frame(game: Game, n: int, total: int, seat: int | None) -> ReplayFrame:
    return ReplayFrame(n=n, actions=total, seat=seat, view=view(game, seat))


def legal(game: Game, seat: int) -> str:
    """The seat's legal actions with their prices (a JSON list of `LegalEntry`); empty when
    it is not the seat's turn. Pure, so it can run in a worker process."""
    if game.is_over or game.current_seat != seat:
        return "[]"
    entries = []
    prices: dict[str, dict[str, Any]] = {}  # the card played never changes the price
    for action in legal_actions(game):
        wire = action.to_json()
        effect = json.dumps({k: v for k, v in wire.items() if k not in ("card", "cards")},
                            sort_keys=True)
        price = prices.get(effect)
        if price is None:
            price = prices[effect] = quote(game, action).to_json()
        entries.append({"action": wire, "quote": price})
    return json.dumps(entries, separators=(",", ":"))
