"""E-mail notices (issue 27, docs/REACH.md), opt-in per player, only where the host set up
SMTP (mailer.py, the sign-in's sender) and a public URL, only to a verified address:

- **Your turn**, in a correspondence game (a turn or reserve of a day or more: a live game's
  player is at the table), one per game per turn, sent by the instance that committed the
  turn (`turn_began`), in the background: the move never waits for the mail server; none
  while a socket of the player's shows the game (on any instance, as the push notices).
- **The daily digest**: "your turn in 2 games; 1 d 2 h left against …", from
  `mail_digest_hour` (UTC) on, at most one a day: each instance looks every
  `mail_digest_every` seconds, and a `digests_sent` row (player, day) gives each digest to one.

Every mail has a plain-text part and an HTML one, in the player's language (set by their
client), a link that unsubscribes without a sign-in (HMAC-signed: player, kind), and the
`List-Unsubscribe` and `List-Unsubscribe-Post: List-Unsubscribe=One-Click` headers (RFC 8058)."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import secrets
from html import escape
from typing import Any

from . import clocks, desk, outage
from .mailer import Mailer
from .mailstore import Kind, MailStore, Recipient
from .mailwords import digest_head, duration, words
from .playerstore import PlayerStore
from .records import now
from .runtime import Runtime
from .storage import Storage
from .watching import Watching, shown_here

log = logging.getLogger("brass.server.mail")
SETTING = "mail_secret"  # server_settings key: {"key": b64url}, the unsubscribe links' key
SLOW = 86_400.0  # seconds: a turn (or reserve) this long or longer is a correspondence game
REMEMBERED = 4096  # (game, version) pairs kept to send one mail per game per turn
DIGEST_GAMES = 100  # games read for one digest, at most


def correspondence(rt: Runtime) -> bool:
    """A game whose players come back later, not one played at the table."""
    clock = clocks.Clock.from_json((rt.record.settings or {}).get("clock"))
    return ((clock.kind == "correspondence" and clock.per_turn >= SLOW)
            or (clock.kind == "live" and clock.reserve >= SLOW))


class MailNotices:
    """Sends the turn mails (`turn_began`, after this instance's commit) and the digests."""

    def __init__(self, store: MailStore, storage: Storage, mailer: Mailer,
                 public_url: str | None, key: bytes) -> None:
        self.store, self.storage, self.mailer, self.key = store, storage, mailer, key
        self.public_url = public_url.rstrip("/") if public_url else None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._told: dict[tuple[str, int], None] = {}  # insertion-ordered: the oldest go first
        self._digests: asyncio.Task[None] | None = None
        self.sent = 0  # mails the mail server took (tests)
        self.shown: Watching | None = None  # other instances' visible sockets (Postgres)

    @classmethod
    async def start(cls, storage: Storage, players: PlayerStore, mailer: Mailer,
                    public_url: str | None) -> MailNotices:
        made = await asyncio.to_thread(
            players.setting_once, SETTING, lambda: {"key": secrets.token_urlsafe(32)})
        return cls(MailStore(storage), storage, mailer, public_url, made["key"].encode())

    @property
    def offered(self) -> bool:
        return self.mailer.offered and self.public_url is not None

    # -- the unsubscribe links ---------------------------------------------------------------
    def token(self, player_id: str, kind: Kind) -> str:
        return f"{player_id}.{kind}.{self._sign(player_id, kind)}"

    def _sign(self, player_id: str, kind: str) -> str:
        mac = hmac.new(self.key, f"unsubscribe:{player_id}:{kind}".encode(), hashlib.sha256)
        return base64.urlsafe_b64encode(mac.digest()[:18]).decode()

    def read_token(self, token: str) -> tuple[str, Kind] | None:
        """The (player, kind) a link was made for; None if it was not made here."""
        player_id, _, rest = token.partition(".")
        kind, _, sig = rest.partition(".")
        if kind not in ("turn", "digest") or not hmac.compare_digest(
                sig.encode(), self._sign(player_id, kind).encode()):
            return None
        return player_id, kind  # type: ignore[return-value]

    def unsubscribe_url(self, player_id: str, kind: Kind) -> str:
        return f"{self.public_url}/api/mail/unsubscribe/{self.token(player_id, kind)}"

    # -- the turn mail -----------------------------------------------------------------------
    def turn_began(self, rt: Runtime) -> None:
        """The turn passed to a seat (this instance's commit): its player is mailed, in the
        background, if they asked for it and the game is a correspondence one."""
        seat = rt.mover
        if seat is None or not self.offered or not correspondence(rt):
            return
        taker = rt.record.seats[seat]
        if taker.player_id is None or taker.played_by_bot or shown_here(rt, taker.player_id):
            return  # nor while the player looks at the game (notices.py)
        turn = (rt.id, rt.record.version)
        if turn in self._told:
            return
        self._told[turn] = None
        while len(self._told) > REMEMBERED:
            del self._told[next(iter(self._told))]
        left = None if rt.record.deadline is None else (
            rt.record.deadline - now()).total_seconds()
        self._spawn(self._turn_mail(taker.player_id, rt.id, rt.record.name, left))

    def game_ended(self, rt: Runtime) -> None:
        """No mail: the end is on the desk and in the next digest's absence of the game."""

    async def _turn_mail(self, player_id: str, game_id: str, name: str,
                         left: float | None) -> None:
        if self.shown is not None and await self.shown.elsewhere(player_id, game_id):
            return
        to = await asyncio.to_thread(self.store.recipient, player_id, "turn")
        if to is None:
            return
        w = words(to.lang)
        lines = [w["turn_body"].format(game=name)]
        if left is not None:
            lines.append(w["time_left"].format(left=duration(left, to.lang)))
        await self._send(to, "turn", w["turn_subject"].format(game=name), lines,
                         f"{self.public_url}/#/game/{game_id}", w["open"])

    # -- the digest --------------------------------------------------------------------------
    def start_digests(self, hour: int, every: float) -> None:
        self._digests = asyncio.create_task(self._digest_forever(hour, every),
                                            name="mail-digests")

    async def _digest_forever(self, hour: int, every: float) -> None:
        while True:
            try:
                await self.digests(hour)
            except Exception as exc:
                outage.background(exc, "the e-mail digests failed")
            await asyncio.sleep(every)

    async def digests(self, hour: int) -> int:
        """Send the day's digests due (from `hour` UTC), each claimed first; how many."""
        at = now()
        if not self.offered or at.hour < hour:
            return 0
        day = at.date().isoformat()
        sent = 0
        for to in await asyncio.to_thread(self.store.digest_due, day):
            page = await asyncio.to_thread(desk.read_desk, self.storage.engine, to.player_id,
                                           0, DIGEST_GAMES)
            turns = [g for g in page.games if g.section == "turn"]
            if not turns:  # nothing to say today (yet): looked at again next time
                continue
            if not await asyncio.to_thread(self.store.claim_digest, to.player_id, day):
                log.info("the digest of player %s for %s is another instance's",
                         to.player_id, day)
                continue
            await self._digest_mail(to, turns)
            log.info("sent the digest of player %s for %s", to.player_id, day)
            sent += 1
        return sent

    async def _digest_mail(self, to: Recipient, turns: list[desk.DeskGame]) -> None:
        w = words(to.lang)
        subject, intro = digest_head(to.lang, len(turns))
        lines = [intro]
        for g in turns:
            others = ", ".join(s.name or f"#{s.seat + 1}" for s in g.seats if not s.you)
            if g.time_left is None:
                lines.append("- " + w["digest_line_untimed"].format(game=g.name, others=others))
            else:
                lines.append("- " + w["digest_line"].format(
                    game=g.name, others=others, left=duration(g.time_left, to.lang)))
        await self._send(to, "digest", subject, lines,
                         f"{self.public_url}/#/", w["desk"])

    # -- sending -----------------------------------------------------------------------------
    async def _send(self, to: Recipient, kind: Kind, subject: str, lines: list[str],
                    link: str, link_text: str) -> None:
        """One mail: plain text and HTML, with its unsubscribe link and headers."""
        w = words(to.lang)
        stop = self.unsubscribe_url(to.player_id, kind)
        stop_text = w[f"stop_{kind}"]
        text = "\n".join([*lines, "", f"{link_text}: {link}", "", w["why"],
                          f"{stop_text}: {stop}", ""])
        direction = "rtl" if to.lang == "fa" else "ltr"
        html = (f'<!doctype html><html lang="{to.lang}" dir="{direction}"><body>'
                + "".join(f"<p>{escape(line)}</p>" for line in lines)
                + f'<p><a href="{escape(link)}">{escape(link_text)}</a></p>'
                + f'<p><small>{escape(w["why"])} <a href="{escape(stop)}">'
                + f"{escape(stop_text)}</a></small></p></body></html>")
        headers = {"List-Unsubscribe": f"<{stop}>",
                   "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
                   "Auto-Submitted": "auto-generated"}
        if await self.mailer.send(to.email, subject, text, html, headers):
            self.sent += 1

    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(self._guarded(work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _guarded(work: Any) -> None:
        try:
            await work
        except Exception:
            log.exception("an e-mail notice failed")

    async def idle(self) -> None:
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        if self._digests is not None:
            self._digests.cancel()
            await asyncio.gather(self._digests, return_exceptions=True)
        await self.idle()
