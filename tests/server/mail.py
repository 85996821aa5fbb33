"""A real SMTP server for the tests (aiosmtpd on a loopback port, in its own thread) that keeps
each sign-in link it is sent until a test takes it (tests/server/test_accounts.py and
tests/e2e/test_accounts.py), and each e-mail notice (a mail with `List-Unsubscribe`:
tests/server/test_mailnotices.py)."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any, cast

from aiosmtpd.controller import Controller

from .ports import free_port

LINK = re.compile(r"https?://\S+/#/signin/([A-Za-z0-9_-]+)")


class Mailbox:
    """aiosmtpd's handler: the sign-in links mailed, by address, in their order, and the
    notices."""

    def __init__(self) -> None:
        self.links: dict[str, list[str]] = {}
        self.notices: dict[str, list[EmailMessage]] = {}
        self.raw: dict[str, list[bytes]] = {}  # each notice as it came, by address
        self.arrived = threading.Condition()
        self.port = 0

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:
        message = cast(EmailMessage, message_from_bytes(envelope.content,
                                                        policy=policy.default))
        with self.arrived:
            if message["List-Unsubscribe"] is not None:
                for to in envelope.rcpt_tos:
                    self.notices.setdefault(to, []).append(message)
                    self.raw.setdefault(to, []).append(envelope.content)
            else:
                body = message.get_content()
                found = [m.group(0) for m in LINK.finditer(body)]
                assert found, f"a mail without a sign-in link: {body}"
                for to in envelope.rcpt_tos:
                    self.links.setdefault(to, []).extend(found)
            self.arrived.notify_all()
        return "250 OK"

    def link_for(self, address: str, timeout: float = 30.0) -> str:
        """The first sign-in link mailed to `address` that no test took yet (its whole URL)."""
        with self.arrived:
            assert self.arrived.wait_for(lambda: self.links.get(address), timeout), (
                f"no link mailed to {address} within {timeout} s; links mailed: {self.links}")
            return self.links[address].pop(0)

    def notice_for(self, address: str, which: Callable[[EmailMessage], bool] = lambda _: True,
                   timeout: float = 30.0) -> EmailMessage:
        """The first notice mailed to `address` that `which` picks (it stays in the box)."""
        def found() -> EmailMessage | None:
            return next((m for m in self.notices.get(address, []) if which(m)), None)

        with self.arrived:
            assert self.arrived.wait_for(found, timeout), (
                f"no such notice mailed to {address} within {timeout} s; its notices: "
                f"{[m['Subject'] for m in self.notices.get(address, [])]}")
            got = found()
            assert got is not None
            return got

    def subjects(self, address: str) -> list[str]:
        with self.arrived:
            return [str(m["Subject"]) for m in self.notices.get(address, [])]


@contextmanager
def smtp_server() -> Iterator[Mailbox]:
    box = Mailbox()
    controller = Controller(box, hostname="127.0.0.1", port=free_port())
    controller.start()
    box.port = controller.port
    try:
        yield box
    finally:
        controller.stop()
