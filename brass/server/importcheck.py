"""What `brass import` accepts besides a record that replays (transfer.py checks that): input
from a file is held to the rules input from a client is.

- Size and shape: a record is at most `MAX_BYTES` of JSON, nested at most `MAX_DEPTH` deep
  (a real one is well inside both: test_import_check.py measures one), parsed by orjson,
  which refuses deeper nesting with an error instead of exhausting the stack.
- Names: the game's and every seat's, by the API's own rule (`schemas.PlayerName`: length,
  visible characters, no control or direction-override characters).
- The id: what the server makes (`lobby.new_game_id`: URL-safe characters, not starting
  with `-`), at most `MAX_ID` long: it is a path segment and a command-line argument.
- Who played each seat: every change of who plays a seat (`seat_changes`) is one the server
  allows when and where it happened (a time-out or hand-over of the seat to move, while its
  player plays it; a resignation once; a return from a time-out or hand-over only), and every
  action's stand-in mark is what the seat's player was at that moment (a bot standing in, and
  why, or nobody); the seats' final marks are what the changes left.

Every refusal is a `BadRecord` whose message says what is wrong in one line.
"""

from __future__ import annotations

import re
from typing import Any

import orjson
from pydantic import TypeAdapter, ValidationError

from .schemas import GameLog, PlayerName
from .vocab import SeatChangeKind, StandIn

MAX_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 24
MAX_ID = 32
GAME_ID = re.compile(rf"[A-Za-z0-9_][A-Za-z0-9_-]{{0,{MAX_ID - 1}}}")
_NAME: TypeAdapter[str] = TypeAdapter(PlayerName)
DEEP = f"the record is nested over {MAX_DEPTH} deep: no game's record is"
LEAVES: frozenset[StandIn] = frozenset({"timeout", "handover"})  # until the player returns


class BadRecord(ValueError):
    """A record refused before anything is stored; the message says why."""


def parse(raw: bytes) -> Any:
    """The record in `raw` (JSON), if it is within the size and nesting limits."""
    if len(raw) > MAX_BYTES:
        raise BadRecord(f"the record is over the {MAX_BYTES:,} bytes a game's record may be")
    try:
        record = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        if nesting(raw) > MAX_DEPTH:  # orjson refuses over 1,024 deep (its words vary)
            raise BadRecord(DEEP) from None
        raise BadRecord(f"not JSON ({exc})") from None
    check_shape(record)
    return record


_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def nesting(raw: bytes) -> int:
    """How deep the brackets of JSON text go (strings skipped), even where it does not parse."""
    depth = deepest = 0
    for token in _TOKENS.finditer(raw):
        if token[0] in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        elif token[0] in (b"]", b"}"):
            depth -= 1
    return deepest


def check_shape(record: Any) -> None:
    """Refuse a record nested deeper than `MAX_DEPTH` (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(record, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise BadRecord(DEEP)
        children = (value.values() if isinstance(value, dict)
                    else value if isinstance(value, list) else ())
        stack.extend((child, depth + 1) for child in children)


def check(record: Any) -> None:
    """All of the checks above on a parsed record. A record that is not a game log at all is
    left to transfer.py, which says so."""
    check_shape(record)
    try:
        log = GameLog.model_validate(record)
    except ValidationError:
        return
    if not GAME_ID.fullmatch(log.id):
        raise BadRecord(f"the record's game id {log.id[:40]!r} is not one a server makes "
                        f"(1 to {MAX_ID} letters, digits, _ or -, not starting with -)")
    _name("the game's name", log.name)
    for seat in log.seats:
        _name(f"seat {seat.seat}'s name", seat.name)
    check_seat_changes(log)


def _name(what: str, name: str | None) -> None:
    try:
        _NAME.validate_python(name)
    except ValidationError as exc:
        message = str(exc.errors()[0]["msg"]).removeprefix("Value error, ")
        raise BadRecord(f"{what} is refused as a player's would be: {message}") from None


def check_seat_changes(log: GameLog) -> None:
    """Replay who played each seat, in version order, against the rules of `seats.py`
    (`time_out`, `resign`, `hand_over`, `take_over`)."""
    standing: dict[int, StandIn | None] = {s.seat: None for s in log.seats}
    bots = {s.seat for s in log.seats if s.bot}
    changes = sorted(log.seat_changes, key=lambda c: c.version)
    if [c.version for c in changes] != [c.version for c in log.seat_changes]:
        raise BadRecord("the record's seat changes are not in order of version")
    seqs = {entry.seq for entry in log.actions}
    actions = iter(log.actions)
    entry = next(actions, None)
    for change in changes:
        where = f"seat change at version {change.version} ({change.change} of seat {change.seat})"
        if change.version in seqs or change.version > log.version:
            raise BadRecord(f"{where}: that version is an action's, or past the game's")
        while entry is not None and entry.seq < change.version:
            _marked(entry.seq, entry.seat, entry.stand_in, standing.get(entry.seat))
            entry = next(actions, None)
        if change.seat not in standing or change.seat in bots:
            raise BadRecord(f"{where}: no player holds that seat")
        if entry is None:
            raise BadRecord(f"{where}: the game was over")
        standing[change.seat] = _changed(where, change.change, standing[change.seat],
                                         entry.seat == change.seat)
    for rest in ([entry] if entry is not None else []) + list(actions):
        _marked(rest.seq, rest.seat, rest.stand_in, standing.get(rest.seat))
    _left_as_marked(log, standing)


def _left_as_marked(log: GameLog, standing: dict[int, StandIn | None]) -> None:
    """Each seat is marked as its seat changes leave it."""
    for seat in log.seats:
        if seat.stand_in != standing[seat.seat]:
            raise BadRecord(f"seat {seat.seat} is marked {seat.stand_in or 'played by its player'}"
                            f", but its seat changes leave it "
                            f"{standing[seat.seat] or 'played by its player'}")


def _changed(where: str, change: SeatChangeKind, now: StandIn | None,
             to_move: bool) -> StandIn | None:
    """Who plays a seat after `change` (its seat `to_move` or not), where `now` played it; a
    change the seats' rules do not allow is refused."""
    if change in LEAVES and (now is not None or not to_move):
        raise BadRecord(f"{where}: only the seat to move, played by its player, can be "
                        "timed out or handed over")
    if change == "resigned" and now == "resigned":
        raise BadRecord(f"{where}: the seat had resigned already")
    if change == "returned":
        if now not in LEAVES:
            raise BadRecord(f"{where}: only a player timed out or handed over returns")
        return None
    return change


def _marked(seq: int, seat: int, mark: StandIn | None, standing: StandIn | None) -> None:
    if mark != standing:
        raise BadRecord(f"action #{seq} is marked {mark or 'played by its player'}, but seat "
                        f"{seat} was {standing or 'played by its player'} then")
