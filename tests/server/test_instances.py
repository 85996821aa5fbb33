"""Several `brass serve` processes on one Postgres database (real processes on free loopback
ports, a fresh database per test): every client sees every version, whichever instance it is
connected to; the database decides races, seats and the start of a game; one instance at a
time runs a game's bots, and another takes over when it is killed."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from websockets.asyncio.client import connect

from .conftest import (
    Table,
    act,
    auth,
    free_port,
    info,
    legal,
    make_game,
    repo_root,
    run_in_own_loop,
)
from .databases import fresh_postgres
from .test_races import together
from .test_restart import log_of, wait_for

TAKEOVER = 10.0  # seconds: the bound for another instance to resume a dead owner's bots
SEEN_WITHIN = 1.0  # seconds: every client holds each version this soon after the first one


@dataclass
class Instance:
    proc: subprocess.Popen[bytes]
    base: str
    http: httpx.Client

    @property
    def ws(self) -> str:
        return self.base.replace("http://", "ws://")


@dataclass
class Cluster:
    url: str
    folder: Path
    env: dict[str, str]
    stack: ExitStack
    instances: list[Instance] = field(default_factory=list)

    def start(self, count: int = 1) -> list[Instance]:
        """Start `count` instances at once (on a new database they race to migrate it: one
        does, the others wait for it) and wait until each is ready."""
        started = []
        for _ in range(count):
            port = free_port()
            log_path = self.folder / f"instance-{port}.log"
            with log_path.open("ab") as log_file:
                proc = subprocess.Popen(
                    [sys.executable, "-m", "brass.cli", "serve", "--port", str(port),
                     "--log-level", self.env.get("BRASS_LOG_LEVEL", "warning")],
                    env=self.env, cwd=repo_root(),
                    stdout=log_file, stderr=subprocess.STDOUT)
            self.stack.callback(_stop, proc)
            client = self.stack.enter_context(
                httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30))
            started.append(Instance(proc=proc, base=f"http://127.0.0.1:{port}", http=client))
        for instance in started:
            wait_for(lambda i=instance: _ready(i.http), f"instance up (see {self.folder})",
                     instance.proc)
        self.instances += started
        return started

    def owners(self) -> dict[str, int]:
        """{game id: pid of the instance holding its lease}, live leases only."""
        engine = create_engine(self.url)
        try:
            with engine.connect() as conn:
                rows = conn.execute(text(
                    "SELECT game_id, owner FROM leases WHERE expires_at >= now()")).all()
        finally:
            engine.dispose()
        return {r.game_id: int(r.owner.split(":")[1]) for r in rows}


def _ready(client: httpx.Client) -> bool:
    try:
        return client.get("/ready").status_code == 200
    except httpx.TransportError:
        return False


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        proc.wait(timeout=30)


@contextmanager
def cluster(tmp_path: Path, count: int, bot_delay: float = 0.05,
            extra: dict[str, str] | None = None) -> Iterator[Cluster]:
    with fresh_postgres("brass_instances") as url, ExitStack() as stack:
        env = {k: v for k, v in os.environ.items() if not k.startswith("BRASS_")}
        env.update({"DATABASE_URL": url, "BRASS_BOT_DELAY": str(bot_delay),
                    "BRASS_WORKERS": "0", "BRASS_JOIN_LIMIT": "0", **(extra or {})})
        found = Cluster(url=url, folder=tmp_path, env=env, stack=stack)
        found.start(count)
        yield found


async def watch(url: str, token: str | None, until: int, seen: list[tuple[int, float]],
                play: bool = False) -> None:
    """One client: hello, then record (version, time) of every state until `until`; with
    `play`, the seat acts at once with its first legal move when it is to move."""
    heard: list[str] = []  # what it was sent, in short: said when it waits in vain
    async with connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while not seen or seen[-1][0] < until:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), 60))
            except TimeoutError:
                raise AssertionError(f"{url} ({'seat' if token else 'spectator'}) heard "
                                     f"nothing for 60 s after {heard[-6:]}") from None
            heard.append(f"{message['type']} {message.get('version')} "
                         f"{'legal' if message.get('legal') else ''}{message.get('code', '')}")
            if message["type"] != "state":
                continue
            seen.append((message["version"], time.monotonic()))
            if play and message["legal"] and message["version"] < until:
                await ws.send(json.dumps({
                    "type": "action", "action": message["legal"][0]["action"],
                    "expected_version": message["version"],
                    "action_id": f"p{message['seat']}-{message['version']}"}))


def instance_logs(folder: Path, lines: int = 40) -> str:
    """The end of each instance's log, to read beside a failure."""
    return "\n".join(f"== {p.name}\n" + "\n".join(p.read_text().splitlines()[-lines:])
                     for p in sorted(folder.glob("instance-*.log")))


