"""Issue 27's notices across two `brass serve` processes on one Postgres database
(docs/REACH.md): a player's socket that shows the game on one instance holds back the turn
notice that the other instance's commit would send (watching.py), and only while it shows the
game; a correspondence turn is mailed exactly once whichever instance committed it; both
instances run the daily digest, and each player gets one. The push service stand-in of
test_push.py and the SMTP server of mail.py (aiosmtpd) receive what is sent."""

from __future__ import annotations

import queue
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, select

from brass.server.tables import watching

from .test_clock_instances import heard, player
from .test_instances import cluster, instance_logs
from .test_notices import play_first_legal, show, socket_at
from .test_push import Browser, PushService, push_service, start_game  # noqa: F401
from .test_ratings import wait_for

WAIT = 60.0


def pushes_to(service: PushService, who: Browser) -> list[dict[str, Any]]:
    """The notices to `who` received so far (others are put back)."""
    path, mine, others = who.endpoint.removeprefix(service.origin), [], []
    while True:
        try:
            got = service.got.get_nowait()
        except queue.Empty:
            break
        (mine if got.path == path else others).append(got)
    for o in others:
        service.got.put(o)
    return [who.read(g) for g in mine]


def rows_of(url: str, game_id: str) -> list[tuple[str, str]]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return [(r.player_id, r.instance) for r in conn.execute(
                select(watching.c.player_id, watching.c.instance).where(
                    watching.c.game_id == game_id))]
    finally:
        engine.dispose()


def held_back(folder: Path, game_id: str, player_id: str) -> int:
    """How many of the game's notices to the player the instances held back (their logs)."""
    line = f"notice turn of game {game_id} to player {player_id} held back"
    return sum(p.read_text().count(line) for p in folder.glob("instance-*.log"))


def test_a_socket_showing_the_game_on_another_instance_holds_the_turn_notice(
        tmp_path: Path, push_service: PushService) -> None:  # noqa: F811
    extra = {"BRASS_PUSH_PRIVATE_ENDPOINTS": "1", "BRASS_LOG_LEVEL": "info"}
    with cluster(tmp_path, 2, bot_delay=0.0, extra=extra) as found:
        try:
            a, b = found.instances
            alice = player(b.base, push_service, "alice")
            bob = player(b.base, push_service, "bob")
            table, by_seat = start_game(alice, bob, "Across")
            first = a.http.get(table.url()).json()["current_seat"]
            watcher = by_seat[1 - first]
            watcher_id = watcher.client.get("/api/me").json()["id"]
            heard(push_service, watcher, "started", table.id)  # the start's notice
            with socket_at(b.ws, b.base, table.id, watcher) as ws, \
                    httpx.Client(base_url=a.base, timeout=60) as on_a:
                # the watcher's socket on B shows the game; A commits the move
                show(ws, True)
                assert [p for p, _ in rows_of(found.url, table.id)] == [watcher_id]
                moved, to = play_first_legal(on_a, table)
                assert (moved, to) == (first, 1 - first), (moved, to)
                wait_for(lambda: held_back(tmp_path, table.id, watcher_id) == 1,
                         "instance A to hold the turn notice back", timeout=WAIT)
                assert pushes_to(push_service, watcher) == [], "pushed while shown on B"

                # hidden: the watcher's next turn, committed on A again, is pushed
                show(ws, False)
                assert rows_of(found.url, table.id) == []
                while True:
                    moved, to = play_first_legal(on_a, table)
                    if to == 1 - first and moved != to:
                        break
                turn = heard(push_service, watcher, "turn", table.id)[-1]
                assert turn["seat"] == 1 - first, turn

                # shown again, then the socket closes: its row goes, the next turn is pushed
                show(ws, True)
                assert len(rows_of(found.url, table.id)) == 1
            wait_for(lambda: rows_of(found.url, table.id) == [],
                     "the closed socket's row to go", timeout=WAIT)
            with httpx.Client(base_url=a.base, timeout=60) as on_a:
                while True:
                    moved, to = play_first_legal(on_a, table)
                    if to == 1 - first and moved != to:
                        break
            heard(push_service, watcher, "turn", table.id)
            assert held_back(tmp_path, table.id, watcher_id) == 1
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{instance_logs(tmp_path)}") from None
