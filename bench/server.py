"""Server benchmark (run by hand, not in the tests):

    python bench/server.py                       # 200 games, Postgres on 127.0.0.1:5432
    python bench/server.py --games 200 500 1000 --seconds 60 --think 1.5
    python bench/server.py --root /tmp/main      # another checkout's server (e.g. main)
    python bench/server.py --games 200 --instances 1 2   # one server process, then two
    python bench/server.py --games 500 --instances 2 --placement sticky  # a game on one
    python bench/server.py --games 200 500 --baseline /tmp/main --rounds 2
                                                 # this checkout and another, alternating
    python bench/server.py --sqlite              # the embedded default (one instance)
    python bench/server.py --parts               # and the CPU per move by part (parts.py)

For each `--games` count, starts `brass serve` in a subprocess against a fresh Postgres
database (dropped at the end; with `--sqlite`, a fresh SQLite file), then plays that many
concurrent 4-seat games: every seat and one spectator per game on its own websocket over
loopback. With `--instances N`, N processes serve one database and each game's five sockets
are spread over them (so nearly every move reaches most of its sockets through fan-out:
LISTEN/NOTIFY and a catch-up on the other instances); with `--placement sticky`, each
game's requests and sockets go to one instance, as the shipped proxy configuration routes
them (deploy/Caddyfile). With `spread` the game is made and joined on the first instance
and its seats say hello on the others at once: a hello refused there ("Unknown seat token":
the instance had not heard of the join yet) is counted, and said again as the web client
does.
Each seat plays like a bot: on its turn
it takes its legal moves from the state message (the new version comes at once without them,
then again with them), waits `--think` seconds on average (uniform between 0.5 and 1.5
times that: a player thinking), picks with the bot heuristic and sends the action over its
websocket. No game moves before every game is open, so all of them are live when measured
(a game opened early would otherwise be over before the last one opens). Measured, after a
`--warmup` (the first moves of all games come in one burst), for `--seconds` (or until every
game is over):
- round trip: from sending an action until all five sockets of the game hold the new version;
- legal moves: from sending an action until the seat to move next holds its legal moves;
- actions per second, and errors by code;
- server memory per live game: the resident memory of the server process and its workers
  with the games open, less that before the first game, divided by the games, and how many
  moves into their game they are (a live game keeps its log: storage.ActionRecord);
- CPU to open a game: the CPU time of every server process and its workers from the first
  lobby call until every socket of every game holds its first state (create, 4 joins,
  5 hellos a game, the first mover's legal moves included), divided by the games, and
  split into its three steps (each batch of 20 games is created, then joined, then greeted);
- server CPU per action: the CPU time of every server process and its workers while
  measuring, divided by the actions (with several instances, the difference to one instance
  is the cost of fan-out), split into the server process's user and system time and its
  workers'; beside it, Postgres's CPU per action and the CPU this load generator spends per
  action on the same cores (its 5 sockets per game stand for five browsers elsewhere: it
  reads only the head of a state message, and the whole of it only when it is to move);
  and the server's CPU per action over the load generator's: the load generator does the
  same work per action whichever checkout serves, on the same cores at the same moment, so
  the machine's speed of the moment cancels out of this quotient. On a busy 2-CPU machine
  the load generator's own CPU per action moves by a third from run to run, the server's
  with it: with `--baseline`, the ratio of these quotients is the steadier comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.freshdb import fresh_postgres  # noqa: E402
from brass.bots import choose_entry  # noqa: E402

METRICS_TOKEN = "bench-metrics-token-0123456789"  # the servers' BRASS_METRICS_TOKEN


@dataclass
class GameClock:
    """Per game: when each version was sent, and how many sockets hold it."""

    sockets: int
    sent: dict[int, float] = field(default_factory=dict)
    moved: dict[int, float] = field(default_factory=dict)  # for the legal-moves latency
    holding: dict[int, int] = field(default_factory=dict)
    greeted: int = 0  # sockets that hold a first state (their hello was answered)
    ready: asyncio.Event = field(default_factory=asyncio.Event)  # all of them
    finished: bool = False
    version: int = 0  # the newest version seen: the moves played (a live game's log grows)


@dataclass
class Bench:
    latencies: list[float] = field(default_factory=list)
    legal: list[float] = field(default_factory=list)  # move sent -> next seat holds its moves
    worst: list[tuple[float, float]] = field(default_factory=list)  # (latency, when)
    errors: dict[str, int] = field(default_factory=dict)
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    go: asyncio.Event = field(default_factory=asyncio.Event)  # set once every game is open
    memory: list[tuple[int, int]] = field(default_factory=list)  # before, with the games
    cpu: list[tuple[float, float, float]] = field(default_factory=list)  # cpu_seconds:
    # at the start and the end of the measure
    own_cpu: list[float] = field(default_factory=list)  # this load generator's, the same
    db_cpu: list[float] = field(default_factory=list)  # Postgres's, the same
    pauses: list[dict[str, tuple[float, float]]] = field(default_factory=list)  # gc_pauses:
    # the same
    opening_parts: list[float] = field(default_factory=list)  # the servers' CPU seconds to
    # create, to join and to greet every game (open_games), until every socket holds its first
    # state
    live: int = 0
    hello_refused: int = 0  # hellos answered "Unknown seat token" (then said again)
    moves: float = 0.0  # mean moves played by the live games at the end
    measuring: bool = False  # off during the warm-up
    parts: list[dict[str, Any]] = field(default_factory=list)  # parts.py's sums, summed over
    # the servers, at the start and the end of the measure (with --parts)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def note_arrival(bench: Bench, clock: GameClock, version: int) -> None:
    clock.version = max(clock.version, version)
    count = clock.holding.get(version, 0) + 1
    clock.holding[version] = count
    if count == clock.sockets:
        del clock.holding[version]
        sent = clock.sent.pop(version, None)
        if sent is not None and bench.measuring:
            now = time.perf_counter()
            bench.latencies.append(now - sent)
            if now - sent > 0.1:
                bench.worst.append((now - sent, now))


def note_legal(bench: Bench, clock: GameClock, version: int) -> None:
    sent = clock.moved.pop(version, None)
    if sent is not None and bench.measuring:
        bench.legal.append(time.perf_counter() - sent)


# A state message's head names its type, status and version, and its view's current seat
# comes before any other "current_seat"; only the seat to move needs the whole message (its
# legal moves and money). Reading the others' heads only keeps this load generator's CPU, which
# stands for five browsers elsewhere, off the cores the server is measured on.
HEAD = re.compile(rb'^\{"type":"state","game":"[^"]*","status":"(\w+)","version":(\d+),')
CURRENT = re.compile(rb'"view":(?:null|\{[^{}\[]*?"current_seat":(\d+|null))')
NO_LEGAL = b',"legal":null,'


async def seat_loop(ws: ClientConnection, seat: int | None, base: str, clock: GameClock,
                    bench: Bench, think: float, token: str | None = None) -> None:
    rng = random.Random(f"{base}:{seat}")
    acted_at = seen = -1
    greeted = False  # a state came: the hello was taken
    while True:
        try:
            raw = await ws.recv(decode=False)  # bytes: no UTF-8 decoding of what is skipped
        except ConnectionClosed:
            return
        head = HEAD.match(raw)
        if head is None:
            if raw.startswith(b'{"type":"error"') and not greeted:
                bench.hello_refused += 1  # as the web client, hello again after a moment
                await asyncio.sleep(0.3)
                await ws.send(json.dumps({"type": "hello", "token": token}))
            elif raw.startswith(b'{"type":"error"'):
                msg = orjson.loads(raw)
                bench.errors[msg["code"]] = bench.errors.get(msg["code"], 0) + 1
                acted_at = -1
                await ws.send('{"type":"sync"}')
            continue  # an ack, a chat message
        if not greeted:
            greeted = True
            clock.greeted += 1
            if clock.greeted == clock.sockets:
                clock.ready.set()
        current = CURRENT.search(raw, 0, 2000)
        if current is None or current.group(1) is None:
            continue  # no view yet
        version = int(head.group(2))
        if version != seen:  # the seat to move gets a version twice: at once, then with moves
            seen = version
            note_arrival(bench, clock, version)
        if head.group(1) == b"finished":
            clock.finished = True
            return
        if (seat is None or current.group(1) != str(seat).encode() or version <= acted_at
                or raw.rfind(NO_LEGAL) != -1):
            continue  # not to move, or the same version follows with the legal moves
        msg = orjson.loads(raw)
        entries = msg["legal"]
        acted_at = version
        note_legal(bench, clock, version)
        if bench.stop.is_set():
            return
        await bench.go.wait()  # no game plays before all are open: all are live when measured
        await asyncio.sleep(think * (0.5 + rng.random()))
        pick = choose_entry(entries, rng, msg["view"]["players"][seat]["money"])
        # the time of sending is keyed by the version this action will make
        clock.sent[version + 1] = clock.moved[version + 1] = time.perf_counter()
        await ws.send(orjson.dumps({"type": "action", "action": pick["action"],
                                    "expected_version": version,
                                    "action_id": secrets.token_hex(8)}).decode())


async def create(http: httpx.AsyncClient, ports: list[int], index: int,
                 sticky: bool) -> tuple[str, str, str]:
    """A new 4-seat game: (the base of its URLs, its id, its invite)."""
    home = f"http://127.0.0.1:{ports[index % len(ports)]}" if sticky else ""
    reply = await http.post(f"{home}/api/games", json={"players": 4, "name": "bench"})
    if reply.status_code != 201:
        raise SystemExit(f"creating game {index} failed: {reply.status_code} {reply.text[:300]}")
    created = reply.json()
    return f"{home}/api/games/{created['id']}", created["id"], created["invite"]


async def join(http: httpx.AsyncClient, base: str, invite: str) -> list[tuple[int, str]]:
    """Its four seats taken one after the other, as four players would: (seat, token)."""
    seats = []
    for i in range(4):
        joined = (await http.post(f"{base}/join", json={"name": f"p{i}",
                                                         "invite": invite})).json()
        seats.append((joined["seat"], joined["token"]))
    return seats


async def greet(ports: list[int], index: int, game_id: str, base: str,
                seats: list[tuple[int, str]], bench: Bench, think: float, sticky: bool = False
                ) -> tuple[list[ClientConnection], list[asyncio.Task[None]], GameClock]:
    """A socket for the spectator and each seat, each saying hello, each played by a task."""
    clock = GameClock(sockets=5)
    sockets: list[ClientConnection] = []
    tasks = []
    for i, (seat, token) in enumerate([(None, None), *seats]):
        # sticky: the game's sockets on its instance; spread: over every instance
        port = ports[(index + (0 if sticky else i)) % len(ports)]
        # as a browser: no compression, no pings of its own (it answers the server's)
        ws = await connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}", max_size=None,
                           compression=None, ping_interval=None)
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sockets.append(ws)
        tasks.append(asyncio.create_task(
            seat_loop(ws, seat, base, clock, bench, think, token)))
    return sockets, tasks, clock


async def open_games(http: httpx.AsyncClient, ports: list[int], games: int, bench: Bench,
                     think: float, server_pids: list[int], sticky: bool = False
                     ) -> list[tuple[list[ClientConnection], list[asyncio.Task[None]],
                                     GameClock]]:
    """Every game opened, in batches of 20 (to keep the lobby calls polite), each batch in
    three steps whose server CPU is summed apart in `bench.opening_parts`: create, join (4
    seats each), greet (5 sockets each, until every one holds its first state)."""
    opened = []
    parts = [0.0, 0.0, 0.0]
    for start in range(0, games, 20):
        batch = range(start, min(games, start + 20))
        before = cpu_seconds(server_pids)[0]
        made = await asyncio.gather(*[create(http, ports, i, sticky) for i in batch])
        created = cpu_seconds(server_pids)[0]
        seats = await asyncio.gather(*[join(http, base, invite) for base, _, invite in made])
        joined = cpu_seconds(server_pids)[0]
        greeted = await asyncio.gather(*[
            greet(ports, i, game_id, base, taken, bench, think, sticky)
            for i, (base, game_id, _), taken in zip(batch, made, seats, strict=True)])
        await asyncio.gather(*[clock.ready.wait() for _, _, clock in greeted])
        after = cpu_seconds(server_pids)[0]
        for k, (a, b) in enumerate([(before, created), (created, joined), (joined, after)]):
            parts[k] += b - a
        opened += greeted
    bench.opening_parts = parts
    return opened


def kids_of(pid: int) -> list[int]:
    kids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            kids.append(int(stat.parent.name))
    return kids


def cpu_seconds(pids: list[int]) -> tuple[float, float, float]:
    """CPU seconds of the processes `pids` and their child processes: in all, the parents'
    user time, the parents' system time (their sockets' sends and receives are in it)."""
    total = user = system = 0
    for pid in pids:
        for p in [pid, *kids_of(pid)]:
            try:
                fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])
            if p == pid:
                user, system = user + int(fields[11]), system + int(fields[12])
    tick = os.sysconf("SC_CLK_TCK")
    return total / tick, user / tick, system / tick


def postgres_cpu() -> float:
    """User + system CPU seconds of every live Postgres process on this machine (the bench's
    database is the only busy one; a backend that ended meanwhile is not counted)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            head, rest = stat.read_text().rsplit(")", 1)
        except OSError:
            continue
        if head.endswith("(postgres"):
            fields = rest.split()
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


