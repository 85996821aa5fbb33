"""A deadline for receiving each HTTP request whole, in uvicorn's HTTP protocol.

uvicorn closes a connection that stays idle between requests (`timeout_keep_alive`), but that
timer is reset by every byte received and is not armed while a request is half-sent, so a
client that trickles headers or a body (slowloris), or connects and sends nothing, holds a
connection, a file descriptor and its buffers for ever. ASGI middleware cannot help: the app is
called only once the headers are complete.

`http_protocol(seconds)` wraps uvicorn's HTTP protocol class (httptools, or h11) so that each
request must arrive whole, headers and body, within `seconds` of its first byte (of the
connection's opening, for the first request); else the client gets `408` (`timeout`) and the
connection is closed. The deadline covers receiving only: it is disarmed once the request is
in, so a slow answer is never cut, and on a websocket upgrade (ws.py has its own hello
deadline). The head (request line and headers) is also capped at `MAX_HEAD` bytes (`431`):
httptools, unlike h11, buffers headers without a limit.

`uvicorn_options(settings)` gives the keyword arguments every `uvicorn.run` of this server
passes (`brass serve`, the tests).

Why a subclass of uvicorn's (private) protocol classes, kept on uvicorn's tested range
(pyproject.toml): the deployed proxy (deploy/Caddyfile, `read_header`) owns the slow-header
deadline, but `brass serve` also runs without one (a LAN, the tests), and none of uvicorn's
supported settings gives that guarantee there. `timeout_keep_alive` is armed only after a
response and cancelled by any byte received (so it never closes a connection that sends
nothing, or trickles a request), `h11_max_incomplete_event_size` caps h11's head only (not
httptools'), and `limit_concurrency` refuses new work instead of freeing what a slow client
holds. tests/server/test_hardening.py is what this keeps true without a proxy.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from .settings import Settings
from .socketproto import LeanWebSocketProtocol

MAX_HEAD = 16 * 1024
log = logging.getLogger("brass.server")


def _answer(status: int, reason: str, code: str, message: str) -> bytes:
    body = json.dumps({"code": code, "message": message}).encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode() + body


class RequestDeadline:
    """Mixed in before a uvicorn HTTP protocol class (both have `cycle`, `transport`, `loop`;
    a cycle is one request and its response, and has `more_body` while the body is coming)."""

    request_timeout: float = 10.0
    cycle: Any
    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop

    def connection_made(self, transport: asyncio.Transport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self._deadline: asyncio.TimerHandle | None = None
        self._armed_cycle: Any = None
        self._head = 0
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._deadline is None and (self.cycle is None or self.cycle.response_complete):
            self._arm()  # the first byte of the next request on a kept-alive connection
        super().data_received(data)  # type: ignore[misc]
        if self._deadline is None:
            return
        cycle = self.cycle
        if cycle is self._armed_cycle:  # still reading the head
            self._head += len(data)
            if self._head > MAX_HEAD and not self.transport.is_closing():
                self._disarm()
                self.transport.write(_answer(431, "Request Header Fields Too Large",
                                             "malformed", f"Headers over {MAX_HEAD} bytes"))
                self.transport.close()
        elif not cycle.more_body:
            self._disarm()  # the whole request is in

    def handle_websocket_upgrade(self, *args: Any) -> None:
        self._disarm()
        super().handle_websocket_upgrade(*args)  # type: ignore[misc]

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)  # type: ignore[misc]

    def _arm(self) -> None:
        self._armed_cycle, self._head = self.cycle, 0
        self._deadline = self.loop.call_later(self.request_timeout, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if cycle is self._armed_cycle or not cycle.response_started:
            self.transport.write(_answer(
                408, "Request Timeout", "timeout",
                f"The request did not arrive whole within {self.request_timeout:g} s"))
        self.transport.close()


def _base_protocol(impl: str) -> type[asyncio.Protocol]:
    if impl in ("auto", "httptools"):
        try:
            from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
        except ImportError:
            if impl == "httptools":
                raise
        else:
            return HttpToolsProtocol
    return H11Protocol


def http_protocol(request_timeout: float, impl: str = "auto") -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (`impl`: auto, httptools or h11) with a `request_timeout`
    deadline on receiving each request (for `uvicorn.Config(http=...)`)."""
    base = _base_protocol(impl)
    return type(f"Deadline{base.__name__}", (RequestDeadline, base),
                {"request_timeout": request_timeout})


def uvicorn_options(settings: Settings, impl: str = "auto") -> dict[str, Any]:
    """The keyword arguments of `uvicorn.run` / `uvicorn.Config` for this server."""
    return {"http": http_protocol(settings.request_timeout, impl),
            "ws": LeanWebSocketProtocol,
            "h11_max_incomplete_event_size": MAX_HEAD,
            "ws_max_size": 1024 * 1024, "ws_per_message_deflate": False,
            # forwarded headers only from the proxy, and only when one is said to be there
            "proxy_headers": settings.proxy_headers,
            "forwarded_allow_ips": settings.forwarded_allow_ips}
