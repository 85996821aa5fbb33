"""The push store: the one writer of `push_subscriptions` and `notify_prefs` (docs/REACH.md).
A subscription is a browser's Web Push address and keys, kept per player and device; the
push service's 404 or 410 for it (the browser dropped it) deletes it. Synchronous, one short
transaction each, like playerstore.py: the server calls it in a worker thread."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from .records import now
from .storebase import StoreBase
from .tables import notify_prefs, push_subscriptions

KEPT = 10  # subscriptions kept per player (newest): a player's devices, not a flood of rows
# what a player is told of unless they said no (notices.py's kinds, "clock" a reminder from
# clockwatch.py; docs/REACH.md)
DEFAULTS: dict[str, bool] = {"turn": True, "started": True, "ended": True, "replaced": True,
                             "rematch": True, "chat": False, "nudge": True,
                             "clock": True}


@dataclass(frozen=True)
class Subscription:
    """What pywebpush needs to reach one browser."""

    endpoint: str
    p256dh: str
    auth: str

    def info(self) -> dict[str, Any]:
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class PushStore:
    def __init__(self, base: StoreBase) -> None:
        self.base = base

    def subscribe(self, player_id: str, device_id: str | None, sub: Subscription) -> None:
        """The browser's subscription is the player's (an endpoint is one browser's: a row
        of another player's for it, after a sign-in as someone else, is replaced); only the
        newest `KEPT` of the player's are kept."""
        with self.base._tx() as conn:
            conn.execute(delete(push_subscriptions).where(
                push_subscriptions.c.endpoint == sub.endpoint))
            conn.execute(insert(push_subscriptions).values(
                player_id=player_id, device_id=device_id or None, endpoint=sub.endpoint,
                p256dh=sub.p256dh, auth=sub.auth, created_at=now()))
            old = [r.id for r in conn.execute(
                select(push_subscriptions.c.id).where(push_subscriptions.c.player_id == player_id)
                .order_by(push_subscriptions.c.id.desc()).offset(KEPT))]
            if old:
                conn.execute(delete(push_subscriptions).where(push_subscriptions.c.id.in_(old)))

    def unsubscribe(self, player_id: str, endpoint: str) -> bool:
        """The player's browser no longer wants pushes (False: no such subscription of
        theirs)."""
        with self.base._tx() as conn:
            return conn.execute(delete(push_subscriptions).where(
                push_subscriptions.c.player_id == player_id,
                push_subscriptions.c.endpoint == endpoint)).rowcount == 1

    def gone(self, *endpoints: str) -> None:
        """The push service said these subscriptions no longer exist (404 or 410)."""
        with self.base._tx() as conn:
            conn.execute(delete(push_subscriptions).where(
                push_subscriptions.c.endpoint.in_(endpoints)))

    def wanting_all(self, asks: list[tuple[str, str]]) -> list[list[Subscription]]:
        """For each (player, what): the player's subscriptions if they want to be told of
        `what` (empty if not); one transaction for a batch of notices."""
        players = list({player for player, _ in asks})
        with self.base._tx() as conn:
            prefs = {r.player_id: r.prefs for r in conn.execute(
                select(notify_prefs.c.player_id, notify_prefs.c.prefs)
                .where(notify_prefs.c.player_id.in_(players)))}
            subs: dict[str, list[Subscription]] = {}
            for r in conn.execute(select(push_subscriptions).where(
                    push_subscriptions.c.player_id.in_(players))
                    .order_by(push_subscriptions.c.id)):
                subs.setdefault(r.player_id, []).append(Subscription(r.endpoint, r.p256dh, r.auth))
        return [subs.get(player, []) if {**DEFAULTS, **(prefs.get(player) or {})}.get(what, False)
                else [] for player, what in asks]

    def prefs(self, player_id: str) -> dict[str, bool]:
        """The player's switches, the defaults filled in."""
        with self.base._tx() as conn:
            stored = conn.execute(select(notify_prefs.c.prefs).where(
                notify_prefs.c.player_id == player_id)).scalar()
        return {**DEFAULTS, **{k: bool(v) for k, v in (stored or {}).items() if k in DEFAULTS}}

    def set_prefs(self, player_id: str, changes: dict[str, bool]) -> dict[str, bool]:
        """Turn switches on or off (unknown ones are ignored); the switches after."""
        with self.base._tx() as conn:
            stored = conn.execute(select(notify_prefs.c.prefs).where(
                notify_prefs.c.player_id == player_id)).scalar()
            merged = {**(stored or {}), **{k: v for k, v in changes.items() if k in DEFAULTS}}
            conn.execute(delete(notify_prefs).where(notify_prefs.c.player_id == player_id))
            conn.execute(insert(notify_prefs).values(player_id=player_id, prefs=merged,
                                                     updated_at=now()))
        return {**DEFAULTS, **merged}


def adopt_guest(conn: Connection, guest_id: str, account_id: str, device_id: str) -> None:
    """A guest signed in to an account (playerstore's `merge_guest`, in its transaction): the
    guest's subscriptions are the account's, on the browser's new device; its switches fill
    in those the account never set (the account's own win)."""
    conn.execute(update(push_subscriptions).where(push_subscriptions.c.player_id == guest_id)
                 .values(player_id=account_id, device_id=device_id))
    found = {r.player_id: r.prefs for r in conn.execute(
        select(notify_prefs.c.player_id, notify_prefs.c.prefs).where(
            notify_prefs.c.player_id.in_((guest_id, account_id))))}
    if guest_id not in found:
        return
    merged = {**(found[guest_id] or {}), **(found.get(account_id) or {})}
    conn.execute(delete(notify_prefs).where(
        notify_prefs.c.player_id.in_((guest_id, account_id))))
    conn.execute(insert(notify_prefs).values(player_id=account_id, prefs=merged,
                                             updated_at=now()))
