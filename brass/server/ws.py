"""The websocket of a game: `hello` (a seat token, or null to spectate), then state after every
change, and actions answered by `ack` or a typed `error`. A bad message (too big, not JSON, an
unknown type or field) gets an error and the connection stays up. A socket that has not said
hello within `BRASS_HELLO_TIMEOUT` seconds of opening gets a `timeout` error and is closed
(1008, policy violation); guard.py caps the open sockets per client address."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, Response, WebSocket
from pydantic import TypeAdapter, ValidationError
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect, WebSocketState

from . import chat, jsontext, logs, metrics, outbound
from .deps import hello_seat, players_seat
from .errors import ApiError
from .guard import SocketCap
from .identity import socket_player
from .playerstore import Player
from .runtime import Runtime
from .schemas import (
    ClientMessage,
    ServerMessage,
    WsAction,
    WsChat,
    WsExtend,
    WsHello,
    WsPreview,
    WsSync,
    WsUndo,
    WsVisible,
)
from .service import GameService
from .socketproto import LeanQueue, LeanWebSocketProtocol

log = logging.getLogger("brass.server")
MAX_MESSAGE = 64 * 1024
MAX_QUEUED = 500  # a client this far behind is dropped; on reconnect it gets the full state

CLIENT_MESSAGE = TypeAdapter(ClientMessage)

router = APIRouter()
SOCKET_PATH = re.compile(r"/ws/games/([^/]+)")


async def enter(scope: Scope, receive: Receive, send: Send, game_id: str) -> None:
    """A game's websocket enters here, before every middleware (`app.BrassApp`): FastAPI's
    and Starlette's layers and ours would each hold a suspended frame (about 4 KB in all)
    per open socket for its whole life, and wrap every message it sends; a live game has
    five sockets. So what those layers do for a socket is done here once: the cap per
    client address (guard.py), the request id (logs.py: in the log lines and echoed on the
    handshake), the open-sockets gauge. `game_socket` answers every error itself."""
    cap: SocketCap = scope["app"].state.socket_cap
    address = cap.address(scope)
    if not cap.admit(address):
        await cap.refuse(scope, receive, send)
        return
    rid = logs.request_id_from(scope.get("headers", []))
    logs.REQUEST_ID.set(rid)  # each socket is its own task: the value ends with it
    try:
        await game_socket(WebSocket(scope, receive, send), game_id,
                          [(logs.HEADER, rid.encode("latin-1"))])
    finally:
        cap.release(address)


class Connection:
    """One client socket; `send` queues (never blocks), a writer task drains the queue (a
    `LeanQueue`: an `asyncio.Queue` costs 2.3 KB per socket, and a live game has five)."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.seat: int | None = None
        self.visible = False  # its player looks at the game: no notices of it (notices.py)
        self.pending: LeanQueue[str | None] = LeanQueue()  # None: the writer stops there
        self.dropped = False
        # the proxy's forwarded address where trusted (a socket without a scope: unknown)
        client = getattr(ws, "scope", {}).get("client")
        self.address: str = client[0] if client else "unknown"  # chat limits (chatlog.py)
        # uvicorn's protocol of the socket, where the ASGI `send` is its own (the socket
        # enters before every middleware: app.BrassApp): several queued messages, one write
        proto = getattr(getattr(ws, "_send", None), "__self__", None)
        self.lean = proto if isinstance(proto, LeanWebSocketProtocol) else None

    def send(self, text: str) -> None:
        if self.dropped:
            return
        if self.pending.qsize() >= MAX_QUEUED:
            self.dropped = True
            self.finish()
            return
        self.pending.put_nowait(text)

    def send_json(self, payload: dict[str, Any]) -> None:
        self.send(outbound.dumps(payload))

    def finish(self) -> None:
        """The writer stops after what is queued."""
        self.pending.put_nowait(None)

    async def writer(self) -> None:
        """Send what is queued, in order, all that waits in one write (the mover's new state
        and its acknowledgement are queued together). The texts sent are let go before the
        next wait: an idle socket would keep its last message for as long as the game waits
        (the one to the seat to move carries its legal moves: tens of KB mid-game)."""
        while True:
            queued = [await self.pending.get(), *self.pending.ready()]
            stop = None in queued  # nothing queued after the end is sent
            texts = [t for t in (queued[:queued.index(None)] if stop else queued)
                     if t is not None]
            if texts:
                await self._write(texts)
            del queued, texts
            if stop:
                break
        if self.dropped:
            await self.ws.close(code=1013)  # try again later

    async def _write(self, texts: list[str]) -> None:
        """`texts` as text frames, in one write where uvicorn's protocol is at hand and the
        socket open (a single text too: Starlette's and uvicorn's layers for one message cost
        as much as the frame), as Starlette's `send_text` each otherwise (and with its
        outcome: a socket gone is `WebSocketDisconnect(1006)`)."""
        if self.lean is None or self.ws.application_state != WebSocketState.CONNECTED:
            for text in texts:
                await self.ws.send_text(text)
            return
        try:
            await self.lean.send_texts(texts)
        except OSError:
            self.ws.application_state = WebSocketState.DISCONNECTED
            raise WebSocketDisconnect(code=1006) from None