LISTING = "listing"  # `gc_pauses`' entry for the legal moves' listings


async def gc_pauses(http: httpx.AsyncClient, ports: list[int]) -> dict[str, tuple[float, float]]:
    """The servers' garbage collection pauses so far (`brass_gc_seconds` at /metrics), by kind:
    how many and their seconds in all; and under `LISTING` the same of the legal moves' listings
    (`brass_legal_moves_seconds`: the time of each on the event loop, where it is measured in
    the server as it runs, beside everything else a move does)."""
    found: dict[str, list[float]] = {}
    for port in ports:
        page = (await http.get(f"http://127.0.0.1:{port}/metrics", headers={
            "Authorization": f"Bearer {METRICS_TOKEN}"})).text
        for family in text_string_to_metric_families(page):
            for sample in family.samples:
                kind = (sample.labels.get("kind") if family.name == "brass_gc_seconds"
                        else LISTING if family.name == "brass_legal_moves_seconds" else None)
                part = sample.name.removeprefix(f"{family.name}_")
                if kind is not None and part in ("count", "sum"):
                    totals = found.setdefault(kind, [0.0, 0.0])
                    totals[part == "sum"] += sample.value
    return {kind: (n, total) for kind, (n, total) in found.items()}


def rss_all(pids: list[int]) -> tuple[int, int]:
    found = [rss_kb(p) for p in pids]
    return sum(f[0] for f in found), sum(f[1] for f in found)


