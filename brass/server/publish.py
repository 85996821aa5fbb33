"""Publishing a game's versions to its subscribers (the clients connected to this instance):
every state message, by seat, after every commit or catch-up; the seat to move gets its legal
moves as soon as they are computed. Nothing here reads or writes the database."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from . import legal, outbound
from .runtime import Runtime, Subscriber

log = logging.getLogger("brass.server")


class Publisher:
    def __init__(self) -> None:
        self._sends: set[asyncio.Task[None]] = set()  # states waiting for their legal moves

    async def close(self) -> None:
        tasks = list(self._sends)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def state_text(self, rt: Runtime, seat: int | None) -> str:
        """The state message of the current version for `seat` (None: a spectator), as JSON
        text; the seat to move waits for its legal moves (computed once per version)."""
        while True:
            version = rt.record.version
            text = rt.rendered.get(seat)
            if text is not None:
                return outbound.stamped(text)
            moves = None
            if seat is not None and seat == rt.mover:
                moves = await legal.text(rt, seat)
                if rt.record.version != version:
                    continue  # moved on meanwhile: the newer state instead
            text = rt.rendered[seat] = outbound.state_text(rt, seat, moves)
            return outbound.stamped(text)

    async def subscribe(self, rt: Runtime, sub: Subscriber) -> None:
        """Add a client and send it the full current state at once."""
        text = await self.state_text(rt, sub.seat)
        rt.subscribers.add(sub)  # no await since the text: no state can be missed
        sub.send(text)

    def publish(self, rt: Runtime) -> asyncio.Task[None] | None:
        """Send the new state to every client at once; the seat to move gets it first without
        its legal moves (`legal` null), then again at the same version with them, as soon as
        they are computed (a newer state makes that message needless): the task that sends
        it. So a slow list of moves never delays the new version on any screen. If they are
        ready already (computed while the move was written), the mover gets one message."""
        rt.rendered, rt.parts = {}, None
        rt.changed.set()
        mover, version = rt.mover, rt.record.version
        ready = legal.ready(rt, version, mover)
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
            legal.forget(rt, version, mover)
        if not waiting:
            return None
        task = asyncio.create_task(self._send_when_ready(rt, version, mover, waiting))
        self._sends.add(task)
        task.add_done_callback(self._sends.discard)
        return task

    @staticmethod
    async def sent(sending: asyncio.Task[None] | None, rt: Runtime, seat: int) -> None:
        """Wait until the seat that acted holds the state its action made with its legal moves,
        if it is still to move (so the acknowledgement comes after everything it needs)."""
        if sending is not None and rt.mover == seat:
            with contextlib.suppress(Exception):
                await asyncio.shield(sending)

    @staticmethod
    def render_now(rt: Runtime, seat: int | None) -> str:
        text = rt.rendered.get(seat)
        if text is None:
            text = rt.rendered[seat] = outbound.state_text(rt, seat, None)
        return outbound.stamped(text)

    @staticmethod
    def unseat(rt: Runtime, seat: int, message: str) -> list[Subscriber]:
        """The sockets of `seat` may watch, not play, from now (its link changed): told why.
        Those sockets."""
        subs = [s for s in rt.subscribers if s.seat == seat]
        for sub in subs:
            sub.seat = None
            sub.send(outbound.dumps(outbound.ws_error("unauthorized", message)))
        return subs

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
        legal.forget(rt, version, seat)
