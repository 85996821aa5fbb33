"""The address guard for the server's outgoing calls to URLs a user gave (push endpoints,
game webhooks): no request forgery into the host's network. A URL whose host is localhost or
a private, loopback or link-local address literal is refused when it is given, and a name is
resolved, when a call is made, by a resolver that drops every non-public address (a name
re-pointed at 10.0.0.1 after it was given is not reached). A server setting allows them all
(tests with a stand-in on loopback; never on a public server)."""

from __future__ import annotations

import ipaddress
import socket

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult


def public_host(host: str) -> bool:
    """Not a private, loopback or link-local address literal, nor localhost (a name is
    checked again when it is resolved to call it)."""
    if host.lower() == "localhost" or host.lower().endswith(".localhost"):
        return False
    try:
        return ipaddress.ip_address(host.strip("[]")).is_global
    except ValueError:
        return True  # a name


class PublicOnly(AbstractResolver):
    """A resolver that drops private, loopback and link-local addresses: a name that resolves
    only to those (perhaps changed since it was given) is not reached."""

    def __init__(self) -> None:
        self.inner = aiohttp.ThreadedResolver()

    async def resolve(self, host: str, port: int = 0,
                      family: socket.AddressFamily = socket.AF_INET) -> list[ResolveResult]:
        found = [r for r in await self.inner.resolve(host, port, family)
                 if ipaddress.ip_address(r["host"]).is_global]
        if not found:
            raise OSError(f"{host} has no public address")
        return found

    async def close(self) -> None:
        await self.inner.close()


def guarded_session(private_allowed: bool, limit: int) -> aiohttp.ClientSession:
    """An HTTP session that reaches public addresses only (all, if `private_allowed`)."""
    resolver = None if private_allowed else PublicOnly()
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(resolver=resolver, limit=limit))