def parse_message(text: str) -> Any:
    """A client message, or `ApiError("malformed")` saying what is wrong with it."""
    if len(text) > MAX_MESSAGE or len(text.encode()) > MAX_MESSAGE:
        raise ApiError("malformed", f"Message over {MAX_MESSAGE // 1024} KB")
    try:
        obj = jsontext.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nesting deeper than Python's stack
        raise ApiError("malformed", "Not JSON") from None
    try:
        return CLIENT_MESSAGE.validate_python(obj).root
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'message'}: {e['msg']}"
            for e in exc.errors()[:3])
        raise ApiError("malformed", f"Not a valid message: {problems}") from None


@router.get("/ws/games/{game_id}", status_code=426, response_class=Response,
            response_description="Upgrade Required: plain HTTP gets no game here", responses={
    "default": {"model": ServerMessage,
                "description": "Over the websocket, each message the server sends is one of "
                               "these (one JSON object per frame)."}})
async def game_socket_doc(game_id: str) -> Response:
    """The game's websocket: open it with a websocket client (`ws://`), not plain HTTP.
    OpenAPI has no websockets: this entry names the server's messages (`ServerMessage`), and
    the client's (`ClientMessage`) are in the schema's components (docs.py)."""
    return Response(status_code=426, headers={"Upgrade": "websocket"})


class Goodbye(Exception):
    """Close the socket after telling the client why (`code`, `message`)."""

    def __init__(self, error: ApiError, close_code: int) -> None:
        super().__init__(error.message)
        self.error, self.close_code = error, close_code


async def game_socket(ws: WebSocket, game_id: str,
                      headers: list[tuple[bytes, bytes]]) -> None:
    """A game's socket from accept to close (`headers`: of the accept)."""
    service: GameService = ws.app.state.service
    wait: float = getattr(ws.app.state, "hello_timeout", 10.0)
    hello_by = asyncio.get_running_loop().time() + wait
    try:  # the player cookie, read before accepting (socketproto.py drops the headers then)
        player, refusal = await socket_player(ws), None
    except ApiError as exc:
        player, refusal = None, exc
    await ws.accept(headers=headers)
    metrics.OPEN_SOCKETS.inc()
    conn = Connection(ws)
    writer = asyncio.create_task(conn.writer())
    rt: Runtime | None = None
    try:
        try:
            try:
                rt = await service.runtime(game_id)
            except ApiError as exc:  # 1013: try again later (the database out of reach)
                raise Goodbye(exc, 1013 if exc.code == "unavailable" else 4404) from None
            if refusal is not None:  # a socket with the player cookie: from the site only
                raise Goodbye(refusal, 1008)
            await _serve(service, rt, conn, hello_by, player)
        except TimeoutError:  # only the wait for hello has a deadline in `_serve`
            raise Goodbye(ApiError("timeout", f"No hello within {wait:g} s: closing"),
                          1008) from None
    except Goodbye as bye:
        conn.send_json(outbound.ws_error(bye.error.code, bye.error.message))
        conn.finish()
        with contextlib.suppress(Exception):  # the client may be gone already
            await writer
            await ws.close(code=bye.close_code, reason=bye.error.message[:120])
    finally:
        metrics.OPEN_SOCKETS.dec()
        if rt is not None:
            service.core.unsubscribe(rt, conn)
            if conn.visible:  # it shows the game no more
                conn.visible = False
                with contextlib.suppress(Exception):
                    await _shown(service, rt, conn)
        conn.finish()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, timeout=5)
        writer.cancel()


