"""Moving a finished game between servers.

`brass export GAME` writes a finished game's record: the JSON of `GET /api/games/{id}/log`
(format `brass-game-log/1`: seed, setup, seats and every action), read from a server over HTTP
(`--url`) or straight from a database. `brass import FILE` stores such a record in a database as
a finished game, which then opens by id, replays and downloads like any game played there
(unlisted, as a new game is).

An import is checked before anything is written: the record must be a finished game's (a
running game's log has no seed: it cannot be replayed, and its seed is a secret until the end),
every action must be legal when replayed from the seed and setup, by the seat that was to move,
and the replay must end the game with the recorded scores; that replay also gives the game the
snapshots a game played there has (its start and each round's end: a replay frame costs at most
a round). Seats keep their names, moves keep their bot stand-in marks and the log its changes
of who played a seat; nobody holds a seat or host token of an imported game (it is over: there
is nothing left to do with one).
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from brass.engine import (
    IllegalAction,
    InvalidSetup,
    MalformedAction,
    apply_action,
    new_game,
    parse_action,
)

from . import importcheck, migrate, outbound
from .auth import new_token, token_hash
from .lobby import new_game_id
from .movelog import ranks_of
from .operatordb import failed, shown
from .runtime import restore
from .schemas import GameLog
from .storage import Snapshot, Storage

FORMAT = "brass-game-log/1"


class TransferError(ValueError):
    """A record that cannot be exported or imported; the message says why, in one line."""


@dataclass(frozen=True)
class CheckedRecord:
    """A record that replays to its recorded scores."""

    log: GameLog
    scores: list[int]
    actions: list[dict[str, Any]]  # each action as the server stores it (canonical JSON)
    effects: list[list[Any]]  # each action's public events, as the server stores them
    snapshots: list[Snapshot]  # the start and each round's end, as a game played here keeps


def _db_error(url: str, exc: SQLAlchemyError) -> TransferError:
    return TransferError(failed(url, exc))


# -- export --------------------------------------------------------------------------------------
def _finished_only(record: dict[str, Any], game_id: str) -> dict[str, Any]:
    if record.get("status") != "finished":
        raise TransferError(
            f"game {game_id} is {record.get('status')}: only a finished game can be exported "
            "(until the end its seed and hands are secret)")
    return record


def export_from_database(url: str, game_id: str) -> dict[str, Any]:
    """The record of a finished game, read from the database at `url`."""
    storage = Storage(url)
    try:
        record = storage.load_game(game_id)
        if record is None:
            raise TransferError(f"no game {game_id!r} in {shown(url)}")
        entries, changes = storage.load_actions(game_id), storage.load_seat_changes(game_id)
    except SQLAlchemyError as exc:
        raise _db_error(url, exc) from None
    finally:
        storage.close()
    return _finished_only(json.loads(outbound.log_text(record, entries, changes)), game_id)


def export_from_server(base_url: str, game_id: str, timeout: float = 30.0) -> dict[str, Any]:
    """The record of a finished game, downloaded from the server at `base_url`."""
    url = f"{base_url.rstrip('/')}/api/games/{urllib.parse.quote(game_id, safe='')}/log"
    try:
        with urllib.request.urlopen(url, timeout=timeout) as reply:
            record = json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            raise TransferError(f"no game {game_id!r} on {base_url}") from None
        raise TransferError(f"{base_url} answered {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise TransferError(f"no server answers at {base_url} ({reason})") from None
    except ValueError:
        raise TransferError(f"{url} did not answer with JSON") from None
    if not isinstance(record, dict):
        raise TransferError(f"{url} did not answer with a game log")
    return _finished_only(record, game_id)


# -- import --------------------------------------------------------------------------------------
def check_record(record: Any) -> CheckedRecord:
    """Validate a record and replay it; `TransferError` says what is wrong."""
    log = _parsed(record)
    _check_shape(log)
    canonical = _replayed(log)
    assert log.seed is not None and log.scores is not None  # _check_shape
    # what the server keeps of a game that it did not play itself, as of one stored before
    # it kept effects and snapshots (one more replay: a game takes about 2 ms)
    _, effects, kept = restore(log.players, log.seed, log.setup,
                               [(entry.seq, action) for entry, action in zip(
                                   log.actions, canonical, strict=True)])
    return CheckedRecord(log=log, scores=list(log.scores), actions=canonical, effects=effects,
                         snapshots=kept)


def _parsed(record: Any) -> GameLog:
    """The record as a `GameLog`, held to the rules a client's input is."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise TransferError(f"not a Brass game record (expected \"format\": \"{FORMAT}\", the "
                            "JSON of brass export or GET /api/games/GAME/log)")
    if record.get("seed") is None:
        raise TransferError(
            "this is the log of a game that is not finished (it has no seed): only a finished "
            "game's record can be imported; export it again once the game is over")
    importcheck.check(record)  # held to the rules a client's input is
    try:
        return GameLog.model_validate(record)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "record"
        raise TransferError(f"not a valid game record: {where}: {first['msg']}") from None


