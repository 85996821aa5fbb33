"""Hatch build hook: the wheel carries the built web client as `brass/_web`.

The client is built from `web/` with npm when `web/dist` is missing or older than its sources
(set BRASS_BUILD_WEB=0 to never run npm). Without npm, or with BRASS_BUILD_WEB=0 and no build,
the wheel is built without the client: the server then says at start how to build it, and `/`
answers a page saying it is missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

# what the client is built from (as the Makefile's WEB_SRC)
SOURCES = ("web/src", "web/public", "web/index.html", "web/offline.html", "web/vite.config.ts",
           "web/pwa-assets.config.ts", "web/tsconfig.json", "web/package.json",
           "data/board.json", "data/links.json", "data/tiles.json")


def _newest(paths: list[Path]) -> float:
    newest = 0.0
    for path in paths:
        files = path.rglob("*") if path.is_dir() else [path]
        for f in files:
            if f.is_file():
                newest = max(newest, f.stat().st_mtime)
    return newest


def client_is_stale(root: Path) -> bool:
    index = root / "web" / "dist" / "index.html"
    if not index.is_file():
        return True
    return _newest([root / s for s in SOURCES]) > index.stat().st_mtime


class WebClientHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return  # an editable install serves web/dist from the checkout
        root = Path(self.root)
        web = root / "web"
        if ((web / "package.json").is_file() and client_is_stale(root)
                and os.environ.get("BRASS_BUILD_WEB", "1") != "0"):
            npm = shutil.which("npm")
            if npm is None:
                self.app.display_warning("npm not found: the web client is not rebuilt")
            else:
                self.app.display_info("building the web client (npm ci, npm run build)")
                if not (web / "node_modules").is_dir():
                    subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=web, check=True)
                subprocess.run([npm, "run", "build"], cwd=web, check=True)
        dist = web / "dist"
        if (dist / "index.html").is_file():
            build_data["force_include"][str(dist)] = "brass/_web"
        else:
            self.app.display_warning(
                "this wheel has no web client (web/dist is not built: `make web`); "
                "the server will serve the API only")
