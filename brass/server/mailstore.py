"""The mail and webhook store (docs/REACH.md): the one writer of `email_notices` (a player's
e-mail switches, off unless set, and the language of their mails), `digests_sent` (the day's
digest claimed by the one instance that sends it) and `game_webhooks` (a game's incoming-webhook
URL). Synchronous, one short transaction each, like pushstore.py: called in a worker thread."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from .records import now
from .storebase import StoreBase
from .tables import digests_sent, email_notices, game_webhooks, players

Kind = Literal["turn", "digest"]
LANGS = ("en", "fa", "pl", "th", "ko")  # the client's catalogues, and the mails'


@dataclass(frozen=True)
class Switches:
    turn: bool = False
    digest: bool = False
    lang: str = "en"


@dataclass(frozen=True)
class Recipient:
    player_id: str
    email: str
    lang: str


def _verified() -> object:
    return (players.c.email.is_not(None) & players.c.email_verified_at.is_not(None)
            & players.c.deleted_at.is_(None))


class MailStore:
    def __init__(self, base: StoreBase) -> None:
        self.base = base

    def switches(self, player_id: str) -> Switches:
        with self.base._tx() as conn:
            row = conn.execute(select(email_notices).where(
                email_notices.c.player_id == player_id)).first()
        return Switches() if row is None else Switches(row.turn, row.digest, row.lang)

    def set_switches(self, player_id: str, turn: bool | None = None, digest: bool | None = None,
                     lang: str | None = None) -> Switches:
        """Change the switches given (None: as it was); the switches after."""
        with self.base._tx() as conn:
            row = conn.execute(select(email_notices).where(
                email_notices.c.player_id == player_id)).first()
            was = Switches() if row is None else Switches(row.turn, row.digest, row.lang)
            after = Switches(was.turn if turn is None else turn,
                             was.digest if digest is None else digest,
                             was.lang if lang not in LANGS else lang)
            values = {"turn": after.turn, "digest": after.digest, "lang": after.lang,
                      "updated_at": now()}
            if row is None:
                conn.execute(insert(email_notices).values(player_id=player_id, **values))
            else:
                conn.execute(update(email_notices).where(
                    email_notices.c.player_id == player_id).values(**values))
        return after

    def unsubscribe(self, player_id: str, kind: Kind) -> bool:
        """The mail's link turns its kind off (False: the player is gone)."""
        with self.base._tx() as conn:
            return conn.execute(update(email_notices).where(
                email_notices.c.player_id == player_id).values(
                {kind: False, "updated_at": now()})).rowcount == 1

    def recipient(self, player_id: str, kind: Kind) -> Recipient | None:
        """The player's verified address and language, if they want mails of `kind`."""
        with self.base._tx() as conn:
            row = conn.execute(
                select(players.c.email, email_notices.c.lang)
                .join(email_notices, email_notices.c.player_id == players.c.id)
                .where(players.c.id == player_id, _verified(),  # type: ignore[arg-type]
                       email_notices.c[kind].is_(True))).first()
        return None if row is None else Recipient(player_id, row.email, row.lang)

    def digest_due(self, day: str) -> list[Recipient]:
        """The players who want the digest and were not sent the one of `day` yet."""
        sent = select(digests_sent.c.player_id).where(digests_sent.c.day == day)
        with self.base._tx() as conn:
            return [Recipient(r.id, r.email, r.lang) for r in conn.execute(
                select(players.c.id, players.c.email, email_notices.c.lang)
                .join(email_notices, email_notices.c.player_id == players.c.id)
                .where(email_notices.c.digest.is_(True), _verified(),  # type: ignore[arg-type]
                       players.c.id.not_in(sent)))]

    def claim_digest(self, player_id: str, day: str) -> bool:
        """This instance sends the player's digest of `day` (False: another one did)."""
        try:
            with self.base._tx() as conn:
                conn.execute(insert(digests_sent).values(player_id=player_id, day=day,
                                                         sent_at=now()))
        except IntegrityError:
            return False
        return True

    def webhook(self, game_id: str) -> str | None:
        with self.base._tx() as conn:
            url: str | None = conn.execute(select(game_webhooks.c.url).where(
                game_webhooks.c.game_id == game_id)).scalar()
        return url

    def webhooks(self) -> dict[str, str]:
        """Every game's webhook URL, by game (one read for all: most games have none)."""
        with self.base._tx() as conn:
            return {r.game_id: r.url for r in conn.execute(
                select(game_webhooks.c.game_id, game_webhooks.c.url))}

    def set_webhook(self, game_id: str, url: str) -> None:
        with self.base._tx() as conn:
            conn.execute(delete(game_webhooks).where(game_webhooks.c.game_id == game_id))
            conn.execute(insert(game_webhooks).values(game_id=game_id, url=url,
                                                      updated_at=now()))

    def drop_webhook(self, game_id: str) -> bool:
        with self.base._tx() as conn:
            return conn.execute(delete(game_webhooks).where(
                game_webhooks.c.game_id == game_id)).rowcount == 1
