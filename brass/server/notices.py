"""The notices hub (docs/REACH.md): what a player outside the game is told of, and by which
roads. The places that commit an event call it (play.py, lobby.py, seats.py, rematch.py,
chat.py, nudges.py), on the instance whose write committed it only, so each notice is sent
once however many instances serve the game. The hub decides whom to tell; each channel
(push.py's `Pusher` today: it queues the notice, and a process of its own at the lowest
priority sends it) delivers to a player's devices if the player's switch for that kind is
on (pushstore.py).

Never while the player looks at the game: a game socket of theirs that said it is visible
(`{"type": "visible"}`, ws.py) holds every notice of that game back, on this instance or on
another (watching.py: a row the other instance keeps while its socket shows the game).
Bursts are coalesced: one turn notice per game per turn (a push service also replaces an
undelivered notice of the same game and kind: its `Topic`)."""

from __future__ import annotations

import asyncio
import logging
import re
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Literal, Protocol, get_args

from .watching import shown_here

if TYPE_CHECKING:
    from .runtime import Runtime
    from .watching import Watching

log = logging.getLogger("brass.server")
NoticeKind = Literal["turn", "started", "ended", "replaced", "rematch", "chat", "nudge", "clock"]
KINDS: tuple[str, ...] = get_args(NoticeKind)
TOLD_KEPT = 10_000  # games whose last turn notice is remembered (coalescing), at most
CHAT_CHARS = 120  # a chat notice carries the start of the line


class Channel(Protocol):
    """A road to a player's devices; it checks the player's switch for the kind."""

    def notify(self, player_id: str, payload: dict[str, Any]) -> None: ...


class Watcher(Protocol):
    """A road that follows whole games rather than players (mailnotices.py: the turn mail of
    correspondence games; webhooks.py: a game's own URL): told of every turn and end."""

    def turn_began(self, rt: Runtime) -> None: ...

    def game_ended(self, rt: Runtime) -> None: ...


class Notices:
    """The hub: each event becomes a notice to the players it concerns (core.py's `reach`)."""

    def __init__(self, channels: list[Channel] | None = None) -> None:
        self.channels: list[Channel] = list(channels or [])
        self.watchers: list[Watcher] = []
        self._told: OrderedDict[str, tuple[int, int]] = OrderedDict()  # game: (count, seat)
        self.shown: Watching | None = None  # every instance's visible sockets (Postgres)
        self._tasks: set[asyncio.Task[None]] = set()  # notices waiting on that read

    # -- events ------------------------------------------------------------------------------
    def turn_began(self, rt: Runtime) -> None:
        """The turn passed to a seat (or the game started): its player is told, once per
        turn (the same turn announced again is not sent again)."""
        self._watchers("turn_began", rt)
        seat = rt.mover
        if seat is None or rt.is_bot(seat):
            return  # a bot moves (for the seat's player, perhaps): nobody to tell
        turn = (rt.count, seat)
        if self._told.get(rt.id) == turn:
            return
        self._told[rt.id] = turn
        self._told.move_to_end(rt.id)
        while len(self._told) > TOLD_KEPT:
            self._told.popitem(last=False)
        self._to_seat(rt, seat, "turn")

    def game_started(self, rt: Runtime) -> None:
        """Every player seated in the game, but the first mover (told "turn" instead)."""
        for seat in _people(rt):
            if seat != rt.mover:
                self._to_seat(rt, seat, "started")

    def game_ended(self, rt: Runtime) -> None:
        """Every player seated in the game, a bot standing in for them or not, with their
        place (`place` of `players`: the engine's ranks, VP then income then money; none
        for a game called off before its end)."""
        self._watchers("game_ended", rt)
        ranks = rt.game.ranks() if rt.game is not None and rt.game.is_over else None
        for seat in _people(rt):
            result = {} if ranks is None else {"place": ranks[seat],
                                                "players": rt.record.players}
            self._to_seat(rt, seat, "ended", **result)
        self._told.pop(rt.id, None)

    def seat_replaced(self, rt: Runtime, seat: int, why: str) -> None:
        """A bot plays the seat for its player now (`why`: timeout or handover)."""
        self._to_seat(rt, seat, "replaced", why=why)

    def rematch_offered(self, rt: Runtime, by: int) -> None:
        """The other players of the finished game are asked to a rematch."""
        for seat in _people(rt):
            if seat != by:
                self._to_seat(rt, seat, "rematch", by=_seat_name(rt, by))

    def chat_to(self, rt: Runtime, sender: int | None, text: str) -> None:
        """A seated player's line that @-mentions another seat's name is addressed to that
        seat's player (a spectator's line reaches nobody outside the game)."""
        if sender is None:
            return
        for seat in mentioned(rt, text):
            if seat != sender:
                self._to_seat(rt, seat, "chat", by=_seat_name(rt, sender),
                              text=text[:CHAT_CHARS])

    def nudged(self, rt: Runtime, seat: int, by: int) -> None:
        """Another player asks the seat to move (nudges.py checked the rules)."""
        self._to_seat(rt, seat, "nudge", by=_seat_name(rt, by))

    def notify(self, player_id: str, payload: dict[str, Any]) -> None:
        """A notice built elsewhere (reminders: kind "clock") to every channel."""
        for channel in self.channels:
            channel.notify(player_id, payload)

    def _watchers(self, event: str, rt: Runtime) -> None:
        """Each watcher in turn; one that fails is logged and the others still hear."""
        for watcher in self.watchers:
            try:
                getattr(watcher, event)(rt)
            except Exception:
                log.exception("%s of game %s failed in %s", event, rt.id,
                              type(watcher).__name__)

    # -- whom and when ---------------------------------------------------------------------
    def _to_seat(self, rt: Runtime, seat: int, kind: NoticeKind, **extra: Any) -> None:
        player_id = rt.record.seats[seat].player_id
        if player_id is None or shown_here(rt, player_id):
            return
        payload = {"kind": kind, "game": rt.id, "name": rt.record.name, "seat": seat,
                   "url": f"/#/game/{rt.id}", **extra}
        if self.shown is None:
            self.notify(player_id, payload)
            return
        task = asyncio.create_task(self._unless_shown_elsewhere(player_id, payload))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _unless_shown_elsewhere(self, player_id: str, payload: dict[str, Any]) -> None:
        """Send, unless a socket of the player's on another instance shows the game."""
        assert self.shown is not None
        if await self.shown.elsewhere(player_id, payload["game"]):
            log.info("notice %s of game %s to player %s held back: shown on another instance",
                     payload["kind"], payload["game"], player_id)
            return
        self.notify(player_id, payload)

    async def idle(self) -> None:
        """Every notice decided so far was handed to the channels (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


def mentioned(rt: Runtime, text: str) -> list[int]:
    """The seats whose name follows an "@" in the line (any case; a name ends at the end of
    the line or at a character that is not a letter or digit)."""
    found = []
    for seat in rt.record.seats:
        name = (seat.name or "").strip()
        if name and re.search(rf"@{re.escape(name)}(?!\w)", text, re.IGNORECASE):
            found.append(seat.seat)
    return found


def _people(rt: Runtime) -> list[int]:
    """The seats a player holds (not a bot's seats)."""
    return [s.seat for s in rt.record.seats if s.player_id is not None and not s.bot]


def _seat_name(rt: Runtime, seat: int) -> str:
    return rt.record.seats[seat].name or f"Seat {seat + 1}"