def test_every_client_sees_every_version_in_order(tmp_path: Path) -> None:
    with cluster(tmp_path, 3, extra={"BRASS_LOG_LEVEL": "debug"}) as found:
        a, b, c = found.instances
        table = make_game(a.http, players=4, humans=2, bots=2)
        until = 40
        clients = [(a, table.tokens[0]), (b, table.tokens[1]), (c, None), (a, None), (b, None)]
        # the seats' sockets on A and B, spectators on all three; the humans play at once
        seen: list[list[tuple[int, float]]] = [[] for _ in clients]

        async def run() -> None:
            await asyncio.gather(*[
                watch(f"{inst.ws}/ws/games/{table.id}", token, until, seen[i],
                      play=token is not None) for i, (inst, token) in enumerate(clients)])

        try:
            run_in_own_loop(run())
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{instance_logs(tmp_path)}") from None
        first: dict[int, float] = {}
        for versions in seen:
            for version, at in versions:
                first[version] = min(at, first.get(version, at))
        for versions in seen:
            # the seat to move gets a version twice: at once, then with its legal moves
            numbers = [v for i, (v, _) in enumerate(versions) if i == 0 or versions[i - 1][0] != v]
            assert numbers == list(range(numbers[0], until + 1)), numbers
            late = max(at - first[v] for v, at in versions)
            assert late < SEEN_WITHIN, f"a client got a version {late:.3f} s after another"
        assert len(log_of(c.http, table)) >= until


def test_racing_submissions_through_two_instances(tmp_path: Path) -> None:
    with cluster(tmp_path, 2) as found:
        a, b = found.instances
        for _ in range(5):
            table = make_game(a.http, players=2, humans=2)
            seat = info(a.http, table)["current_seat"]
            version = info(b.http, table)["version"]
            moves = legal(b.http, table, seat)

            def send(inst: Instance, i: int, table: Table = table, seat: int = seat,
                     moves: list[dict[str, Any]] = moves) -> httpx.Response:
                with httpx.Client(base_url=inst.base, timeout=30) as own:
                    return own.post(table.url("/actions"), headers=auth(table.tokens[seat]),
                                    json={"action": moves[i]["action"], "expected_version": 0,
                                          "action_id": f"race-{i}"})

            replies = together([lambda: send(a, 0), lambda: send(b, -1)])
            assert sorted(r.status_code for r in replies) == [200, 409], [r.text for r in replies]
            assert version == 0
            # both instances converge on the one that landed, at once
            states = [i.http.get(table.url("/state")).json() for i in (a, b)]
            assert states[0]["version"] == states[1]["version"] == 1
            assert states[0]["view"] == states[1]["view"]
            assert log_of(a.http, table) == log_of(b.http, table)
            assert len(log_of(b.http, table)) == 1


def started(inst: Instance, table: Table) -> dict[str, Any]:
    """The game's info on `inst` once it shows the game running: the instance whose claim did
    not start the game hears of the start by notification, a moment after the replies."""
    seen: list[dict[str, Any]] = []

    def running() -> bool:
        seen.append(info(inst.http, table))
        return bool(seen[-1]["status"] == "running")

    try:
        wait_for(running, f"{inst.base} to show the game running")
    except AssertionError as exc:
        raise AssertionError(f"{exc}; it last showed {seen[-1]}") from None
    return seen[-1]


