"""The lobby: creating, listing and joining games, invites, the host's control of a waiting
game's seats, bots taking seats, and waiting games that expire. Calls the core (core.py)."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import secrets
from collections.abc import Callable

from brass.bots import LevelName
from brass.engine import ENGINE_VERSION, Game, new_game

from . import clocks, outage
from .auth import new_token, token_hash, token_matches
from .clocks import Clock
from .core import GameCore
from .errors import ApiError
from .leases import needs_work
from .movewrite import MoveWriter
from .runtime import Runtime
from .storage import BrowserSeated, Claimed, GameRecord, ListQuery, SeatRecord, now


def new_game_id() -> str:
    """72 random bits as URL-safe text, never starting with "-" (a command line would take
    it for an option: `brass export -x...`)."""
    while (game_id := secrets.token_urlsafe(9)).startswith("-"):
        pass
    return game_id


class Lobby:
    def __init__(self, core: GameCore, writer: MoveWriter | None = None,
                 clock_minimum: float = 30.0, finished_listed: float = 0.0) -> None:
        self.core = core
        self.writer = writer  # creating a game and taking a seat on the event loop (Postgres)
        self.clock_minimum = clock_minimum  # seconds: the shortest turn, reserve or hand-over
        self.finished_listed = finished_listed  # seconds; 0: finished games stay listed

    async def list_games(self, query: ListQuery) -> list[tuple[GameRecord, Game | None]]:
        """A page of the listing (from the database; a game held here adds whose turn it is).
        Finished games older than `finished_listed` are left out."""
        if self.finished_listed > 0:
            query = dataclasses.replace(
                query, finished_since=now() - dt.timedelta(seconds=self.finished_listed))
        out = []
        for r in await self.core.db(self.core.storage.list_games, query):
            rt = self.core.games.get(r.id)
            out.append((r, rt.game) if rt is not None else (r, None))
        return out

    async def set_listed(self, rt: Runtime, listed: bool) -> None:
        """Host only (deps.HostToList)."""
        await self.core.db(self.core.storage.set_listed, rt.id, listed)
        rt.record.listed = listed
        self.core.publish(rt)

    async def expire_waiting(self, idle: float) -> list[str]:
        """Waiting games nobody joined for `idle` seconds expire (refused from then on)."""
        ids = await self.core.db(self.core.storage.expire_waiting,
                                 now() - dt.timedelta(seconds=idle))
        for game_id in ids:
            rt = self.core.games.get(game_id)
            if rt is not None:
                async with rt.lock:
                    if rt.record.status == "waiting":
                        rt.record.status = "expired"
                        self.core.publish(rt)
        return ids

    async def expire_forever(self, idle: float) -> None:
        """Expire idle waiting games, often enough that none lives a quarter longer."""
        pause = min(60.0, max(0.5, idle / 4))
        while True:
            try:
                await self.expire_waiting(idle)
            except Exception as exc:
                outage.background(exc, "cannot expire waiting games")
            await asyncio.sleep(pause)

    async def create_game(self, players: int, name: str, listed: bool = False,
                          clock: Clock | None = None,
                          shared_screen: bool = False,
                          host_player_id: str | None = None) -> tuple[str, str, str]:
        """A new waiting game: its id, the host's secret and the invite secret (joining an
        unlisted game needs it; only their hashes are stored). `host_player_id`: the
        creator's player, who hosts it by their cookie too (deps.hosts)."""
        clock = clock or Clock()
        wrong = clocks.problems(clock, self.clock_minimum)
        if wrong:  # a value out of its range is named with it (`clock_range`), for the page
            off = clocks.out_of_range(clock, self.clock_minimum)
            raise ApiError("malformed", "Clock: " + "; ".join(wrong),
                           reason=None if off is None else "clock_range",
                           params=None if off is None else dict(zip(
                               ("field", "value", "least", "most"), off, strict=True)))
        host_token, invite = new_token(), new_token()
        stamp = now()
        reserves = clocks.start_reserves(clock, players)
        record = GameRecord(
            id=new_game_id(), name=name, players=players, status="waiting",
            seed=secrets.randbits(62), setup=None, version=0, engine_version=ENGINE_VERSION,
            host_token_hash=token_hash(host_token), created_at=stamp, updated_at=stamp,
            seats=[SeatRecord(seat=s, reserve=reserves[s]) for s in range(players)],
            listed=listed, invite_hash=token_hash(invite),
            settings={"clock": clock.to_json(), "shared_screen": shared_screen},
            host_player_id=host_player_id)
        storage = self.core.storage
        if self.writer is not None and (quick := storage.plan_create(record)) is not None:
            await self.writer.create(quick)
        else:
            await self.core.db(storage.create_game, record)
        await self.core.hold_new(Runtime(record=record))
        return record.id, host_token, invite

    async def join(self, game_id: str, name: str, invite: str | None = None,
                   browser: str | None = None,
                   player_id: str | None = None) -> tuple[int, str]:
        """Take a free seat. An unlisted game needs its invite secret (a listed game is
        public: the listing is its invitation). `browser`: the joining browser's id; unless
        the game allows a shared screen, a browser takes one seat. `player_id`: the player
        whose device joins (the seat is theirs: docs/PLAYERS.md)."""
        rt = await self.core.runtime(game_id)
        refused = invite_refusal(rt.record, invite)
        if refused is not None:
            raise refused
        token = new_token()
        seat = await self._claim(rt, None, name, token_hash(token), bot=False,
                                 browser=None if browser is None else token_hash(browser),
                                 player_id=player_id)
        return seat, token

    async def renew_invite(self, rt: Runtime) -> str:
        """Host only: a new invite secret; the old invite link stops working at once."""
        _waiting(rt, "renew the invite link")
        async with rt.lock:
            invite = new_token()
            await self.core.db(self.core.storage.renew_invite, rt.id, token_hash(invite))
            rt.record.invite_hash = token_hash(invite)
            return invite

    async def renew(self, rt: Runtime, seat: int | None, token: str) -> tuple[int | None, str]:
        """A new secret for the seat (None: the host) whose `token` this is (deps.Holder);
        the old one stops working at once, and sockets opened with it go on as spectators.
        Returns (seat or None for the host, new token). The write is conditional on the
        token sent: a link renewed meanwhile is refused."""
        async with rt.lock:
            fresh = new_token()
            if not await self.core.db(self.core.storage.renew_token, rt.id, seat,
                                      token_hash(token), token_hash(fresh)):
                raise ApiError("unauthorized", "This link was renewed meanwhile")
            if seat is None:
                rt.record.host_token_hash = token_hash(fresh)
                return None, fresh
            rt.record.seats[seat].token_hash = token_hash(fresh)
            publisher = self.core.publisher
            for sub in publisher.unseat(rt, seat, "This seat's link was renewed: open the new "
                                        "link to play"):
                sub.send(publisher.render_now(rt, None))
            return seat, fresh

    async def remove_seat(self, rt: Runtime, seat: int) -> None:
        """The host empties a taken seat of a waiting game: its player's token stops working
        (their sockets go on as spectators), a bot leaves."""
        _waiting(rt, "remove a player")
        async with rt.lock:
            record = rt.record
            if record.status != "waiting":
                raise ApiError("game_not_running", "The game has started")
            if not 0 <= seat < len(record.seats):
                raise ApiError("not_found", f"No seat {seat}")
            if not record.seats[seat].taken:
                raise ApiError("illegal", f"Seat {seat} is already free")
            if not await self.core.db(self.core.storage.free_seat, rt.id, seat):
                raise ApiError("game_not_running", "The game has started")
            record.seats[seat] = SeatRecord(seat=seat, reserve=record.seats[seat].reserve)
            self.core.publisher.unseat(rt, seat, "The host removed you from this game")
            self.core.publish(rt)

    async def cancel(self, rt: Runtime) -> None:
        """The host calls a waiting game off: nobody can join it any more."""
        _waiting(rt, "cancel the game")
        async with rt.lock:
            if rt.record.status != "waiting" or not await self.core.db(
                    self.core.storage.cancel_game, rt.id):
                raise ApiError("game_not_running", "The game has started")
            rt.record.status, rt.record.called_off_by = "cancelled", "host"
            self.core.publish(rt)

    async def add_bot(self, rt: Runtime, seat: int | None, level: LevelName = "medium") -> int:
        """Host only (deps.HostToAddBots): a bot takes a seat."""
        return await self._claim(rt, seat, None, None, bot=True, bot_level=level)

    async def _claim(self, rt: Runtime, seat: int | None, name: str | None,
                     hashed: str | None, bot: bool, browser: str | None = None,
                     bot_level: LevelName | None = None, player_id: str | None = None) -> int:
        """Take a seat; the database picks the seat (if none is asked for) and starts the game
        when it was the last free one. A refusal means another instance changed the game: catch
        up and check again, so the error says what the database holds."""
        async with rt.lock:
            for _attempt in range(2):
                record = rt.record
                _claimable(record, seat)
                made: list[Game] = []

                def first(record: GameRecord = record, made: list[Game] = made) -> Game:
                    if not made:
                        made.append(new_game(record.players, record.seed, record.setup))
                    return made[0]

                try:
                    claimed = await self._claimed(rt, first, seat, name, hashed, bot, browser,
                                                  not record.shared_screen, bot_level,
                                                  player_id)
                except BrowserSeated:
                    raise ApiError("one_seat_per_browser", "This browser already holds a seat "
                                   "in this game, and the host did not allow a shared screen"
                                   ) from None
                if claimed is not None:
                    break
                await self.core.caught_up(rt)
            else:
                raise ApiError("seat_taken", "Every seat you could take was taken meanwhile")
            rt.record = claimed.record
            if claimed.started:
                rt.turn, rt.snapshots = [made[0]], [0]
            self.core.publish(rt)
        if claimed.started:
            if needs_work(claimed.record):
                self.core.tending.poke(rt.id)
            self.core.reach.game_started(rt)
            self.core.reach.turn_began(rt)
        return claimed.seat

    async def _claimed(self, rt: Runtime, first: Callable[[], Game], seat: int | None,
                       name: str | None, hashed: str | None, bot: bool, browser: str | None,
                       one_per_browser: bool, bot_level: LevelName | None,
                       player_id: str | None) -> Claimed | None:
        """The claim's write: on the event loop where it has a plan (quicklobby.py), else in
        a database thread. The plan of a claim of the seat `rt` has as the last free one
        carries the first state; one that would fill the game without it is refused (and
        caught up)."""
        storage = self.core.storage
        last = sum(not s.taken for s in rt.record.seats) == 1
        if self.writer is not None and (quick := storage.plan_claim(
                rt.record, seat, name, hashed, bot, first() if last else None, browser,
                one_per_browser, bot_level, player_id)) is not None:
            return await self.writer.claim(quick)
        return await self.core.db(storage.claim_seat, rt.id, seat, name, hashed, bot, first,
                                  browser, one_per_browser, bot_level, player_id)


