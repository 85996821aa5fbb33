"""The game server: FastAPI routes and websockets -> game service -> storage (SQLAlchemy)."""

from .app import create_app
from .settings import Settings

__all__ = ["Settings", "create_app"]
