"""uvicorn's websocket protocol (websockets' sans-I/O one), holding less per open socket.

uvicorn keeps the handshake's parsed request and response, with their headers, for the whole
life of a socket (about 4 KB), and the ASGI scope's copy of the request headers (about 1 KB);
nothing reads them once the handshake is answered, and a live game has five sockets open for
hours. `LeanWebSocketProtocol` lets them go as soon as the accept is sent (and empties the
request's headers, which websockets' parser holds on to: 2.6 KB), and queues what it
receives in a `LeanQueue` rather than an `asyncio.Queue` (2.3 KB: four deques and an event)
(`Config(ws=...)`, set by `request_deadlines.uvicorn_options`), and writes the messages a
socket has queued at once in one write (`send_texts`). Everything else is uvicorn's.
"""

from __future__ import annotations

import asyncio
from typing import Any, Generic, TypeVar

from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState

T = TypeVar("T")


class LeanQueue(Generic[T]):
    """The part of `asyncio.Queue` a socket uses (`put_nowait`, `get`, `empty`, `qsize`), for
    one reader: a list and, while the reader waits, one future. Unbounded: the writer bounds
    it (ws.Connection drops a client too far behind; a client's frames are bounded by the
    read buffer uvicorn pauses on)."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[T] = []
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: T) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> T:
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.pop(0)

    def empty(self) -> bool:
        return not self._items

    def ready(self) -> list[T]:
        """Everything queued now, in order, taken off the queue (no wait)."""
        items, self._items = self._items, []
        return items

    def qsize(self) -> int:
        return len(self._items)


class LeanWebSocketProtocol(WebSocketsSansIOProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = LeanQueue()  # type: ignore[assignment]

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.accept" and self.handshake_complete:
            # read by uvicorn only before and while accepting (handle_connect, send); the
            # request's headers are emptied too: websockets' parser keeps the request itself
            if self.request is not None:
                self.request.headers.clear()
            self.request = self.response = None  # type: ignore[assignment]
            self.scope["headers"] = []  # the app read what it needed before accepting

    async def send_texts(self, texts: list[str]) -> None:
        """Text frames, in order, in one write to the socket, where uvicorn's `send` writes
        each alone: a write is a system call, and on loopback (a proxy on the same machine)
        the kernel delivers it within the call, a tenth of a millisecond or so. The seat that
        moved gets its new state and its acknowledgement together so (ws.Connection). What
        `send` checks for a "websocket.send" is checked alike; before the handshake is
        complete or once a close is sent, each goes through `send`."""
        if not self.handshake_complete or self.close_sent or self.initial_response is not None:
            for text in texts:
                await self.send({"type": "websocket.send", "text": text})
            return
        await self.writable.wait()
        if self.disconnected:
            raise ClientDisconnected()
        try:
            for text in texts:
                self.conn.send_text(text.encode())
        except InvalidState:
            raise ClientDisconnected() from None
        self.transport.write(b"".join(self.conn.data_to_send()))
