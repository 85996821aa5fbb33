"""The `brass` command: `brass serve` runs the server; `brass play` plays a game against bots
on a running server, in the terminal; `brass replay FILE` replays a finished game's downloaded
log (`GET /api/games/{id}/log`) and checks its final scores; `brass export GAME` writes a
finished game's record and `brass import FILE` stores one in a server's database; `brass
backup OUT` copies a running server's SQLite database."""

from __future__ import annotations

import argparse
import json
import ssl
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from brass import terminal


def replay_file(path: Path) -> tuple[list[int], list[int] | None]:
    """Replay a game log file; returns (replayed scores, scores recorded in the file)."""
    from brass.engine import ENGINE_VERSION, REPLAYS_VERSIONS, parse_action, replay

    record = json.loads(path.read_text())
    if record.get("seed") is None:
        raise ValueError("This log has no seed: only a finished game's log can be replayed")
    if record.get("engine_version") not in (None, *REPLAYS_VERSIONS):
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


class TLSRefused(Exception):
    """Not a ValueError or OSError: transfer.py reports those as no answer or no JSON."""


class CheckedHTTPS(urllib.request.HTTPSHandler):
    """HTTPS for `brass export --url`: trusts `--cacert` (a private CA) if given, else the
    system's CAs, and says so in words when a certificate is refused (urllib's URLError would
    be reported as "no server answers")."""

    def __init__(self, cacert: str | None) -> None:
        self.cacert = cacert
        try:
            context = ssl.create_default_context(cafile=cacert)
        except (OSError, ssl.SSLError) as exc:  # ssl.SSLError: not a PEM certificate
            raise ValueError(f"cannot read the CA certificate {cacert}: {exc}") from None
        super().__init__(context=context)

    def https_open(self, req: urllib.request.Request) -> Any:
        try:
            return super().https_open(req)
        except urllib.error.URLError as exc:
            if not isinstance(exc.reason, ssl.SSLError):
                raise
            trusted = f"the CA in {self.cacert}" if self.cacert else "this system's CAs"
            hint = "" if self.cacert else "; a private CA's certificate: --cacert FILE"
            raise TLSRefused(f"{req.host} answers, but its TLS certificate is refused: "
                             f"{getattr(exc.reason, 'verify_message', None) or exc.reason} "
                             f"(trusted: {trusted}){hint}") from None


def export_cmd(args: argparse.Namespace) -> int:
    from brass.server import transfer

    try:
        if args.url is not None:
            # the one opener of this command: transfer.export_from_server's urlopen uses it
            urllib.request.install_opener(urllib.request.build_opener(CheckedHTTPS(args.cacert)))
            record = transfer.export_from_server(args.url, args.game)
        else:
            record = transfer.export_from_database(database_url(args.database), args.game)
    except (ValueError, TLSRefused) as exc:  # TransferError, a bad setting, a refused cert
        print(f"brass export: {exc}", file=sys.stderr)
        return 2
    text = json.dumps(record, indent=1) + "\n"
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text)
    return 0


def import_cmd(args: argparse.Namespace) -> int:
    from brass.server import importcheck, transfer
    from brass.server.operatordb import shown

    try:
        # one byte over the limit is enough to refuse it: a huge file is never read whole
        with (open(sys.stdin.fileno(), "rb", closefd=False) if args.file == "-"
              else Path(args.file).open("rb")) as source:
            raw = source.read(importcheck.MAX_BYTES + 1)
        record = importcheck.parse(raw)
        url = database_url(args.database)
        game_id = transfer.import_record(url, record, new_id=args.new_id)
    except OSError as exc:
        print(f"brass import: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except importcheck.BadRecord as exc:
        print(f"brass import: {args.file}: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:  # TransferError, or a bad setting
        print(f"brass import: {exc}", file=sys.stderr)
        return 2
    print(f"imported game {game_id} ({len(record['actions'])} actions, scores "
          f"{record['scores']}) into {shown(url)}")
    return 0


def settings_cmd(args: argparse.Namespace) -> int:
    from brass.server import policy

    return policy.settings_cmd(args)


def database_url(given: str | None) -> str:
    """`--database`, else the server's own setting (DATABASE_URL or BRASS_DB_*)."""
    from brass.server.operatordb import database_url

    return database_url(given)


def main(argv: list[str] | None = None) -> int:
    from brass import __version__
    from brass.server import admin, launch, sqlitecopy

    parser = argparse.ArgumentParser(prog="brass", description=__doc__)
    parser.add_argument("--version", action="version", version=f"brass {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    launch.add_parser(sub)
    p_play = sub.add_parser("play", help="play a game against bots on a running server")
    terminal.add_arguments(p_play)
    p_play.set_defaults(func=terminal.main)
    p_replay = sub.add_parser("replay", help="replay a finished game's log file")
    p_replay.add_argument("file")
    p_replay.set_defaults(func=replay_cmd)
    p_export = sub.add_parser("export", help="write a finished game's record (JSON)")
    p_export.add_argument("game", help="the game's id")
    source = p_export.add_mutually_exclusive_group()
    source.add_argument("--url", help="read it from this server (e.g. https://games.example.com)")
    source.add_argument("--database", help="read it from this database URL (default: the "
                        "server's setting, DATABASE_URL or BRASS_DB_*)")
    p_export.add_argument("--cacert", help="with --url: trust the CA certificate in this PEM "
                          "file (a server with a private CA), instead of the system's CAs")
    p_export.add_argument("-o", "--output", help="the file to write (default: standard output)")
    p_export.set_defaults(func=export_cmd)
    p_import = sub.add_parser("import", help="store a finished game's record in the database")
    p_import.add_argument("file", help="a record from `brass export` or GET /api/games/GAME/log "
                          "(- reads standard input)")
    p_import.add_argument("--database", help="the database URL (default: the server's setting, "
                          "DATABASE_URL or BRASS_DB_*)")
    p_import.add_argument("--new-id", action="store_true",
                          help="if a game there has this game's id, store it under a new id")
    p_import.set_defaults(func=import_cmd)
    p_settings = sub.add_parser("settings", help="the host's settings kept in the database")
    which = p_settings.add_subparsers(dest="setting", required=True)
    p_policy = which.add_parser("create-policy", help="show or set who may create games: "
                                "anyone, players with an account, or holders of an invite code")
    p_policy.add_argument("policy", nargs="?", choices=["anyone", "accounts", "invite"])
    p_policy.add_argument("--code", help="with invite: the code (default: a new random one, "
                          "printed once)")
    p_policy.add_argument("--database", help="the database URL (default: the server's "
                          "setting, DATABASE_URL or BRASS_DB_*)")
    p_policy.set_defaults(func=settings_cmd)
    admin.add_parser(sub)
    sqlitecopy.add_parser(sub)
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