def _claimable(record: GameRecord, seat: int | None) -> None:
    """Refused unless the game waits and has the seat asked for (any, if None) free."""
    if record.status == "expired":
        raise ApiError("game_not_running", "This game expired: nobody joined it in time")
    if record.status == "cancelled":
        raise ApiError("game_not_running", "The host called this game off"
                       if record.called_off_by != "admin" else "The server's admin ended this game")
    if record.status == "finished":
        raise ApiError("game_not_running", "This game is over: watch it, or its replay")
    if record.status != "waiting":
        raise ApiError("game_not_running", "The game has started: every seat is taken")
    free = [s.seat for s in record.seats if not s.taken]
    if not free:
        raise ApiError("seat_taken", "Every seat is taken")
    if seat is not None and not 0 <= seat < len(record.seats):
        raise ApiError("malformed", f"This game has seats 0 to {len(record.seats) - 1}")
    if seat is not None and seat not in free:
        raise ApiError("seat_taken", f"Seat {seat} is not free")


def invite_refusal(record: GameRecord, invite: str | None) -> ApiError | None:
    """Why `invite` does not let its holder join (None: it does): an unlisted game needs its
    current invite secret (a listed game is public: the listing is its invitation)."""
    if record.listed or record.invite_hash is None or token_matches(invite, record.invite_hash):
        return None
    return ApiError("unauthorized", "This game is joined with its invite link: ask the host "
                    "for it" if invite is None else "This invite link is not (or no longer) "
                    "valid: ask the host for the new one")


def _waiting(rt: Runtime, what: str) -> None:
    """Refused unless the game still waits for players (what the host may change then)."""
    if rt.record.status != "waiting":
        raise ApiError("game_not_running", f"Game {rt.id} is {rt.record.status}: only a "
                       f"waiting game's host can {what}")
