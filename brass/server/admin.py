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


def _stores(given: str | None) -> Any:
    from pydantic import ValidationError

    from . import migrate
    from .accountstore import AccountStore
    from .playerstore import PlayerStore
    from .settings import Settings, normalise_database_url
    from .storebase import StoreBase

    try:
        url = normalise_database_url(given) if given else Settings().database_url
    except ValidationError as exc:
        raise ValueError(f"bad setting: {exc.errors()[0]['msg']}") from None
    migrate.upgrade(url)
    base = StoreBase(url)
    return base, PlayerStore(base), AccountStore(base)


def grant_cmd(args: argparse.Namespace) -> int:
    try:
        base, players, _accounts = _stores(args.database)
    except ValueError as exc:
        print(f"brass admin: {exc}", file=sys.stderr)
        return 2
    try:
        wanted = args.player.strip()
        player = (players.by_email(wanted.lower()) if "@" in wanted else players.get(wanted))
        if player is None:
            print(f"brass admin: no player {wanted!r}", file=sys.stderr)
            return 1
        players.set_role(player.id, "admin")
    finally:
        base.close()
    print(f"player {player.id} ({player.name or player.email or 'no name'}) is an admin")
    return 0


def link_cmd(args: argparse.Namespace) -> int:
    from .auth import new_token, token_hash
    from .settings import Settings

    try:
        base, _players, accounts = _stores(args.database)
        site = args.url or Settings().public_url or "http://127.0.0.1:8000"
    except ValueError as exc:
        print(f"brass admin: {exc}", file=sys.stderr)
        return 2
    token = new_token()
    try:
        accounts.add_secret(token_hash(token), "admin", LINK_TTL)
    finally:
        base.close()
    minutes = int(LINK_TTL.total_seconds() // 60)
    print(f"{site.rstrip('/')}/#/signin/{token}")
    print(f"(open it once, within {minutes} minutes: that browser's player becomes an admin)",
          file=sys.stderr)
    return 0