def _check_shape(log: GameLog) -> None:
    """What a record must be before it is replayed: finished, its seats, its log in order."""
    if log.status != "finished" or log.scores is None or log.seed is None:
        raise TransferError(f"the record's game is {log.status}, not finished")
    if not 1 <= len(log.id) <= 32 or not 1 <= len(log.name) <= 80:
        raise TransferError("the record's game id or name has a bad length")
    if sorted(s.seat for s in log.seats) != list(range(log.players)):
        raise TransferError(f"the record has {len(log.seats)} seats for {log.players} players")
    seqs = [entry.seq for entry in log.actions]
    if any(b <= a for a, b in itertools.pairwise(seqs)) or (seqs and seqs[0] < 1):
        raise TransferError("the record's actions are not in increasing order of seq")
    if seqs and log.version < seqs[-1]:
        raise TransferError(f"the record's version {log.version} is below its last seq")
    for entry in log.actions:
        try:
            _when(entry.time)
        except ValueError:
            raise TransferError(f"action #{entry.seq}: bad time {entry.time!r}") from None


def _replayed(log: GameLog) -> list[dict[str, Any]]:
    """The record's actions as the engine writes them, once they replay, by the seat to
    move each time, to the end of the game and to the recorded scores."""
    assert log.seed is not None  # _check_shape
    try:
        game = new_game(log.players, log.seed, log.setup)
    except InvalidSetup as exc:
        raise TransferError(f"the record's setup is refused: {exc}") from None
    canonical = []
    for entry in log.actions:
        if game.is_over:
            raise TransferError(f"action #{entry.seq} comes after the end of the game")
        if entry.seat != game.current_seat:
            raise TransferError(f"action #{entry.seq} is by seat {entry.seat}, but seat "
                                f"{game.current_seat} was to move")
        try:
            action = parse_action(entry.action)
            game = apply_action(game, action)
        except (IllegalAction, MalformedAction) as exc:
            raise TransferError(f"action #{entry.seq} does not replay: {exc}") from None
        canonical.append(action.to_json())
    if not game.is_over:
        raise TransferError(f"the record ends after {len(log.actions)} actions, before the "
                            "game does")
    scores = list(game.scores)
    if scores != log.scores:
        raise TransferError(f"the record replays to the scores {scores}, not the recorded "
                            f"{log.scores}")
    return canonical


def _when(stamp: str) -> dt.datetime:
    when = dt.datetime.fromisoformat(stamp)
    return when.replace(tzinfo=dt.UTC) if when.tzinfo is None else when


def import_record(url: str, record: Any, new_id: bool = False) -> str:
    """Check `record` and store it in the database at `url` (migrated first, as the server
    does at start) as a finished game; returns its id there. Its own id is kept; if a game
    there has it already, the import is refused, or with `new_id` the game gets a new id."""
    checked = check_record(record)
    log = checked.log
    try:
        migrate.upgrade(url)
    except SQLAlchemyError as exc:
        raise _db_error(url, exc) from None
    storage = Storage(url)
    try:
        times = [_when(entry.time) for entry in log.actions]
        started = times[0] if times else dt.datetime.now(dt.UTC)
        ended = times[-1] if times else started
        game = {"id": log.id, "name": log.name, "players": log.players, "status": "finished",
                "seed": log.seed, "setup": log.setup, "version": log.version,
                "engine_version": log.engine_version,
                "host_token_hash": token_hash(new_token()), "scores": checked.scores,
                "ranks": ranks_of(checked.effects[-1] if checked.effects else None,
                                  log.players),
                "created_at": started, "updated_at": ended, "finished_at": ended}
        rows: dict[str, list[dict[str, Any]]] = {
            # a seat token nobody holds: every seat of a finished game is taken
            "seats": [{"seat": s.seat, "name": s.name, "bot": s.bot,
                       "token_hash": None if s.bot else token_hash(new_token()),
                       "joined_at": started, "bot_level": s.bot_level,
                       "stand_in": s.stand_in, "reserve": s.reserve}
                      for s in sorted(log.seats, key=lambda s: s.seat)],
            "actions": [{"seq": entry.seq, "seat": entry.seat, "action": action,
                         "action_id": f"import-{entry.seq}", "undone": False,
                         "created_at": when, "effects": effects, "stand_in": entry.stand_in}
                        for entry, action, effects, when in zip(
                            log.actions, checked.actions, checked.effects, times, strict=True)],
            "snapshots": [{"seq": s.seq, "actions": s.actions, "state": s.state,
                           "created_at": ended} for s in checked.snapshots],
            # who played for whom, as the log showed it
            "seat_changes": [{"version": c.version, "seat": c.seat, "change": c.change,
                              "created_at": _when(c.time)} for c in log.seat_changes]}
        game_id = storage.import_finished(game, rows, new_game_id if new_id else None)
        if game_id is None:
            raise TransferError(
                f"a game {log.id!r} is already in {shown(url)} (imported before?); "
                "--new-id stores this one under a new id")
    except IntegrityError:
        raise TransferError(f"a game {log.id!r} was stored in {shown(url)} meanwhile; "
                            "import again") from None
    except SQLAlchemyError as exc:
        raise _db_error(url, exc) from None
    finally:
        storage.close()
    return game_id
