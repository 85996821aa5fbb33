"""The action log and its snapshots (tables `actions`, `snapshots`): the versioned move
write in its two shapes (`append_turn` in a transaction; `plan_append`, the same rows as one
Postgres statement for movewrite.py), undo, and the log's reads.

A move is a versioned write: the game's version moves from `expected` to `expected + 1` (or
nothing happens) and its row is inserted with `seq = expected + 1`; the unique constraints on
`(game_id, seq)` and `(game_id, action_id)` are the backstop if two writers ever race past that
check. Each row keeps the public effect of its action (`effects`), and `snapshots` keeps the
whole state at the start, after every round end and at the end, so no replay starts further
back than one round. Undo marks rows `undone` (kept as history, `undone_at` its version) and
moves the version on; it never reaches back past a round end, so a snapshot is never undone.
The version only grows, so a client can always ignore a state older than the one it holds."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from . import jsontext, ratings
from .notice import Notice, channel
from .records import (
    ActionRecord,
    DuplicateActionId,
    QuickAppend,
    Snapshot,
    StaleVersion,
    Timing,
    TurnStart,
    _action_record,
    _text,
    now,
)
from .storebase import StoreBase
from .tables import actions, games, seats, snapshots, status_is
from .timing import _db_now, _timed, _turn_timing
from .vocab import StandIn


class MoveLog(StoreBase):
    # -- the action log ------------------------------------------------------------------------
    def load_actions(self, game_id: str, include_undone: bool = False) -> list[ActionRecord]:
        with self._tx() as conn:
            query = select(actions).where(actions.c.game_id == game_id).order_by(actions.c.seq)
            if not include_undone:
                query = query.where(actions.c.undone.is_(False))
            return [_action_record(r) for r in conn.execute(query)]

    def actions_as_of(self, game_id: str, at: int) -> list[ActionRecord]:
        """Every log row, undone ones included, as it stood at version `at` (another instance
        may have written since): rows after it left out, rows undone after it live again."""
        return [a if a.undone_at is None or a.undone_at <= at else
                dataclasses.replace(a, undone=False, undone_at=None)
                for a in self.load_actions(game_id, True) if a.seq <= at]

    def rows_after(self, game_id: str, at: int, after_seq: int,
                   count: int) -> list[ActionRecord]:
        """The first `count` rows of the game (undone ones left out) after the row `after_seq`
        as the log stood at version `at`: a replay frame reads only the rows after its
        snapshot, never the whole log."""
        with self._tx() as conn:
            rows = conn.execute(select(actions).where(
                actions.c.game_id == game_id, actions.c.seq > after_seq, actions.c.seq <= at,
                or_(actions.c.undone.is_(False), actions.c.undone_at > at))
                .order_by(actions.c.seq).limit(count)).all()
        return [dataclasses.replace(a, undone=False, undone_at=None) if a.undone else a
                for a in map(_action_record, rows)]

    def find_action(self, game_id: str, action_id: str) -> ActionRecord | None:
        with self._tx() as conn:
            row = conn.execute(select(actions).where(
                actions.c.game_id == game_id, actions.c.action_id == action_id)).first()
        return None if row is None else _action_record(row)

    def append_action(self, game_id: str, expected_version: int, seat: int,
                      action: dict[str, Any], action_id: str,
                      effects: list[Any] | None = None, scores: list[int] | None = None,
                      snapshot: tuple[int, dict[str, Any]] | None = None) -> ActionRecord:
        """The versioned write of one log row with its public `effects`. `scores` set means
        the action ended the game; `snapshot` (the number of actions in the log with this
        one, and the state after it) is stored in the same transaction."""
        return self.append_turn(game_id, expected_version, seat, action, action_id, effects,
                                scores, snapshot)[0]

    def append_turn(self, game_id: str, expected_version: int, seat: int,
                    action: dict[str, Any], action_id: str,
                    effects: list[Any] | None = None, scores: list[int] | None = None,
                    snapshot: tuple[int, dict[str, Any]] | None = None,
                    turn: TurnStart | None = None,
                    stand_in: StandIn | None = None) -> tuple[ActionRecord, Timing | None]:
        """`append_action`, and, when the action ends a turn (`turn`), the ended seat's
        reserve and the next turn's deadline, in the same transaction (so deadlines survive a
        restart). `stand_in`: a bot played the action for the seat's player."""
        record, values = _row_and_game(expected_version, seat, action, action_id, effects,
                                       scores, stand_in)
        timing = None
        try:
            with self._tx() as conn:
                if turn is not None:
                    timing = _turn_timing(turn, _db_now(conn) if _timed(turn.clock) else now())
                    values.update(deadline=None if scores is not None else timing.deadline,
                                  turn_started_at=timing.turn_started_at, to_move=turn.next_seat)
                moved = conn.execute(
                    update(games).where(games.c.id == game_id,
                                        games.c.version == expected_version,
                                        status_is("running"))
                    .values(**values)).rowcount
                if moved != 1:
                    raise StaleVersion(game_id)
                conn.execute(insert(actions).values(
                    game_id=game_id, seq=record.seq, seat=seat, action=action,
                    action_id=action_id, undone=False, created_at=record.created_at,
                    effects=effects, stand_in=stand_in))
                if timing is not None:
                    for s, reserve in timing.reserves.items():
                        conn.execute(update(seats).where(seats.c.game_id == game_id,
                                                         seats.c.seat == s)
                                     .values(reserve=reserve))
                if snapshot is not None:
                    _insert_snapshot(conn, game_id, Snapshot(
                        seq=record.seq, actions=snapshot[0], state=snapshot[1]))
                if scores is not None:  # the game ends: rated in the write that ends it
                    ratings.game_finished(conn, game_id, effects, record.created_at)
                self._notify(conn, game_id, record.seq)
        except IntegrityError as exc:
            raise self.refused(game_id, action_id) from exc
        return record, timing

    def plan_append(self, game_id: str, expected_version: int, seat: int,
                    action: dict[str, Any], action_id: str, effects: list[Any] | None,
                    scores: list[int] | None, snapshot: tuple[int, dict[str, Any]] | None,
                    turn: TurnStart | None, stand_in: StandIn | None) -> QuickAppend | None:
        """`append_turn` with these arguments as one statement in its own transaction, for
        movewrite.py to run on the event loop: the versioned update of the game, the log row
        and the notification, in one round trip instead of five (most of a move's database
        cost); a round's last move stores its snapshot in the same statement. None if the
        write does not fit one: not Postgres, a reserve to store, a deadline by the
        database's clock, or the game's end, rated in its write (`append_turn` writes those)."""
        if not self.postgres or scores is not None or (turn is not None and _timed(turn.clock)):
            return None
        record, values = _row_and_game(expected_version, seat, action, action_id, effects,
                                       scores, stand_in)
        timing = None
        if turn is not None:
            timing = _turn_timing(turn, now())
            if timing.reserves:
                return None
            values.update(deadline=None if scores is not None else timing.deadline,
                          turn_started_at=timing.turn_started_at, to_move=turn.next_seat)
        shape = (tuple(values), snapshot is not None)
        sql, quiet = _APPEND_SQL.get(shape) or (None, None)
        if sql is None or quiet is None:
            sql, quiet = _APPEND_SQL[shape] = (_append_sql(*shape), _append_sql(*shape, False))
        params = {**{f"v_{c}": (jsontext.dumps(v) if c == "scores" else v)
                     for c, v in values.items()},
                  "id": game_id, "expected": expected_version, "seq": record.seq,
                  "seat": record.seat, "action": record.action_text,
                  "action_id": record.action_id, "at": record.created_at,
                  "effects": record.effects, "stand_in": record.stand_in,
                  "channel": channel(game_id),
                  "payload": Notice.moved(game_id, self.instance, record, values,
                                          None if snapshot is None else snapshot[0])}
        if snapshot is not None:
            params.update(snap_actions=snapshot[0], snap_state=jsontext.dumps(snapshot[1]))
        return QuickAppend(sql, params, record, timing, quiet)

    def refused(self, game_id: str, action_id: str) -> DuplicateActionId | StaleVersion:
        """Why a write of `action_id` broke a unique constraint: that id is in the log
        already, or another write took the version first."""
        if self.find_action(game_id, action_id) is not None:
            return DuplicateActionId(action_id)
        return StaleVersion(game_id)

    def undo_actions(self, game_id: str, expected_version: int, seqs: list[int]) -> int:
        """Mark the given action rows undone and move the version on; returns the version."""
        with self._tx() as conn:
            moved = conn.execute(
                update(games).where(games.c.id == game_id, games.c.version == expected_version,
                                    status_is("running"))
                .values(version=expected_version + 1, updated_at=now())).rowcount
            if moved != 1:
                raise StaleVersion(game_id)
            marked = conn.execute(
                update(actions).where(actions.c.game_id == game_id, actions.c.seq.in_(seqs),
                                      actions.c.undone.is_(False))
                .values(undone=True, undone_at=expected_version + 1)).rowcount
            if marked != len(seqs):
                raise StaleVersion(game_id)  # rolls the whole transaction back
            self._notify(conn, game_id, expected_version + 1)
        return expected_version + 1

    def fill_log(self, game_id: str, effects: Sequence[tuple[int, list[Any]]],
                 kept: Sequence[Snapshot]) -> None:
        """Give a game stored before migration 0003 what its log lacks: the effects of the
        rows that have none (`effects`: seq, public events) and the snapshots (`kept`). Done
        once: another instance that filled it first wins, and nothing else is touched."""
        try:
            with self._tx() as conn:
                for seq, events in effects:
                    conn.execute(update(actions).where(
                        actions.c.game_id == game_id, actions.c.seq == seq,
                        actions.c.effects.is_(None)).values(effects=events))
                have = set(conn.execute(select(snapshots.c.seq).where(
                    snapshots.c.game_id == game_id)).scalars())
                for snapshot in kept:
                    if snapshot.seq not in have:
                        _insert_snapshot(conn, game_id, snapshot)
        except IntegrityError:
            pass  # filled meanwhile by another instance

    # -- snapshots -----------------------------------------------------------------------------
    def load_snapshot(self, game_id: str, actions_at_most: int | None = None) -> Snapshot | None:
        """The latest snapshot (with at most `actions_at_most` actions), or None."""
        with self._tx() as conn:
            query = (select(snapshots).where(snapshots.c.game_id == game_id)
                     .order_by(snapshots.c.seq.desc()).limit(1))
            if actions_at_most is not None:
                query = query.where(snapshots.c.actions <= actions_at_most)
            row = conn.execute(query).first()
        return None if row is None else Snapshot(seq=row.seq, actions=row.actions,
                                                 state=row.state)

    def snapshot_marks(self, game_id: str) -> list[int]:
        """How many actions each snapshot of the game includes, in order."""
        with self._tx() as conn:
            return list(conn.execute(
                select(snapshots.c.actions).where(snapshots.c.game_id == game_id)
                .order_by(snapshots.c.seq)).scalars())