def rss_kb(pid: int) -> tuple[int, int]:
    """Resident memory (KB) of the process `pid`, and of it with its child processes."""
    def one(p: int) -> int:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        except OSError:
            pass
        return 0

    own = one(pid)
    return own, own + sum(one(k) for k in kids_of(pid))


async def run(ports: list[int], games: int, seconds: float, think: float, warmup: float,
              server_pids: list[int], sticky: bool = False,
              parts: list[Path] | None = None) -> Bench:
    bench = Bench()
    bench.memory.append(rss_all(server_pids))
    # a new connection per lobby call: a kept-alive one that the loaded server closes as it
    # is reused fails the call (httpx.ReadError, seen on a busy machine)
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{ports[0]}", timeout=120,
                                 limits=limits) as http:
        opened = await open_games(http, ports, games, bench, think, server_pids, sticky)
        # the load generator's own collector pauses (hundreds of ms with 1000 sockets) must
        # not be measured as server latency: no collections in this bounded run
        gc.freeze()
        gc.disable()
        bench.go.set()
        print(f"{games} games, {5 * games} sockets open; warming up for {warmup:.0f} s, "
              f"then measuring for {seconds:.0f} s", flush=True)
        await asyncio.sleep(warmup)
        bench.measuring = True
        bench.cpu.append(cpu_seconds(server_pids))
        bench.own_cpu.append(time.process_time())
        bench.db_cpu.append(postgres_cpu())
        bench.pauses.append(await gc_pauses(http, ports))
        if parts:
            bench.parts.append(await parts_now(server_pids, parts))
        began = time.perf_counter()
        while time.perf_counter() - began < seconds and not all(
                game[2].finished for game in opened):
            await asyncio.sleep(0.5)
        played = time.perf_counter() - began
        bench.cpu.append(cpu_seconds(server_pids))
        bench.own_cpu.append(time.process_time())
        bench.db_cpu.append(postgres_cpu())
        bench.pauses.append(await gc_pauses(http, ports))
        if parts:
            bench.parts.append(await parts_now(server_pids, parts))
        bench.memory.append(rss_all(server_pids))
        bench.live = sum(not game[2].finished for game in opened)
        bench.moves = statistics.fmean([g[2].version for g in opened if not g[2].finished]
                                       or [0])
        bench.stop.set()
        for _, tasks, _ in opened:
            for task in tasks:
                task.cancel()
        await asyncio.wait([asyncio.create_task(ws.close()) for sockets, _, _ in opened
                            for ws in sockets], timeout=30)
        bench.errors["_seconds"] = int(played)
    return bench


