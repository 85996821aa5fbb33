"""The FastAPI application: migrations and game rebuild at start, routes, typed errors,
request ids (`logs.py`), health, readiness and metrics (`ops.py`, `metrics.py`)."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import os
import secrets
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy import func, select
from sqlalchemy.engine import make_url
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from brass import __version__

from . import (
    account,
    adminpage,
    desk,
    explore,
    guard,
    identity,
    logs,
    mailroutes,
    migrate,
    nudges,
    ops,
    outage,
    outbound,
    profiles,
    push,
    rematch,
    routes,
    switches,
    vacations,
    webhooks,
    ws,
)
from .collector import Collector
from .errors import ApiError
from .fanout import Fanout
from .instancelist import InstanceStore, Reporter
from .mailnotices import MailNotices
from .mailstore import MailStore
from .playerstore import PlayerStore
from .push import Pusher, push_contact
from .ratelimit import RateLimiter
from .service import GameService
from .settings import Settings
from .storage import Storage, games
from .tables import status_is
from .watching import Watching, WatchStore
from .webhooks import Webhooks

MAX_BODY = 64 * 1024
log = logging.getLogger("brass.server")


class BodyLimit:
    """Refuse request bodies over 64 KB with a typed error before anything reads them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length", b"0")
        if not length.isdigit() or int(length) > MAX_BODY:
            too_big = JSONResponse(outbound.error("malformed", "Request body over 64 KB"),
                                   status_code=413)
            await too_big(scope, receive, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > MAX_BODY:
                raise ApiError("malformed", "Request body over 64 KB")
            return message

        await self.app(scope, limited, send)


class WebClient(StaticFiles):
    """The built web client at `/`, after every API route: a path an API route serves, asked
    with another method, is a 405 with `Allow` (the client's 404 before: the mount matches
    every path, so the router never said 405)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and any(
                not isinstance(route, Mount) and route.matches(scope)[0] is Match.PARTIAL
                for route in scope["app"].routes):
            raise StarletteHTTPException(405)
        await super().__call__(scope, receive, send)


class BrassApp(FastAPI):
    """The FastAPI application, but a game's websocket goes straight to `ws.enter`, past
    every middleware and the router (why: see there). Plain HTTP at the same path reaches
    the router as usual (a 426 documented in the schema)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            found = ws.SOCKET_PATH.fullmatch(scope["path"])
            if found is not None:
                scope["app"] = self  # what Starlette would set: WebSocket.app reads it
                await ws.enter(scope, receive, send, found[1])  # the path is decoded
                return
        await super().__call__(scope, receive, send)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(migrate.upgrade, settings.database_url)
        app.state.migration_heads = migrate.heads()
        storage = Storage(settings.database_url, instance=instance_id())
        service = GameService(storage, bot_delay=settings.bot_delay,
                              workers=settings.workers, waiting_expiry=settings.waiting_expiry,
                              finished_listed=settings.finished_listed,
                              clock_minimum=settings.clock_minimum,
                              bot_budget=settings.bot_budget,
                              analysis_budget=settings.analysis_budget,
                              synchronous_commit=settings.synchronous_commit,
                              notify_after_commit=settings.notify_after_commit,
                              analysis_workers=settings.analysis_workers,
                              analysis_jobs=settings.analysis_jobs,
                              analysis_per_address=settings.analysis_per_address)
        app.state.service = service
        app.state.players = PlayerStore(storage)
        app.state.pusher = await Pusher.start(
            storage, app.state.players, push_contact(settings),
            settings.push_private_endpoints)
        service.core.reach.channels.append(app.state.pusher)  # the notices hub's road
        watch = service.steward.watch
        watch.send, watch.minimum = service.core.reach.notify, settings.remind_minimum
        app.state.vacation_days = settings.vacation_days
        app.state.nudge_after = dt.timedelta(seconds=settings.nudge_after)
        app.state.mail_notices = await MailNotices.start(
            storage, app.state.players, app.state.accounts.mailer, settings.public_url)
        app.state.webhooks = Webhooks(MailStore(storage), settings.public_url,
                                      settings.webhook_private_addresses)
        service.core.reach.watchers += [app.state.mail_notices, app.state.webhooks]
        fanout = None
        if storage.postgres:  # several instances may share it: hear each other's changes
            fanout = Fanout(settings.database_url, storage.instance, service.changed,
                            service.resync, service.chatted, service.listening)
            for game_id in service.core.games:
                fanout.hear(game_id)
            service.core.hearing = fanout
            await fanout.start()
            service.core.reach.shown = Watching(WatchStore(storage))  # sockets, for them
            service.core.reach.shown.start()
            app.state.mail_notices.shown = service.core.reach.shown
        await service.start()
        app.state.mail_notices.start_digests(settings.mail_digest_hour,
                                             settings.mail_digest_every)
        warm_routes(app)  # before the collector freezes what start-up made
        collector = Collector(full_every=settings.gc_full_every)
        collector.start()
        reporter = Reporter(InstanceStore(storage),
                            lambda: adminpage.own_figures(service, app.state.move_rate),
                            settings.instance_report_every)
        reporter.start()
        if settings.web_dist is None:
            log.warning("the web client is not built: / shows a page saying so; %s",
                        ops.BUILD_HINT)
        log.info("brass %s: instance %s, database %s, %d running games, web client %s",
                 __version__, storage.instance, safe_url(settings.database_url),
                 await asyncio.to_thread(running_games, storage), settings.web_dist or "missing")
        try:
            yield
        finally:
            app.state.stopping = True
            await reporter.close()
            await collector.close()
            if fanout is not None:
                await fanout.close()
            if service.core.reach.shown is not None:
                await service.core.reach.shown.close()
            await service.close()
            await app.state.pusher.close()
            await app.state.mail_notices.close()
            await app.state.webhooks.close()
            storage.close()

    app = BrassApp(title="Brass: Birmingham server", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None)  # guard.install serves them, without a CDN
    app.state.join_limiter = RateLimiter(settings.join_limit)
    app.state.public_url = settings.public_url
    app.add_middleware(BodyLimit)
    app.add_middleware(ops.MetricsGate, token=settings.metrics_token)
    app.add_middleware(logs.RequestIds)  # outermost: every line of a request has its id
    app.include_router(routes.router)
    app.include_router(identity.router)
    account.install(app, settings)  # sign-in (passkeys, e-mail links) and the account page
    app.include_router(desk.router)
    # the admin page's API, the banner
    adminpage.install(app, settings.backup_dir, settings.instance_report_every)
    app.include_router(profiles.router)
    app.include_router(rematch.router)
    app.include_router(explore.router)
    app.include_router(push.router)
    app.include_router(nudges.router)
    app.include_router(switches.router)
    app.include_router(vacations.router)
    app.include_router(vacations.paused)
    app.include_router(mailroutes.router)
    app.include_router(webhooks.router)
    app.include_router(ws.router)
    app.include_router(ops.router)
    guard.install(app, settings)

    if settings.web_dist is not None:
        # after the API and websocket routes, so it only answers what they do not
        app.mount("/", WebClient(directory=settings.web_dist, html=True), name="web")
    else:
        app.add_api_route("/", ops.no_client, methods=["GET"], include_in_schema=False)

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(outbound.error(exc.code, exc.message, reason=exc.reason,
                                           params=exc.params), status_code=exc.status,
                            headers=exc.headers)

    async def _outage(_request: Request, exc: Exception) -> JSONResponse:
        return await _api_error(_request, outage.unavailable(exc, "request"))

    for kind in outage.ERRORS:  # a database error no store turned into `unavailable`
        app.add_exception_handler(kind, _outage)

    @app.exception_handler(Exception)
    async def _internal(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=exc)
        # this handler runs outside the middleware: it echoes the request id itself
        return JSONResponse(outbound.error("internal", "Internal server error"),
                            status_code=500,
                            headers={"X-Request-ID": logs.REQUEST_ID.get() or ""})

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ())) or 'body'}: {e.get('msg')}"
            for e in exc.errors()[:3])
        return JSONResponse(outbound.error("malformed", f"Invalid request: {problems}"),
                            status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 401: "unauthorized"}.get(exc.status_code, "malformed")
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            headers["Allow"] = guard.allowed_methods(app, request.scope)
        return JSONResponse(outbound.error(code, str(exc.detail)), status_code=exc.status_code,
                            headers=headers)

    return app


def warm_routes(app: FastAPI) -> int:
    """Build each included router's routes now. FastAPI builds them (a pydantic
    `TypeAdapter` per parameter) at the first request that walks them: up to a second of
    CPU on a loaded machine (py-spy), paid by the first requests after every start, which
    wait for it. The routes built; 0 where FastAPI has no such step (its private
    `effective_candidates`: a newer FastAPI may drop it, and the first requests build them
    again)."""
    built, pending = 0, list(app.router.routes)
    while pending:
        route = pending.pop()
        candidates = getattr(route, "effective_candidates", None)
        if candidates is None:
            continue
        found = candidates()
        low = getattr(route, "effective_low_priority_routes", None)
        if low is not None:
            low()
        built += len(found)
        pending.extend(found)  # a router included in an included one has its own
    return built


def running_games(storage: Storage) -> int:
    """The running games in the database (the steward loads them after the start, in the
    background: the games in memory then are not all of them)."""
    with storage.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(games)
                            .where(status_is("running"))).scalar_one()


def instance_id() -> str:
    """This server instance's name in the leases and notifications: unique per start."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"


def safe_url(url: str) -> str:
    """A database URL fit for a log line: its password hidden."""
    return make_url(url).render_as_string(hide_password=True)
