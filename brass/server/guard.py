"""ASGI middleware that hardens the server for the open internet (issue 8).

- `SecurityHeaders`: every HTTP answer says `nosniff`, may not be framed (`frame-ancestors
  'none'` and `X-Frame-Options: DENY`) and sends no `Referer` (seat tokens live in URL
  fragments). HTML pages get a Content-Security-Policy that allows only this origin (plus
  the websocket of this host), and so does a service worker's script (the browser asks for it
  with `Service-Worker: script`; its policy is the worker's, which fetches the app shell);
  everything else gets `default-src 'none'`. An answer that set
  its own policy (the API docs) keeps it.
- `SocketCap`: at most `limit` open websockets per client address; the next one is refused
  before the handshake with `429` (`too_many_sockets`, `Retry-After`), or, where the server
  cannot answer a websocket with HTTP, closed with 1013 (try again later).

`install(app, settings)` adds both, the hello deadline of ws.py and the local API docs.
"""

from __future__ import annotations

import re
from collections import Counter

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.routing import Match, Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import docs, outbound
from .settings import Settings

# A Host header that is a plain host name or address (and port): anything else could write
# other directives into the policy, so it only gets 'self'.
_HOST = re.compile(r"(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?")

PAGE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
               "font-src 'self'; connect-src 'self'{sockets}; object-src 'none'; "
               "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
OTHER_POLICY = "default-src 'none'; frame-ancestors 'none'"
COMMON = [("x-content-type-options", "nosniff"), ("x-frame-options", "DENY"),
          ("referrer-policy", "no-referrer")]
SOCKET_RETRY_AFTER = 10  # seconds: a place frees when one of the client's sockets closes


def page_policy(host: str | None) -> str:
    """The CSP of an HTML page served as `host`: this origin only, and its websocket."""
    sockets = f" ws://{host} wss://{host}" if host and _HOST.fullmatch(host) else ""
    return PAGE_POLICY.format(sockets=sockets)


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, with_headers(scope, send) if scope["type"] == "http"
                       else send)


def with_headers(scope: Scope, send: Send) -> Send:
    """`send`, adding the security headers to the start of the answer."""

    async def sender(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = MutableHeaders(scope=message)
            for name, value in COMMON:
                if name not in headers:
                    headers.append(name, value)
            # a 304 keeps the cached answer's own policy: the browser merges the 304's headers
            # into it, and a page given `default-src 'none'` on a reload would not start
            if "content-security-policy" not in headers and message["status"] != 304:
                asked = dict(scope["headers"])
                html = (headers.get("content-type", "").startswith("text/html")
                        or asked.get(b"service-worker") == b"script")
                host = asked.get(b"host", b"").decode("latin-1")
                headers.append("content-security-policy",
                               page_policy(host) if html else OTHER_POLICY)
        await send(message)

    return sender


class SocketCap:
    """At most `limit` open websockets per client address (0: no limit). Not a middleware: a
    game's socket enters through `ws.enter`, before any (see there), which asks `admit` and
    calls `release` when the socket ends."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: Counter[str] = Counter()

    @staticmethod
    def address(scope: Scope) -> str:
        client = scope.get("client")
        return client[0] if client else "unknown"

    def admit(self, address: str) -> bool:
        """Count one more socket from `address`, unless it has `limit` open already."""
        if self.limit <= 0:
            return True
        if self.open[address] >= self.limit:
            return False
        self.open[address] += 1
        return True

    def release(self, address: str) -> None:
        if self.limit <= 0:
            return
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]

    async def refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = f"Too many open websockets from this address (at most {self.limit})"
        if "websocket.http.response" in scope.get("extensions", {}):
            refusal = JSONResponse(outbound.error("too_many_sockets", message), status_code=429,
                                   headers={"Retry-After": str(SOCKET_RETRY_AFTER)})
            await refusal(scope, receive, send)
        else:
            await send({"type": "websocket.close", "code": 1013, "reason": message[:120]})


def allowed_methods(app: Starlette, scope: Scope) -> str:
    """The `Allow` of a 405: the methods of every route at this path (Starlette's own 405
    names those of the first route only, and a path can have several: GET and POST; behind
    the web client's catch-all mount it names none)."""
    methods: set[str] = set()
    for method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"):
        probe = {"type": "http", "path": scope["path"], "root_path": "", "method": method}
        if any(not isinstance(route, Mount) and route.matches(probe)[0] is Match.FULL
               for route in app.routes):
            methods.add(method)
    return ", ".join(sorted(methods)) or "GET, HEAD"  # else the web client's static files


def install(app: FastAPI, settings: Settings) -> None:
    """Add the hardening to `app` (before the web client's catch-all mount)."""
    app.state.hello_timeout = settings.hello_timeout
    docs.install(app)
    app.state.socket_cap = SocketCap(settings.sockets_per_address)
    app.add_middleware(SecurityHeaders)
