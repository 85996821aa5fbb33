"""The players' store: the one writer of `players`, `devices` and `server_settings`, and of
`seats.player_id` once a seat is taken (an old seat claimed by its player; a join sets it in
storage.py's claim) and of `games.host_player_id` once the game is made (a guest's sign-in
moves both to the account). Synchronous, one short transaction each, like storage.py; the
server calls it in a worker thread. docs/PLAYERS.md is the model: a device secret is stored as
its hash only, so the database never holds what signs a browser in."""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, exists, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from .pushstore import adopt_guest
from .records import now
from .storebase import StoreBase
from .tables import devices, games, passkeys, players, seats, server_settings

TOUCH_EVERY = dt.timedelta(minutes=10)  # a device's last use is written at most this often


def new_id() -> str:
    """128 random bits as URL-safe text (a player's or a device's id: public, not a secret)."""
    while (made := secrets.token_urlsafe(16)).startswith("-"):
        pass
    return made


@dataclass(frozen=True)
class Player:
    """A player as a request sees it: who, and through which device."""

    id: str
    name: str | None
    email: str | None
    account: bool  # a verified e-mail or a passkey: can sign in elsewhere
    role: str
    listed: bool
    device_id: str


class PlayerStore:
    """Players, devices and the server's settings, in the game database (`base`'s engine)."""

    def __init__(self, base: StoreBase) -> None:
        self.base = base

    def create_guest(self, secret_hash: str, label: str) -> Player:
        """A new guest player and its first device (the browser holding the secret)."""
        stamp = now()
        player_id, device_id = new_id(), new_id()
        with self.base._tx() as conn:
            conn.execute(insert(players).values(id=player_id, role="player", listed=False,
                                                created_at=stamp))
            conn.execute(insert(devices).values(id=device_id, player_id=player_id,
                                                secret_hash=secret_hash, label=label[:120],
                                                created_at=stamp, last_used_at=stamp))
        return Player(player_id, None, None, False, "player", False, device_id)

    def add_device(self, player_id: str, secret_hash: str, label: str) -> str:
        """Another browser signed in as `player_id` (accounts call this); the device's id."""
        with self.base._tx() as conn:
            return _add_device(conn, player_id, secret_hash, label)

    def merge_guest(self, guest_id: str, account_id: str, secret_hash: str,
                    label: str) -> list[tuple[str, int]]:
        """A guest's browser signs in to an existing account (by e-mail link or passkey):
        in one transaction the browser becomes a new device of the account, and the guest's
        seats, the games it hosts, push subscriptions and notification switches move to it
        (the account's own switches win), then the guest is retired: `deleted_at` set, no
        name, no devices. A seat in a game where the account already holds one moves too:
        the account keeps both (a shared screen of one person; such a game is not rated).
        The seats moved, as (game, seat); each game whose seats or host moved is notified,
        so every instance sees its new player."""
        with self.base._tx() as conn:
            device_id = _add_device(conn, account_id, secret_hash, label)
            moved = [(r.game_id, r.seat) for r in conn.execute(
                select(seats.c.game_id, seats.c.seat).where(seats.c.player_id == guest_id))]
            if moved:
                conn.execute(update(seats).where(seats.c.player_id == guest_id)
                             .values(player_id=account_id))
            hosted = list(conn.execute(select(games.c.id).where(
                games.c.host_player_id == guest_id)).scalars())
            if hosted:
                conn.execute(update(games).where(games.c.host_player_id == guest_id)
                             .values(host_player_id=account_id))
            adopt_guest(conn, guest_id, account_id, device_id)
            conn.execute(delete(devices).where(devices.c.player_id == guest_id))
            conn.execute(update(players).where(
                players.c.id == guest_id, players.c.email.is_(None)).values(
                name=None, listed=False, deleted_at=now()))
            for game_id in sorted({game for game, _ in moved} | set(hosted)):
                self.base._notify(conn, game_id, None)
        return moved

    def remove_device(self, device_id: str, player_id: str) -> bool:
        """Sign a browser out (or remove it from the list): its secret stops working."""
        with self.base._tx() as conn:
            return conn.execute(delete(devices).where(
                devices.c.id == device_id, devices.c.player_id == player_id)).rowcount == 1

    def by_device(self, secret_hash: str) -> Player | None:
        """The player whose device has this secret (None: unknown, removed, or a deleted
        account); the device's last use is noted, at most every `TOUCH_EVERY`. No transaction
        around the two (the read is one statement, the note another): two round trips fewer
        on every request with the cookie."""
        with self.base._read() as conn:
            row = conn.execute(
                select(players, devices.c.id.label("device_id"),
                       devices.c.last_used_at, _account().label("account"))
                .join(devices, devices.c.player_id == players.c.id)
                .where(devices.c.secret_hash == secret_hash,
                       players.c.deleted_at.is_(None))).first()
            if row is None:
                return None
            stamp = now()
            last = row.last_used_at
            if last.tzinfo is None:
                last = last.replace(tzinfo=dt.UTC)
            if stamp - last > TOUCH_EVERY:
                conn.execute(update(devices).where(devices.c.id == row.device_id)
                             .values(last_used_at=stamp))
        return _player(row)

    def get(self, player_id: str) -> Player | None:
        """A player by id, without a device (`device_id` empty)."""
        with self.base._tx() as conn:
            row = conn.execute(select(players, _account().label("account")).where(
                players.c.id == player_id)).first()
        return None if row is None else _player(row, "")

    def has_account(self, player_id: str) -> bool:
        """The player can sign in elsewhere: a verified e-mail address or a passkey."""
        with self.base._tx() as conn:
            return bool(conn.execute(select(_account()).select_from(players).where(
                players.c.id == player_id, players.c.deleted_at.is_(None))).scalar())

    def update(self, player_id: str, name: str | None = None,
               listed: bool | None = None) -> None:
        """The player's display name and whether the profile is listed (None: unchanged)."""
        values: dict[str, Any] = {}
        if name is not None:
            values["name"] = name
        if listed is not None:
            values["listed"] = listed
        if values:
            with self.base._tx() as conn:
                conn.execute(update(players).where(players.c.id == player_id).values(**values))

    def name_if_none(self, player_id: str, name: str) -> None:
        """The name the player joined a game with becomes their display name if they have
        none yet (a retired guest, whose name is cleared, is left so)."""
        with self.base._tx() as conn:
            conn.execute(update(players).where(players.c.id == player_id,
                                               players.c.name.is_(None),
                                               players.c.deleted_at.is_(None)).values(name=name))

    def claim_seat(self, game_id: str, seat: int, player_id: str) -> bool:
        """An old seat (from before players: no player) is its link's opener's from now on.
        True if the seat is `player_id`'s (claimed now or before); a seat another player
        took stays theirs (False)."""
        with self.base._tx() as conn:
            if conn.execute(update(seats).where(
                    seats.c.game_id == game_id, seats.c.seat == seat,
                    seats.c.player_id.is_(None), seats.c.bot.is_(False),
                    seats.c.token_hash.is_not(None)).values(player_id=player_id)).rowcount:
                self.base._notify(conn, game_id, None)  # other instances learn its player
            owner = conn.execute(select(seats.c.player_id).where(
                seats.c.game_id == game_id, seats.c.seat == seat)).scalar()
        return owner == player_id

    # -- accounts (account.py, signin.py and `brass admin` call these) -------------------------
    def by_email(self, email: str) -> Player | None:
        """The account whose verified address is `email` (lower-cased), without a device."""
        with self.base._tx() as conn:
            row = conn.execute(select(players, _account().label("account")).where(
                players.c.email == email, players.c.email_verified_at.is_not(None),
                players.c.deleted_at.is_(None))).first()
        return None if row is None else _player(row, "")

    def set_email(self, player_id: str, email: str) -> bool:
        """A sign-in link proved `email` for this player; False if another account has it."""
        try:
            with self.base._tx() as conn:
                return conn.execute(update(players).where(
                    players.c.id == player_id, players.c.deleted_at.is_(None)).values(
                    email=email, email_verified_at=now())).rowcount == 1
        except IntegrityError:
            return False

    def with_role(self, role: str) -> list[Player]:
        """The players of `role` (admins, say), oldest first."""
        with self.base._tx() as conn:
            ids = list(conn.execute(select(players.c.id).where(players.c.role == role)
                                    .order_by(players.c.created_at, players.c.id)).scalars())
        return [p for p in map(self.get, ids) if p is not None]

    def set_role(self, player_id: str, role: str) -> None:
        with self.base._tx() as conn:
            conn.execute(update(players).where(players.c.id == player_id).values(role=role))

    def devices_of(self, player_id: str) -> list[Any]:
        """The player's devices (id, label, created_at, last_used_at), last used first."""
        with self.base._tx() as conn:
            return list(conn.execute(select(
                devices.c.id, devices.c.label, devices.c.created_at, devices.c.last_used_at)
                .where(devices.c.player_id == player_id)
                .order_by(devices.c.last_used_at.desc())).all())

    def delete_account(self, player_id: str) -> tuple[str, list[tuple[str, int]]]:
        """The account is deleted: named "Player N", its address and devices erased, its row
        (and so its seats) kept, each of its seats renamed "Player N" too (anonymised in its
        game, its replay and every desk; each game notified). Its passkeys and links are
        accountstore.py's to erase. The new name, and the seats renamed as (game, seat)."""
        with self.base._tx() as conn:
            number = conn.execute(select(func.count()).select_from(players).where(
                players.c.deleted_at.is_not(None),
                players.c.name.is_not(None))).scalar_one() + 1  # not the retired guests
            name = f"Player {number}"
            conn.execute(update(players).where(players.c.id == player_id).values(
                name=name, email=None, email_verified_at=None, listed=False,
                role="player", deleted_at=now()))
            conn.execute(delete(devices).where(devices.c.player_id == player_id))
            renamed = [(r.game_id, r.seat) for r in conn.execute(
                select(seats.c.game_id, seats.c.seat).where(seats.c.player_id == player_id))]
            if renamed:
                conn.execute(update(seats).where(seats.c.player_id == player_id)
                             .values(name=name))
            for game_id in sorted({game for game, _ in renamed}):
                self.base._notify(conn, game_id, None)
        return name, renamed

    # -- server settings ------------------------------------------------------------------------
    def setting(self, key: str) -> Any:
        """A setting kept in the database (None: never set). One statement, so no transaction
        around it (each create reads the create policy: policy.py)."""
        with self.base._read() as conn:
            return conn.execute(select(server_settings.c.value).where(
                server_settings.c.key == key)).scalar()

    def setting_once(self, key: str, make: Callable[[], Any]) -> Any:
        """The setting, made by `make` and stored if it was never set; of two instances
        starting at once, the first to store wins and both answer its value (the VAPID key
        pair: a second one would silently kill every subscription made with the first)."""
        found = self.setting(key)
        if found is not None:
            return found
        value = make()
        with self.base._tx() as conn:
            try:
                with conn.begin_nested():
                    conn.execute(insert(server_settings).values(key=key, value=value,
                                                                updated_at=now()))
            except IntegrityError:
                pass
            return conn.execute(select(server_settings.c.value).where(
                server_settings.c.key == key)).scalar()

    def set_setting(self, key: str, value: Any) -> None:
        stamp = now()
        with self.base._tx() as conn:
            done = conn.execute(update(server_settings).where(server_settings.c.key == key)
                                .values(value=value, updated_at=stamp)).rowcount
            if not done:
                try:
                    with conn.begin_nested():
                        conn.execute(insert(server_settings).values(
                            key=key, value=value, updated_at=stamp))
                except IntegrityError:  # set meanwhile by another writer: this one wins
                    conn.execute(update(server_settings).where(server_settings.c.key == key)
                                 .values(value=value, updated_at=stamp))


def _add_device(conn: Any, player_id: str, secret_hash: str, label: str) -> str:
    stamp, device_id = now(), new_id()
    conn.execute(insert(devices).values(id=device_id, player_id=player_id,
                                        secret_hash=secret_hash, label=label[:120],
                                        created_at=stamp, last_used_at=stamp))
    return device_id


def _account() -> Any:
    """SQL: the player (of the row) has an account, a verified e-mail or a passkey."""
    return players.c.email_verified_at.is_not(None) | exists().where(
        passkeys.c.player_id == players.c.id)


def _player(row: Any, device_id: str | None = None) -> Player:
    return Player(id=row.id, name=row.name, email=row.email, account=bool(row.account),
                  role=row.role, listed=row.listed,
                  device_id=row.device_id if device_id is None else device_id)
