"""Sending mail: the sign-in links and the e-mail notices (mailnotices.py), over SMTP with
aiosmtplib (asyncio-native, so a slow mail server never holds a worker thread; maintained,
typed, and the standard library's `email.message` builds the message). Without
`BRASS_SMTP_HOST` and `BRASS_MAIL_FROM` the server sends nothing and does not offer e-mail
sign-in at all."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr

import aiosmtplib

from .settings import Settings

log = logging.getLogger("brass.server.mail")


@dataclass(frozen=True)
class Mailer:
    host: str | None
    port: int
    tls: str  # starttls, tls, none
    sender: str | None
    user: str | None
    password: str | None
    timeout: float = 20.0

    @classmethod
    def from_settings(cls, settings: Settings) -> Mailer:
        password = settings.smtp_password
        return cls(host=settings.smtp_host, port=settings.smtp_port, tls=settings.smtp_tls,
                   sender=settings.mail_from, user=settings.smtp_user,
                   password=password.get_secret_value() if password else None)

    @property
    def offered(self) -> bool:
        return bool(self.host and self.sender)

    async def send(self, to: str, subject: str, body: str, html: str | None = None,
                   headers: dict[str, str] | None = None) -> bool:
        """Send one plain-text message (with an HTML alternative, and `headers`, each one
        line of ASCII, if given); False (and a log line) if the mail server refused it or
        could not be reached: the caller has already answered its request."""
        if not self.offered:
            return False
        message = EmailMessage()
        message["From"] = self.sender
        message["To"] = to
        message["Subject"] = subject
        message["Date"] = formatdate(usegmt=True)  # RFC 5322 asks for one; filters count it
        message["Message-ID"] = make_msgid(domain=(self.sender or "").rpartition("@")[2]
                                           .rstrip(">") or None)
        message.set_content(body)
        if html is not None:
            message.add_alternative(html, subtype="html")
        try:
            await aiosmtplib.send(
                wire(message, headers or {}), sender=parseaddr(self.sender or "")[1],
                recipients=[to], hostname=self.host, port=self.port, username=self.user,
                password=self.password, use_tls=self.tls == "tls",
                start_tls=self.tls == "starttls", timeout=self.timeout)
        except (aiosmtplib.SMTPException, OSError) as exc:
            log.warning("mail to %s not sent: %s: %s", _masked(to), type(exc).__name__, exc)
            return False
        log.info("mail sent to %s: %s", _masked(to), subject)
        return True


def wire(message: EmailMessage, lines: dict[str, str]) -> bytes:
    """`message` as it is sent, with `lines` first, each header one line as given. A header
    such as List-Unsubscribe holds a URL with no space to fold it at, which the email package
    would turn into encoded words (RFC 2047) past 78 characters: mail clients then find no
    URL there (RFC 2369 allows no encoding), and offer no unsubscribe button. The rest is
    folded as SMTP wants (non-ASCII in encoded words of at most 75 characters)."""
    head = []
    for name, value in lines.items():
        if not (value.isascii() and "\r" not in value and "\n" not in value
                and len(name) + len(value) < 990):
            raise ValueError(f"header {name} is not one line of ASCII")
        head.append(f"{name}: {value}\r\n")
    return "".join(head).encode("ascii") + message.as_bytes(policy=policy.SMTP)


def _masked(address: str) -> str:
    """An address fit for a log line: its first letter and its domain."""
    local, _, domain = address.partition("@")
    return f"{local[:1]}***@{domain}"