def test_a_join_on_one_instance_and_bots_on_another_start_the_game_once(
        tmp_path: Path) -> None:
    with cluster(tmp_path, 2) as found:
        a, b = found.instances
        for _ in range(5):
            table = make_game(a.http, players=4, humans=0)
            info(b.http, table)  # B holds the waiting game too

            def bot(table: Table = table) -> httpx.Response:
                with httpx.Client(base_url=b.base, timeout=30) as own:
                    return own.post(table.url("/bots"), headers=auth(table.host), json={})

            def join(table: Table = table) -> httpx.Response:
                with httpx.Client(base_url=a.base, timeout=30) as own:
                    return own.post(table.url("/join"), json={"name": "alice",
                                                               "invite": table.invite})

            replies = together([join, bot, bot, bot])
            assert [r.status_code for r in replies] == [201] * 4, [r.text for r in replies]
            seats = sorted(r.json()["seat"] for r in replies)
            assert seats == [0, 1, 2, 3]
            for inst in (a, b):
                shown = started(inst, table)
                named = [s["name"] for s in shown["seats"]]
                assert named.count("alice") == 1 and all(named)
            engine = create_engine(found.url)
            try:
                with engine.connect() as conn:
                    starts = conn.execute(text(
                        "SELECT count(*) FROM snapshots WHERE game_id = :g AND seq = 0"),
                        {"g": table.id}).scalar_one()
            finally:
                engine.dispose()
            assert starts == 1
            # a later join is refused with a clear error on either instance, never a 500
            for inst in (a, b):
                late = inst.http.post(table.url("/join"),
                                      json={"name": "late", "invite": table.invite})
                assert late.status_code == 409 and late.json()["code"] == "game_not_running"
            # the game goes on: alice plays through B when it is her turn, bots between
            table.tokens[replies[0].json()["seat"]] = replies[0].json()["token"]
            alice = replies[0].json()["seat"]
            wait_for(lambda t=table, me=alice: info(b.http, t)["current_seat"] == me,
                     "alice's turn")
            version = info(b.http, table)["version"]
            move = legal(b.http, table, alice)[0]["action"]
            assert act(b.http, table, alice, move, version).json() == {"version": version + 1}
            wait_for(lambda t=table, v=version, me=alice: info(a.http, t)["version"] > v + 1 or
                     info(a.http, t)["current_seat"] == me, "the bots to move on")


def test_kill_9_of_the_owner_loses_nothing_and_bots_resume(tmp_path: Path) -> None:
    with cluster(tmp_path, 3, bot_delay=0.2) as found:
        a = found.instances[0]
        bot_games = [make_game(a.http, players=n, humans=0, bots=n) for n in (2, 3, 4, 4)]
        wait_for(lambda: len(found.owners()) == len(bot_games), "every bot game owned")
        wait_for(lambda: all(len(log_of(a.http, t)) >= 5 for t in bot_games), "bot moves")
        owners = found.owners()
        victim = next(i for i in found.instances if i.proc.pid == owners[bot_games[0].id])
        others = [i for i in found.instances if i is not victim]
        watched = bot_games[0]
        # a spectator of the owner's instance, to reconnect elsewhere
        seen: list[int] = []

        async def spectate(url: str) -> None:
            async with connect(url, max_size=None) as ws:
                await ws.send(json.dumps({"type": "hello", "token": None}))
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 60))
                    if message["type"] == "state":
                        seen.append(message["version"])
                        if len(seen) >= 2:
                            return

        run_in_own_loop(spectate(f"{victim.ws}/ws/games/{watched.id}"))
        acked = {t.id: log_of(others[0].http, t) for t in bot_games}  # acknowledged moves
        os.kill(victim.proc.pid, signal.SIGKILL)
        killed = time.monotonic()
        victim.proc.wait(timeout=30)
        owned = [t for t in bot_games if owners[t.id] == victim.proc.pid]
        at_kill = {t.id: len(log_of_db(found.url, t.id)) for t in owned}  # the dead wrote these

        def resumed() -> bool:
            return all(len(log_of_db(found.url, t.id)) > at_kill[t.id] for t in owned)

        wait_for(resumed, "another instance to resume the dead owner's bots")
        assert time.monotonic() - killed < TAKEOVER
        before = acked
        for table in bot_games:
            now = log_of(others[1].http, table)
            assert now[:len(before[table.id])] == before[table.id]  # nothing acknowledged lost
            assert [e["seq"] for e in now] == list(range(1, len(now) + 1))  # nothing twice
            assert log_of(others[0].http, table) == now or len(log_of(
                others[0].http, table)) >= len(now)
        live = set(found.owners().values())
        assert victim.proc.pid not in live and live <= {i.proc.pid for i in others}
        # the spectator reconnects to another instance and resyncs at a later version
        again: list[int] = []

        async def reconnect(url: str) -> None:
            async with connect(url, max_size=None) as ws:
                await ws.send(json.dumps({"type": "hello", "token": None}))
                while not again:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 60))
                    if message["type"] == "state":
                        again.append(message["version"])

        run_in_own_loop(reconnect(f"{others[1].ws}/ws/games/{watched.id}"))
        assert again[0] > seen[-1]