async def _serve(service: GameService, rt: Runtime, conn: Connection, hello_by: float,
                 player: Player | None) -> None:
    said_hello = False
    while True:
        try:
            async with asyncio.timeout_at(None if said_hello else hello_by):
                message = await conn.ws.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect":
            return
        said_hello = await _answer(service, rt, conn, message, said_hello, player)
        del message  # an idle socket keeps no message (nor, `_answer` ended, its parsed form)


async def _shown(service: GameService, rt: Runtime, conn: Connection) -> None:
    """Tell the other instances whether the socket's player looks at the game (watching.py;
    none on SQLite, served by this instance alone)."""
    shown = service.core.reach.shown
    player_id = None if conn.seat is None else rt.record.seats[conn.seat].player_id
    if shown is not None and player_id is not None:
        await shown.changed(rt, player_id)


async def _answer(service: GameService, rt: Runtime, conn: Connection,
                  message: Mapping[str, Any], said_hello: bool,
                  player: Player | None = None) -> bool:
    """Answer one client message; whether the client has said hello now. `player`: the
    player cookie's (a hello without a token takes their seat)."""
    text = message.get("text")
    if text is None:
        data = message.get("bytes") or b""
        text = data.decode("utf-8", errors="replace")
    action_id = asked = about = None  # asked: the version an extend or a preview is about
    try:
        msg = parse_message(text)
        about = "chat" if isinstance(msg, WsChat) else None
        if isinstance(msg, WsHello):
            if said_hello:
                raise ApiError("malformed", "Already said hello")
            await _hello(service, rt, conn, msg, player)
            said_hello = True
        elif not said_hello:
            raise ApiError("unauthorized", "Send hello first")
        elif isinstance(msg, WsSync | WsVisible | WsChat):
            await _watchers(service, rt, conn, msg)
        elif conn.seat is None:
            raise ApiError("unauthorized", "Spectators cannot act")
        else:
            action_id = msg.action_id if isinstance(msg, WsAction) else None
            asked = (rt.record.version if msg.version is None else msg.version) if isinstance(
                msg, WsExtend | WsPreview) else None
            await _seats(service, rt, conn, conn.seat, msg)
    except ApiError as exc:
        conn.send_json(outbound.ws_error(exc.code, exc.message, action_id, exc.reason,
                                         exc.params, asked, about))
    except Exception:  # a bug: say so, keep the connection
        log.exception("unexpected error on the websocket of game %s", rt.id)
        conn.send_json(outbound.ws_error("internal", "Internal server error", action_id))
    return said_hello


async def _hello(service: GameService, rt: Runtime, conn: Connection, msg: WsHello,
                 player: Player | None) -> None:
    """The socket's seat (a token's, else the player cookie's own), then the current state."""
    conn.seat = await hello_seat(service, rt, msg.token)
    if msg.token is None and player is not None:  # the player's own seat
        conn.seat = players_seat(rt, player, None if msg.seat is None else str(msg.seat))
    await service.core.subscribe(rt, conn)


async def _watchers(service: GameService, rt: Runtime, conn: Connection,
                    msg: WsSync | WsVisible | WsChat) -> None:
    """What any socket may say once it said hello, a spectator's too."""
    if isinstance(msg, WsSync):
        conn.send(await service.core.publisher.state_text(rt, conn.seat))
    elif isinstance(msg, WsVisible):
        conn.visible = msg.visible
        await _shown(service, rt, conn)  # recorded before the next message is read
    else:
        again = await chat.post(service.core, rt, conn.seat, msg.name, msg.text, conn.address,
                                msg.line)
        if again is not None:  # said before: its answer, to this socket alone
            conn.send(chat.said(again))


async def _seats(service: GameService, rt: Runtime, conn: Connection, seat: int,
                 msg: WsAction | WsUndo | WsExtend | WsPreview) -> None:
    """What only a seat's socket may say: moves, undo, extensions and previews."""
    if isinstance(msg, WsAction):
        version = await service.play.submit_as(rt, seat, msg.action, msg.expected_version,
                                               msg.action_id)
        conn.send_json(outbound.ws_ack(msg.action_id, version))
    elif isinstance(msg, WsUndo):
        version = await service.play.undo_as(rt, seat, msg.expected_version)
        conn.send_json(outbound.ws_ack(None, version))
    elif isinstance(msg, WsExtend):
        conn.send(await service.play.extensions(rt, seat, msg.action, msg.version))
    else:
        conn.send(await service.play.preview(rt, seat, msg.action, msg.version))
