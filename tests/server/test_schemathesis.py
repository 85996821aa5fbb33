"""Schemathesis against the live server: every documented operation, every check
(`--checks all`), every phase (examples, coverage, fuzzing, stateful), with the path
parameters and the bearer token of a real running game. Bounded and reproducible: a fixed
number of examples per operation, deterministic generation, no example database, a time limit.

It runs schemathesis's command line (its stable interface; its pytest loader `from_fixture`
does not run under pytest 9) on a uvicorn of its own, with the server's real protocol
settings (tests/server/conftest.py `LiveServer`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx

from brass.server import Settings

from .conftest import LiveServer, make_game

EXAMPLES = 20
TIME_LIMIT = 300  # seconds; a run takes about a minute on a quiet machine

# Two answers the checks cannot know from the schema alone, said per operation:
# - the websocket's documentation entry answers plain HTTP with 426 (Upgrade Required);
# - an action whose JSON has the right shape can still name a card, location or slot this
#   game does not have (a slot's range depends on the location): `400 malformed`, as the
#   engine's `parse_action` says; a well-formed one the rules forbid is `409 illegal` (the
#   same for a partial action sent to be extended, or to be previewed);
# - the listing's `cursor` and `changed_after` are opaque tokens this server gave out: any
#   other string is `400 malformed` (and so is giving both);
# - a new game's clock may be shorter than this server's `clock_minimum`, or carry settings of
#   another kind of clock (a reserve for a correspondence clock): `400 malformed`, and the
#   host's create policy, or a player cookie sent without the site's Origin, `403`;
# - the player routes (issue 24) need the device cookie, which a write must send from the
#   site (`Origin`): without them `401 unauthorized` or `403 forbidden`; claiming a seat needs
#   the cookie besides the seat token.
CONFIG = """
[generation]
max-examples = {examples}
deterministic = true
database = "none"

[parameters]
game_id = {game}
authorization = {token}

[[operations]]
include-path = "/ws/games/{{game_id}}"
checks.positive_data_acceptance.expected-statuses = [426]

[[operations]]
include-path = "/api/games/{{game_id}}/actions"
checks.positive_data_acceptance.expected-statuses = ["2XX", 400, 401, 404, 409]

[[operations]]
include-path = "/api/games/{{game_id}}/legal/extend"
checks.positive_data_acceptance.expected-statuses = ["2XX", 400, 401, 404, 409]

[[operations]]
include-path = "/api/games/{{game_id}}/legal/preview"
checks.positive_data_acceptance.expected-statuses = ["2XX", 400, 401, 404, 409]

[[operations]]
include-name = "GET /api/games"
checks.positive_data_acceptance.expected-statuses = ["2XX", 400]

[[operations]]
include-name = "POST /api/games"
checks.positive_data_acceptance.expected-statuses = ["2XX", 400, 403]

[[operations]]
include-name = "POST /api/session"
checks.positive_data_acceptance.expected-statuses = ["2XX", 403]

[[operations]]
include-path = "/api/mail/unsubscribe/{{token}}"
checks.positive_data_acceptance.expected-statuses = ["2XX", 404]

[[operations]]
include-tag = "players"
checks.positive_data_acceptance.expected-statuses = ["2XX", 304, 400, 401, 403]

[[operations]]
include-path = "/api/games/{{game_id}}/claim"
checks.positive_data_acceptance.expected-statuses = ["2XX", 401, 403]
"""


def test_every_operation_passes_every_check(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'brass.db'}", bot_delay=0.0,
                        join_limit=0, web_dist=None)
    with LiveServer(settings) as live:
        with httpx.Client(base_url=live.base, timeout=60) as http:
            table = make_game(http, players=2, humans=2)
        config = tmp_path / "schemathesis.toml"
        config.write_text(CONFIG.format(
            examples=EXAMPLES, game=json.dumps(table.id),
            token=json.dumps("Bearer " + table.tokens[0])))
        run = subprocess.run(
            [str(Path(sys.executable).with_name("schemathesis")), "--config-file", str(config),
             "--no-color", "run", f"{live.base}/openapi.json", "--checks", "all",
             "--workers", "1", "--request-timeout", "30",
             "--report-dir", str(tmp_path / "report")],
            cwd=tmp_path, capture_output=True, text=True, timeout=TIME_LIMIT + 60)
    assert run.returncode == 0, run.stdout[-20_000:] + run.stderr[-5_000:]
