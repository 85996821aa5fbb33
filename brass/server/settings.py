"""Server configuration from the environment (pydantic-settings).

`DATABASE_URL` picks the database (default: an SQLite file under `./var/`); `BRASS_HOST`,
`BRASS_PORT` where `brass serve` listens; `BRASS_BOT_DELAY` how long a bot waits before it
moves (seconds; 0 in tests, a human-friendly pause by default); `BRASS_WORKERS` how many
worker processes compute legal actions and bot moves (default: one less than the CPUs; 0 =
in the server process); `BRASS_WEB_DIST` the built web client served at `/` (default
`web/dist` when it is built); `BRASS_JOIN_LIMIT` games created plus seats joined per minute
from one client address (default 30; 0 = no limit).

Behind a reverse proxy (docs/HOSTING.md): `BRASS_PROXY_HEADERS=1` makes `brass serve` take the
client address and scheme from `X-Forwarded-For`/`-Proto`, trusted only from
`BRASS_FORWARDED_ALLOW_IPS` (the proxy's addresses or networks, comma-separated). Instead of
`DATABASE_URL`, `BRASS_DB_HOST` (with `BRASS_DB_PORT`, `BRASS_DB_USER`, `BRASS_DB_PASSWORD`,
`BRASS_DB_NAME`) gives the Postgres database in parts: any password works, it is URL-encoded.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import AliasChoices, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy import URL

DEFAULT_SQLITE = "sqlite:///" + str(Path("var") / "brass.db")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="BRASS_", extra="ignore")

    database_url: str = Field(
        default=DEFAULT_SQLITE, validation_alias=AliasChoices("DATABASE_URL", "BRASS_DATABASE_URL"))
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    bot_delay: float = Field(default=0.5, ge=0.0, le=60.0)
    web_dist: Path | None = Field(
        default_factory=lambda: _default_web_dist(),
        description="the built web client, served at / (BRASS_WEB_DIST; default web/dist)")
    join_limit: int = Field(
        default=30, ge=0,
        description="games created plus seats joined per minute per client address "
                    "(BRASS_JOIN_LIMIT; 0 = no limit)")
    workers: int = Field(default_factory=lambda: max(1, (os.cpu_count() or 2) - 1), ge=0, le=64)
    proxy_headers: bool = False
    forwarded_allow_ips: str = "127.0.0.1"
    db_host: str | None = None
    db_port: int = Field(default=5432, ge=1, le=65535)
    db_user: str = "brass"
    db_password: str | None = None
    db_name: str = "brass"

    @field_validator("database_url")
    @classmethod
    def _normalise_url(cls, url: str) -> str:
        return normalise_database_url(url)

    @model_validator(mode="after")
    def _database_from_parts(self) -> Settings:
        if self.db_host:
            if "database_url" in self.model_fields_set:
                raise ValueError("set DATABASE_URL or BRASS_DB_HOST, not both")
            self.database_url = URL.create(
                "postgresql+psycopg", username=self.db_user, password=self.db_password,
                host=self.db_host, port=self.db_port, database=self.db_name,
            ).render_as_string(hide_password=False)
        return self


def _default_web_dist() -> Path | None:
    for root in (Path(__file__).resolve().parents[2], Path.cwd()):
        if (root / "web" / "dist" / "index.html").is_file():
            return root / "web" / "dist"
    return None


def normalise_database_url(url: str) -> str:
    """Accept the usual spellings (`postgres://`, `postgresql://`) and pick the psycopg 3
    driver; refuse anything that is neither Postgres nor SQLite."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    if url.startswith(("postgresql+psycopg://", "sqlite://")):
        return url
    raise ValueError("DATABASE_URL must be a postgresql:// or sqlite:// URL")
