"""The `brass` command: `brass serve` runs the server; `brass play` plays a game against bots
on a running server, in the terminal; `brass replay FILE` replays a finished game's downloaded
log (`GET /api/games/{id}/log`) and checks its final scores."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def replay_file(path: Path) -> tuple[list[int], list[int] | None]:
    """Replay a game log file; returns (replayed scores, scores recorded in the file)."""
    from brass.engine import ENGINE_VERSION, parse_action, replay

    record = json.loads(path.read_text())
    if record.get("seed") is None:
        raise ValueError("This log has no seed: only a finished game's log can be replayed")
    if record.get("engine_version") not in (None, ENGINE_VERSION):
        print(f"note: played with engine {record['engine_version']}, replayed with "
              f"{ENGINE_VERSION}", file=sys.stderr)
    game = replay(record["players"], record["seed"], record.get("setup"),
                  [parse_action(entry["action"]) for entry in record["actions"]])
    return list(game.scores), record.get("scores")


def replay_cmd(args: argparse.Namespace) -> int:
    try:
        scores, recorded = replay_file(Path(args.file))
    except (OSError, ValueError, KeyError) as exc:
        print(f"brass replay: {exc}", file=sys.stderr)
        return 2
    print(json.dumps({"scores": scores, "recorded": recorded, "match": scores == recorded}))
    return 0 if recorded is None or scores == recorded else 1


class Api:
    """A tiny client of the HTTP API (standard library only)."""

    def __init__(self, url: str, token: str | None = None) -> None:
        self.url, self.token = url.rstrip("/"), token

    def __call__(self, method: str, path: str, body: dict[str, Any] | None = None,
                 token: str | None = None) -> Any:
        import urllib.error
        import urllib.request

        headers = {"content-type": "application/json"}
        if token or self.token:
            headers["authorization"] = f"Bearer {token or self.token}"
        request = urllib.request.Request(
            self.url + path, method=method, headers=headers,
            data=None if body is None else json.dumps(body).encode())
        try:
            with urllib.request.urlopen(request, timeout=60) as reply:
                return json.loads(reply.read())
        except urllib.error.HTTPError as exc:
            return json.loads(exc.read())


def play(args: argparse.Namespace) -> int:
    import random
    import time
    import uuid

    from brass.bots import choose_entry

    api = Api(args.url)
    game = api("POST", "/api/games", {"players": args.players, "name": "you vs bots"})
    gid = game["id"]
    me = api("POST", f"/api/games/{gid}/join", {"name": "you"})
    api.token = me["token"]
    for _ in range(args.players - 1):
        api("POST", f"/api/games/{gid}/bots", {}, token=game["host_token"])
    print(f"game {gid}: you are seat {me['seat']}; watch: {args.url}/api/games/{gid}/log")
    rng, shown = random.Random(), 0
    while True:
        state = api("GET", f"/api/games/{gid}/state")
        for entry in api("GET", f"/api/games/{gid}/log")["actions"][shown:]:
            print(f"  #{entry['seq']} seat {entry['seat']}: {json.dumps(entry['action'])}")
            shown += 1
        view = state["view"]
        if state["status"] == "finished":
            print("final scores (VP by seat):", [p["vp"] for p in view["players"]])
            return 0
        if view["current_seat"] != me["seat"]:
            time.sleep(0.3)
            continue
        mine = view["players"][me["seat"]]
        print(f"\n{view['era']} round {view['round']}: money {mine['money']}, "
              f"VP {mine['vp']}, hand {mine['hand']}")
        entries = api("GET", f"/api/games/{gid}/legal")
        if args.auto:
            pick = choose_entry(entries, rng, mine["money"])
        else:
            for i, entry in enumerate(entries):
                print(f"{i:4} {json.dumps(entry['action'])}  costs {entry['quote']['money']}")
            choice = input("your action (number; empty = the bot's choice): ").strip()
            pick = (entries[int(choice)] if choice.isdigit() and int(choice) < len(entries)
                    else choose_entry(entries, rng, mine["money"]))
        done = api("POST", f"/api/games/{gid}/actions", {
            "action": pick["action"], "expected_version": state["version"],
            "action_id": str(uuid.uuid4())})
        if "code" in done:
            print(f"refused: {done['code']}: {done['message']}")


def main(argv: list[str] | None = None) -> int:
    from brass import __version__
    from brass.server import launch

    parser = argparse.ArgumentParser(prog="brass", description=__doc__)
    parser.add_argument("--version", action="version", version=f"brass {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    launch.add_parser(sub)
    p_play = sub.add_parser("play", help="play a game against bots on a running server")
    p_play.add_argument("--url", default="http://127.0.0.1:8000")
    p_play.add_argument("--players", type=int, choices=[2, 3, 4], default=2)
    p_play.add_argument("--auto", action="store_true", help="let the bot heuristic play for you")
    p_play.set_defaults(func=play)
    p_replay = sub.add_parser("replay", help="replay a finished game's log file")
    p_replay.add_argument("file")
    p_replay.set_defaults(func=replay_cmd)
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