def test_restart_of_every_instance_resumes_every_game_with_one_owner(tmp_path: Path) -> None:
    with cluster(tmp_path, 3) as found:
        a = found.instances[0]
        games = [make_game(a.http, players=n, humans=0, bots=n) for n in (2, 3, 4, 2, 3)]
        wait_for(lambda: all(len(log_of(a.http, t)) >= 3 for t in games), "bot moves")
        for inst in found.instances:
            _stop(inst.proc)
        stopped = {t.id: len(log_of_db(found.url, t.id)) for t in games}
        found.instances.clear()
        fresh = found.start(3)
        pids = {i.proc.pid for i in fresh}
        running = [t for t in games if info(fresh[0].http, t)["status"] == "running"]
        wait_for(lambda: all(len(log_of(fresh[1].http, t)) > stopped[t.id] or
                             info(fresh[1].http, t)["status"] == "finished" for t in running),
                 "every running game to go on")
        owners = found.owners()
        still = [t for t in games if info(fresh[2].http, t)["status"] == "running"]
        assert all(owners.get(t.id) in pids for t in still)


def clocked_game(http: httpx.Client, per_turn: float) -> Table:
    """A two-player game of two humans with a correspondence clock of `per_turn` seconds."""
    created = http.post("/api/games", json={
        "players": 2, "name": "clocked",
        "clock": {"kind": "correspondence", "per_turn": per_turn}})
    assert created.status_code == 201, created.text
    body = created.json()
    table = Table(id=body["id"], host=body["host_token"], invite=body["invite"])
    for i in range(2):
        joined = http.post(table.url("/join"), json={"name": f"p{i}", "invite": table.invite})
        assert joined.status_code == 201, joined.text
        table.tokens[joined.json()["seat"]] = joined.json()["token"]
    return table


def db_now(url: str) -> Any:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(text("SELECT now()")).scalar_one()
    finally:
        engine.dispose()


def timed_out_at(url: str, game_id: str) -> Any:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(text(
                "SELECT created_at FROM seat_changes WHERE game_id = :g AND version = 1"),
                {"g": game_id}).scalar_one()
    finally:
        engine.dispose()


def seat_changes_db(url: str, game_id: str) -> list[tuple[int, int, str]]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return [(r.version, r.seat, r.change) for r in conn.execute(text(
                "SELECT version, seat, change FROM seat_changes WHERE game_id = :g "
                "ORDER BY version"), {"g": game_id})]
    finally:
        engine.dispose()


