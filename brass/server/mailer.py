"""Sending mail: the sign-in links and the e-mail notices (mailnotices.py), over SMTP with
aiosmtplib (asyncio-native, so a slow mail server never holds a worker thread; maintained,
typed, and the standard library's `email.message` builds the message). Without
`BRASS_SMTP_HOST` and `BRASS_MAIL_FROM` the server sends nothing and does not offer e-mail
sign-in at all."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid

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
        """Send one plain-text message (with an HTML alternative, and more headers, if
        given); False (and a log line) if the mail server refused it or could not be
        reached: the caller has already answered its request."""
        if not self.offered:
            return False
        message = EmailMessage()
        message["From"] = self.sender
        message["To"] = to
        message["Subject"] = subject
        message["Message-ID"] = make_msgid(domain=(self.sender or "").rpartition("@")[2]
                                           .rstrip(">") or None)
        for name, value in (headers or {}).items():
            message[name] = value
        message.set_content(body)
        if html is not None:
            message.add_alternative(html, subtype="html")
        try:
            await aiosmtplib.send(
                message, hostname=self.host, port=self.port, username=self.user,
                password=self.password, use_tls=self.tls == "tls",
                start_tls=self.tls == "starttls", timeout=self.timeout)
        except (aiosmtplib.SMTPException, OSError) as exc:
            log.warning("mail to %s not sent: %s: %s", _masked(to), type(exc).__name__, exc)
            return False
        log.info("mail sent to %s: %s", _masked(to), subject)
        return True


def _masked(address: str) -> str:
    """An address fit for a log line: its first letter and its domain."""
    local, _, domain = address.partition("@")
    return f"{local[:1]}***@{domain}"
