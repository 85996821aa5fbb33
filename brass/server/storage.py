"""Storage: the games' tables behind one interface (SQLAlchemy 2 Core; Postgres or SQLite).

`Storage` is this module's writes of games, seats, seat changes and analyses, with its
parts: movelog.py (the action log and its snapshots: the versioned write, undo, catch-up
reads), chatlog.py (chat) and quicklobby.py (a create and a join in one round trip). The state
of record of a game is its setup, seed and append-only action log; everything else is
derived (docs/SERVER.md, "The path of a move").

Every method is synchronous (one short transaction each); the game service calls them in a
worker thread so the event loop never waits on the database.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import (
    and_,
    bindparam,
    delete,
    insert,
    or_,
    select,
    true,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from brass.engine import Game

from .chatlog import ChatLog
from .clocks import Clock, turn_deadline
from .leases import Leases, _needs_work
from .movelog import MoveLog, _insert_snapshot
from .quicklobby import QuickLobby
from .records import (
    ActionRecord,
    BrowserSeated,
    Changes,
    Claimed,
    DuplicateActionId,
    GameRecord,
    ListQuery,
    QuickAppend,
    SeatChange,
    SeatRecord,
    Snapshot,
    StaleVersion,
    Timing,
    TurnStart,
    _action_record,
    _game_record,
    _seat_change,
    now,
)
from .storebase import make_engine
from .tables import (
    actions,
    analyses,
    chat,
    games,
    leases,
    metadata,
    seat_changes,
    seats,
    snapshots,
    status_is,
    status_not,
)
from .timing import _db_now, _timed, _turn_timing
from .vocab import CalledOffBy, SeatChangeKind

__all__ = [  # what other modules import from here (the records and tables are re-exported)
    "ActionRecord", "BrowserSeated", "Changes", "Claimed", "DuplicateActionId", "GameRecord",
    "Leases", "ListQuery", "QuickAppend", "SeatChange", "SeatRecord", "Snapshot",
    "StaleVersion", "Storage", "Timing", "TurnStart", "actions", "analyses", "chat", "games",
    "leases", "make_engine", "metadata", "now", "seat_changes", "seats", "snapshots",
]


# a join's statements, built once (a statement built per call, and its cache key, cost more
# Python than running it)
_LOCK_WAITING = (update(games).where(games.c.id == bindparam("g"), status_is("waiting"))
                 .values(updated_at=bindparam("at")).returning(*games.c))
_SEATS_OF = select(seats).where(seats.c.game_id == bindparam("g"))
_TAKE_SEAT = (update(seats).where(seats.c.game_id == bindparam("g"),
                                  seats.c.seat == bindparam("s"))
              .values(name=bindparam("name"), token_hash=bindparam("token"),
                      bot=bindparam("bot"), joined_at=bindparam("at"),
                      browser_hash=bindparam("browser"), bot_level=bindparam("level"),
                      player_id=bindparam("player")).returning(*seats.c))


class Storage(MoveLog, ChatLog, QuickLobby):
    """Games, seats and action logs in one SQL database. On Postgres every write notifies
    the game's channel (`notice.channel`) in its own transaction (delivered at commit, in
    commit order), so that the other instances catch up (fanout.py); `instance` tells them
    who wrote."""


    # -- games and seats -----------------------------------------------------------------------
    def create_game(self, record: GameRecord) -> None:
        with self._tx() as conn:
            self.insert_game(conn, record)

    @staticmethod
    def insert_game(conn: Connection, record: GameRecord) -> None:
        """A new game and its seats, in the caller's transaction (rematch.py's)."""
        conn.execute(insert(games).values(
            id=record.id, name=record.name, players=record.players, status=record.status,
            seed=record.seed, setup=record.setup, version=record.version,
            engine_version=record.engine_version, host_token_hash=record.host_token_hash,
            created_at=record.created_at, updated_at=record.updated_at,
            listed=record.listed, settings=record.settings, invite_hash=record.invite_hash,
            host_player_id=record.host_player_id))
        conn.execute(insert(seats), [
            {"game_id": record.id, "seat": s.seat, "name": s.name, "token_hash": s.token_hash,
             "bot": s.bot, "reserve": s.reserve, "bot_level": s.bot_level} for s in record.seats])

    def save_analysis(self, game_id: str, moves: Sequence[Mapping[str, Any]]) -> None:
        """Store a finished game's analysis once (a second one for the game is ignored)."""
        try:
            with self._tx() as conn:
                conn.execute(insert(analyses).values(game_id=game_id, moves=list(moves),
                                                     created_at=now()))
        except IntegrityError:
            pass  # computed twice (two instances): the first one stays

    def load_analysis(self, game_id: str) -> list[dict[str, Any]] | None:
        with self._tx() as conn:
            row = conn.execute(select(analyses.c.moves).where(
                analyses.c.game_id == game_id)).first()
        return None if row is None else list(row.moves)

    def load_game(self, game_id: str) -> GameRecord | None:
        with self._tx() as conn:
            return self._record(conn, game_id)

    @staticmethod
    def _record(conn: Connection, game_id: str) -> GameRecord | None:
        row = conn.execute(select(games).where(games.c.id == game_id)).first()
        if row is None:
            return None
        seat_rows = conn.execute(select(seats).where(seats.c.game_id == game_id)).all()
        return _game_record(row, list(seat_rows))

    def changes(self, game_id: str, since: int) -> Changes | None:
        """What an instance holding the game at version `since` needs to catch up: the game
        and its seats now, the log rows made after `since` (undone or not) and those undone
        after it, and the snapshot marks. None if the game is gone."""
        with self._tx() as conn:
            record = self._record(conn, game_id)
            if record is None:
                return None
            if record.version == since:
                return Changes(record=record, rows=[], marks=None)
            # each statement may see later commits (read committed): everything is cut at
            # the version read first, so that the rows agree with the record
            at = record.version
            rows = [_action_record(r) for r in conn.execute(
                select(actions).where(actions.c.game_id == game_id, actions.c.seq <= at,
                                      or_(actions.c.seq > since, and_(
                                          actions.c.undone_at > since,
                                          actions.c.undone_at <= at)))
                .order_by(actions.c.seq))]
            rows = [r if r.undone_at is None or r.undone_at <= at else
                    dataclasses.replace(r, undone=False, undone_at=None) for r in rows]
            marks = list(conn.execute(
                select(snapshots.c.actions).where(snapshots.c.game_id == game_id,
                                                  snapshots.c.seq <= at)
                .order_by(snapshots.c.seq)).scalars())
            changed = [_seat_change(r) for r in conn.execute(
                select(seat_changes).where(seat_changes.c.game_id == game_id,
                                           seat_changes.c.version > since,
                                           seat_changes.c.version <= at)
                .order_by(seat_changes.c.version))]
        return Changes(record=record, rows=rows, marks=marks, seat_changes=changed)

    def needing_work(self) -> list[str]:
        """The ids of the games that have background work (steward.py)."""
        with self._tx() as conn:
            return list(conn.execute(select(games.c.id).where(_needs_work())).scalars())

    def list_games(self, query: ListQuery) -> list[GameRecord]:
        """A page of listed games, filtered and ordered in SQL (indexes `ix_games_*`), and
        their seats (by primary key: a join would repeat every game row once per seat)."""
        c = games.c
        sql = select(games).where(c.listed == true()).limit(query.limit)  # "= true": indexed
        if query.status is not None:
            sql = sql.where(c.status == query.status)
        elif query.changed_after is None:  # a page shows open games; changes tell of closed ones
            sql = sql.where(status_not("expired", "cancelled"))
        if query.finished_since is not None:
            sql = sql.where(or_(status_not("finished"), c.finished_at >= query.finished_since))
        if query.changed_after is not None:
            sql = sql.where(c.updated_at > query.changed_after)
        elif query.before is not None:
            created, game_id = query.before
            sql = sql.where(or_(c.created_at < created,
                                and_(c.created_at == created, c.id < game_id)))
        if query.changed_after is not None:
            sql = sql.order_by(c.updated_at, c.id)  # oldest change first
        else:
            sql = sql.order_by(c.created_at.desc(), c.id.desc())  # newest first
        with self._tx() as conn:
            return self._with_seats(conn, conn.execute(sql).all())

    @staticmethod
    def _with_seats(conn: Connection, rows: Sequence[Any]) -> list[GameRecord]:
        by_game: dict[str, list[Any]] = {r.id: [] for r in rows}
        if by_game:
            for s in conn.execute(select(seats).where(seats.c.game_id.in_(list(by_game)))):
                by_game[s.game_id].append(s)
        return [_game_record(r, by_game[r.id]) for r in rows]

    def set_listed(self, game_id: str, listed: bool) -> None:
        with self._tx() as conn:
            conn.execute(update(games).where(games.c.id == game_id)
                         .values(listed=listed, updated_at=now()))
            self._notify(conn, game_id, None)

    def expire_waiting(self, idle_since: dt.datetime) -> list[str]:
        """Waiting games with no activity since `idle_since` become `expired`; their ids."""
        with self._tx() as conn:
            ids = [r.id for r in conn.execute(select(games.c.id).where(
                status_is("waiting"), games.c.updated_at < idle_since))]
            if ids:
                conn.execute(update(games).where(games.c.id.in_(ids),
                                                 status_is("waiting"))
                             .values(status="expired", updated_at=now()))
                for game_id in ids:
                    self._notify(conn, game_id, None)
        return ids

    def renew_token(self, game_id: str, seat: int | None, old_hash: str, new_hash: str) -> bool:
        """Replace a seat's token hash (`seat` None: the host's), only if it is still `old_hash`:
        of two renewals racing with the same link, one wins."""
        with self._tx() as conn:
            if seat is None:
                sql = update(games).where(games.c.id == game_id,
                                          games.c.host_token_hash == old_hash
                                          ).values(host_token_hash=new_hash)
            else:
                sql = update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat,
                                          seats.c.token_hash == old_hash
                                          ).values(token_hash=new_hash)
            done = conn.execute(sql).rowcount == 1
            if done:
                self._notify(conn, game_id, None)
            return done

    def free_seat(self, game_id: str, seat: int) -> bool:
        """Empty a taken seat of a waiting game (the host removed its player or bot)."""
        try:
            with self._tx() as conn:
                moved = conn.execute(
                    update(games).where(games.c.id == game_id, status_is("waiting"))
                    .values(updated_at=now())).rowcount
                freed = conn.execute(
                    update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat)
                    .values(name=None, token_hash=None, bot=False, joined_at=None,
                            browser_hash=None, bot_level=None, player_id=None)).rowcount
                if moved != 1 or freed != 1:
                    raise StaleVersion(game_id)  # rolls the transaction back
                self._notify(conn, game_id, None)
        except StaleVersion:
            return False
        return True

    def cancel_game(self, game_id: str, by: CalledOffBy = "host") -> bool:
        """The game is called off: by its host while it waits, by the admin while it waits or
        runs (the version stays, so a move in flight is refused: moves need `running`).
        False if it is no longer so."""
        open_to = ("waiting",) if by == "host" else ("waiting", "running")
        return self._changed_game(game_id, update(games).where(
            games.c.id == game_id, status_is(*open_to)).values(
            status="cancelled", called_off_by=by, deadline=None, updated_at=now()))

    def delete_game(self, game_id: str) -> bool:
        """The game's rows are gone (its seats, log, chat... by their foreign keys' cascade);
        only a game that no longer waits or runs. False if it is not there, or waits or runs."""
        return self._changed_game(game_id, delete(games).where(
            games.c.id == game_id, status_is("finished", "expired", "cancelled")))

    def _changed_game(self, game_id: str, statement: Any) -> bool:
        """Run `statement` on the game's row; if it changed it, the other instances hear."""
        with self._tx() as conn:
            done: bool = conn.execute(statement).rowcount == 1
            if done:
                self._notify(conn, game_id, None)
            return done

    def claim_seat(self, game_id: str, seat: int | None, name: str | None,
                   token_hash: str | None, bot: bool,
                   first_state: Callable[[], Game], browser_hash: str | None = None,
                   one_per_browser: bool = False, bot_level: str | None = None,
                   player_id: str | None = None) -> Claimed | None:
        """Take a free seat of a waiting game (`seat` None: the lowest free one); when it was
        the last free seat, the game starts in the same transaction (`first_state()` is its
        first state, snapshot 0, and its first turn gets its deadline). The database decides
        both: the game row is locked first, so of two instances claiming the last two seats,
        the second sees the first's seat and starts the game. With `one_per_browser`, a
        browser that holds a seat of the game cannot take another (`BrowserSeated`).
        `player_id`: the player whose device joins (seats.player_id). None if the seat was
        taken or the game is no longer waiting."""
        try:
            with self._tx() as conn:
                claimed = self._claim(conn, game_id, seat, name, token_hash, bot, first_state,
                                      browser_hash, one_per_browser, bot_level, player_id)
        except StaleVersion:
            return None
        return claimed

    def _claim(self, conn: Connection, game_id: str, seat: int | None, name: str | None,
               token_hash: str | None, bot: bool, first_state: Callable[[], Game],
               browser_hash: str | None, one_per_browser: bool, bot_level: str | None,
               player_id: str | None) -> Claimed:
        # the row lock orders every claim of this game; the rows as they are now come back
        # with the writes (RETURNING), so the record is built without reading them again
        game_row = conn.execute(_LOCK_WAITING, {"g": game_id, "at": now()}).first()
        if game_row is None:
            raise StaleVersion(game_id)
        seat_rows = {r.seat: r for r in conn.execute(_SEATS_OF, {"g": game_id})}
        if one_per_browser and browser_hash is not None and any(
                r.browser_hash == browser_hash for r in seat_rows.values()):
            raise BrowserSeated(game_id)
        free = sorted(s for s, r in seat_rows.items() if r.token_hash is None and not r.bot)
        if seat is None and free:
            seat = free[0]
        if seat is None or seat not in free:
            raise StaleVersion(game_id)  # rolls the transaction back
        seat_rows[seat] = conn.execute(_TAKE_SEAT, {
            "g": game_id, "s": seat, "name": name or f"Bot {seat + 1}", "token": token_hash,
            "bot": bot, "at": now(), "browser": browser_hash, "level": bot_level,
            "player": player_id}).one()
        record = _game_record(game_row, list(seat_rows.values()))  # this seat taken
        started = len(free) == 1
        if started:
            first = first_state()
            values: dict[str, Any] = {"status": "running"}
            mover = first.current_seat
            if mover is not None:
                turn = TurnStart(record.clock, None, None, None, mover,
                                 record.seats[mover].reserve, record.seats[mover].played_by_bot)
                timing = _turn_timing(turn, _db_now(conn) if _timed(turn.clock) else now())
                values.update(deadline=timing.deadline, turn_started_at=timing.turn_started_at,
                              to_move=mover)
            game_row = conn.execute(update(games).where(games.c.id == game_id)
                                    .values(**values).returning(*games.c)).one()
            record = _game_record(game_row, list(seat_rows.values()))
            _insert_snapshot(conn, game_id, Snapshot(seq=0, actions=0, state=first.to_json()))
        self._notify(conn, game_id, None)
        return Claimed(seat=seat, record=record, started=started)

    def renew_invite(self, game_id: str, new_hash: str) -> None:
        """A new invite secret for the game (the old invite link stops working)."""
        with self._tx() as conn:
            conn.execute(update(games).where(games.c.id == game_id)
                         .values(invite_hash=new_hash, updated_at=now()))
            self._notify(conn, game_id, None)

    def db_now(self) -> dt.datetime:
        """The database's clock (the one every deadline is compared with)."""
        with self._tx() as conn:
            return _db_now(conn)

    def change_seat(self, game_id: str, expected_version: int, seat: int,
                    change: SeatChangeKind, clock: Clock, mover: bool, reserve: float | None,
                    require: str | None = None, grace: float = 0.0) -> Timing:
        """The versioned write of a change of who plays `seat`: `change` timeout, resigned or
        handover (a bot plays for it from now), or returned (its player plays again). The
        database refuses it (`StaleVersion`) if the version moved, and, by `require`,
        unless the deadline passed ("deadline") or the seat to move has been idle for the
        clock's `handoff_after` ("idle"), both by the database's clock (the deadline pushed
        back `grace` seconds by the player's vacations, clockwatch.py). `mover`: the seat is
        to move (its turn's deadline is cleared, or set anew when its player returns);
        `reserve`: the seat's live reserve from now on."""
        with self._tx() as conn:
            at = _db_now(conn)
            c = games.c
            sql = update(games).where(c.id == game_id, c.version == expected_version,
                                      status_is("running"))
            if require == "deadline":
                sql = sql.where(c.deadline.is_not(None),
                                c.deadline <= at - dt.timedelta(seconds=grace))
            elif require == "idle":
                sql = sql.where(c.turn_started_at.is_not(None), c.turn_started_at <= at
                                - dt.timedelta(seconds=clock.handoff_after))
            values: dict[str, Any] = {"version": expected_version + 1, "updated_at": at}
            timing = Timing(None, None, {seat: reserve})
            if mover:
                returned = change == "returned"
                deadline = turn_deadline(clock, reserve, not returned, at)
                values["deadline"] = deadline
                if returned:
                    values["turn_started_at"] = at
                timing = Timing(deadline, at if returned else None, {seat: reserve})
            if conn.execute(sql.values(**values)).rowcount != 1:
                raise StaleVersion(game_id)
            conn.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat)
                         .values(stand_in=None if change == "returned" else change,
                                 reserve=reserve))
            conn.execute(insert(seat_changes).values(
                game_id=game_id, version=expected_version + 1, seat=seat, change=change,
                created_at=at))
            self._notify(conn, game_id, expected_version + 1)
        return timing

    def load_seat_changes(self, game_id: str) -> list[SeatChange]:
        with self._tx() as conn:
            return [_seat_change(r) for r in conn.execute(select(seat_changes).where(
                        seat_changes.c.game_id == game_id).order_by(seat_changes.c.version))]

    # -- import (transfer.py) ------------------------------------------------------------------
    def import_finished(self, game: Mapping[str, Any], rows: Mapping[str, Sequence[Any]],
                        new_id: Callable[[], str] | None) -> str | None:
        """Store a finished game read from a record in one transaction: `game` the games
        row, `rows` by table (seats, actions, snapshots, seat_changes) without their game id.
        Its id; a game of that id already stored gets `new_id()` (None: nothing is stored,
        None is returned)."""
        tables = {"seats": seats, "actions": actions, "snapshots": snapshots,
                  "seat_changes": seat_changes}
        with self._tx() as conn:
            game_id: str = game["id"]
            if conn.execute(select(games.c.id).where(games.c.id == game_id)).first():
                if new_id is None:
                    return None
                game_id = new_id()
            conn.execute(insert(games).values({**game, "id": game_id}))
            for name, found in rows.items():
                if found:
                    conn.execute(insert(tables[name]), [{**r, "game_id": game_id}
                                                       for r in found])
        return game_id