async def parts_now(pids: list[int], files: list[Path]) -> dict[str, Any]:
    """parts.py's sums in every server now (each asked by SIGUSR1), added up."""
    asked = time.time()
    total: dict[str, Any] = {"main thread": 0.0, "process": 0.0, "parts": {}}
    for pid, path in zip(pids, files, strict=True):
        os.kill(pid, signal.SIGUSR1)
        for _ in range(200):
            try:
                sums = json.loads(path.read_text())
                if sums["written"] >= asked:
                    break
            except (OSError, ValueError):
                pass
            await asyncio.sleep(0.05)
        else:
            raise SystemExit(f"server {pid} wrote no CPU by part within 10 s")
        total["main thread"] += sums["main thread"]
        total["process"] += sums["process"]
        for part, spent in sums["parts"].items():
            total["parts"][part] = total["parts"].get(part, 0.0) + spent
    return total


def report_parts(bench: Bench, actions: int) -> None:
    """The servers' CPU per action by part while measuring (parts.py), in ms."""
    before, after = bench.parts
    per = 1000 / max(actions, 1)
    spent = {k: (v - before["parts"].get(k, 0.0)) * per for k, v in after["parts"].items()}
    main = (after["main thread"] - before["main thread"]) * per
    process = (after["process"] - before["process"]) * per
    print(f"server CPU per action by part (CPU time of the calls, parts.py): main thread "
          f"{main:.2f} ms, of which:")
    for part, ms in sorted(spent.items(), key=lambda kv: -kv[1]):
        print(f"  {ms:5.3f} ms  {part}")
    print(f"  {main - sum(spent.values()):5.3f} ms  the rest: the event loop, tasks, the "
          f"frameworks' layers, the database's driver")
    print(f"other threads of the server process: {process - main:.2f} ms")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, nargs="+", default=[200],
                        help="concurrent games; several counts run one after the other")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=10.0,
                        help="seconds of play before measuring (the first moves of 200 games "
                             "come in one burst)")
    parser.add_argument("--think", type=float, default=2.0,
                        help="mean seconds a seat waits before its move (default 2)")
    parser.add_argument("--instances", type=int, nargs="+", default=[1],
                        help="server processes on the one database; several counts run one "
                             "after the other at the same load (default 1)")
    parser.add_argument("--placement", choices=("spread", "sticky"), default="spread",
                        help="with several instances: each game's five sockets spread over "
                             "them (default), or all on one instance, its requests too, as "
                             "the shipped proxy routes a game")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the checkout whose server runs (default: this one)")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another checkout (e.g. a worktree of main): each run of --root "
                             "is followed by one of it, --rounds times, and the medians and "
                             "their ratios are printed (on a busy machine the ratio is the "
                             "steadier figure)")
    parser.add_argument("--rounds", type=int, default=2,
                        help="alternations of --root and --baseline (default 2)")
    parser.add_argument("--synchronous-commit", choices=("on", "off"), default="on",
                        help="the server's BRASS_SYNCHRONOUS_COMMIT: off answers a move "
                             "before Postgres has flushed it to disk (default on)")
    parser.add_argument("--sqlite", action="store_true",
                        help="serve from a fresh SQLite file (the embedded default, one "
                             "instance) instead of Postgres")
    parser.add_argument("--parts", action="store_true",
                        help="start the servers through bench/parts.py and print their CPU "
                             "per action by part, in CPU time")
    parser.add_argument("--gc-full-every", type=float, default=None,
                        help="the server's BRASS_GC_FULL_EVERY, seconds between its full "
                             "garbage collections (default: the server's, 900), to see "
                             "one within the measure")
    args = parser.parse_args()
    try:
        import uvloop  # installed with uvicorn[standard]

        uvloop.install()
    except ImportError:
        pass
    roots = [args.root.resolve()] + ([] if args.baseline is None
                                     else [args.baseline.resolve()])
    rounds = args.rounds if args.baseline is not None else 1
    for games in args.games:
        for instances in args.instances:
            if args.sqlite and instances != 1:
                parser.error("SQLite serves one instance")
            options = {"BRASS_SYNCHRONOUS_COMMIT": args.synchronous_commit}
            if args.gc_full_every is not None:
                options["BRASS_GC_FULL_EVERY"] = str(args.gc_full_every)
            figures: dict[Path, list[tuple[float, ...]]] = {root: [] for root in roots}
            for _ in range(rounds):
                for root in roots:
                    bench = bench_once(games, args.seconds, args.think, args.warmup, root,
                                       instances, options, args.placement == "sticky",
                                       args.sqlite, args.parts)
                    report(bench, games, args.think, args.warmup, root, instances,
                           {**options, "placement": args.placement}, args.sqlite)
                    figures[root].append((per_action_ms(bench), opening_ms(bench, games),
                                          per_generator_ms(bench), listing_ms(bench)))
            if args.baseline is not None:
                compare(figures, roots, games, instances)
    return 0


