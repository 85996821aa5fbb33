"""Run the Alembic migrations (`upgrade head`) for a database URL; the server does this at
start, so a new database needs no set-up step."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

ROOT = Path(__file__).resolve().parents[2]
if not (ROOT / "migrations").is_dir():  # installed as a wheel: run from the source folder
    ROOT = Path.cwd()


def alembic_config(url: str) -> Config:
    ini = ROOT / "alembic.ini"
    cfg = Config(str(ini)) if ini.exists() else Config()
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    cfg.attributes["url"] = url
    cfg.attributes["quiet"] = True
    return cfg


def upgrade(url: str) -> None:
    command.upgrade(alembic_config(url), "head")
