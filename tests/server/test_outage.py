"""Postgres out of reach (issue 26): a real server on a Postgres of the test's own, stopped
and started again. While it is down a move and the lobby get `503 unavailable` with
`Retry-After`, the log gets a line per kind of failure every few seconds and no traceback,
and once it is back play resumes without a restart of the server."""

from __future__ import annotations

import os
from collections import Counter
from contextlib import ExitStack
from pathlib import Path

import httpx

from .conftest import act, info, legal, make_game
from .ownpostgres import own_postgres
from .test_instances import Cluster, instance_logs
from .test_restart import wait_for

TRIES_DOWN = 12  # requests while the database is down: still only a few log lines


def test_a_postgres_stop_gives_503_with_retry_after_and_play_resumes(tmp_path: Path) -> None:
    with own_postgres() as pg, ExitStack() as stack:
        env = {k: v for k, v in os.environ.items() if not k.startswith("BRASS_")}
        env.update({"DATABASE_URL": pg.url, "BRASS_WORKERS": "0", "BRASS_JOIN_LIMIT": "0"})
        found = Cluster(url=pg.url, folder=tmp_path, env=env, stack=stack)
        (a,) = found.start(1)
        table = make_game(a.http, players=2, humans=2)
        seat = info(a.http, table)["current_seat"]
        assert act(a.http, table, seat, legal(a.http, table, seat)[0]["action"], 0).status_code \
            == 200
        seat = info(a.http, table)["current_seat"]
        move = legal(a.http, table, seat)[0]["action"]

        pg.stop()
        replies: list[httpx.Response] = []
        for i in range(TRIES_DOWN):
            replies.append(act(a.http, table, seat, move, 1, action_id=f"down-{i}"))
            replies.append(a.http.get("/api/games"))
        seen = [(r.request.method, r.status_code, r.headers.get("Retry-After"),
                 r.json().get("code")) for r in replies]
        assert all(s[1:] == (503, "2", "unavailable") for s in seen), seen
        log_file = tmp_path / f"instance-{a.base.rsplit(':', 1)[1]}.log"
        # the background loops meet the outage too (the analyses' every 3 s, the steward's):
        # a line per kind every few seconds, no traceback (they logged one every round); two
        # lines of their `renew` are at least one quiet spell (outage.QUIET) apart
        wait_for(lambda: log_file.read_text().count("database unreachable at renew") >= 2,
                 "the background loops to meet the outage", a.proc)
        logged = log_file.read_text()
        assert "Traceback" not in logged, logged[-4000:]
        lines = [line for line in logged.splitlines() if "database unreachable" in line]
        kinds = Counter(line.split("database unreachable at ", 1)[1].split(" (and ")[0]
                        for line in lines)
        assert kinds and max(kinds.values()) <= 4, "\n".join(lines)  # not one per request

        pg.start()
        done: list[httpx.Response] = []

        def moved() -> bool:
            done.append(act(a.http, table, seat, move, 1, action_id="after"))
            return done[-1].status_code == 200

        try:
            wait_for(moved, "a move once Postgres is back", a.proc)
        except AssertionError as exc:
            raise AssertionError(f"{exc}: last {done[-1].status_code} {done[-1].text}\n"
                                 f"{instance_logs(tmp_path)}") from None
        assert done[-1].json() == {"version": 2}
        assert a.http.get("/api/games").status_code == 200
        assert info(a.http, table)["version"] == 2
