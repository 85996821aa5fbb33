"""socketproto.LeanQueue: what a socket needs of an asyncio.Queue, kept in order, woken on
put, and nothing lost when a reader gives up waiting (the hello deadline of ws.py); and the
socket's writer (ws.Connection) lets each message go once it is sent."""

from __future__ import annotations

import asyncio
import sys

from brass.server.socketproto import LeanQueue
from brass.server.ws import Connection

from .conftest import run_in_own_loop


def test_items_come_out_in_order_and_a_waiting_reader_wakes() -> None:
    async def scenario() -> tuple[list[int], list[int], bool, int]:
        queue: LeanQueue[int] = LeanQueue()
        for n in range(3):
            queue.put_nowait(n)
        first = [await queue.get() for _ in range(3)]
        reader = asyncio.create_task(queue.get())
        await asyncio.sleep(0)
        assert not reader.done()  # nothing queued: it waits
        queue.put_nowait(7)
        queue.put_nowait(8)
        woken = [await asyncio.wait_for(reader, timeout=10), await queue.get()]
        return first, woken, queue.empty(), queue.qsize()

    first, woken, empty, size = run_in_own_loop(scenario())
    assert first == [0, 1, 2] and woken == [7, 8] and empty and size == 0


def test_a_reader_that_times_out_loses_nothing() -> None:
    async def scenario() -> tuple[bool, list[str]]:
        queue: LeanQueue[str] = LeanQueue()
        timed_out = False
        try:
            async with asyncio.timeout(0.01):
                await queue.get()
        except TimeoutError:
            timed_out = True
        queue.put_nowait("a")  # no waiter left behind to swallow it
        queue.put_nowait("b")
        return timed_out, [await queue.get(), await queue.get()]

    assert run_in_own_loop(scenario()) == (True, ["a", "b"])


class Sink:
    """What `Connection` uses of its socket: `send_text` (counted, not kept) and `close`."""

    def __init__(self) -> None:
        self.sent = 0

    async def send_text(self, text: str) -> None:
        self.sent += 1

    async def close(self, code: int = 1000) -> None:
        pass


def test_an_idle_socket_holds_no_message_it_sent() -> None:
    """The writer waiting for the next message must not keep the last one: for the seat to
    move it carries the legal moves (tens of KB), for as long as the player thinks."""
    async def scenario() -> tuple[int, int, int]:
        sink = Sink()
        conn = Connection(sink)  # type: ignore[arg-type]
        text = "".join(["{", "x" * 40_000, "}"])  # a new object, referenced only here
        alone = sys.getrefcount(text)
        writer = asyncio.create_task(conn.writer())
        conn.send(text)
        while sink.sent < 1:
            await asyncio.sleep(0)
        await asyncio.sleep(0)  # the writer waits for the next message again
        after = sys.getrefcount(text)
        conn.finish()
        await asyncio.wait_for(writer, timeout=10)
        return alone, after, sink.sent

    alone, after, sent = run_in_own_loop(scenario())
    assert sent == 1 and after == alone, (alone, after)
