"""The game service: load, check, apply through the engine, commit, then publish.

It owns the in-memory `Runtime` of each game (the record, the engine states replayed from the
log, the connected subscribers and the bot task) and is the only writer of games. Every change
of a game happens under that game's `asyncio.Lock`; the database write is a versioned write
(`Storage.append_action`), so even a second server process could not make two submissions of
the same version both land. A change is published to subscribers only after its commit.

Undo marks the undone rows in the log (`actions.undone`) and rebuilds the state from the rest;
it reaches back only within the player's current turn (the end of a turn draws cards).
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import logging
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from brass.engine import (
    ENGINE_VERSION,
    Action,
    Game,
    IllegalAction,
    MalformedAction,
    apply_action,
    new_game,
    parse_action,
)

from . import logs, metrics, outbound
from .auth import new_token, token_hash, token_matches
from .errors import ApiError
from .runtime import Runtime, Subscriber, replay_tail, same_turn
from .storage import (
    ActionRecord,
    DuplicateActionId,
    GameRecord,
    ListQuery,
    SeatRecord,
    StaleVersion,
    Storage,
    now,
)
from .workers import Workers, bot_choice

log = logging.getLogger("brass.server")
T = TypeVar("T")


class GameService:
    def __init__(self, storage: Storage, bot_delay: float = 0.5, workers: int = 1,
                 waiting_expiry: float = 0.0, finished_listed: float = 0.0) -> None:
        self.storage = storage
        self.bot_delay = bot_delay
        self.waiting_expiry = waiting_expiry  # seconds; 0: waiting games never expire
        self.finished_listed = finished_listed  # seconds; 0: finished games stay listed
        self._sweeper: asyncio.Task[None] | None = None
        self.games: dict[str, Runtime] = {}
        self._loading = asyncio.Lock()
        self._pool = ThreadPoolExecutor(max_workers=16, thread_name_prefix="brass-db")
        self.workers = Workers(workers)
        self._closing = False

    async def _db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    # -- life cycle ----------------------------------------------------------------------------
    async def start(self) -> None:
        """Start the worker processes, rebuild every running game from its log and let its
        bots play on."""
        await self.workers.start()
        for record in await self._db(self.storage.running_games):
            try:
                rt = await self.runtime(record.id)
            except Exception:
                log.exception("cannot rebuild game %s", record.id)
                continue
            self._kick_bots(rt)
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
        tasks = [rt.bot_task for rt in self.games.values() if rt.bot_task is not None]
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._pool.shutdown(wait=True)
        self.workers.close()

    async def runtime(self, game_id: str) -> Runtime:
        rt = self.games.get(game_id)
        if rt is not None:
            return rt
        async with self._loading:
            rt = self.games.get(game_id)
            if rt is None:
                rt = await self._load(game_id)
                self.games[game_id] = rt
        return rt

    async def _load(self, game_id: str) -> Runtime:
        record = await self._db(self.storage.load_game, game_id)
        if record is None:
            raise ApiError("not_found", f"No game {game_id!r}")
        everything = await self._db(self.storage.load_actions, game_id, True)
        rt = Runtime(record=record, action_ids={a.action_id: a for a in everything})
        if record.engine_version != ENGINE_VERSION:
            log.warning("game %s was played with engine %s, replaying with %s",
                        game_id, record.engine_version, ENGINE_VERSION)
        if record.status != "waiting":
            rt.actions = [a for a in everything if not a.undone]
            try:
                rt.previous, rt.current = replay_tail(record, rt.actions)
            except Exception as exc:
                log.exception("game %s does not replay (engine %s, stored with %s)",
                              game_id, ENGINE_VERSION, record.engine_version)
                raise ApiError("game_not_running", f"Game {game_id} cannot be replayed by "
                               f"this server's engine ({ENGINE_VERSION})") from exc
        return rt

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

    async def set_listed(self, game_id: str, host_token: str | None, listed: bool) -> None:
        rt = await self.runtime(game_id)
        if not token_matches(host_token, rt.record.host_token_hash):
            raise ApiError("unauthorized", "Only the host (with the host token) can list a game")
        await self._db(self.storage.set_listed, game_id, listed)
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

    async def create_game(self, players: int, name: str, listed: bool = False) -> tuple[str, str]:
        host_token = new_token()
        stamp = now()
        record = GameRecord(
            id=secrets.token_urlsafe(9), name=name, players=players, status="waiting",
            seed=secrets.randbits(62), setup=None, version=0, engine_version=ENGINE_VERSION,
            host_token_hash=token_hash(host_token), created_at=stamp, updated_at=stamp,
            seats=[SeatRecord(seat=s) for s in range(players)], listed=listed)
        await self._db(self.storage.create_game, record)
        self.games[record.id] = Runtime(record=record)
        return record.id, host_token

    async def join(self, game_id: str, name: str) -> tuple[int, str]:
        token = new_token()
        seat = await self._claim(game_id, None, name, token_hash(token), bot=False)
        return seat, token

    async def renew(self, game_id: str, token: str | None) -> tuple[int | None, str]:
        """A new secret for the seat (or the host) whose token this is; the old one stops
        working at once, and sockets opened with it go on as spectators. Returns (seat or
        None for the host, new token)."""
        rt = await self.runtime(game_id)
        async with rt.lock:
            seat = rt.seat_of(token)
            is_host = seat is None and token_matches(token, rt.record.host_token_hash)
            if seat is None and not is_host:
                raise ApiError("unauthorized", "A valid seat or host token is needed")
            old = (rt.record.host_token_hash if seat is None
                   else rt.record.seats[seat].token_hash)
            fresh = new_token()
            assert old is not None
            if not await self._db(self.storage.renew_token, game_id, seat, old,
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
                sub.send(self.render(rt, None))
            return seat, fresh

    async def _hosted_waiting(self, game_id: str, host_token: str | None, what: str) -> Runtime:
        rt = await self.runtime(game_id)
        if not token_matches(host_token, rt.record.host_token_hash):
            raise ApiError("unauthorized", f"Only the host (with the host token) can {what}")
        if rt.record.status != "waiting":
            raise ApiError("game_not_running", f"Game {game_id} is {rt.record.status}: only a "
                           f"waiting game's host can {what}")
        return rt

    async def remove_seat(self, game_id: str, host_token: str | None, seat: int) -> None:
        """The host empties a taken seat of a waiting game: its player's token stops working
        (their sockets go on as spectators), a bot leaves."""
        rt = await self._hosted_waiting(game_id, host_token, "remove a player")
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
            record.seats[seat] = SeatRecord(seat=seat)
            for sub in [s for s in rt.subscribers if s.seat == seat]:
                sub.seat = None
                sub.send(outbound.dumps(outbound.ws_error(
                    "unauthorized", "The host removed you from this game")))
            self._publish(rt)

    async def cancel(self, game_id: str, host_token: str | None) -> None:
        """The host calls a waiting game off: nobody can join it any more."""
        rt = await self._hosted_waiting(game_id, host_token, "cancel the game")
        async with rt.lock:
            if rt.record.status != "waiting" or not await self._db(
                    self.storage.cancel_game, game_id):
                raise ApiError("game_not_running", "The game has started")
            rt.record.status = "cancelled"
            self._publish(rt)

    async def add_bot(self, game_id: str, host_token: str | None, seat: int | None) -> int:
        rt = await self.runtime(game_id)
        if not token_matches(host_token, rt.record.host_token_hash):
            raise ApiError("unauthorized", "Only the host (with the host token) can add bots")
        return await self._claim(game_id, seat, None, None, bot=True)

    async def _claim(self, game_id: str, seat: int | None, name: str | None,
                     hashed: str | None, bot: bool) -> int:
        rt = await self.runtime(game_id)
        async with rt.lock:
            record = rt.record
            if record.status == "expired":
                raise ApiError("game_not_running", "This game expired: nobody joined it in time")
            if record.status == "cancelled":
                raise ApiError("game_not_running", "The host called this game off")
            if record.status != "waiting":
                raise ApiError("game_not_running", "The game has started: every seat is taken")
            free = [s.seat for s in record.seats if not s.taken]
            if not free:
                raise ApiError("seat_taken", "Every seat is taken")
            if seat is None:
                seat = free[0]
            elif not 0 <= seat < len(record.seats):
                raise ApiError("malformed", f"This game has seats 0 to {len(record.seats) - 1}")
            elif seat not in free:
                raise ApiError("seat_taken", f"Seat {seat} is not free")
            name = name or f"Bot {seat + 1}"
            start = len(free) == 1
            if not await self._db(self.storage.claim_seat, game_id, seat, name, hashed, bot,
                                  start):
                raise ApiError("seat_taken", f"Seat {seat} is not free")
            record.seats[seat] = SeatRecord(seat=seat, name=name, token_hash=hashed, bot=bot)
            if start:
                record.status = "running"
                rt.current = new_game(record.players, record.seed, record.setup)
            self._publish(rt)
        self._kick_bots(rt)
        return seat

    # -- play ----------------------------------------------------------------------------------
    async def submit(self, game_id: str, token: str | None, action_json: dict[str, Any],
                     expected_version: int, action_id: str) -> int:
        """Apply a seat's action; returns the new version (or, for a retried `action_id`,
        the version its first submission made). Raises `ApiError`; the game is untouched."""
        rt = await self.runtime(game_id)
        seat = rt.seat_of(token)
        if seat is None:
            raise ApiError("unauthorized", "A valid seat token is needed to act")
        return await self.submit_as(rt, seat, action_json, expected_version, action_id)

    @metrics.timed(metrics.MOVE_SECONDS)
    async def submit_as(self, rt: Runtime, seat: int, action_json: dict[str, Any],
                     expected_version: int, action_id: str) -> int:
        try:
            action = parse_action(action_json)
        except MalformedAction as exc:
            raise ApiError("malformed", str(exc)) from None
        async with rt.lock:
            earlier = rt.action_ids.get(action_id)
            if earlier is not None:
                return self._retried(earlier, seat, action)
            game = rt.running_game()
            if expected_version != rt.record.version:
                raise ApiError("stale_version", f"The game is at version {rt.record.version}, "
                               f"not {expected_version}")
            if game.current_seat != seat:
                raise ApiError("not_your_turn", f"It is seat {game.current_seat}'s turn")
            try:
                after = apply_action(game, action)
            except IllegalAction as exc:
                raise ApiError("illegal", str(exc)) from None
            except MalformedAction as exc:
                raise ApiError("malformed", str(exc)) from None
            scores = list(after.scores) if after.is_over else None
            try:
                row = await self._db(self.storage.append_action, rt.id, expected_version, seat,
                                     action.to_json(), action_id, scores)
            except DuplicateActionId:
                found = await self._db(self.storage.find_action, rt.id, action_id)
                assert found is not None
                return self._retried(found, seat, action)
            except StaleVersion:
                await self._reload(rt)
                raise ApiError("stale_version", "The game moved on; fetch the new state") from None
            rt.actions.append(row)
            rt.action_ids[action_id] = row
            rt.previous, rt.current = game, after
            rt.record.version = row.seq
            if scores is not None:
                rt.record.status, rt.record.scores = "finished", scores
            self._publish(rt)
            metrics.MOVES.labels(action.kind).inc()
        self._kick_bots(rt)
        self._evict_if_done(rt)
        return row.seq

    @staticmethod
    def _retried(earlier: ActionRecord, seat: int, action: Action) -> int:
        """A retry gets the original result; an id reused for something else is refused."""
        if earlier.seat != seat:
            raise ApiError("malformed", "This action_id was already used by another seat")
        if earlier.action != action.to_json():
            raise ApiError("malformed", "This action_id was already used for another action")
        return earlier.seq

    async def undo(self, game_id: str, token: str | None, expected_version: int | None) -> int:
        """Take back the seat's last action, if it is part of the seat's current turn."""
        rt = await self.runtime(game_id)
        seat = rt.seat_of(token)
        if seat is None:
            raise ApiError("unauthorized", "A valid seat token is needed to undo")
        return await self.undo_as(rt, seat, expected_version)

    async def undo_as(self, rt: Runtime, seat: int, expected_version: int | None) -> int:
        async with rt.lock:
            game = rt.running_game()
            version = rt.record.version
            if expected_version is not None and expected_version != version:
                raise ApiError("stale_version", f"The game is at version {version}")
            if game.current_seat != seat:
                raise ApiError("not_your_turn", f"It is seat {game.current_seat}'s turn")
            if (not rt.actions or rt.previous is None or rt.actions[-1].seat != seat
                    or not same_turn(rt.previous, game, seat)):
                raise ApiError("illegal", "Nothing to undo in this turn")
            last = rt.actions[-1]
            try:
                version = await self._db(self.storage.undo_actions, rt.id, version, [last.seq])
            except StaleVersion:
                await self._reload(rt)
                raise ApiError("stale_version", "The game moved on; fetch the new state") from None
            rt.actions.pop()
            rt.previous, rt.current = replay_tail(rt.record, rt.actions)  # rebuilt from the log
            rt.record.version = version
            self._publish(rt)
        return version

    async def _reload(self, rt: Runtime) -> None:
        """Another writer moved the game on (this should not happen with one server
        process): rebuild the runtime from the database."""
        fresh = await self._load(rt.id)
        rt.record, rt.actions = fresh.record, fresh.actions
        rt.current, rt.previous = fresh.current, fresh.previous
        rt.action_ids = fresh.action_ids
        self._publish(rt)

    # -- reading -------------------------------------------------------------------------------
    async def legal(self, game_id: str, token: str | None) -> str:
        """The seat's legal actions with their prices, as JSON text (computed in a worker,
        once per version and seat)."""
        rt = await self.runtime(game_id)
        seat = rt.seat_of(token)
        if seat is None:
            raise ApiError("unauthorized", "A valid seat token is needed")
        game, version = rt.game, rt.record.version
        if game is None:
            raise ApiError("game_not_running", "The game has not started")
        cached = rt.legal_cache
        if cached is not None and cached[:2] == (version, seat):
            return cached[2]
        with metrics.LEGAL_SECONDS.time():
            text = await self.workers.compute(outbound.legal, game, seat)
        if rt.record.version == version:
            rt.legal_cache = (version, seat, text)
        return text

    async def replay_game(self, rt: Runtime, n: int) -> Game:
        """The game after the first `n` actions of its log (replayed in a worker)."""
        if rt.current is None:
            raise ApiError("game_not_running", "The game has not started")
        if not 0 <= n <= len(rt.actions):
            raise ApiError("not_found", f"The game has {len(rt.actions)} actions, not {n}")
        if n == len(rt.actions):
            return rt.current
        return (await self.workers.compute(replay_tail, rt.record, rt.actions[:n]))[1]

    # -- publishing ----------------------------------------------------------------------------
    def subscribe(self, rt: Runtime, sub: Subscriber) -> None:
        """Add a client and send it the full current state at once."""
        rt.subscribers.add(sub)
        sub.send(self.render(rt, sub.seat))

    def unsubscribe(self, rt: Runtime, sub: Subscriber) -> None:
        rt.subscribers.discard(sub)
        self._evict_if_done(rt)

    def _evict_if_done(self, rt: Runtime) -> None:
        """A finished game nobody watches leaves memory (it is reloaded from its log when
        asked for), so a long-running server does not keep every game it ever hosted."""
        if (rt.record.status == "finished" and not rt.subscribers and not rt.lock.locked()
                and self.games.get(rt.id) is rt):
            del self.games[rt.id]

    def render(self, rt: Runtime, seat: int | None) -> str:
        text = rt.rendered.get(seat)
        if text is None:
            text = outbound.dumps(outbound.state(rt.record, rt.game, seat))
            rt.rendered[seat] = text
        return text

    def _publish(self, rt: Runtime) -> None:
        rt.rendered = {}
        for sub in list(rt.subscribers):
            sub.send(self.render(rt, sub.seat))

    # -- bots ----------------------------------------------------------------------------------
    def _kick_bots(self, rt: Runtime) -> None:
        if self._closing or (rt.bot_task is not None and not rt.bot_task.done()):
            return
        if rt.record.status == "running" and rt.game is not None and rt.is_bot(
                rt.game.current_seat):
            rt.bot_task = asyncio.create_task(self._bot_loop(rt), name=f"bots-{rt.id}",
                                              context=logs.background())

    async def _bot_loop(self, rt: Runtime) -> None:
        failures = 0
        while True:
            game = rt.game
            if rt.record.status != "running" or game is None or not rt.is_bot(
                    game.current_seat):
                return  # no await between this check and the end: `_kick_bots` sees done()
            await asyncio.sleep(self.bot_delay if failures == 0 else min(5.0, 0.2 * failures))
            try:
                await self._bot_move(rt, fallback=failures >= 2)
                failures = 0
            except ApiError as exc:
                failures += 1
                log.warning("bot move refused in game %s: %s %s", rt.id, exc.code, exc.message)
            except Exception:
                failures += 1
                log.exception("bot failed in game %s", rt.id)

    async def _bot_move(self, rt: Runtime, fallback: bool) -> None:
        game, version = rt.game, rt.record.version
        if game is None or game.current_seat is None:
            return
        seat = game.current_seat
        choice = await self.workers.compute(bot_choice, game, f"{rt.id}:{version}", fallback)
        # an id nobody can guess: a player who sent it first would stall the bot for good
        await self.submit_as(rt, seat, choice, version, f"bot-{new_token()}")


