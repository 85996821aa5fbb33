"""The game service: load, check, apply through the engine, commit, then publish.

Several instances may serve one Postgres database; the database decides every outcome. Each
change is a conditional write (`Storage.claim_seat`, `append_action`, `undo_actions`: of two
instances racing, one lands, the other is refused and catches up). The in-memory `Runtime` of a
game (the record, the engine states of the current turn, the connected subscribers) is a cache:
when another instance wrote (a notification through `fanout.py`, a refused write, a client
naming a newer version) it catches up from the log's new rows, never a full replay. Every
change of a game on this instance happens under that game's `asyncio.Lock`, and is published
to subscribers only after its commit. Bots and other background work run in `steward.py`, on
the one instance holding the game's lease.

Undo marks the undone rows in the log (`actions.undone`) and steps back to the state before
(the runtime keeps the states of the current turn); it reaches back only within the player's
current turn (the end of a turn draws cards), so never past a round end, where a snapshot of the
state is stored with the action. Loading a game and rebuilding a replay frame start from the
latest snapshot and replay at most one round, in a worker process, never on the event loop.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import dataclasses
import datetime as dt
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from brass.bots import LevelName
from brass.engine import (
    ENGINE_VERSION,
    Action,
    Game,
    IllegalAction,
    MalformedAction,
    Network,
    Sell,
    new_game,
    parse_action,
    play,
    public_events,
)

from . import chat, clocks, jsontext, logs, memory, metrics, outbound
from .analyses import Analyses
from .auth import new_token, token_hash, token_matches
from .clocks import Clock
from .errors import ApiError
from .movewrite import MoveWriter
from .runtime import (
    RECENT,
    Runtime,
    Subscriber,
    advance,
    ends_round,
    rebuild,
    restore,
    same_turn,
    step,
)
from .schemas import ReplayFrame
from .steward import Steward
from .storage import (
    ActionRecord,
    BrowserSeated,
    Changes,
    DuplicateActionId,
    GameRecord,
    ListQuery,
    SeatChange,
    SeatRecord,
    StaleVersion,
    Storage,
    Timing,
    TurnStart,
    now,
)
from .workers import Workers, bot_choice

log = logging.getLogger("brass.server")
T = TypeVar("T")
SNAPSHOT_CACHE = 64  # snapshots kept in memory for replay frames, over all games
FOLLOW_HERE = 8  # another instance's new log rows followed on the event loop, at most


def new_game_id() -> str:
    """72 random bits as URL-safe text, never starting with "-" (a command line would take
    it for an option: `brass export -x...`)."""
    while (game_id := secrets.token_urlsafe(9)).startswith("-"):
        pass
    return game_id


class GameService:
    def __init__(self, storage: Storage, bot_delay: float = 0.5, workers: int = 1,
                 waiting_expiry: float = 0.0, finished_listed: float = 0.0,
                 clock_minimum: float = 30.0,
                 bot_budget: float = 1.0, analysis_budget: float = 0.5,
                 synchronous_commit: bool = True) -> None:
        self.storage = storage
        self.clock_minimum = clock_minimum  # seconds: the shortest turn, reserve or hand-over
        self.bot_delay = bot_delay
        self.bot_budget = bot_budget  # seconds a search bot thinks per move
        self.waiting_expiry = waiting_expiry  # seconds; 0: waiting games never expire
        self.finished_listed = finished_listed  # seconds; 0: finished games stay listed
        self._sweeper: asyncio.Task[None] | None = None
        self._trimmer: asyncio.Task[None] | None = None
        self.games: dict[str, Runtime] = {}
        self._loading = asyncio.Lock()
        self._pool = ThreadPoolExecutor(max_workers=16, thread_name_prefix="brass-db")
        # a move's one-statement write runs on the event loop (Postgres)
        self.writer = (MoveWriter(storage, synchronous=synchronous_commit)
                       if storage.postgres else None)
        self.workers = Workers(workers)
        self.analyses = Analyses(storage, self.workers, self._db, analysis_budget,
                                 self.log_rows)
        self._closing = False
        self._snapshots: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self._sends: set[asyncio.Task[None]] = set()  # states waiting for their legal moves
        self._following: dict[str, asyncio.Task[None]] = {}  # catch-ups after notifications
        self.steward = Steward(self)

    async def _db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    # -- life cycle ----------------------------------------------------------------------------
    async def start(self) -> None:
        """Start the worker processes and the steward (it claims the games with background
        work, rebuilds them from their logs and lets their bots play on)."""
        await self.workers.start()
        await self.steward.start()
        self._trimmer = asyncio.create_task(memory.trim_forever(), name="trim-memory")
        if self.waiting_expiry > 0:
            self._sweeper = asyncio.create_task(self._sweep(), name="expire-waiting")

    async def _sweep(self) -> None:
        """Expire idle waiting games, often enough that none lives a quarter longer."""
        pause = min(60.0, max(0.5, self.waiting_expiry / 4))
        while True:
            try:
                await self.expire_waiting(self.waiting_expiry)
            except Exception:
                log.exception("cannot expire waiting games")
            await asyncio.sleep(pause)

    async def close(self) -> None:
        self._closing = True
        await self.steward.close()
        tasks = [*self._sends, *self._following.values()]
        tasks += [t for t in (self._sweeper, self._trimmer) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.analyses.close()
        if self.writer is not None:
            await self.writer.close()
        self._pool.shutdown(wait=True)
        self.workers.close()

    async def runtime(self, game_id: str) -> Runtime:
        """The game, caught up first if another instance wrote it since."""
        rt = self.games.get(game_id)
        if rt is not None:
            if rt.behind:
                await self.catch_up(rt)
            return rt
        async with self._loading:
            rt = self.games.get(game_id)
            if rt is None:
                rt = await self._load(game_id)
                self.games[game_id] = rt
        return rt

    async def _load(self, game_id: str) -> Runtime:
        """The game from the database: its log, and its current turn replayed (in a worker)
        from its latest snapshot. A finished game is its final snapshot, so it is shown even
        if this server's engine no longer replays its log."""
        record = await self._db(self.storage.load_game, game_id)
        if record is None:
            raise ApiError("not_found", f"No game {game_id!r}")
        # another instance may write between the reads: everything is cut at the version of
        # the record read first (a later catch-up brings the rest)
        at = record.version
        everything = await self._db(self.storage.actions_as_of, game_id, at)
        rt = Runtime(record=record)
        rt.hold(everything)
        rt.seat_changes = [c for c in await self._db(self.storage.load_seat_changes, game_id)
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
        snapshot = await self._db(self.storage.load_snapshot, game_id, rt.count)
        rt.snapshots = [m for m in await self._db(self.storage.snapshot_marks, game_id)
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
        await self._db(self.storage.fill_log, rt.id, missing, kept)
        rt.snapshots = [s.actions for s in kept]
        by_seq = {a.seq: e for a, e in zip(live, effects, strict=True)}
        rt.recent = [dataclasses.replace(a, effects=jsontext.dumps(by_seq[a.seq]))
                     for a in rt.recent]
        log.info("game %s: its log's effects and snapshots were filled in", rt.id)
        return turn

    # -- lobby ---------------------------------------------------------------------------------
    async def list_games(self, query: ListQuery) -> list[tuple[GameRecord, Game | None]]:
        """A page of the listing (from the database; a game held here adds whose turn it is).
        Finished games older than `finished_listed` are left out."""
        if self.finished_listed > 0:
            query = dataclasses.replace(
                query, finished_since=now() - dt.timedelta(seconds=self.finished_listed))
        out = []
        for r in await self._db(self.storage.list_games, query):
            rt = self.games.get(r.id)
            out.append((r, rt.game) if rt is not None else (r, None))
        return out

    async def set_listed(self, rt: Runtime, listed: bool) -> None:
        """Host only (deps.HostToList)."""
        await self._db(self.storage.set_listed, rt.id, listed)
        rt.record.listed = listed
        self._publish(rt)

    async def expire_waiting(self, idle: float) -> list[str]:
        """Waiting games nobody joined for `idle` seconds expire (refused from then on)."""
        ids = await self._db(self.storage.expire_waiting, now() - dt.timedelta(seconds=idle))
        for game_id in ids:
            rt = self.games.get(game_id)
            if rt is not None:
                async with rt.lock:
                    if rt.record.status == "waiting":
                        rt.record.status = "expired"
                        self._publish(rt)
        return ids

    async def create_game(self, players: int, name: str, listed: bool = False,
                          clock: Clock | None = None,
                          shared_screen: bool = False) -> tuple[str, str, str]:
        """A new waiting game: its id, the host's secret and the invite secret (joining an
        unlisted game needs it; only their hashes are stored)."""
        clock = clock or Clock()
        wrong = clocks.problems(clock, self.clock_minimum)
        if wrong:
            raise ApiError("malformed", "Clock: " + "; ".join(wrong))
        host_token, invite = new_token(), new_token()
        stamp = now()
        reserves = clocks.start_reserves(clock, players)
        record = GameRecord(
            id=new_game_id(), name=name, players=players, status="waiting",
            seed=secrets.randbits(62), setup=None, version=0, engine_version=ENGINE_VERSION,
            host_token_hash=token_hash(host_token), created_at=stamp, updated_at=stamp,
            seats=[SeatRecord(seat=s, reserve=reserves[s]) for s in range(players)],
            listed=listed, invite_hash=token_hash(invite),
            settings={"clock": clock.to_json(), "shared_screen": shared_screen})
        await self._db(self.storage.create_game, record)
        self.games[record.id] = Runtime(record=record)
        return record.id, host_token, invite

    async def join(self, game_id: str, name: str, invite: str | None = None,
                   browser: str | None = None) -> tuple[int, str]:
        """Take a free seat. An unlisted game needs its invite secret (a listed game is
        public: the listing is its invitation). `browser`: the joining browser's id; unless
        the game allows a shared screen, a browser takes one seat."""
        rt = await self.runtime(game_id)
        record = rt.record
        if (not record.listed and record.invite_hash is not None
                and not token_matches(invite, record.invite_hash)):
            raise ApiError("unauthorized", "This game is joined with its invite link: ask the "
                           "host for it" if invite is None else
                           "This invite link is not (or no longer) valid: ask the host for "
                           "the new one")
        token = new_token()
        seat = await self._claim(game_id, None, name, token_hash(token), bot=False,
                                 browser=None if browser is None else token_hash(browser))
        return seat, token

    async def renew_invite(self, rt: Runtime) -> str:
        """Host only: a new invite secret; the old invite link stops working at once."""
        _waiting(rt, "renew the invite link")
        async with rt.lock:
            invite = new_token()
            await self._db(self.storage.renew_invite, rt.id, token_hash(invite))
            rt.record.invite_hash = token_hash(invite)
            return invite

    async def renew(self, rt: Runtime, seat: int | None, token: str) -> tuple[int | None, str]:
        """A new secret for the seat (None: the host) whose `token` this is (deps.Holder);
        the old one stops working at once, and sockets opened with it go on as spectators.
        Returns (seat or None for the host, new token). The write is conditional on the
        token sent: a link renewed meanwhile is refused."""
        async with rt.lock:
            fresh = new_token()
            if not await self._db(self.storage.renew_token, rt.id, seat, token_hash(token),
                                  token_hash(fresh)):
                raise ApiError("unauthorized", "This link was renewed meanwhile")
            if seat is None:
                rt.record.host_token_hash = token_hash(fresh)
                return None, fresh
            rt.record.seats[seat].token_hash = token_hash(fresh)
            for sub in [s for s in rt.subscribers if s.seat == seat]:
                sub.seat = None  # the old link's sockets may watch, not play
                sub.send(outbound.dumps(outbound.ws_error(
                    "unauthorized", "This seat's link was renewed: open the new link to play")))
                sub.send(self._render_now(rt, None))
            return seat, fresh

    async def remove_seat(self, rt: Runtime, seat: int) -> None:
        """The host empties a taken seat of a waiting game: its player's token stops working
        (their sockets go on as spectators), a bot leaves."""
        _waiting(rt, "remove a player")
        game_id = rt.id
        async with rt.lock:
            record = rt.record
            if record.status != "waiting":
                raise ApiError("game_not_running", "The game has started")
            if not 0 <= seat < len(record.seats):
                raise ApiError("not_found", f"No seat {seat}")
            if not record.seats[seat].taken:
                raise ApiError("illegal", f"Seat {seat} is already free")
            if not await self._db(self.storage.free_seat, game_id, seat):
                raise ApiError("game_not_running", "The game has started")
            record.seats[seat] = SeatRecord(seat=seat, reserve=record.seats[seat].reserve)
            for sub in [s for s in rt.subscribers if s.seat == seat]:
                sub.seat = None
                sub.send(outbound.dumps(outbound.ws_error(
                    "unauthorized", "The host removed you from this game")))
            self._publish(rt)

    async def cancel(self, rt: Runtime) -> None:
        """The host calls a waiting game off: nobody can join it any more."""
        _waiting(rt, "cancel the game")
        async with rt.lock:
            if rt.record.status != "waiting" or not await self._db(
                    self.storage.cancel_game, rt.id):
                raise ApiError("game_not_running", "The game has started")
            rt.record.status = "cancelled"
            self._publish(rt)

    async def add_bot(self, rt: Runtime, seat: int | None, level: LevelName = "easy") -> int:
        """Host only (deps.HostToAddBots): a bot takes a seat."""
        return await self._claim(rt.id, seat, None, None, bot=True, bot_level=level)

    async def _claim(self, game_id: str, seat: int | None, name: str | None,
                     hashed: str | None, bot: bool, browser: str | None = None,
                     bot_level: LevelName | None = None) -> int:
        """Take a seat; the database picks the seat (if none is asked for) and starts the game
        when it was the last free one. A refusal means another instance changed the game: catch
        up and check again, so the error says what the database holds."""
        rt = await self.runtime(game_id)
        async with rt.lock:
            for _attempt in range(2):
                record = rt.record
                if record.status == "expired":
                    raise ApiError("game_not_running",
                                   "This game expired: nobody joined it in time")
                if record.status == "cancelled":
                    raise ApiError("game_not_running", "The host called this game off")
                if record.status != "waiting":
                    raise ApiError("game_not_running",
                                   "The game has started: every seat is taken")
                free = [s.seat for s in record.seats if not s.taken]
                if not free:
                    raise ApiError("seat_taken", "Every seat is taken")
                if seat is not None and not 0 <= seat < len(record.seats):
                    raise ApiError("malformed",
                                   f"This game has seats 0 to {len(record.seats) - 1}")
                if seat is not None and seat not in free:
                    raise ApiError("seat_taken", f"Seat {seat} is not free")
                made: list[Game] = []

                def first(record: GameRecord = record, made: list[Game] = made) -> Game:
                    made.append(new_game(record.players, record.seed, record.setup))
                    return made[0]

                try:
                    claimed = await self._db(self.storage.claim_seat, game_id, seat, name,
                                             hashed, bot, first, browser,
                                             not record.shared_screen, bot_level)
                except BrowserSeated:
                    raise ApiError("one_seat_per_browser", "This browser already holds a seat "
                                   "in this game, and the host did not allow a shared screen"
                                   ) from None
                if claimed is not None:
                    break
                await self._catch_up(rt)
            else:
                raise ApiError("seat_taken", "Every seat you could take was taken meanwhile")
            rt.record = claimed.record
            if claimed.started:
                rt.turn, rt.snapshots = [made[0]], [0]
            self._publish(rt)
        if claimed.started:
            self.steward.poke(game_id)
        return claimed.seat

    # -- play ----------------------------------------------------------------------------------
    @metrics.timed(metrics.MOVE_SECONDS)
    async def submit_as(self, rt: Runtime, seat: int, action_json: Action | dict[str, Any],
                        expected_version: int, action_id: str,
                        stand_in: str | None = None) -> int:
        """Apply `seat`'s action (`stand_in`: a bot plays it for the seat's player, why);
        returns the new version (or, for a retried `action_id`, the version its first
        submission made). Raises `ApiError`; the game is untouched."""
        action = checked(action_json)
        async with rt.lock:
            earlier = rt.action_ids.get(action_id)
            if earlier is not None:
                return self._retried(earlier, seat, action)
            if rt.behind or expected_version > rt.record.version:
                await self._catch_up(rt)  # the client saw a version from another instance
                earlier = rt.action_ids.get(action_id)
                if earlier is not None:
                    return self._retried(earlier, seat, action)
            if expected_version != rt.record.version:  # perhaps an older move resent
                earlier = await self._db(self.storage.find_action, rt.id, action_id)
                if earlier is not None:
                    return self._retried(earlier, seat, action)
            game = rt.running_game()
            self._player_plays(rt, seat, stand_in)
            if expected_version != rt.record.version:
                raise ApiError("stale_version", f"The game is at version {rt.record.version}, "
                               f"not {expected_version}")
            if game.current_seat != seat:
                raise ApiError("not_your_turn", f"It is seat {game.current_seat}'s turn")
            try:
                after, events = play(game, action)
            except IllegalAction as exc:
                raise ApiError.refused(exc) from None
            except MalformedAction as exc:
                raise ApiError.refused(exc) from None
            effects = public_events(events, None)  # the log is public: nobody's cards
            scores = list(after.scores) if after.is_over else None
            count = rt.count + 1
            snapshot = (count, after.to_json()) if ends_round(game, after) else None
            legal = self._legal_ahead(rt, after)  # in a worker while the row is written
            turn = None if same_turn(game, after, seat) else self._turn_start(rt, seat, after)
            args = (rt.id, expected_version, seat, action.to_json(), action_id, effects,
                    scores, snapshot, turn, stand_in)
            quick = None if self.writer is None else self.storage.plan_append(*args)
            write = (self._db(self.storage.append_turn, *args) if quick is None
                     or self.writer is None else self.writer.append(rt.id, quick))
            try:
                row, timing = await self._written(rt, write)
            except DuplicateActionId:
                found = await self._db(self.storage.find_action, rt.id, action_id)
                assert found is not None
                return self._retried(found, seat, action)
            except StaleVersion:
                await self._catch_up(rt)
                raise ApiError("stale_version", "The game moved on; fetch the new state") from None
            rt.count, rt.recent = count, [*rt.recent[1 - RECENT:], row]
            rt.hold([row])
            rt.turn = step(rt.turn, after)
            if snapshot is not None:
                rt.snapshots.append(count)
            rt.record.version = row.seq
            if legal is not None:
                rt.legal_cache = (row.seq, legal[0], legal[1])
            if scores is not None:
                rt.record.status, rt.record.scores = "finished", scores
            if timing is not None:
                self._timed(rt, timing)
            sending = self._publish(rt)
            metrics.MOVES.labels(action.kind).inc()
        await self._sent(sending, rt, seat)
        self._evict_if_done(rt)
        return row.seq

    @staticmethod
    def _retried(earlier: ActionRecord, seat: int, action: Action) -> int:
        """A retry gets the original result; an id reused for something else is refused, and
        so is the retry of an undone action (it is not in the game: it was not accepted)."""
        if earlier.seat != seat:
            raise ApiError("malformed", "This action_id was already used by another seat")
        if earlier.action != action.to_json():
            raise ApiError("malformed", "This action_id was already used for another action")
        if earlier.undone:
            raise ApiError("action_undone", "This action was undone; to play it again, send "
                           "it with a new action_id")
        return earlier.seq

    async def undo_as(self, rt: Runtime, seat: int, expected_version: int | None) -> int:
        """Take back the seat's last action, if it is part of the seat's current turn."""
        async with rt.lock:
            if rt.behind or (expected_version or 0) > rt.record.version:
                await self._catch_up(rt)
            game = rt.running_game()
            self._player_plays(rt, seat, None)
            version = rt.record.version
            if expected_version is not None and expected_version != version:
                raise ApiError("stale_version", f"The game is at version {version}")
            if game.current_seat != seat:
                raise ApiError("not_your_turn", f"It is seat {game.current_seat}'s turn")
            if len(rt.turn) < 2 or not rt.recent or rt.recent[-1].seat != seat:
                raise ApiError("illegal", "Nothing to undo in this turn")
            last = rt.recent[-1]
            try:
                version = await self._written(rt, self._db(
                    self.storage.undo_actions, rt.id, version, [last.seq]))
            except StaleVersion:
                await self._catch_up(rt)
                raise ApiError("stale_version", "The game moved on; fetch the new state") from None
            rt.recent.pop()
            rt.count -= 1
            rt.hold([dataclasses.replace(last, undone=True)])
            rt.turn = rt.turn[:-1]  # the state before the undone action
            rt.record.version = version
            rt.undone = (version, [last.seq])
            sending = self._publish(rt)
        await self._sent(sending, rt, seat)
        return version

    # -- catching up with other instances ---------------------------------------------------
    async def _written(self, rt: Runtime, write: Awaitable[T]) -> T:
        """Await a write; if this task is cancelled meanwhile (a steward that lost the game's
        lease), the write may still commit in its thread: the runtime catches up from the
        database, at once, as the lock is let go. Not at its next use: its clients would
        never hear of a version this instance wrote (the notification of it is its own)."""
        try:
            return await write
        except asyncio.CancelledError:
            rt.behind = True
            self._follow(rt)
            raise

    def changed(self, game_id: str, version: int, sender: str) -> None:
        """Another instance committed a change of `game_id` (its new `version`, -1 if the
        version did not move): a game held here is behind. One with clients here or owned by
        this instance's steward catches up (and publishes) now, any other at its next use."""
        if sender == self.storage.instance:
            return
        rt = self.games.get(game_id)
        log.debug("game %s: version %s from %s; held here: %s", game_id, version, sender,
                  None if rt is None else rt.record.version)
        if rt is None or 0 <= version <= rt.record.version:
            return
        rt.behind = True
        if rt.subscribers or self.steward.owns(game_id):
            self._follow(rt)

    def chatted(self, game_id: str, sender: str, message: dict[str, Any]) -> None:
        """A chat message sent through another instance: to this instance's clients too."""
        rt = self.games.get(game_id)
        if sender != self.storage.instance and rt is not None:
            chat.broadcast(rt, message)

    def resync(self) -> None:
        """Notifications may have been lost (the listening connection dropped): every game
        held here is checked against the database."""
        for rt in list(self.games.values()):
            rt.behind = True
            if rt.subscribers or self.steward.owns(rt.id):
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
        while rt.behind:
            async with rt.lock:
                if rt.behind:
                    try:
                        await self._catch_up(rt)
                    except Exception:
                        log.exception("cannot catch up game %s", rt.id)
                        rt.behind = True
                        raise

    async def _catch_up(self, rt: Runtime) -> None:
        """Bring the runtime (its lock held) to what the database holds: the new log rows
        are played on the current turn's states (in a worker), rows undone meanwhile are taken
        back; a game that started, or a change the held states cannot follow, is reloaded.
        Publishes if anything changed."""
        rt.behind = False  # a notification during the read sets it again
        changes = await self._db(self.storage.changes, rt.id, rt.record.version)
        if changes is None:
            return
        old = rt.record
        moved = changes.marks is not None or (rt.game is None and changes.record.status in (
            "running", "finished"))
        if not moved or (rt.game is not None and await self._advance(rt, changes)):
            rt.record = changes.record
        else:
            fresh = await self._load(rt.id)
            rt.record, rt.count, rt.recent = fresh.record, fresh.count, fresh.recent
            rt.turn, rt.action_ids, rt.snapshots = fresh.turn, fresh.action_ids, fresh.snapshots
            rt.undone, rt.seat_changes = fresh.undone, fresh.seat_changes
        log.debug("game %s: caught up from version %s to %s", rt.id, old.version,
                  rt.record.version)
        if dataclasses.replace(rt.record, updated_at=old.updated_at) == old:
            return
        for seat, (was, now_) in enumerate(zip(old.seats, rt.record.seats, strict=False)):
            if was.token_hash != now_.token_hash:  # renewed or removed on another instance
                for sub in [s for s in rt.subscribers if s.seat == seat]:
                    sub.seat = None
                    sub.send(outbound.dumps(outbound.ws_error(
                        "unauthorized", "This seat's link changed: open the new link to play")))
        self._publish(rt)

    async def _advance(self, rt: Runtime, changes: Changes) -> bool:
        """Play the new rows on the held states, publishing each version but the last (the
        caller publishes that one), so that every client sees every version as on the
        instance that wrote them; False if the rows cannot be followed from the held states
        (the caller reloads the game)."""
        since = rt.record.version
        steps: list[tuple[int, str, Any]] = [(r.seq, "play", r) for r in changes.rows
                                             if r.seq > since]
        undos: dict[int, list[int]] = {}
        for r in changes.rows:
            if r.undone_at is not None and r.undone_at > since:
                undos.setdefault(r.undone_at, []).append(r.seq)
        steps += [(v, "undo", sorted(seqs)) for v, seqs in undos.items()]
        steps += [(c.version, "seat", c) for c in changes.seat_changes if c.version > since]
        steps.sort(key=lambda s: s[0])
        held, count, moves, after = list(rt.recent), rt.count, [], []
        undone, seat_changes = rt.undone, list(rt.seat_changes)
        for version, kind, what in steps:
            if kind == "play":
                held.append(dataclasses.replace(what, undone=False, undone_at=None))
                count += 1
                moves.append(("play", what.action))
            elif kind == "seat":  # who plays a seat changed: the states stay as they are
                seat_changes.append(what)
                moves.append(("seat", None))
            else:  # undo reaches only the current turn: its rows are among the held ones
                if len(held) < len(what) or [a.seq for a in held[-len(what):]] != what:
                    return False
                del held[-len(what):]
                count -= len(what)
                moves.append(("undo", len(what)))
                undone = (version, what)
            after.append((version, held[-RECENT:], count, undone, list(seat_changes)))
        try:
            # a move or two (the usual notification) is followed here: carrying one out takes
            # tens of µs, handing the turn's states to a worker and back takes milliseconds
            turns = (advance(rt.turn, moves) if len(moves) <= FOLLOW_HERE
                     else await self.workers.compute(advance, rt.turn, moves))
        except Exception:
            log.warning("game %s: cannot follow its new rows; reloading", rt.id, exc_info=True)
            return False
        rt.hold(changes.rows)
        rt.snapshots = changes.marks or rt.snapshots
        final = changes.record
        for (version, held_then, count_then, undone_then, changes_then), turn in zip(
                after, turns, strict=True):
            rt.turn, rt.recent, rt.count, rt.undone = turn, held_then, count_then, undone_then
            rt.seat_changes = changes_then
            if version != final.version:
                rt.record = dataclasses.replace(final, version=version, status="running",
                                                scores=None, finished_at=None)
                self._publish(rt)
        return True

    # -- reading -------------------------------------------------------------------------------
    async def legal(self, rt: Runtime, seat: int) -> str:
        """The seat's legal moves with their prices, as JSON text (`[]` if it is not the
        seat's turn)."""
        if rt.game is None:
            raise ApiError("game_not_running", "The game has not started")
        return await self._legal_text(rt, seat)

    def _legal_ahead(self, rt: Runtime, after: Game) -> tuple[int, asyncio.Future[str]] | None:
        """Start computing the legal moves of the next seat in `after` if one of its clients is
        connected (its state message carries them); None otherwise."""
        seat = after.current_seat
        if seat is None or not any(sub.seat == seat for sub in rt.subscribers):
            return None
        return seat, self._compute_legal(after, seat)  # dropped if the write fails

    def _compute_legal(self, game: Game, seat: int) -> asyncio.Future[str]:
        """The legal moves of `seat` in `game` (JSON text), listed in this process by a task
        that runs while the move's row is written. Not in a worker: the listing is bounded
        (about 1 ms at worst on `bench/engine.py`'s corpus, 0.2 ms on average: `legal_groups`,
        encoded from texts kept per action and price) and handing the game to a worker process
        and the list back cost more than listing it (under `bench/server.py` at 1,000 games,
        2.1 ms of server CPU per move with a worker, 1.5 without), and made the next seat wait
        for the worker (legal moves p99 0.4-0.6 s)."""
        async def timed() -> str:
            with metrics.LEGAL_SECONDS.time():
                return outbound.legal(game, seat)

        future = asyncio.ensure_future(timed())
        future.add_done_callback(_consume)
        return future

    async def _legal_text(self, rt: Runtime, seat: int) -> str:
        """The legal moves of `seat` at the current version (computed once per version and
        seat)."""
        game, version = rt.game, rt.record.version
        if game is None or game.is_over or game.current_seat != seat:
            return "[]"
        cached = rt.legal_cache
        if cached is None or cached[:2] != (version, seat):
            cached = rt.legal_cache = (version, seat, self._compute_legal(game, seat))
        try:
            return await asyncio.shield(cached[2])
        except Exception:
            if rt.legal_cache is cached:
                rt.legal_cache = None  # the next request tries again
            raise

    async def extensions(self, rt: Runtime, seat: int, partial: Action | dict[str, Any],
                         version: int | None) -> str:
        """The `Extensions` message (JSON text) for a legal Sell or Network of the seat to
        move: each legal move made of it and one more sale, or its second link."""
        action = checked(partial)
        game, at = _movers_game(rt, seat, version), rt.record.version  # before any wait
        if not isinstance(action, Sell | Network):
            raise ApiError("malformed", "Only a sell or a network action has extensions")
        try:
            return outbound.extensions(game, action, at)  # bounded, like the legal moves
        except IllegalAction as exc:
            raise ApiError.refused(exc) from None

    async def preview(self, rt: Runtime, seat: int, action: Action | dict[str, Any],
                      version: int | None) -> str:
        """The `Preview` message (JSON text): the whole effect of a legal move of the seat to
        move, from the engine's `move` event, before it is confirmed."""
        checked_action = checked(action)
        game, at = _movers_game(rt, seat, version), rt.record.version  # before any wait
        try:
            return outbound.preview(game, checked_action, at)  # one move carried out
        except IllegalAction as exc:
            raise ApiError.refused(exc) from None

    async def log_rows(self, rt: Runtime) -> list[ActionRecord]:
        """The game's log (undone rows left out) as of the version it is at when called, read
        from the database: a game holds only the end of its log in memory."""
        rows = await self._db(self.storage.actions_as_of, rt.id, rt.record.version)
        return [a for a in rows if not a.undone]

    async def log_text(self, rt: Runtime) -> str:
        """`GET /log`: the log as of one version, with the record and seat changes of it."""
        record, changes = dataclasses.replace(rt.record), list(rt.seat_changes)
        return outbound.log_text(record, await self.log_rows(rt), changes)

    async def replay_frame(self, rt: Runtime, n: int, seat: int | None) -> ReplayFrame:
        """The view after the first `n` actions of the log: rebuilt in a worker from the
        latest snapshot at or before `n` (at most one round of replay). A game stored under
        another engine shows only the frames it has snapshots of."""
        game, total = rt.game, rt.count
        if game is None:
            raise ApiError("game_not_running", "The game has not started")
        if not 0 <= n <= total:
            raise ApiError("not_found", f"The game has {total} actions, not {n}")
        if n == total:
            return outbound.replay_frame(game, n, total, seat)
        base = rt.snapshots[bisect.bisect_right(rt.snapshots, n) - 1] if (
            rt.snapshots and rt.snapshots[0] <= n) else None
        if rt.older_engine and base != n:
            raise ApiError("not_found", f"Game {rt.id} was played with engine "
                           f"{rt.record.engine_version}: only the frames after "
                           f"{', '.join(map(str, rt.snapshots)) or 'no action'} are kept")
        rows = await self.log_rows(rt)  # first: as of the version `total` was read at
        state = None if base is None else await self._snapshot(rt, base)
        return await self.workers.compute(
            outbound.rebuilt_frame, rt.record.players, rt.record.seed, rt.record.setup, state,
            [a.action for a in rows[base or 0:n]], n, total, seat)

    async def _snapshot(self, rt: Runtime, count: int) -> dict[str, Any]:
        """The stored state after `count` actions (a small cache over all games)."""
        key = (rt.id, count)
        state = self._snapshots.get(key)
        if state is None:
            found = await self._db(self.storage.load_snapshot, rt.id, count)
            if found is None or found.actions != count:
                raise ApiError("not_found", f"No snapshot after {count} actions")
            state = self._snapshots[key] = found.state
            if len(self._snapshots) > SNAPSHOT_CACHE:
                self._snapshots.popitem(last=False)
        self._snapshots.move_to_end(key)
        return state

    # -- publishing ----------------------------------------------------------------------------
    async def subscribe(self, rt: Runtime, sub: Subscriber) -> None:
        """Add a client and send it the full current state at once."""
        text = await self.state_text(rt, sub.seat)
        rt.subscribers.add(sub)  # no await since the text: no state can be missed
        sub.send(text)

    def unsubscribe(self, rt: Runtime, sub: Subscriber) -> None:
        rt.subscribers.discard(sub)
        self._evict_if_done(rt)

    def _evict_if_done(self, rt: Runtime) -> None:
        """A finished game nobody watches leaves memory (it is reloaded from its log when
        asked for), so a long-running server does not keep every game it ever hosted."""
        if (rt.record.status == "finished" and not rt.subscribers and not rt.lock.locked()
                and self.games.get(rt.id) is rt):
            del self.games[rt.id]

    @staticmethod
    def _mover(rt: Runtime) -> int | None:
        """The seat to move of a running game (its state message carries its legal moves)."""
        game = rt.game
        return game.current_seat if rt.record.status == "running" and game is not None else None

    async def state_text(self, rt: Runtime, seat: int | None) -> str:
        """The state message of the current version for `seat` (None: a spectator), as JSON
        text; the seat to move waits for its legal moves (computed once per version)."""
        while True:
            version = rt.record.version
            text = rt.rendered.get(seat)
            if text is not None:
                return outbound.stamped(text)
            legal = None
            if seat is not None and seat == self._mover(rt):
                legal = await self._legal_text(rt, seat)
                if rt.record.version != version:
                    continue  # moved on meanwhile: the newer state instead
            text = rt.rendered[seat] = outbound.state_text(rt, seat, legal)
            return outbound.stamped(text)

    def _publish(self, rt: Runtime) -> asyncio.Task[None] | None:
        """Send the new state to every client at once; the seat to move gets it first without
        its legal moves (`legal` null), then again at the same version with them, as soon as
        they are computed (a newer state makes that message needless): the task that sends
        it. So a slow list of moves never delays the new version on any screen. If they are
        ready already (computed while the move was written), the mover gets one message."""
        rt.rendered, rt.parts = {}, None
        rt.changed.set()
        mover, version = self._mover(rt), rt.record.version
        ready = self._legal_ready(rt, version, mover)
        waiting: list[Subscriber] = []
        # rendered once per seat for this send only: kept, five texts would stay in memory
        # for the whole turn, and a later subscriber renders its own
        subscribers = list(rt.subscribers)
        texts = {seat: outbound.stamped(text) for seat, text in outbound.state_texts(
            rt, {sub.seat for sub in subscribers}, mover, ready).items()}
        for sub in subscribers:
            sub.send(texts[sub.seat])
            if mover is not None and sub.seat == mover and ready is None:
                waiting.append(sub)
        if ready is not None:
            self._forget_legal(rt, version, mover)
        if not waiting:
            return None
        task = asyncio.create_task(self._send_when_ready(rt, version, mover, waiting))
        self._sends.add(task)
        task.add_done_callback(self._sends.discard)
        return task

    async def _sent(self, sending: asyncio.Task[None] | None, rt: Runtime, seat: int) -> None:
        """Wait until the seat that acted holds the state its action made with its legal moves,
        if it is still to move (so the acknowledgement comes after everything it needs)."""
        if sending is not None and self._mover(rt) == seat:
            with contextlib.suppress(Exception):
                await asyncio.shield(sending)

    def _render_now(self, rt: Runtime, seat: int | None) -> str:
        text = rt.rendered.get(seat)
        if text is None:
            text = rt.rendered[seat] = outbound.state_text(rt, seat, None)
        return outbound.stamped(text)

    async def _send_when_ready(self, rt: Runtime, version: int, seat: int | None,
                               subs: list[Subscriber]) -> None:
        try:
            text = await self.state_text(rt, seat)
        except Exception:
            log.exception("no legal moves for seat %s of game %s", seat, rt.id)
            return  # they hold the state; `GET /legal` or a reconnect asks again
        if rt.record.version != version:
            return  # a newer state was published to these clients
        for sub in subs:
            if sub in rt.subscribers:
                sub.send(text)
        self._forget_legal(rt, version, seat)

    @staticmethod
    def _legal_ready(rt: Runtime, version: int, seat: int | None) -> str | None:
        """The legal moves of `seat` at `version` if they are computed already, else None."""
        cached = rt.legal_cache
        if seat is None or cached is None or cached[:2] != (version, seat):
            return None
        future = cached[2]
        if not future.done() or future.cancelled() or future.exception() is not None:
            return None
        return future.result()

    @staticmethod
    def _forget_legal(rt: Runtime, version: int, seat: int | None) -> None:
        """Once the seat to move holds its legal moves, the server lets go of them: they are
        the largest part of a live game's memory (75 KB at the first turn) and are needed
        again only if that seat reconnects or asks `GET /legal`, which computes them anew."""
        cached = rt.legal_cache
        if cached is not None and cached[:2] == (version, seat) and cached[2].done():
            rt.legal_cache = None
        if rt.record.version == version:
            rt.rendered.pop(seat, None)

    # -- who plays a seat: clocks, time-outs, resign, hand-over, take-over -----------------------
    @staticmethod
    def _player_plays(rt: Runtime, seat: int, stand_in: str | None) -> None:
        """A player's own move (`stand_in` None) is refused while a bot stands in for them:
        the two would race."""
        if stand_in is None and rt.record.seats[seat].stand_in is not None:
            raise ApiError("not_your_turn", "A bot plays this seat for you now: take your "
                           "seat back to play")

    @staticmethod
    def _turn_start(rt: Runtime, seat: int, after: Game) -> TurnStart:
        """The turn of `seat` ends with this action; `after.current_seat`'s begins."""
        seats, nxt = rt.record.seats, after.current_seat
        if after.is_over:
            nxt = None
        return TurnStart(rt.record.clock, seat, seats[seat].reserve, rt.record.deadline, nxt,
                         None if nxt is None else seats[nxt].reserve,
                         nxt is not None and seats[nxt].played_by_bot)

    @staticmethod
    def _timed(rt: Runtime, timing: Timing) -> None:
        """Keep in memory the times a write stored."""
        rt.record.deadline = timing.deadline
        if timing.turn_started_at is not None:
            rt.record.turn_started_at = timing.turn_started_at
        for seat, reserve in timing.reserves.items():
            rt.record.seats[seat].reserve = reserve

    async def time_out(self, rt: Runtime, seat: int, version: int) -> int:
        """The seat to move ran out of time: a bot plays for it from now (a versioned write the
        database refuses unless the deadline has passed by its clock). The new version."""
        clock = rt.record.clock
        reserve = 0.0 if clock.kind == "live" else rt.record.seats[seat].reserve
        return await self._change_seat(rt, seat, version, "timeout", reserve, "deadline")

    async def resign(self, rt: Runtime, seat: int, expected_version: int | None) -> int:
        """The seat's player gives up: a bot plays their seat to the end (for good)."""
        rt.running_game()
        if rt.record.seats[seat].stand_in == "resigned":
            raise ApiError("illegal", "You have resigned already")
        return await self._change_seat(rt, seat, expected_version, "resigned",
                                       rt.record.seats[seat].reserve)

    async def hand_over(self, rt: Runtime, asking: int, seat: int,
                        expected_version: int | None) -> int:
        """Another player (seat `asking`) hands the seat to move to a bot, once it has been
        idle for the game's `handoff_after` (a game with no clock that allows it)."""
        clock, game = rt.record.clock, rt.running_game()
        if clock.kind != "none" or clock.handoff_after <= 0:
            raise ApiError("illegal", "This game does not allow handing a seat to a bot"
                           if clock.kind == "none" else
                           "This game has a clock: a seat goes to a bot when its time runs out")
        if not 0 <= seat < rt.record.players:
            raise ApiError("not_found", f"No seat {seat}")
        if seat == asking:
            raise ApiError("illegal", "To let a bot play your seat, resign")
        if seat != game.current_seat:
            raise ApiError("not_your_turn", "Only the seat to move can be handed to a bot")
        if rt.is_bot(seat):
            raise ApiError("illegal", "A bot plays this seat already")
        return await self._change_seat(rt, seat, expected_version, "handover",
                                       rt.record.seats[seat].reserve, "idle")

    async def take_over(self, rt: Runtime, seat: int, expected_version: int | None) -> int:
        """The player is back (with their seat link): they play their seat again."""
        rt.running_game()
        standing = rt.record.seats[seat].stand_in
        if standing is None:
            raise ApiError("illegal", "You are playing this seat already")
        if standing == "resigned":
            raise ApiError("illegal", "You resigned this game: a bot plays your seat to the end")
        reserve = clocks.reserve_on_return(rt.record.clock, rt.record.seats[seat].reserve)
        return await self._change_seat(rt, seat, expected_version, "returned", reserve)

    async def _change_seat(self, rt: Runtime, seat: int, version: int | None, change: str,
                           reserve: float | None, require: str | None = None) -> int:
        """The versioned write of a change of who plays `seat`, logged (`seat_changes`) and
        published; a bot then plays for it, or stops."""
        async with rt.lock:
            game = rt.running_game()
            if version is None:
                version = rt.record.version
            if version != rt.record.version:
                raise ApiError("stale_version", f"The game is at version {rt.record.version}, "
                               f"not {version}")
            mover = game.current_seat == seat
            if require == "deadline" and (not mover or rt.record.deadline is None):
                raise ApiError("not_yet", f"Seat {seat} has no running clock")
            try:
                timing = await self._written(rt, self._db(
                    self.storage.change_seat, rt.id, version, seat, change, rt.record.clock,
                    mover, reserve, require))
            except StaleVersion:
                fresh = await self._db(self.storage.load_game, rt.id)
                if fresh is not None and fresh.version == version and require is not None:
                    raise ApiError("not_yet", "The deadline has not passed yet"
                                   if require == "deadline" else
                                   f"Seat {seat} has not been idle for "
                                   f"{rt.record.clock.handoff_after:g} seconds yet") from None
                await self._catch_up(rt)
                raise ApiError("stale_version", "The game moved on; fetch the new state") from None
            record = rt.record
            record.version = version + 1
            record.seats[seat].stand_in = None if change == "returned" else change
            if mover:
                record.deadline = timing.deadline
            self._timed(rt, dataclasses.replace(timing, deadline=record.deadline))
            rt.seat_changes.append(SeatChange(version + 1, seat, change, now()))
            log.info("game %s seat %s: %s", rt.id, seat, change)
            self._publish(rt)
        self.steward.poke(rt.id)  # a bot plays for the seat now: its steward moves it
        return version + 1

    # -- bots (called by the game's steward) -------------------------------------------------
    async def bot_move(self, rt: Runtime, fallback: bool) -> None:
        """The bot to move makes its move: a versioned write, so never twice."""
        game, version = rt.game, rt.record.version
        if game is None or game.current_seat is None:
            return
        seat = game.current_seat
        public_log = [] if fallback else [r.effects for r in await self.log_rows(rt)]
        choice = await self.workers.compute(bot_choice, game, f"{rt.id}:{version}", fallback,
                                            rt.bot_level(seat), self.bot_budget, public_log)
        # an id nobody can guess: a player who sent it first would stall the bot for good
        await self.submit_as(rt, seat, choice, version, f"bot-{new_token()}",
                             rt.record.seats[seat].stand_in)


def _waiting(rt: Runtime, what: str) -> None:
    """Refused unless the game still waits for players (what the host may change then)."""
    if rt.record.status != "waiting":
        raise ApiError("game_not_running", f"Game {rt.id} is {rt.record.status}: only a "
                       f"waiting game's host can {what}")


def _movers_game(rt: Runtime, seat: int, version: int | None) -> Game:
    """The running game, if `seat` is to move in it at `version` (None: any); a typed
    refusal otherwise (extensions and previews are for the seat to move, at its version)."""
    game = rt.running_game()
    if version is not None and version != rt.record.version:
        raise ApiError("stale_version", f"The game is at version {rt.record.version}, "
                       f"not {version}")
    if game.current_seat != seat:
        raise ApiError("not_your_turn", f"It is seat {game.current_seat}'s turn")
    return game


def checked(action: Action | dict[str, Any]) -> Action:
    """The action (JSON, or already shaped by a request model) with every id it names
    checked; `ApiError("malformed")` otherwise."""
    try:
        return parse_action(action if isinstance(action, dict) else action.to_json())
    except MalformedAction as exc:
        raise ApiError.refused(exc) from None


def _consume(future: asyncio.Future[Any]) -> None:
    """Retrieve a dropped future's exception (it is logged where it is awaited)."""
    if not future.cancelled():
        with contextlib.suppress(Exception):
            future.exception()
