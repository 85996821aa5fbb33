"""The accounts' store: the one writer of `passkeys` and `signin_links` (docs/PLAYERS.md).

A `signin_links` row is a single-use secret kept as its hash: an e-mail sign-in link
(`purpose` "signin"), an operator's admin link ("admin"), or a WebAuthn challenge ("passkey":
sign in; "passkey_add": register one, bound to the player who asked). A challenge is kept here
rather than in a signed cookie: it is single-use across instances by the same conditional
`UPDATE` that spends a link (a signed cookie could be replayed until it expires, and would
need a key shared by every instance), and it needs no table of its own.

Synchronous, one short transaction each, like storage.py; the server calls it in a worker
thread."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import delete, func, insert, or_, select, update

from .records import now
from .storebase import StoreBase
from .tables import passkeys, signin_links

Purpose = Literal["signin", "admin", "passkey", "passkey_add"]
Spent = Literal["unknown", "used", "expired"]  # why a secret did not spend
KEEP_SPENT = dt.timedelta(days=2)  # spent or expired rows kept this long (rate limits count)


@dataclass(frozen=True)
class Link:
    """A spent secret: who it was for."""

    email: str | None
    player_id: str | None
    purpose: str


@dataclass(frozen=True)
class Passkey:
    credential_id: bytes
    player_id: str
    public_key: bytes
    sign_count: int
    transports: list[str] | None
    name: str
    created_at: dt.datetime
    last_used_at: dt.datetime | None


class AccountStore:
    """Passkeys and single-use sign-in secrets, in the game database (`base`'s engine)."""

    def __init__(self, base: StoreBase) -> None:
        self.base = base

    # -- single-use secrets ---------------------------------------------------------------------
    def add_secret(self, secret_hash: str, purpose: Purpose, ttl: dt.timedelta,
                   email: str | None = None, player_id: str | None = None) -> None:
        """Keep a new secret (its hash) for `ttl`; rows long spent or expired go meanwhile."""
        stamp = now()
        with self.base._tx() as conn:
            conn.execute(delete(signin_links).where(
                signin_links.c.expires_at < stamp - KEEP_SPENT))
            conn.execute(insert(signin_links).values(
                token_hash=secret_hash, email=email, player_id=player_id, purpose=purpose,
                created_at=stamp, expires_at=stamp + ttl))

    def spend(self, secret_hash: str, purposes: tuple[Purpose, ...]) -> Link | Spent:
        """Spend a secret once: its row if it was unspent and unexpired (one conditional
        `UPDATE`, so two instances cannot both spend it), else why not. A refusal changes
        nothing."""
        stamp = now()
        with self.base._tx() as conn:
            done = conn.execute(update(signin_links).where(
                signin_links.c.token_hash == secret_hash,
                signin_links.c.purpose.in_(purposes),
                signin_links.c.used_at.is_(None),
                signin_links.c.expires_at > stamp).values(used_at=stamp)).rowcount
            row = conn.execute(select(signin_links).where(
                signin_links.c.token_hash == secret_hash,
                signin_links.c.purpose.in_(purposes))).first()
        if row is None:
            return "unknown"
        if not done:
            return "used" if row.used_at is not None else "expired"
        return Link(email=row.email, player_id=row.player_id, purpose=row.purpose)

    def links_since(self, since: dt.datetime, email: str | None = None,
                    player_id: str | None = None) -> int:
        """E-mail links asked for an address (or an account) since `since`: the rate limit."""
        wanted = []
        if email is not None:
            wanted.append(signin_links.c.email == email)
        if player_id is not None:
            wanted.append(signin_links.c.player_id == player_id)
        if not wanted:
            return 0
        with self.base._tx() as conn:
            return int(conn.execute(select(func.count()).select_from(signin_links).where(
                signin_links.c.purpose == "signin", signin_links.c.created_at >= since,
                or_(*wanted))).scalar_one())

    # -- passkeys -------------------------------------------------------------------------------
    def add_passkey(self, credential_id: bytes, player_id: str, public_key: bytes,
                    sign_count: int, transports: list[str] | None, name: str) -> None:
        with self.base._tx() as conn:
            conn.execute(insert(passkeys).values(
                credential_id=credential_id, player_id=player_id, public_key=public_key,
                sign_count=sign_count, transports=transports, name=name[:80],
                created_at=now()))

    def passkey(self, credential_id: bytes) -> Passkey | None:
        with self.base._tx() as conn:
            row = conn.execute(select(passkeys).where(
                passkeys.c.credential_id == credential_id)).first()
        return None if row is None else _passkey(row)

    def passkeys_of(self, player_id: str) -> list[Passkey]:
        with self.base._tx() as conn:
            rows = conn.execute(select(passkeys).where(passkeys.c.player_id == player_id)
                                .order_by(passkeys.c.created_at)).all()
        return [_passkey(row) for row in rows]

    def used_passkey(self, credential_id: bytes, sign_count: int) -> None:
        """A sign-in with the passkey: its counter (a cloned authenticator lags behind it)."""
        with self.base._tx() as conn:
            conn.execute(update(passkeys).where(passkeys.c.credential_id == credential_id)
                         .values(sign_count=sign_count, last_used_at=now()))

    def remove_passkey(self, player_id: str, credential_id: bytes) -> bool:
        with self.base._tx() as conn:
            return conn.execute(delete(passkeys).where(
                passkeys.c.player_id == player_id,
                passkeys.c.credential_id == credential_id)).rowcount == 1

    def erase(self, player_id: str) -> None:
        """A deleted account's credentials: its passkeys and unspent links go."""
        with self.base._tx() as conn:
            conn.execute(delete(passkeys).where(passkeys.c.player_id == player_id))
            conn.execute(delete(signin_links).where(signin_links.c.player_id == player_id))


def _passkey(row: Any) -> Passkey:
    return Passkey(credential_id=bytes(row.credential_id), player_id=row.player_id,
                   public_key=bytes(row.public_key), sign_count=row.sign_count,
                   transports=row.transports, name=row.name, created_at=row.created_at,
                   last_used_at=row.last_used_at)
