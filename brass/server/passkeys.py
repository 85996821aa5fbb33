"""Passkeys (WebAuthn) through py_webauthn (`webauthn`, the Duo Labs library: maintained, typed,
verifies every attestation format and the signature counter), docs/PLAYERS.md.

- Register (`/api/passkeys/register/options`, then `/api/passkeys/register`): the signed-in
  player adds a passkey; a guest who does becomes an account, games and all.
- Sign in (`/api/passkeys/signin/options`, then `/api/passkeys/signin`): a discoverable
  credential, so no name is typed; the browser becomes a new device of the passkey's player.

The relying party is the site's origin (`BRASS_PUBLIC_URL`) and name (`BRASS_RP_ID`, by default
that origin's host): without a public URL, passkeys are not offered. Each challenge is single-use
and lives 5 minutes, kept hashed in `signin_links` (why there: accountstore.py). An answer made
for another origin is refused as `wrong_origin` before its challenge is spent: it changes
nothing."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import InvalidAuthenticationResponse, InvalidRegistrationResponse
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from .accountstore import Link
from .auth import token_hash
from .errors import ApiError
from .identity import CurrentPlayer, MaybePlayer, Me, me
from .schemas import ERRORS  # every refusal, documented
from .signin import (
    AccountsDep,
    limit_client,
    refuse_spent,
    relying_party,
    require_site,
    sign_in_browser,
)

CHALLENGE_TTL = dt.timedelta(minutes=5)
TIMEOUT_MS = 120_000
router = APIRouter(prefix="/api/passkeys", tags=["accounts"], responses=ERRORS)


class Credential(BaseModel):
    """The browser's answer (`PublicKeyCredential.toJSON()`), with a name for a new passkey."""

    model_config = ConfigDict(extra="forbid")
    credential: dict[str, Any] = Field(description="the PublicKeyCredential as JSON")
    name: str = Field(default="", max_length=80, description="what the player calls it")


class PasskeyInfo(BaseModel):
    id: str = Field(description="the credential's id (base64url)")
    name: str
    created_at: dt.datetime
    last_used_at: dt.datetime | None


def _party(state: Any) -> tuple[str, str]:
    party = relying_party(state.settings)
    if party is None:
        raise ApiError("not_offered", "Passkeys are not enabled on this server")
    return party


def client_data(credential: dict[str, Any], origin: str) -> str:
    """The challenge the answer signs; `wrong_origin` if the browser made it for another
    site, `passkey_refused` if it is not an answer at all."""
    try:
        data = json.loads(base64url_to_bytes(credential["response"]["clientDataJSON"]))
        challenge, origin_seen = str(data["challenge"]), str(data["origin"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ApiError("passkey_refused", f"Not a passkey's answer ({exc})") from None
    if origin_seen != origin:
        raise ApiError("wrong_origin", f"This passkey answer was made for {origin_seen}, "
                       f"not for this site ({origin})")
    return challenge


async def _spend_challenge(state: Any, challenge: str, purpose: Any) -> Link:
    spent = await asyncio.to_thread(state.store.spend, token_hash(challenge), (purpose,))
    if not isinstance(spent, Link):
        raise ApiError("passkey_refused", "This passkey request is out of date: try again")
    return refuse_spent(spent)


@router.post("/register/options")
async def register_options(request: Request, state: AccountsDep,
                           player: CurrentPlayer) -> dict[str, Any]:
    """The options for `navigator.credentials.create()` (WebAuthn JSON)."""
    require_site(request)
    rp_id, _origin = _party(state)
    assert state.store is not None
    held = await asyncio.to_thread(state.store.passkeys_of, player.id)
    options = generate_registration_options(
        rp_id=rp_id, rp_name="Brass: Birmingham", user_id=player.id.encode(),
        user_name=player.email or player.name or "Brass player",
        user_display_name=player.name or player.email or "Brass player", timeout=TIMEOUT_MS,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=p.credential_id) for p in held])
    await asyncio.to_thread(state.store.add_secret, token_hash(
        bytes_to_base64url(options.challenge)), "passkey_add", CHALLENGE_TTL,
        player_id=player.id)
    answer: dict[str, Any] = json.loads(options_to_json(options))
    return answer