def test_a_clock_runs_out_on_its_owner_and_after_kill_9_on_another_instance(
        tmp_path: Path) -> None:
    with cluster(tmp_path, 2, extra={"BRASS_CLOCK_MINIMUM": "1"}) as found:
        a, b = found.instances
        # a game with a deadline and no bot needs background work: one instance owns it and
        # times the seat to move out; the other shows the time-out (caught up, not reloaded)
        table = clocked_game(a.http, per_turn=2)
        first = info(a.http, table)["current_seat"]
        assert info(b.http, table)["version"] == 0  # B holds the game: it must catch up
        wait_for(lambda: table.id in found.owners(), "the clocked game owned")
        owner = found.owners()[table.id]
        for inst in (a, b):
            wait_for(lambda i=inst: i.http.get(table.url("/state")).json()["seats"][first][
                "stand_in"] == "timeout", "the seat to time out")
        assert seat_changes_db(found.url, table.id)[0] == (1, first, "timeout")
        assert found.owners().get(table.id, owner) == owner  # the lease never moved
        for inst in (a, b):
            shown = inst.http.get(table.url("/log")).json()["seat_changes"]
            assert [(c["version"], c["seat"], c["change"]) for c in shown][:1] == [
                (1, first, "timeout")]
        # the owner of a second clocked game dies before the deadline: the other instance
        # claims the game once the lease expires and times the seat out, once
        table = clocked_game(b.http, per_turn=6)
        mover = info(b.http, table)["current_seat"]
        wait_for(lambda: table.id in found.owners(), "the second clocked game owned")
        victim = next(i for i in found.instances if i.proc.pid == found.owners()[table.id])
        survivor = a if victim is b else b
        os.kill(victim.proc.pid, signal.SIGKILL)
        killed = time.monotonic()
        victim.proc.wait(timeout=30)
        dead_at = db_now(found.url)
        wait_for(lambda: seat_changes_db(found.url, table.id)[:1] == [(1, mover, "timeout")],
                 "the surviving instance to time the seat out")
        # the deadline (6 s) and the dead owner's lease (TTL + renew) both end within TAKEOVER
        assert time.monotonic() - killed < TAKEOVER
        assert timed_out_at(found.url, table.id) > dead_at  # made by the survivor
        assert found.owners()[table.id] == survivor.proc.pid
        wait_for(lambda: survivor.http.get(table.url("/state")).json()["seats"][mover][
            "stand_in"] == "timeout", "the survivor to show the time-out")
        changes = seat_changes_db(found.url, table.id)
        assert [c for c in changes if c[1] == mover].count((1, mover, "timeout")) == 1


def test_a_chat_message_reaches_the_clients_of_every_instance(tmp_path: Path) -> None:
    with cluster(tmp_path, 2) as found:
        a, b = found.instances
        table = make_game(a.http, players=2, humans=2)
        seat = info(a.http, table)["current_seat"]
        got: list[dict[str, Any]] = []

        async def run() -> None:
            async with connect(f"{a.ws}/ws/games/{table.id}", max_size=None) as player, \
                    connect(f"{b.ws}/ws/games/{table.id}", max_size=None) as watcher:
                await player.send(json.dumps({"type": "hello", "token": table.tokens[seat]}))
                await watcher.send(json.dumps({"type": "hello", "token": None}))
                for ws in (player, watcher):  # each holds the game's state first
                    while json.loads(await asyncio.wait_for(ws.recv(), 30))["type"] != "state":
                        pass
                # B listens to the game's channel a moment after it holds the game (a chat
                # line sent before is not in any log to catch up from; docs/OWNERSHIP.md): a
                # move seen on B's socket says it listens (B reads a missed move only then)
                action = (await asyncio.to_thread(legal, a.http, table, seat))[0]["action"]
                await asyncio.to_thread(act, a.http, table, seat, action, 0)
                while True:
                    message = json.loads(await asyncio.wait_for(watcher.recv(), 30))
                    if message["type"] == "state" and message["version"] >= 1:
                        break
                await player.send(json.dumps({"type": "chat", "text": "hello from A"}))
                while not got:
                    message = json.loads(await asyncio.wait_for(watcher.recv(), 30))
                    if message["type"] == "chat":
                        got.append(message["message"])

        run_in_own_loop(run())
        assert got[0]["text"] == "hello from A" and got[0]["seat"] == seat
        history = b.http.get(table.url("/chat")).json()["messages"]
        assert [m["text"] for m in history] == ["hello from A"]


