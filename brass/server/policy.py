"""Who may create games on this server, the host's choice (kept in `server_settings`, so every
instance reads the same): `anyone`, players with an `accounts` (a verified e-mail or a
passkey), or holders of the server's `invite` code (stored as its hash). `POST /api/games`
asks `check_create`; a refusal is `create_refused` with the policy as its `reason`, so the
client can say what is missing. Set from the command line (`brass settings create-policy`)
or the admin page (adminpage.py): the same row, so each shows what the other set."""

from __future__ import annotations

import asyncio
import secrets
import sys
from typing import Any, Literal, get_args

from .auth import token_hash, token_matches
from .errors import ApiError
from .playerstore import Player, PlayerStore

Policy = Literal["anyone", "accounts", "invite"]
POLICIES: tuple[Policy, ...] = get_args(Policy)
KEY = "create_policy"
MIN_CODE, MAX_CODE = 8, 200  # a chosen invite code's length (the admin page's too)


def current(store: PlayerStore) -> tuple[Policy, str | None]:
    """The policy and, for `invite`, the code's hash (a server never set: anyone)."""
    value: Any = store.setting(KEY) or {}
    policy = value.get("policy", "anyone")
    return (policy if policy in POLICIES else "anyone"), value.get("code_hash")


def set_policy(store: PlayerStore, policy: Policy, code: str | None = None) -> str | None:
    """Store the policy; `invite` keeps `code` (a new random one if None) as its hash only.
    The code, to be handed out (None for the other policies)."""
    if policy == "invite":
        code = code or secrets.token_hex(16)  # 128 bits, letters and digits: read out, typed
        store.set_setting(KEY, {"policy": policy, "code_hash": token_hash(code)})
        return code
    store.set_setting(KEY, {"policy": policy})
    return None


async def check_create(store: PlayerStore, player: Player | None, code: str | None) -> None:
    """Refuse (`create_refused`) a creator the host's policy does not let create a game."""
    policy, code_hash = await asyncio.to_thread(current, store)
    if policy == "accounts" and (player is None or not player.account):
        raise ApiError("create_refused", "Only players with an account can create games on "
                       "this server: sign in first", reason="accounts")
    if policy == "invite" and not token_matches(code, code_hash):
        raise ApiError("create_refused", "Creating a game on this server needs its invite "
                       "code: ask the host" if not code else
                       "This invite code is not (or no longer) valid", reason="invite")


def settings_cmd(args: Any) -> int:
    """`brass settings create-policy [anyone|accounts|invite] [--code CODE]`: show or set who
    may create games, in the server's database (`operatordb.opened`: migrated first, as the
    server does)."""
    from .operatordb import Refused, opened

    if args.code is not None and args.policy != "invite":
        print("brass settings: --code goes with the invite policy", file=sys.stderr)
        return 2
    if args.code is not None and not MIN_CODE <= len(args.code) <= MAX_CODE:
        print(f"brass settings: an invite code has {MIN_CODE} to {MAX_CODE} characters",
              file=sys.stderr)
        return 2
    try:
        with opened(args.database) as base:
            store = PlayerStore(base)
            if args.policy is None:
                shown, _ = current(store)
                code = None
            else:
                shown, code = args.policy, set_policy(store, args.policy, args.code)
    except Refused as exc:
        print(f"brass settings: {exc}", file=sys.stderr)
        return 2
    print(f"create policy: {shown}")
    if code is not None and args.code is None:
        print(f"invite code (shown once, only its hash is kept): {code}")
    return 0