@router.post("/register", response_model=PasskeyInfo, status_code=201)
async def register(body: Credential, request: Request, state: AccountsDep,
                   player: CurrentPlayer) -> PasskeyInfo:
    """Verify the new passkey and keep it: the player can sign in with it anywhere."""
    require_site(request)
    rp_id, origin = _party(state)
    challenge = client_data(body.credential, origin)
    link = await _spend_challenge(state, challenge, "passkey_add")
    if link.player_id != player.id:
        raise ApiError("passkey_refused", "This passkey request was made for another player")
    try:
        made = verify_registration_response(
            credential=body.credential, expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=rp_id, expected_origin=origin)
    except InvalidRegistrationResponse as exc:
        raise ApiError("passkey_refused", f"The passkey was refused: {exc}") from None
    transports = body.credential.get("response", {}).get("transports")
    assert state.store is not None
    await asyncio.to_thread(
        state.store.add_passkey, made.credential_id, player.id, made.credential_public_key,
        made.sign_count, transports if isinstance(transports, list) else None,
        body.name.strip() or "Passkey")
    found = await asyncio.to_thread(state.store.passkey, made.credential_id)
    assert found is not None
    return info(found)


def info(passkey: Any) -> PasskeyInfo:
    return PasskeyInfo(id=bytes_to_base64url(passkey.credential_id), name=passkey.name,
                       created_at=passkey.created_at, last_used_at=passkey.last_used_at)


@router.post("/signin/options")
async def signin_options(request: Request, state: AccountsDep) -> dict[str, Any]:
    """The options for `navigator.credentials.get()` (WebAuthn JSON): any passkey of this
    site's, the browser offers those it holds."""
    require_site(request)
    rp_id, _origin = _party(state)
    limit_client(request, state)
    options = generate_authentication_options(
        rp_id=rp_id, timeout=TIMEOUT_MS,
        user_verification=UserVerificationRequirement.PREFERRED)
    assert state.store is not None
    await asyncio.to_thread(state.store.add_secret, token_hash(
        bytes_to_base64url(options.challenge)), "passkey", CHALLENGE_TTL)
    answer: dict[str, Any] = json.loads(options_to_json(options))
    return answer


@router.post("/signin", response_model=Me)
async def signin(body: Credential, request: Request, response: Response, state: AccountsDep,
                 current: MaybePlayer) -> Me:
    """Verify a passkey's answer and sign this browser in as its player."""
    require_site(request)
    rp_id, origin = _party(state)
    challenge = client_data(body.credential, origin)
    await _spend_challenge(state, challenge, "passkey")
    assert state.store is not None
    try:
        raw_id = base64url_to_bytes(str(body.credential.get("rawId") or body.credential["id"]))
    except (KeyError, ValueError):
        raise ApiError("passkey_refused", "The answer names no passkey") from None
    passkey = await asyncio.to_thread(state.store.passkey, raw_id)
    if passkey is None:
        raise ApiError("passkey_refused", "This passkey is not known here (it was removed, "
                       "or made for another server)")
    try:
        used = verify_authentication_response(
            credential=body.credential, expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=rp_id, expected_origin=origin,
            credential_public_key=passkey.public_key,
            credential_current_sign_count=passkey.sign_count)
    except InvalidAuthenticationResponse as exc:
        raise ApiError("passkey_refused", f"The passkey was refused: {exc}") from None
    await asyncio.to_thread(state.store.used_passkey, raw_id, used.new_sign_count)
    player = await sign_in_browser(request, response, passkey.player_id, current)
    return me(player)