def log_of_db(url: str, game_id: str) -> list[int]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return list(conn.execute(text(
                "SELECT seq FROM actions WHERE game_id = :g AND NOT undone ORDER BY seq"),
                {"g": game_id}).scalars())
    finally:
        engine.dispose()


@pytest.fixture
def sqlite_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BRASS_")}
    env.update({"DATABASE_URL": f"sqlite:///{tmp_path / 'one.db'}", "BRASS_WORKERS": "0"})
    return env


def test_a_second_server_on_one_sqlite_file_is_refused(sqlite_env: dict[str, str],
                                                       tmp_path: Path) -> None:
    first = _sqlite_server(sqlite_env, tmp_path / "first.log", "the first server")
    try:
        second = subprocess.run([sys.executable, "-m", "brass.cli", "serve", "--port",
                                 str(free_port())], env=sqlite_env, cwd=repo_root(),
                                capture_output=True, text=True, timeout=60, check=False)
        assert second.returncode == 3
        assert "another brass serve is using the SQLite database" in second.stderr
        assert "Postgres" in second.stderr and "Traceback" not in second.stderr
    finally:
        first.kill()  # even killed, it leaves no lock behind
        first.wait(timeout=30)
    _stop(_sqlite_server(sqlite_env, tmp_path / "third.log",
                         "a server after the first was killed"))


def _sqlite_server(env: dict[str, str], log: Path, what: str) -> subprocess.Popen[bytes]:
    """`brass serve` on the SQLite file of `env`, once it answers."""
    port = free_port()
    with log.open("ab") as out:
        server = subprocess.Popen([sys.executable, "-m", "brass.cli", "serve", "--port",
                                   str(port), "--log-level", "warning"], env=env,
                                  cwd=repo_root(), stdout=out, stderr=subprocess.STDOUT)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            wait_for(lambda: _ready(client), what, server)
    except BaseException:
        server.kill()
        server.wait(timeout=30)
        raise
    return server


def test_a_dropped_listener_reconnects_and_loses_no_change(tmp_path: Path) -> None:
    with cluster(tmp_path, 2) as found:
        a, b = found.instances
        table = make_game(a.http, players=2, humans=2)
        engine = create_engine(found.url, isolation_level="AUTOCOMMIT")
        listener = f"brass-fanout %:{b.proc.pid}:%"

        def backends() -> list[int]:
            with engine.connect() as conn:
                return list(conn.execute(text(
                    "SELECT pid FROM pg_stat_activity WHERE application_name LIKE :name"),
                    {"name": listener}).scalars())

        seen: list[int] = []

        async def run() -> None:
            async with connect(f"{b.ws}/ws/games/{table.id}", max_size=None) as ws:
                await ws.send(json.dumps({"type": "hello", "token": None}))
                first = json.loads(await asyncio.wait_for(ws.recv(), 30))
                seen.append(first["version"])
                for round_ in range(3):  # the listener dies; a move is made meanwhile
                    old = await asyncio.to_thread(backends)
                    assert len(old) == 1
                    with engine.connect() as conn:
                        conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": old[0]})
                    seat = info(a.http, table)["current_seat"]
                    move = legal(a.http, table, seat)[0]["action"]
                    done = act(a.http, table, seat, move, round_)
                    assert done.json() == {"version": round_ + 1}
                    while seen[-1] < round_ + 1:
                        message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                        if message["type"] == "state":
                            seen.append(message["version"])
                    await asyncio.to_thread(
                        wait_for, lambda old=old: len(backends()) == 1 and backends() != old,
                        "the listener to reconnect")

        try:
            run_in_own_loop(run())
        finally:
            engine.dispose()
        assert seen == [0, 1, 2, 3]
