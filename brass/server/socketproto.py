"""uvicorn's websocket protocol (websockets' sans-I/O one), holding less per open socket.

uvicorn keeps the handshake's parsed request and response, with their headers, for the whole
life of a socket (about 4 KB), and the ASGI scope's copy of the request headers (about 1 KB);
nothing reads them once the handshake is answered, and a live game has five sockets open for
hours. `LeanWebSocketProtocol` lets them go as soon as the accept is sent (`Config(ws=...)`,
set by `timeouts.uvicorn_options`). Everything else is uvicorn's.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class LeanWebSocketProtocol(WebSocketsSansIOProtocol):
    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.accept" and self.handshake_complete:
            # read by uvicorn only before and while accepting (handle_connect, send)
            self.request = self.response = None  # type: ignore[assignment]
            self.scope["headers"] = []  # the app read what it needed before accepting
