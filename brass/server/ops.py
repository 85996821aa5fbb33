"""Operations: `/health` (the process answers; no database), `/ready` (the database answers
and is migrated to head; 503 otherwise: what a load balancer or a compose healthcheck
should ask), `/metrics` (Prometheus text format) and, when the web client is not built, the
page at `/` that says so. None of them is part of the game API's OpenAPI schema."""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest
from pydantic import SecretStr
from sqlalchemy import Engine
from starlette.types import ASGIApp, Receive, Scope, Send

from . import metrics, migrate
from .outbound import error

log = logging.getLogger("brass.server")
READY_TIMEOUT = 5.0
BUILD_HINT = ("build it with `make web` (or: cd web && npm ci && npm run build), "
              "or point BRASS_WEB_DIST at a built client")

router = APIRouter(include_in_schema=False)


@router.get("/health")
async def health() -> dict[str, str]:
    """The process is up and its event loop answers (the database is not asked)."""
    return {"status": "ok"}


def _revisions(engine: Engine) -> set[str]:
    with engine.connect() as conn:
        return migrate.current(conn)


@router.get("/ready")
async def ready(request: Request) -> JSONResponse:
    """200 when this server can serve games: started, not stopping, its database reachable
    and at the migrations' head; else 503 with the reason."""
    state = request.app.state
    service = getattr(state, "service", None)
    if service is None or getattr(state, "stopping", False):
        return _not_ready("the server is starting or stopping")
    try:
        revisions = await asyncio.wait_for(
            asyncio.to_thread(_revisions, service.storage.engine), READY_TIMEOUT)
    except Exception as exc:  # the database does not answer: say so, keep its details here
        log.warning("not ready: the database does not answer: %s",
                    (str(exc).strip().splitlines() or [type(exc).__name__])[0])
        return _not_ready("the database does not answer")
    expected: set[str] = state.migration_heads
    if revisions != expected:
        log.warning("not ready: the database is at revision %s, the code expects %s",
                    sorted(revisions), sorted(expected))
        return _not_ready("the database is not at the migrations' head",
                          database=sorted(revisions), head=sorted(expected))
    return JSONResponse({"status": "ready", "migrations": sorted(revisions)})


def _not_ready(reason: str, **details: Any) -> JSONResponse:
    return JSONResponse({"status": "unavailable", "reason": reason, **details},
                        status_code=503)


@router.get("/metrics")
async def prometheus_metrics(request: Request) -> Response:
    service = getattr(request.app.state, "service", None)
    if service is not None:
        metrics.observe(sum(1 for rt in list(service.games.values())
                            if rt.record.status == "running"))
    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)


NO_CLIENT_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Brass: the web client is not built</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto; line-height: 1.5">
<h1>The web client is not built</h1>
<p>This Brass server is running, but it has no web client to serve here. Build it with
<code>make web</code> in the source folder (or <code>cd web &amp;&amp; npm ci &amp;&amp; npm run
build</code>), or point <code>BRASS_WEB_DIST</code> at a built client, then restart the
server.</p>
<p>The game API answers meanwhile: see <a href="/docs">/docs</a>.</p>
</body></html>
"""


async def no_client(_request: Request) -> HTMLResponse:
    """`/` when the web client is missing: a page that says so and how to build it."""
    return HTMLResponse(NO_CLIENT_PAGE, status_code=503)


PATH = "/metrics"


class MetricsGate:
    """ASGI middleware: `/metrics` only with the bearer token; every other path passes."""

    def __init__(self, app: ASGIApp, token: SecretStr | None) -> None:
        self.app = app
        self.token = token.get_secret_value().encode() if token else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != PATH or self._allowed(scope):
            await self.app(scope, receive, send)
            return
        message = ("Metrics are closed: set BRASS_METRICS_TOKEN on the server and send it as "
                   "Authorization: Bearer <token>" if self.token is None
                   else "Metrics need the server's metrics token as a bearer token")
        refused = JSONResponse(error("unauthorized", message), status_code=401,
                               headers={"WWW-Authenticate": 'Bearer realm="metrics"'})
        await refused(scope, receive, send)

    def _allowed(self, scope: Scope) -> bool:
        if self.token is None:
            return False
        sent = dict(scope["headers"]).get(b"authorization", b"")
        scheme, _, token = sent.partition(b" ")
        return scheme.lower() == b"bearer" and secrets.compare_digest(token.strip(), self.token)
