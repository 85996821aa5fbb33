"""socketproto.LeanQueue: what a socket needs of an asyncio.Queue, kept in order, woken on
put, and nothing lost when a reader gives up waiting (the hello deadline of ws.py); and the
socket's writer (ws.Connection) lets each message go once it is sent, and writes what is queued
together in one write to the socket (LeanWebSocketProtocol.send_texts)."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from typing import Any, ClassVar

import uvicorn
from starlette.websockets import WebSocket
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from brass.server.socketproto import LeanQueue, LeanWebSocketProtocol
from brass.server.ws import Connection

from .conftest import run_in_own_loop
from .ports import free_port


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


class CountingProtocol(LeanWebSocketProtocol):
    """The server's websocket protocol, its transport's writes counted (what each carried)."""

    writes: ClassVar[list[bytes]] = []

    def connection_made(self, transport: Any) -> None:
        write = transport.write

        def counted(data: bytes) -> None:
            CountingProtocol.writes.append(bytes(data))
            write(data)
        transport.write = counted
        super().connection_made(transport)


def test_messages_queued_together_leave_in_one_write() -> None:
    """A socket's queued messages (the mover's new state and its acknowledgement) go in one
    write to the socket, in order, on a real uvicorn with the server's protocol; a message
    alone goes as before; nothing queued after the end is sent."""
    async def app(scope: Any, receive: Any, send: Any) -> None:
        ws = WebSocket(scope, receive, send)
        await ws.accept()
        conn = Connection(ws)
        assert conn.lean is not None  # the protocol is at hand: the batched path is taken
        for text in ("state", "ack", "chat"):
            conn.send(text)
        writer = asyncio.create_task(conn.writer())
        while not conn.pending.empty():  # the writer took all three at once
            await asyncio.sleep(0.01)
        conn.send("alone")
        conn.finish()
        conn.send("after the end")
        await asyncio.wait_for(writer, timeout=10)
        await ws.close()

    async def scenario() -> tuple[list[str], list[bytes]]:
        CountingProtocol.writes.clear()
        port = free_port()
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                               ws=CountingProtocol, log_level="warning",
                                               ws_per_message_deflate=False))  # as served
        serving = asyncio.create_task(server.serve())
        try:
            while not server.started:
                await asyncio.sleep(0.01)
            heard: list[str] = []
            async with connect(f"ws://127.0.0.1:{port}/") as client:
                with contextlib.suppress(ConnectionClosed):
                    while True:
                        heard.append(str(await asyncio.wait_for(client.recv(), timeout=10)))
            return heard, list(CountingProtocol.writes)
        finally:
            server.should_exit = True
            await asyncio.wait_for(serving, timeout=10)

    heard, writes = run_in_own_loop(scenario())
    assert heard == ["state", "ack", "chat", "alone"], heard
    frames = [w for w in writes if not w.startswith(b"HTTP/")]  # past the handshake
    assert b"state" in frames[0] and b"ack" in frames[0] and b"chat" in frames[0], writes
    assert b"alone" in frames[1] and b"state" not in frames[1], writes
