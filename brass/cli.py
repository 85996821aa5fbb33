"""The `brass` command: `brass serve` runs the server; `brass replay FILE` replays a finished
game's downloaded log (`GET /api/games/{id}/log`) and checks its final scores."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from brass.server import Settings, create_app

    overrides: dict[str, Any] = {}
    if args.host is not None:
        overrides["host"] = args.host
    if args.port is not None:
        overrides["port"] = args.port
    if args.bot_delay is not None:
        overrides["bot_delay"] = args.bot_delay
    settings = Settings(**overrides)
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port,
                log_level=args.log_level, ws_max_size=1024 * 1024,
                ws_per_message_deflate=False)
    return 0


def replay_file(path: Path) -> tuple[list[int], list[int] | None]:
    """Replay a game log file; returns (replayed scores, scores recorded in the file)."""
    from brass.engine import parse_action, replay

    record = json.loads(path.read_text())
    if record.get("seed") is None:
        raise ValueError("This log has no seed: only a finished game's log can be replayed")
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="brass", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p_serve = sub.add_parser("serve", help="run the game server")
    p_serve.add_argument("--host", default=None, help="default: BRASS_HOST or 127.0.0.1")
    p_serve.add_argument("--port", type=int, default=None, help="default: BRASS_PORT or 8000")
    p_serve.add_argument("--bot-delay", type=float, default=None,
                         help="seconds a bot waits before moving (BRASS_BOT_DELAY, 0.5)")
    p_serve.add_argument("--log-level", default="info")
    p_serve.set_defaults(func=serve)
    p_replay = sub.add_parser("replay", help="replay a finished game's log file")
    p_replay.add_argument("file")
    p_replay.set_defaults(func=replay_cmd)
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
