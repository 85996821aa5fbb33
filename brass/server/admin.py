"""`brass admin`: the operator's way to make an admin (docs/PLAYERS.md).

- `brass admin grant PLAYER_ID|EMAIL`: that player (an id from its profile or account page, or
  its account's e-mail address) becomes an admin.
- `brass admin revoke PLAYER_ID|EMAIL`: an admin becomes a player again; `brass admin list`
  lists the admins.
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


DATABASE_HELP = "the database URL (default: the server's setting, DATABASE_URL or BRASS_DB_*)"


def add_parser(sub: Any) -> None:
    parser = sub.add_parser("admin", help="make an admin of this server's players")
    parser.add_argument("--database", help=DATABASE_HELP)
    what = parser.add_subparsers(dest="admin_command", required=True)

    def command(name: str, help: str) -> argparse.ArgumentParser:
        """A subcommand, which takes `--database` after its name too."""
        made: argparse.ArgumentParser = what.add_parser(name, help=help)
        made.add_argument("--database", default=argparse.SUPPRESS, help=DATABASE_HELP)
        return made

    grant = command("grant", "make a player an admin")
    grant.add_argument("player", help="the player's id, or its account's e-mail address")
    grant.set_defaults(func=grant_cmd, role="admin")
    revoke = command("revoke", "make an admin a player again")
    revoke.add_argument("player", help="the player's id, or its account's e-mail address")
    revoke.set_defaults(func=grant_cmd, role="player")
    listing = command("list", "list the admins")
    listing.set_defaults(func=list_cmd)
    link = command("link", "print a one-time sign-in link that makes the browser opening it "
                   "an admin")
    link.add_argument("--url", help="the site's address (default: BRASS_PUBLIC_URL, else "
                      "http://127.0.0.1:8000)")
    link.set_defaults(func=link_cmd)


def grant_cmd(args: argparse.Namespace) -> int:
    """`grant` (role admin) and `revoke` (role player)."""
    from .operatordb import Refused, opened
    from .playerstore import PlayerStore

    wanted = args.player.strip()
    try:
        with opened(args.database) as base:
            players = PlayerStore(base)
            player = (players.by_email(wanted.lower()) if "@" in wanted
                      else players.get(wanted))
            if player is not None:
                players.set_role(player.id, args.role)
            left = len(players.with_role("admin"))
    except Refused as exc:
        print(f"brass admin: {exc}", file=sys.stderr)
        return 2
    if player is None:
        print(f"brass admin: no player {wanted!r}", file=sys.stderr)
        return 1
    said = "is an admin" if args.role == "admin" else "is no longer an admin"
    print(f"player {player.id} ({_named(player)}) {said}")
    if not left:
        print("no admins left: nobody can open the admin page (brass admin grant, or brass "
              "admin link)", file=sys.stderr)
    return 0


def list_cmd(args: argparse.Namespace) -> int:
    from .operatordb import Refused, opened
    from .playerstore import PlayerStore

    try:
        with opened(args.database) as base:
            admins = PlayerStore(base).with_role("admin")
    except Refused as exc:
        print(f"brass admin: {exc}", file=sys.stderr)
        return 2
    for player in admins:
        print(f"{player.id}  {_named(player)}")
    if not admins:
        print("no admins (brass admin grant, or brass admin link)", file=sys.stderr)
    return 0


def _named(player: Any) -> str:
    return str(player.name or player.email or "no name")


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
