"""Logging: every line has its time (UTC), level and logger, and the id of the HTTP request or
websocket connection it belongs to; text lines by default, one JSON object per line with
`BRASS_LOG_FORMAT=json`. Uvicorn's own and access logs go through the same handler.

The request id is the client's `X-Request-ID` when it is sane (1 to 128 letters, digits and
`._:-`), else a new random one; the response echoes it (also on a websocket's handshake). It
lives in a context variable, so every line logged while the request is served carries it
(ours, uvicorn's access and connection lines). One exception, at debug level only: the
websockets library logs the frames it reads from the network callback, outside any
request's context, so those lines have no id.

Tokens are never logged: nothing here logs headers or bodies, and a last filter blanks any
`"token": "..."`, `"host_token": "..."` or `Bearer ...` that another library would log (the
websockets library logs whole frames at debug level, a `hello` carries a seat token).
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import sys
import time
from contextvars import Context, ContextVar
from typing import IO, Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

REQUEST_ID: ContextVar[str | None] = ContextVar("brass_request_id", default=None)
HEADER = b"x-request-id"
_SANE_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
_SECRETS = [
    (re.compile(r"""(["']?(?:host_)?token["']?\s*[:=]\s*["'])[^"']*"""), r"\1[redacted]"),
    (re.compile(r"(bearer\s+)[^\s\"',]+", re.IGNORECASE), r"\1[redacted]"),
]
# library loggers that are too chatty below these levels
QUIET = {"sqlalchemy": logging.WARNING, "alembic": logging.WARNING,
         "multipart": logging.INFO, "asyncio": logging.INFO}


def redact(text: str) -> str:
    for pattern, replacement in _SECRETS:
        text = pattern.sub(replacement, text)
    return text


def request_id_from(headers: list[tuple[bytes, bytes]]) -> str:
    """The client's request id if it is sane, else a new one."""
    for name, value in headers:
        if name.lower() == HEADER:
            text = value.decode("latin-1")
            if _SANE_ID.fullmatch(text):
                return text
            break
    return secrets.token_hex(8)


def background() -> Context:
    """A context without a request id, for a task that outlives the request that starts it
    (`asyncio.create_task(..., context=logs.background())`)."""
    context = Context()
    context.run(REQUEST_ID.set, None)
    return context


def request_id_of(record: logging.LogRecord) -> str | None:
    rid: str | None = getattr(record, "request_id", None) or REQUEST_ID.get()
    return rid


def _stamp(record: logging.LogRecord) -> str:
    return (time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z")


class TextFormatter(logging.Formatter):
    """`2026-12-01T10:00:00.123Z INFO brass.server [req 5f2a...] message`"""

    def format(self, record: logging.LogRecord) -> str:
        rid = request_id_of(record)
        line = (f"{_stamp(record)} {record.levelname} {record.name}"
                f"{f' [req {rid}]' if rid else ''} {record.getMessage()}")
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return redact(line)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request_id (when there is
    one), the access log's fields, exception (a traceback's text)."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {"time": _stamp(record), "level": record.levelname,
                               "logger": record.name, "message": redact(record.getMessage())}
        rid = request_id_of(record)
        if rid:
            out["request_id"] = rid
        if record.name == "uvicorn.access" and isinstance(record.args, tuple) \
                and len(record.args) == 5:
            client, method, path, _version, status = record.args
            out.update(client=client, method=method, path=path, status=status)
        if record.exc_info:
            out["exception"] = redact(self.formatException(record.exc_info))
        return json.dumps(out, default=str)


def configure(level: str = "info", fmt: str = "text", stream: IO[str] | None = None) -> None:
    """Send every log record (ours, uvicorn's, the libraries') to one handler on stderr."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    numeric = logging.getLevelName(level.upper())
    root.setLevel(numeric)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi"):
        logger = logging.getLogger(name)
        logger.handlers = []
        logger.propagate = True
        logger.setLevel(numeric)
    for name, floor in QUIET.items():
        logging.getLogger(name).setLevel(max(numeric, floor))


class RequestIds:
    """ASGI middleware: a request id for each HTTP request and websocket connection, set in
    `REQUEST_ID` while it is served and echoed as `X-Request-ID`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        rid = request_id_from(scope.get("headers", []))
        REQUEST_ID.set(rid)  # each request is its own task: the value ends with it

        async def send_with_id(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.accept"):
                headers = list(message.get("headers", []))
                headers.append((HEADER, rid.encode("latin-1")))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_id)
