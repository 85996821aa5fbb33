"""`brass backup OUT`: a whole copy of a running server's SQLite file. While the server runs,
its latest commits may be only in the write-ahead log beside the file (`brass.db-wal`: it
keeps its connections open, storebase.py), so `cp brass.db` alone would miss them; SQLite's
own backup copies the database as one reader sees it, log included, while the server goes on
writing. A Postgres server is dumped by deploy/backup.sh (`pg_dump`) instead.

The copy is written under a temporary name beside OUT and renamed when whole, so OUT is never
half a database; an OUT that is there already is refused rather than overwritten."""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from .admin import DATABASE_HELP
from .operatordb import Refused, server_database, shown
from .storebase import private


def copy(url: str, out: Path) -> int:
    """Copy the SQLite database at `url` (the server's, `server_database`) to `out`; how many
    games it holds. `Refused` for Postgres, a missing file, or an `out` already there."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        raise Refused(f"{shown(url)} is Postgres: deploy/backup.sh dumps it (pg_dump)")
    if out.exists():
        raise Refused(f"{out} is there already: name a new file")
    partial = out.with_name(out.name + ".partial")
    partial.unlink(missing_ok=True)  # left by a copy that was stopped
    private(partial)  # owner-only, as the server's file (storebase.private)
    source = sqlite3.connect(str(parsed.database), timeout=30)
    try:
        target = sqlite3.connect(partial)
        try:
            source.backup(target)
            games: int = target.execute("SELECT count(*) FROM games").fetchone()[0]
        finally:
            target.close()
        os.replace(partial, out)
    except sqlite3.Error as exc:
        partial.unlink(missing_ok=True)
        raise Refused(f"{shown(url)}: {exc}") from None
    finally:
        source.close()
    return games


def backup_cmd(args: argparse.Namespace) -> int:
    try:
        games = copy(server_database(args.database), Path(args.out))
    except Refused as exc:
        print(f"brass backup: {exc}", file=sys.stderr)
        return 2
    print(f"copied {games} game{'' if games == 1 else 's'} to {args.out} "
          f"({Path(args.out).stat().st_size} bytes)")
    return 0


def add_parser(sub: Any) -> None:
    p = sub.add_parser("backup", help="copy a running server's SQLite database to a file "
                       "(Postgres: deploy/backup.sh)")
    p.add_argument("out", help="the file to write (a new one)")
    p.add_argument("--database", help=DATABASE_HELP)
    p.set_defaults(func=backup_cmd)
