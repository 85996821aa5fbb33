"""The game server: FastAPI routes and websockets -> game service -> storage (SQLAlchemy).

`create_app` and `Settings` are imported when first asked for (PEP 562), not with the
package: a worker process that needs one module of it (the push sender's pushsend.py, a bot
worker's workers.py) would otherwise import the whole app, about 2 s of CPU at the lowest
priority, where a busy machine gives it a few per cent of a CPU."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app
    from .settings import Settings

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app
        return create_app
    if name == "Settings":
        from .settings import Settings
        return Settings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
