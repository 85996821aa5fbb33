"""Run the game server with the built web client at `/`, for the browser tests.

`python tests/e2e/serve.py PORT` serves `brass.server.create_app()` on 127.0.0.1:PORT, with the
checkout's web/dist at `/`. BRASS_E2E_SEED fixes the deal of new games.
"""

from __future__ import annotations

import os
import secrets
import sys
import types
from pathlib import Path

import uvicorn

from brass.server import Settings, create_app
from brass.server.request_deadlines import uvicorn_options

DIST = Path(__file__).resolve().parents[2] / "web" / "dist"


def fix_seed(seed: int) -> None:
    """Deal every new game from `seed` (the browser test scripts its opening with the engine)."""
    import brass.server.lobby as lobby

    lobby.secrets = types.SimpleNamespace(  # type: ignore[assignment]
        token_urlsafe=secrets.token_urlsafe, randbits=lambda _bits: seed)


def build_app(port: int):  # type: ignore[no-untyped-def]
    if os.environ.get("BRASS_E2E_SEED"):
        fix_seed(int(os.environ["BRASS_E2E_SEED"]))
    # every browser is 127.0.0.1 here: no join limit, no cap on sockets per address (the
    # session's pages together hold more than one real client would); a turn may be nudged
    # at once (a test does not wait an hour)
    return create_app(Settings(port=port, join_limit=0, sockets_per_address=0, web_dist=DIST,
                               nudge_after=0.0))


if __name__ == "__main__":
    port = int(sys.argv[1])
    uvicorn.run(build_app(port), host="127.0.0.1", port=port, log_level="warning",
                **uvicorn_options(Settings()))
