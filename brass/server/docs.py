"""The API docs (`/docs`: Swagger UI) served from this server, no CDN.

FastAPI's own pages load Swagger UI and ReDoc from a CDN and start Swagger UI with an inline
script, which a strict Content-Security-Policy forbids. Here Swagger UI 5 comes from the
`fastapi-offline` package (MIT; kept current on PyPI), served at `/docs/assets/`, and starts
from a script file. Its policy allows scripts from this origin only; inline styles are
allowed on this page (Swagger UI styles its widgets with injected `<style>` elements). ReDoc
is off: it fetches its logo from its vendor's CDN.

The schema documents the errors the server really sends: FastAPI's default `422` (never sent:
an invalid request is a `400` `malformed` with the `Error` body) is taken out.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

from .schemas import ClientMessage, ServerMessage

ASSETS = Path(str(files("fastapi_offline") / "static"))
POLICY = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
          "img-src 'self' data:; font-src 'self'; connect-src 'self'; "
          "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")

SWAGGER = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>{title}: API docs</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" href="/docs/assets/favicon.png"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body>
</html>
"""
SWAGGER_INIT = """window.ui = SwaggerUIBundle({
  url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true, validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
  layout: "BaseLayout",
});
"""
def strip_422(schema: dict[str, Any]) -> dict[str, Any]:
    """Take FastAPI's `422` answers and their schemas out of an OpenAPI schema (in place)."""
    for path in schema.get("paths", {}).values():
        for operation in path.values():
            operation.get("responses", {}).pop("422", None)
    for name in ("HTTPValidationError", "ValidationError"):
        schema.get("components", {}).get("schemas", {}).pop(name, None)
    return schema


def with_socket_messages(schema: dict[str, Any]) -> dict[str, Any]:
    """Add the game socket's messages to an OpenAPI schema's components (in place): OpenAPI
    describes no websocket, and no route takes `ClientMessage` (the doc route of the socket
    names `ServerMessage`, which FastAPI adds itself). Pydantic makes their schemas as it makes
    the routes' for FastAPI, with the same names: a model a route uses already keeps its own."""
    found = schema.setdefault("components", {}).setdefault("schemas", {})
    for model, mode in ((ClientMessage, "validation"), (ServerMessage, "serialization")):
        made = model.model_json_schema(ref_template=REF, mode=mode)  # type: ignore[arg-type]
        for name, definition in {**made.pop("$defs", {}), model.__name__: made}.items():
            found.setdefault(name, definition)
    return schema


REF = "#/components/schemas/{model}"


def install(app: FastAPI) -> None:
    """Serve the docs page and its assets; the app must have `docs_url=None` and
    `redoc_url=None` (FastAPI's CDN pages off)."""
    headers = {"Content-Security-Policy": POLICY}
    openapi = app.openapi
    app.openapi = lambda: with_socket_messages(strip_422(openapi()))  # type: ignore[method-assign]
    app.mount("/docs/assets", StaticFiles(directory=ASSETS), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def swagger() -> HTMLResponse:
        return HTMLResponse(SWAGGER.format(title=app.title), headers=headers)

    @app.get("/docs/init.js", include_in_schema=False)
    async def swagger_init() -> Response:
        return Response(SWAGGER_INIT, media_type="text/javascript", headers=headers)