def _row_and_game(expected_version: int, seat: int, action: dict[str, Any], action_id: str,
                  effects: list[Any] | None, scores: list[int] | None,
                  stand_in: StandIn | None) -> tuple[ActionRecord, dict[str, Any]]:
    """A move's log row, and the game's columns it sets (without the turn's times)."""
    record = ActionRecord(seq=expected_version + 1, seat=seat,
                          action_text=jsontext.dumps(action),
                          action_id=action_id, created_at=now(), effects=_text(effects),
                          stand_in=stand_in)
    values: dict[str, Any] = {"version": record.seq, "updated_at": record.created_at}
    if scores is not None:
        values.update(status="finished", scores=scores, ranks=ranks_of(effects, len(scores)),
                      finished_at=record.created_at, deadline=None)
    return record, values


def ranks_of(effects: list[Any] | None, players: int) -> list[int] | None:
    """The places by seat of a move's `game_end` event (the engine's ranking), else None:
    `games.ranks` of the move that ends a game, or of an imported game's last move."""
    for event in effects or ():
        if event.get("type") == "game_end":
            ranks = [0] * players
            for ranked in event["ranking"]:
                ranks[int(ranked["seat"])] = int(ranked["rank"])
            return ranks
    return None


# by the game columns set and snapshot: the statement with its notification, and without
_APPEND_SQL: dict[tuple[tuple[str, ...], bool], tuple[str, str]] = {}


