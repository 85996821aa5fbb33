"""The one door: every payload that leaves the server about a game is built here.

A game's state leaves only through the engine's `view(game, seat)`, which shows a seat what it
may see (a spectator: the public view). Nothing here serializes a `Game`, a table row or a
token hash; each payload is written field by field (deny by default). The seed and setup of a
game leave only once it is finished (a finished game has no secrets).

The action log of a running game is public: every action discards its cards face up, so the
list of actions (who did what, with which card) is what everyone at the table saw. Undone
actions are left out (their cards went back to the hand). Each entry carries the effects stored
with it, which are the engine's `public_events(events, None)`: what a spectator may see (cards
drawn are a count). Payloads that embed text already built here (log entries, legal moves) are
assembled as text, so nothing is encoded twice.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from brass.engine import (
    Action,
    Game,
    Network,
    Quote,
    Sell,
    legal_groups,
    play,
    public_events,
    view,
    views,
)
from brass.engine import extensions as engine_extensions

from . import jsontext, metrics, seatrules
from .runtime import replayed
from .schemas import ClockView, GameInfo, ReplayFrame, SeatInfo
from .storage import ActionRecord, GameRecord, SeatChange
from .undo import undoable

if TYPE_CHECKING:
    from .runtime import Runtime


def dumps(payload: dict[str, Any]) -> str:
    return jsontext.dumps(payload)


def error(code: str, message: str, action_id: str | None = None, reason: str | None = None,
          params: dict[str, Any] | None = None) -> dict[str, Any]:
    metrics.ERRORS.labels(code).inc()
    out: dict[str, Any] = {"code": code, "message": message}
    if action_id is not None:
        out["action_id"] = action_id
    if reason is not None:
        out["reason"], out["params"] = reason, params or {}
    return out


def ws_error(code: str, message: str, action_id: str | None = None, reason: str | None = None,
             params: dict[str, Any] | None = None, version: int | None = None,
             about: str | None = None) -> dict[str, Any]:
    """A `WsError`; `version`: the version a refused extend or preview asked about; `about`:
    "chat" for a refused chat line."""
    out = {"type": "error", **error(code, message, action_id, reason, params)}
    if version is not None:
        out["version"] = version
    if about is not None:
        out["about"] = about
    return out


def ws_ack(action_id: str | None, version: int) -> dict[str, Any]:
    return {"type": "ack", "action_id": action_id, "version": version}


def state_text(rt: Runtime, seat: int | None, legal: str | None,
               shown: dict[str, Any] | None = None) -> str:
    """The state message for one seat (None: a spectator): the view, what changed since the
    previous version (`log`: the entry that made this version; `undone`: the seqs this
    version took back) and, for the seat to move only, its legal moves (`legal`, JSON text
    from `legal`; null for everyone else). Only the view differs between seats: the rest is
    rendered once per publish (`state_parts`). `shown`: the seat's view if already built
    (`views` builds every seat's at once)."""
    if rt.parts is None:
        rt.parts = state_parts(rt)
    head, tail = rt.parts
    game = rt.game
    if shown is None and game is not None:
        shown = view(game, seat)
    who = "null" if seat is None else seat
    may = "null" if seat is None else dumps(seatrules.permissions(rt.record, game, seat))
    return (f'{head}"seat":{who},"view":{jsontext.dumps(shown)},{tail},'
            f'"legal":{legal or "null"},"may":{may}}}')


def state_texts(rt: Runtime, seats: set[int | None], mover: int | None = None,
                legal: str | None = None) -> dict[int | None, str]:
    """`state_text` for each of `seats`, their views built at once; `legal`: the legal moves
    of `mover` (None: not computed yet, the mover's message has none). No seats (nobody
    connected here, as while a game is opened): nothing is built."""
    game = rt.game
    if not seats:
        return {}
    shown = {} if game is None else views(game, seats)
    return {seat: state_text(rt, seat, legal if seat is not None and seat == mover else None,
                             shown.get(seat))
            for seat in seats}


def state_parts(rt: Runtime) -> tuple[str, str]:
    """The parts of the state message that every seat gets alike, as JSON text: the head
    (type, game, status, version: in that order, first, so a client may read them without
    parsing the rest) and the tail (everything else but the seat, its view and its legal
    moves)."""
    record = rt.record
    last = rt.recent[-1] if rt.recent else None
    new = [log_entry(last)] if last is not None and last.seq == record.version else []
    undone = rt.undone[1] if rt.undone[0] == record.version else []
    changes = [seat_change(c) for c in rt.seat_changes[-1:] if c.version == record.version]
    head = dumps({"type": "state", "game": record.id, "status": record.status,
                  "version": record.version})
    game = rt.game
    mover = None if game is None else game.current_seat
    may_undo = undoable(game, record.status == "running",
                        mover is not None and record.seats[mover].played_by_bot, last)
    tail = dumps({"older_engine": record.older_engine, "undone": undone,
                  "undoable": may_undo,
                  "seats": seat_dicts(record),
                  "clock": clock_dict(record), "seat_changes": changes})
    return f"{head[:-1]},", f'{tail[1:-1]},"log":[{",".join(new)}]'


def stamped(text: str) -> str:
    """A state message as it leaves: with this server's time (`server_time`), so a client
    counts a deadline down without trusting its own clock (the cached text has none)."""
    return f'{text[:-1]},"server_time":{time.time():.3f}}}'


def epoch(stamp: dt.datetime | None) -> float | None:
    return None if stamp is None else round(stamp.timestamp(), 3)


def clock(record: GameRecord) -> ClockView:
    return ClockView(**clock_dict(record))


def clock_dict(record: GameRecord) -> dict[str, Any]:
    """The `ClockView` as the dict its `model_dump` is (as `seat_dicts`)."""
    c = record.clock
    return {"kind": c.kind, "reserve": float(c.reserve), "increment": float(c.increment),
            "per_turn": float(c.per_turn), "handoff_after": float(c.handoff_after),
            "deadline": epoch(record.deadline), "turn_started": epoch(record.turn_started_at)}


def seat_change(c: SeatChange) -> dict[str, Any]:
    return {"version": c.version, "seat": c.seat, "change": c.change,
            "time": c.created_at.isoformat()}


def seats(record: GameRecord) -> list[SeatInfo]:
    return [SeatInfo(**s) for s in seat_dicts(record)]


def seat_dicts(record: GameRecord) -> list[dict[str, Any]]:
    """Each `SeatInfo` as the dict its `model_dump` is: a state message builds these at every
    move, where making and dumping the models cost several times as much."""
    return [{"seat": s.seat, "name": s.name, "bot": s.bot, "taken": s.taken,
             "bot_level": s.level if s.bot else None, "stand_in": s.stand_in,
             "reserve": None if s.reserve is None else float(s.reserve)}
            for s in record.seats]


def game_info(record: GameRecord, game: Game | None) -> GameInfo:
    return GameInfo(
        id=record.id, name=record.name, players=record.players,
        status=record.status,
        version=record.version, current_seat=None if game is None else game.current_seat,
        seats=seats(record), scores=record.scores if record.status == "finished" else None,
        engine_version=record.engine_version,
        older_engine=record.older_engine, listed=record.listed,
        clock=clock(record), shared_screen=record.shared_screen,
        called_off_by=record.called_off_by)


def log_entry(a: ActionRecord) -> str:
    """One `LogEntry` as JSON text: the action and its stored public effects."""
    return (f'{{"seq":{a.seq},"seat":{a.seat},"action":{a.action_text},'
            f'"time":{jsontext.dumps(a.created_at.isoformat())},"effects":{a.effects or "null"},'
            f'"stand_in":{jsontext.dumps(a.stand_in)}}}')


def log_text(record: GameRecord, entries: list[ActionRecord],
             changes: list[SeatChange] | None = None) -> str:
    """The log (a `GameLog` as JSON text): public parts of a running game; everything (seed,
    setup) once finished."""
    finished = record.status == "finished"
    head = dumps({
        "format": "brass-game-log/1", "id": record.id, "name": record.name,
        "players": record.players, "status": record.status, "version": record.version,
        "engine_version": record.engine_version,
        "older_engine": record.older_engine,
        "seats": seat_dicts(record),
        "seed": record.seed if finished else None,
        "setup": record.setup if finished else None,
        "scores": record.scores if finished else None,
        "seat_changes": [seat_change(c) for c in changes or []]})
    return f'{head[:-1]},"actions":[{",".join(log_entry(a) for a in entries)}]}}'


def replay_frame(game: Game, n: int, total: int, seat: int | None) -> ReplayFrame:
    return ReplayFrame(n=n, actions=total, seat=seat, view=view(game, seat))


def rebuilt_frame(players: int, seed: int, setup: dict[str, Any] | None,
                  snapshot: dict[str, Any] | None, actions: list[dict[str, Any]], n: int,
                  total: int, seat: int | None) -> ReplayFrame:
    """The replay frame after `actions` from `snapshot` (pure: runs in a worker process)."""
    return replay_frame(replayed(players, seed, setup, snapshot, actions), n, total, seat)


def legal(game: Game, seat: int) -> str:
    """The seat's legal moves with their prices (a JSON list of `LegalEntry`, the engine's
    bounded `legal_moves`, by `legal_groups`: a Sell of one sale, a Network of one link);
    empty when it is not the seat's turn. Pure, so it can run in a worker process."""
    if game.is_over or game.current_seat != seat:
        return "[]"
    return _moves_text(legal_groups(game))


def extensions(game: Game, action: Sell | Network, version: int) -> str:
    """The `Extensions` message: the legal moves made of `action` plus one more sale (or its
    second link). Raises `IllegalAction` if `action` is not legal. Pure (a worker runs it)."""
    moves = _moves_text((m.quote, (m.action,)) for m in engine_extensions(game, action))
    return (f'{{"type":"extensions","version":{version},"action":{dumps(action.to_json())},'
            f'"moves":{moves}}}')


def preview(game: Game, action: Action, version: int) -> str:
    """The `Preview` message: the engine's `move` event for `action` (raises `IllegalAction`
    if it is not legal). Only that event: the draw at the end of the turn would show the deck.
    Pure (a worker runs it)."""
    _, events = play(game, action)
    move = next(e for e in public_events(events, game.current_seat) if e["type"] == "move")
    return (f'{{"type":"preview","version":{version},"action":{dumps(action.to_json())},'
            f'"effect":{dumps(dict(move))}}}')


TEXTS = 10_000  # actions and prices whose JSON a process keeps (a few MB); then it starts again
# by id(action): the action (held, so that its id is not reused while it is a key here, and
# compared by identity, which is cheap where equality would hash every field) and the head of
# its entry's JSON text
_action_texts: dict[int, tuple[Action, str]] = {}
_quote_texts: dict[Quote, str] = {}  # the tail of an entry's JSON text, by price


def _moves_text(groups: Iterable[tuple[Quote, Sequence[Action]]]) -> str:
    """The `LegalEntry` list as JSON text, from (price, actions) groups, assembled from the
    text of each action and price: the engine lists the same action objects move after move
    (`legal.py` makes each once) and the same few prices, so each one's text is made once per
    process."""
    texts = _action_texts
    parts = []  # each entry's head and tail (with its comma): one join makes the text
    last: Quote | None = None
    tail = ""
    for price, actions in groups:
        if price is not last:  # groups in a row often share one price (canals, passes)
            last, tail = price, _quote_tail(price)
        for action in actions:
            held = texts.get(id(action))
            if held is None or held[0] is not action:
                held = _held_action(action)
            parts.append(held[1])
            parts.append(tail)
    if not parts:
        return "[]"
    parts[-1] = parts[-1][:-1]  # no comma after the last entry
    return f'[{"".join(parts)}]'


def _held_action(action: Action) -> tuple[Action, str]:
    """`{"action":<action>,"quote":` as JSON text, kept in `_action_texts`."""
    if len(_action_texts) >= TEXTS:
        _action_texts.clear()
    held = _action_texts[id(action)] = (action, f'{{"action":{dumps(action.to_json())},"quote":')
    return held


def _quote_tail(quote: Quote) -> str:
    """`<quote>},` as JSON text (an entry's end and the comma after it), kept in
    `_quote_texts`."""
    tail = _quote_texts.get(quote)
    if tail is None:
        if len(_quote_texts) >= TEXTS:
            _quote_texts.clear()
        tail = _quote_texts[quote] = f"{dumps(quote.to_json())}}},"
    return tail