def per_action_ms(bench: Bench) -> float:
    """Server CPU (all processes, workers included) per action measured, ms."""
    (all0, _, _), (all1, _, _) = bench.cpu
    return (all1 - all0) * 1000 / max(len(bench.latencies), 1)


def per_generator_ms(bench: Bench) -> float:
    """Server CPU per action over this load generator's CPU per action. The load generator
    does the same work per action for either checkout (it reads the same messages), on the
    same cores at the same time as the server: the machine's speed of the moment (other
    tenants, clock rate) moves both alike and cancels out of the quotient, where it moves
    the server's CPU per action by a quarter from run to run on a busy machine."""
    own = bench.own_cpu[1] - bench.own_cpu[0]
    (all0, _, _), (all1, _, _) = bench.cpu
    return (all1 - all0) / own if own > 0 else float("nan")


def listings(bench: Bench) -> tuple[int, float]:
    """The listings of legal moves in the servers while measuring: how many, and the mean
    time of one (ms; nan if none)."""
    (n0, total0), (n1, total1) = (p.get(LISTING, (0, 0)) for p in bench.pauses)
    n = int(n1 - n0)
    return n, (total1 - total0) * 1000 / n if n > 0 else float("nan")


def listing_ms(bench: Bench) -> float:
    return listings(bench)[1]


