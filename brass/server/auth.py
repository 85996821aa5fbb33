"""Seat and host tokens: 256 random bits each, given out once; only their SHA-256 is stored,
and a presented token is compared with it in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    """A secret of 256 random bits (URL-safe text)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str | None, stored_hash: str | None) -> bool:
    if not token or not stored_hash:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)
