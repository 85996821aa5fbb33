"""The per-game core: one owner for each game's transitions on this instance (as lichess's
`RoundAsyncActor`). It loads a game into memory (`Runtime`), holds its lock, catches it up
with what other instances wrote, and publishes each version after its commit. The features
(lobby.py, play.py, seats.py, replays.py) sit above it and call only down; a local commit and
a catch-up move the game in memory through the same `Runtime` transitions (`played`,
`took_back`, `seat_changed`).

Several instances may serve one Postgres database; the database decides every outcome. Each
change is a conditional write: of two instances racing, one lands, the other is refused and
catches up. The `Runtime` is a cache: when another instance wrote (a notification through
`fanout.py`, a refused write, a client naming a newer version) it catches up from the log's
new rows, never a full replay. Every change of a game on this instance happens under that
game's `asyncio.Lock`, and is published to subscribers only after its commit. Loading a game
starts from its latest snapshot and replays at most one round, in a worker process."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from brass.engine import ENGINE_VERSION, Game

from . import jsontext, logs, metrics, outage
from .corepeers import Deaf, Hearing, Nobody, Tending
from .errors import ApiError
from .notice import Carried
from .notices import Notices
from .publish import Publisher
from .records import GameRecord
from .runtime import RECENT, Runtime, StepKind, Subscriber, advance, rebuild, restore
from .storage import ActionRecord, Changes, Storage
from .workers import Workers

log = logging.getLogger("brass.server")
T = TypeVar("T")
FOLLOW_HERE = 8  # another instance's new log rows followed on the event loop, at most
_RECORD_FIELDS = frozenset(f.name for f in dataclasses.fields(GameRecord))


class GameCore:
    def __init__(self, storage: Storage, workers: Workers) -> None:
        self.storage = storage
        self.workers = workers
        self.games: dict[str, Runtime] = {}
        self.publisher = Publisher()
        self.tending: Tending = Nobody()  # the steward, once it is made
        self.hearing: Hearing = Deaf()  # the fan-out, once it is made (Postgres)
        # the notices hub (notices.py): called after a commit of this instance's only, so
        # each notice is sent once across instances; the app gives it its channels (push)
        self.reach = Notices()
        self._loading = asyncio.Lock()
        # the game being loaded, and whether another instance changed it meanwhile
        self._load_heard: tuple[str, bool] | None = None
        self._pool = ThreadPoolExecutor(max_workers=16, thread_name_prefix="brass-db")
        self._following: dict[str, asyncio.Task[None]] = {}  # catch-ups after notifications
        self._carried: dict[str, dict[int, Carried]] = {}  # moves heard, to apply: by version
        self._closing = False

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` (a blocking database call) in the database threads; `unavailable`
        if the database cannot be reached (outage.py)."""
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)
        except outage.ERRORS as exc:
            raise outage.unavailable(exc, getattr(fn, "__name__", "database")) from None

    async def stop(self) -> None:
        """No more catch-ups or sends (the database threads stay until `close`)."""
        self._closing = True
        tasks = list(self._following.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.publisher.close()

    def close(self) -> None:
        self._pool.shutdown(wait=True)

    # -- loading -------------------------------------------------------------------------------
    async def runtime(self, game_id: str) -> Runtime:
        """The game, caught up first if another instance wrote it since."""
        rt = self.games.get(game_id)
        if rt is not None:
            if rt.behind:
                await self.catch_up(rt)
                if self.games.get(game_id) is not rt:  # deleted meanwhile (`caught_up`)
                    raise ApiError("not_found", f"No game {game_id!r}")
            return rt
        async with self._loading:
            rt = self.games.get(game_id)
            if rt is None:
                self._load_heard = (game_id, False)
                try:
                    rt = await self._load(game_id)
                finally:
                    heard, self._load_heard = self._load_heard, None
                self.hold(rt)
                if heard is not None and heard[1]:  # the load may have read the older version
                    rt.behind = True
                    self._follow(rt)
        return rt

    def hold(self, rt: Runtime) -> None:
        """Keep the game in memory, and hear of other instances' changes of it from now."""
        self.games[rt.id] = rt
        self.hearing.hear(rt.id)

    async def hold_new(self, rt: Runtime) -> None:
        """A game this instance has just made, kept in memory; returns once its changes are
        heard from other instances (before anyone could make one: its id is not out yet)."""
        self.games[rt.id] = rt
        await self.hearing.hear_new(rt.id)

    def listening(self, game_ids: list[str]) -> None:
        """The fan-out listens to these games' channels now: a change made before it did
        was not heard, so each is checked against the database (one with clients here or
        owned here at once, any other at its next use)."""
        for game_id in game_ids:
            rt = self.games.get(game_id)
            if rt is not None:
                rt.behind = True
                if rt.subscribers or self.tending.owns(game_id):
                    self._follow(rt)

    async def _load(self, game_id: str) -> Runtime:
        """The game from the database: its log, and its current turn replayed (in a worker)
        from its latest snapshot. A finished game is its final snapshot, so it is shown even
        if this server's engine no longer replays its log."""
        record = await self.db(self.storage.load_game, game_id)
        if record is None:
            raise ApiError("not_found", f"No game {game_id!r}")
        # another instance may write between the reads: everything is cut at the version of
        # the record read first (a later catch-up brings the rest)
        at = record.version
        everything = await self.db(self.storage.actions_as_of, game_id, at)
        rt = Runtime(record=record)
        rt.hold(everything)
        rt.seat_changes = [c for c in await self.db(self.storage.load_seat_changes, game_id)
                           if c.version <= at]
        if record.status == "waiting":
            return rt
        if rt.older_engine:
            log.warning("game %s was played with engine %s; this server has %s",
                        game_id, record.engine_version, ENGINE_VERSION)
        live = [a for a in everything if not a.undone]
        rt.count, rt.recent = len(live), live[-RECENT:]
        rt.undone = (record.version, [a.seq for a in everything
                                      if a.undone_at == record.version])
        snapshot = await self.db(self.storage.load_snapshot, game_id, rt.count)
        rt.snapshots = [m for m in await self.db(self.storage.snapshot_marks, game_id)
                        if m <= rt.count]
        start = 0 if snapshot is None else snapshot.actions
        try:
            if snapshot is None and not rt.older_engine and any(
                    a.effects is None for a in live):
                rt.turn = await self._restore(rt, live)
            else:
                rt.turn = await self.workers.compute(
                    rebuild, record.players, record.seed, record.setup,
                    None if snapshot is None else snapshot.state,
                    [a.action for a in live[start:]])
        except Exception as exc:
            log.exception("game %s does not replay (engine %s, stored with %s)",
                          game_id, ENGINE_VERSION, record.engine_version)
            raise ApiError("game_not_running", f"Game {game_id} cannot be replayed by "
                           f"this server's engine ({ENGINE_VERSION})") from exc
        return rt

    async def _restore(self, rt: Runtime, live: list[ActionRecord]) -> list[Game]:
        """A game stored before the log kept effects and snapshots gets them, once, from the
        replay that loads it (in a worker): its log then shows every move's price and
        sources, and its later loads and replay frames replay at most a round. The states of
        its current turn."""
        record = rt.record
        turn, effects, kept = await self.workers.compute(
            restore, record.players, record.seed, record.setup,
            [(a.seq, a.action) for a in live])
        missing = [(a.seq, e) for a, e in zip(live, effects, strict=True) if a.effects is None]
        await self.db(self.storage.fill_log, rt.id, missing, kept)
        rt.snapshots = [s.actions for s in kept]
        by_seq = {a.seq: e for a, e in zip(live, effects, strict=True)}
        rt.recent = [dataclasses.replace(a, effects=jsontext.dumps(by_seq[a.seq]))
                     for a in rt.recent]
        log.info("game %s: its log's effects and snapshots were filled in", rt.id)
        return turn

    # -- publishing ----------------------------------------------------------------------------
    def publish(self, rt: Runtime) -> asyncio.Task[None] | None:
        """Tell every client of the game here its new version (publish.py)."""
        return self.publisher.publish(rt)

    async def subscribe(self, rt: Runtime, sub: Subscriber) -> None:
        await self.publisher.subscribe(rt, sub)

    def unsubscribe(self, rt: Runtime, sub: Subscriber) -> None:
        rt.subscribers.discard(sub)
        self.evict_if_done(rt)

    def evict_if_done(self, rt: Runtime) -> None:
        """A finished game nobody watches leaves memory (it is reloaded from its log when
        asked for), so a long-running server does not keep every game it ever hosted."""
        if (rt.record.status == "finished" and not rt.subscribers and not rt.lock.locked()
                and self.games.get(rt.id) is rt):
            del self.games[rt.id]
            self.hearing.forget(rt.id)
            self._carried.pop(rt.id, None)

    def forget(self, game_id: str) -> None:
        """A deleted game leaves memory (its clients here saw it end first)."""
        if self.games.pop(game_id, None) is not None:
            self.hearing.forget(game_id)
        self._carried.pop(game_id, None)

    # -- catching up with other instances ---------------------------------------------------
    async def written(self, rt: Runtime, write: Awaitable[T]) -> T:
        """Await a write; if this task is cancelled meanwhile (a steward that lost the game's
        lease), the write may still commit in its thread: the runtime catches up from the
        database, at once, as the lock is let go. Not at its next use: its clients would
        never hear of a version this instance wrote (the notification of it is its own),
        nor its players (notices.py): the catch-up after a write that did commit tells them
        (`untold`); another instance's write of that version tells its own."""
        task = asyncio.ensure_future(write)
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            rt.behind = True
            self._follow(rt)
            task.add_done_callback(lambda done: self._committed_anyway(rt, done))
            raise
        except ApiError as exc:
            if exc.code == "unavailable":  # it may have committed before the connection broke
                rt.behind = True
            raise

    def _committed_anyway(self, rt: Runtime, write: asyncio.Future[Any]) -> None:
        """A write whose task was cancelled returned: a catch-up publishes and tells it."""
        if not write.cancelled() and write.exception() is None:
            rt.behind = rt.untold = True
            self._follow(rt)

    def changed(self, game_id: str, version: int, sender: str,
                carried: Carried | None = None) -> None:
        """Another instance committed a change of `game_id` (its new `version`, -1 if the
        version did not move): a game held here is behind. One with clients here or owned by
        this instance's steward catches up (and publishes) now, any other at its next use.
        A move the notification `carried` is applied without reading the database."""
        if sender == self.storage.instance:
            return
        rt = self.games.get(game_id)
        log.debug("game %s: version %s from %s; held here: %s", game_id, version, sender,
                  None if rt is None else rt.record.version)
        if rt is None and self._load_heard is not None and self._load_heard[0] == game_id:
            self._load_heard = (game_id, True)  # caught up as soon as it is loaded
        if rt is None or 0 <= version <= rt.record.version:
            return
        followed = bool(rt.subscribers) or self.tending.owns(game_id)
        if carried is not None and followed and not rt.behind:
            self._carried.setdefault(game_id, {})[version] = carried
        else:
            rt.behind = True
        if followed:
            self._follow(rt)

    def resync(self) -> None:
        """Notifications may have been lost (the listening connection dropped): every game
        held here is checked against the database."""
        for rt in list(self.games.values()):
            rt.behind = True
            if rt.subscribers or self.tending.owns(rt.id):
                self._follow(rt)

    def _follow(self, rt: Runtime) -> None:
        """One catch-up task per game. A task that has returned is done even before its done
        callback runs (a later turn of the loop): a notification in between must start a new
        one, or the change it announces would wait for the next (a spectator here would miss
        the last version of a game for good)."""
        running = self._following.get(rt.id)
        if self._closing or (running is not None and not running.done()):
            return
        task = asyncio.create_task(self.catch_up(rt), name=f"catch-up-{rt.id}",
                                   context=logs.background())
        self._following[rt.id] = task

        def forget(done: asyncio.Task[None]) -> None:
            if self._following.get(rt.id) is done:
                del self._following[rt.id]

        task.add_done_callback(forget)

    async def catch_up(self, rt: Runtime) -> None:
        while rt.behind or rt.id in self._carried:
            async with rt.lock:
                if not rt.behind and rt.id in self._carried:
                    await self._apply_carried(rt)
                if rt.behind:
                    try:
                        await self.caught_up(rt)
                        if rt.untold:  # our own commit, whose task was cancelled: its notices
                            rt.untold = False
                            if rt.record.status == "finished":
                                self.reach.game_ended(rt)
                            else:
                                self.reach.turn_began(rt)  # the hub tells a turn once
                    except ApiError:  # the database out of reach (logged by outage.py)
                        rt.behind = True
                        raise
                    except Exception:
                        log.exception("cannot catch up game %s", rt.id)
                        rt.behind = True
                        raise

    async def caught_up(self, rt: Runtime) -> None:
        """Bring the runtime (its lock held) to what the database holds: the new log rows
        are played on the current turn's states (in a worker), rows undone meanwhile are taken
        back; a game that started, or a change the held states cannot follow, is reloaded.
        Publishes if anything changed."""
        rt.behind = False  # a notification during the read sets it again
        changes = await self.db(self.storage.changes, rt.id, rt.record.version)
        if changes is None:  # deleted (the admin page, on any instance): gone here too
            self.forget(rt.id)
            return
        if changes.marks is not None:
            metrics.FOLLOWED.labels("read").inc()
        await self._take(rt, changes)

    async def _apply_carried(self, rt: Runtime) -> None:
        """The moves other instances' notifications carried (their lock held), applied in
        version order without reading the database: the same transitions as a catch-up's.
        A version missing (a notification lost, or one too big to carry a move) makes the
        game behind: the caller reads what it lacks from the log."""
        carried = self._carried.pop(rt.id, {})
        for version in sorted(carried):
            if version <= rt.record.version:
                continue  # read from the log meanwhile
            if version != rt.record.version + 1 or rt.game is None:
                rt.behind = True
                return
            move = carried[version]
            # the columns the record holds (the write also sets some it does not: to_move)
            held = {k: v for k, v in move.game.items() if k in _RECORD_FIELDS}
            record = dataclasses.replace(rt.record, version=version,
                                         seats=list(rt.record.seats), **held)
            marks = [*rt.snapshots, *([] if move.snapshot is None else [move.snapshot])]
            metrics.FOLLOWED.labels("carried").inc()
            await self._take(rt, Changes(record=record, rows=[move.row], marks=marks))

    async def _take(self, rt: Runtime, changes: Changes) -> None:
        """Move the runtime to `changes` (from the log, or a carried move) and publish."""
        old = rt.record
        moved = changes.marks is not None or (rt.game is None and changes.record.status in (
            "running", "finished"))
        if not moved or (rt.game is not None and await self._advance(rt, changes)):
            rt.record = changes.record
        else:
            rt.reloaded(await self._load(rt.id))
        log.debug("game %s: caught up from version %s to %s", rt.id, old.version,
                  rt.record.version)
        if dataclasses.replace(rt.record, updated_at=old.updated_at) == old:
            return
        for seat, (was, now_) in enumerate(zip(old.seats, rt.record.seats, strict=False)):
            if was.token_hash != now_.token_hash:  # renewed or removed on another instance
                self.publisher.unseat(rt, seat, "This seat's link changed: open the new link "
                                      "to play")
        self.publish(rt)

    async def _advance(self, rt: Runtime, changes: Changes) -> bool:
        """Play the new rows on the held states through the runtime's transitions, publishing
        each version but the last (the caller publishes that one), so that every client sees
        every version as on the instance that wrote them; False if the rows cannot be
        followed from the held states (the caller reloads the game)."""
        steps = _steps(changes, rt.record.version)
        held = [a.seq for a in rt.recent]
        moves: list[tuple[StepKind, Any]] = []
        for _version, kind, what in steps:
            if kind == "play":
                held.append(what.seq)
                moves.append(("play", what.action))
            elif kind == "seat":  # who plays a seat changed: the states stay as they are
                moves.append(("seat", None))
            else:  # undo reaches only the current turn: its rows are among the held ones
                if held[-len(what):] != what:
                    return False
                del held[-len(what):]
                moves.append(("undo", len(what)))
        try:
            # a move or two (the usual notification) is followed here: carrying one out takes
            # tens of µs, handing the turn's states to a worker and back takes milliseconds
            turns = (advance(rt.turn, moves) if len(moves) <= FOLLOW_HERE
                     else await self.workers.compute(advance, rt.turn, moves))
        except Exception:
            log.warning("game %s: cannot follow its new rows; reloading", rt.id, exc_info=True)
            return False
        final = changes.record
        for (version, kind, what), turn in zip(steps, turns, strict=True):
            rt.record = final if version == final.version else dataclasses.replace(
                final, version=version, status="running", scores=None, ranks=None,
                finished_at=None,
                seats=list(final.seats))
            if kind == "play":
                rt.played(dataclasses.replace(what, undone=False, undone_at=None), turn)
            elif kind == "seat":
                rt.seat_changed(what)
            else:
                rt.took_back(version, what, turn)
            if version != final.version:
                self.publish(rt)
        rt.hold(changes.rows)
        rt.snapshots = changes.marks or rt.snapshots
        return True


def _steps(changes: Changes, since: int) -> list[tuple[int, StepKind, Any]]:
    """What happened after version `since`, in version order: (version, "play", the row),
    (version, "undo", the seqs it took back) or (version, "seat", the seat change)."""
    steps: list[tuple[int, StepKind, Any]] = [(r.seq, "play", r) for r in changes.rows
                                         if r.seq > since]
    undos: dict[int, list[int]] = {}
    for r in changes.rows:
        if r.undone_at is not None and r.undone_at > since:
            undos.setdefault(r.undone_at, []).append(r.seq)
    steps += [(v, "undo", sorted(seqs)) for v, seqs in undos.items()]
    steps += [(c.version, "seat", c) for c in changes.seat_changes if c.version > since]
    steps.sort(key=lambda s: s[0])
    return steps
