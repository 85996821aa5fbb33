"""`brass admin`: the operator's way to make an admin (docs/PLAYERS.md).

- `brass admin grant PLAYER_ID|EMAIL`: that player (an id from its profile or account page, or
  its account's e-mail address) becomes an admin.
- `brass admin link`: a one-time sign-in link, printed once, that makes the browser opening it
  an admin (its player, or a new one). For a fresh server with neither e-mail nor passkeys
  set up; it works for `LINK_TTL` and is kept only as its hash, like every sign-in link.

Both act on the database directly (the server's setting, or `--database`), migrating it first
as the server does at start."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from typing import Any

LINK_TTL = dt.timedelta(hours=1)


def add_parser(sub: Any) -> None:
    parser = sub.add_parser("admin", help="make an admin of this server's players")
    parser.add_argument("--database", help="the database URL (default: the server's setting, "
                        "DATABASE_URL or BRASS_DB_*)")
    what = parser.add_subparsers(dest="admin_command", required=True)
    grant = what.add_parser("grant", help="make a player an admin")
    grant.add_argument("player", help="the player's id, or its account's e-mail address")
    grant.set_defaults(func=grant_cmd)
    link = what.add_parser("link", help="print a one-time sign-in link that makes the browser "
                           "opening it an admin")
    link.add_argument("--url", help="the site's address (default: BRASS_PUBLIC_URL, else "
                      "http://127.0.0.1:8000)")
    link.set_defaults(func=link_cmd)


def grant_cmd(args: argparse.Namespace) -> int:
    from .operatordb import Refused, opened
    from .playerstore import PlayerStore

    wanted = args.player.strip()
    try:
        with opened(args.database) as base:
            players = PlayerStore(base)
            player = (players.by_email(wanted.lower()) if "@" in wanted
                      else players.get(wanted))
            if player is not None:
                players.set_role(player.id, "admin")
    except Refused as exc:
        print(f"brass admin: {exc}", file=sys.stderr)
        return 2
    if player is None:
        print(f"brass admin: no player {wanted!r}", file=sys.stderr)
        return 1
    print(f"player {player.id} ({player.name or player.email or 'no name'}) is an admin")
    return 0


def link_cmd(args: argparse.Namespace) -> int:
    from .accountstore import AccountStore
    from .auth import new_token, token_hash
    from .operatordb import opened
    from .settings import Settings

    token = new_token()
    try:
        site = args.url or Settings().public_url or "http://127.0.0.1:8000"
        with opened(args.database) as base:
            AccountStore(base).add_secret(token_hash(token), "admin", LINK_TTL)
    except ValueError as exc:  # Refused, or a bad setting
        print(f"brass admin: {exc}", file=sys.stderr)
        return 2
    minutes = int(LINK_TTL.total_seconds() // 60)
    print(f"{site.rstrip('/')}/#/signin/{token}")
    print(f"(open it once, within {minutes} minutes: that browser's player becomes an admin)",
          file=sys.stderr)
    return 0