def opening_ms(bench: Bench, games: int) -> float:
    """Server CPU to open one game (create, 4 joins, 5 hellos answered), ms."""
    return sum(bench.opening_parts) * 1000 / games


def compare(figures: dict[Path, list[tuple[float, ...]]], roots: list[Path], games: int,
            instances: int) -> None:
    """The medians of each checkout's runs, and this one's over the baseline's."""
    mine, base = (figures[r] for r in roots)
    print(f"== {games} games, {instances} instance(s): {roots[0]} against {roots[1]}, "
          f"{len(mine)} runs each, alternating")
    for i, what in enumerate(("server CPU per action (ms)", "server CPU to open a game (ms)",
                              "server CPU per action over the load generator's (the steadier "
                              "figure: per_generator_ms)",
                              "one listing of legal moves in the server (ms)")):
        a = statistics.median(f[i] for f in mine)
        b = statistics.median(f[i] for f in base)
        print(f"{what}, median: {a:.2f} against {b:.2f}: ratio {a / b:.2f} "
              f"(runs: {' '.join(f'{f[i]:.2f}' for f in mine)} / "
              f"{' '.join(f'{f[i]:.2f}' for f in base)})")
    print(flush=True)


def bench_once(games: int, seconds: float, think: float, warmup: float, root: Path,
               instances: int = 1, options: dict[str, str] | None = None,
               sticky: bool = False, sqlite: bool = False, parts: bool = False) -> Bench:
    """One run: a fresh Postgres database (`sqlite`: SQLite file) and `instances` server
    processes for `games` games (`options`: more of the servers' settings, as environment
    variables)."""
    with tempfile.TemporaryDirectory(prefix="brass-bench-") as folder:
        if sqlite:
            return serve_and_play(f"sqlite:///{folder}/bench.db", games, seconds, think, warmup,
                                  root, instances, options, sticky,
                                  Path(folder) if parts else None)
        with fresh_postgres("brass_bench") as url:
            return serve_and_play(url, games, seconds, think, warmup, root, instances, options,
                                  sticky, Path(folder) if parts else None)