def _append_sql(columns: tuple[str, ...], snapshot: bool, notify: bool = True) -> str:
    """The one statement of `Storage.plan_append` for a move that sets `columns` of its
    game, and with `snapshot` stores one (its data-modifying parts always run to completion,
    in the statement's transaction, and only if the game was at the expected version; it
    returns one row then, none otherwise); without `notify`, it sends no notification."""
    cast = {"scores": "::json"}
    sets = ", ".join(f"{c} = %(v_{c})s{cast.get(c, '')}" for c in columns)
    snap = ("kept AS (INSERT INTO snapshots (game_id, seq, actions, state, created_at) "
            "SELECT id, %(seq)s, %(snap_actions)s, %(snap_state)s::jsonb, %(at)s FROM moved), "
            if snapshot else "")
    return (f"WITH moved AS (UPDATE games SET {sets} WHERE id = %(id)s AND "
            "version = %(expected)s AND status = 'running' RETURNING id), "
            f"{snap}"
            "added AS (INSERT INTO actions (game_id, seq, seat, action, action_id, undone, "
            "created_at, effects, stand_in) SELECT id, %(seq)s, %(seat)s, %(action)s::json, "
            "%(action_id)s, false, %(at)s, %(effects)s::jsonb, %(stand_in)s FROM moved "
            "RETURNING game_id) SELECT "
            + ("pg_notify(%(channel)s, %(payload)s)" if notify else "1") + " FROM added")


def _insert_snapshot(conn: Connection, game_id: str, snapshot: Snapshot) -> None:
    conn.execute(insert(snapshots).values(
        game_id=game_id, seq=snapshot.seq, actions=snapshot.actions, state=snapshot.state,
        created_at=now()))
