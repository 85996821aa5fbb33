"""The real app on a loopback port with e-mail through the tests' SMTP server (mail.py): the
accounts, sign-in and e-mail notices tests share it, and conftest.py's `site` fixture."""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx
import uvicorn

from brass.server import Settings, create_app
from brass.server.request_deadlines import uvicorn_options

from .ports import free_port


class Site:
    """The real app on a loopback port whose public URL is its own address (the sign-in
    link's), with e-mail through the test's SMTP server."""

    def __init__(self, db_url: str, smtp_port: int | None, **extra: Any) -> None:
        self.port = free_port()
        # localhost, not 127.0.0.1: a browser makes passkeys for a host name only, so a public
        # URL that names an address offers none (signin.relying_party)
        self.base = f"http://localhost:{self.port}"
        mail = {"smtp_host": "127.0.0.1", "smtp_port": smtp_port, "smtp_tls": "none",
                "mail_from": "Brass <brass@test.invalid>"} if smtp_port else {}
        # the limit per client address has room for every test's requests (all from here)
        self.settings = Settings(database_url=db_url, bot_delay=0.0, join_limit=0,
                                 signin_limit=1000, public_url=self.base, **mail, **extra)
        config = uvicorn.Config(create_app(self.settings), host="127.0.0.1", port=self.port,
                                log_level="warning", **uvicorn_options(self.settings, "auto"))
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Site:
        self.thread.start()
        while not self.server.started:
            assert self.thread.is_alive(), "the server did not start"
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)

    def browser(self) -> httpx.Client:
        """A fresh browser on the site: it keeps cookies and sends the site's Origin."""
        return httpx.Client(base_url=self.base, timeout=60, headers={"Origin": self.base})