def serve_and_play(url: str, games: int, seconds: float, think: float, warmup: float,
                   root: Path, instances: int, options: dict[str, str] | None,
                   sticky: bool, parts: Path | None = None) -> Bench:
    """Start `instances` servers of `root` on the database at `url` and play `games`
    (`parts`: a folder for parts.py's sums; the servers start through it)."""
    env = {**os.environ, "DATABASE_URL": url, "PYTHONPATH": str(root),
           "BRASS_JOIN_LIMIT": "0",  # 1000 joins and
           "BRASS_SOCKETS_PER_ADDRESS": "0",  # 1000 sockets from one address
           "BRASS_METRICS_TOKEN": METRICS_TOKEN,
           **(options or {})}
    # as many worker processes in all as one instance has by default (CPUs - 1), shared out
    env["BRASS_WORKERS"] = str(max(1, ((os.cpu_count() or 2) - 1) // instances))
    ports = [free_port() for _ in range(instances)]
    sums = None if parts is None else [parts / f"parts-{port}.json" for port in ports]
    start = ["-m", "brass.cli"] if parts is None else [str(ROOT / "bench" / "parts.py")]
    servers = []
    try:
        for i, port in enumerate(ports):
            servers.append(subprocess.Popen(
                [sys.executable, *start, "serve", "--port", str(port), "--log-level",
                 "warning"], cwd=root,
                env=env if sums is None else {**env, "BRASS_BENCH_PARTS": str(sums[i])}))
        for port, server in zip(ports, servers, strict=True):
            deadline = time.monotonic() + 180  # a loaded machine starts it slowly
            while True:
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/api/games",
                                 timeout=2).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the server did not start")
                time.sleep(0.2)
        return asyncio.run(run(ports, games, seconds, think, warmup,
                               [s.pid for s in servers], sticky, sums))
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=120)  # its shutdown is slow on a loaded machine


def report(bench: Bench, games: int, think: float, warmup: float, root: Path,
           instances: int = 1, options: dict[str, str] | None = None,
           sqlite: bool = False) -> None:
    lat = [x * 1000 for x in bench.latencies]
    legal = [x * 1000 for x in bench.legal]
    played = bench.errors.pop("_seconds")
    print(f"server: {root}; database: {'sqlite' if sqlite else 'postgres'} (fresh); "
          f"{instances} instance(s); "
          + "; ".join(f"{k}={v}" for k, v in (options or {}).items()))
    print(f"games: {games} x 4 seats + 1 spectator = {5 * games} websockets; think {think} s "
          f"(mean, per move); measured {played} s after a {warmup:.0f} s warm-up")
    (own0, with0), (own1, with1) = bench.memory
    print(f"memory per live game ({bench.live} live at the end, {bench.moves:.0f} moves into "
          f"their game on average; a 4-seat game has about 120): server process "
          f"{(own1 - own0) / games:.0f} KB, with its workers {(with1 - with0) / games:.0f} KB "
          f"(server {own1 // 1024} MB, with workers {with1 // 1024} MB)")
    if not lat or not legal:
        print("no action completed")
        return
    per_action = 1000 / max(len(lat), 1)
    (all0, user0, sys0), (all1, user1, sys1) = bench.cpu
    server_ms = (all1 - all0) * per_action
    own_ms = (bench.own_cpu[1] - bench.own_cpu[0]) * per_action
    db_ms = (bench.db_cpu[1] - bench.db_cpu[0]) * per_action
    create_s, join_s, greet_s = (1000 * part / games for part in bench.opening_parts)
    print(f"CPU to open a game (create, 4 joins, 5 hellos): server "
          f"{opening_ms(bench, games):.1f} ms (create {create_s:.1f}, 4 joins {join_s:.1f}, "
          f"5 hellos and first states {greet_s:.1f})")
    print(f"actions: {len(lat)} ({len(lat) / max(played, 1):.1f}/s); CPU per action: server "
          f"{server_ms:.2f} ms, Postgres {db_ms:.2f} ms, this load generator (on the same "
          f"cores) {own_ms:.2f} ms; the server's over the load generator's "
          f"{per_generator_ms(bench):.2f}")
    print(f"server CPU per action by part: server process user {(user1 - user0) * per_action:.2f} "
          f"ms, system {(sys1 - sys0) * per_action:.2f} ms; its workers "
          f"{(all1 - all0 - user1 + user0 - sys1 + sys0) * per_action:.2f} ms")
    for what, values in [("round trip: submit -> all 5 sockets hold the new version", lat),
                         ("legal moves: submit -> the next seat holds its legal moves", legal)]:
        print(f"{what} (ms): median {statistics.median(values):.1f}  "
              f"p90 {percentile(values, 90):.1f}  p99 {percentile(values, 99):.1f}  "
              f"max {max(values):.1f}")
    before, after = ({k: v for k, v in p.items() if k != LISTING} for p in bench.pauses)
    listed, mean = listings(bench)
    if listed:
        print(f"legal moves listed while measuring: {listed}, {mean:.3f} ms each on average")
    pauses = []
    for kind, (n, total) in sorted(after.items()):
        n0, total0 = before.get(kind, (0, 0))
        pauses.append(f"{kind} {n - n0:.0f} (mean {(total - total0) * 1000 / max(1, n - n0):.1f}"
                      " ms)")
    print(f"garbage collection pauses while measuring: {', '.join(pauses)}")
    print(f"errors: {bench.errors or 'none'}; hellos refused (said again): "
          f"{bench.hello_refused}")
    if bench.parts:
        report_parts(bench, len(lat))
    if bench.worst:  # when they came: bursts (a stall) or spread (a saturated machine)
        start = min(when for _, when in bench.worst)
        per_second: dict[int, int] = {}
        for _, when in bench.worst:
            per_second[int(when - start)] = per_second.get(int(when - start), 0) + 1
        print(f"round trips over 100 ms: {len(bench.worst)}; per second after the first: " +
              " ".join(f"{s}s:{n}" for s, n in sorted(per_second.items())))
    print(flush=True)


if __name__ == "__main__":
    sys.exit(main())
