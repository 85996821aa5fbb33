"""The signed-in player's notice switches (docs/REACH.md): one per kind of notice the hub
sends (notices.py), on or off for all of the player's devices. `GET /api/me/notices` gives
every switch (the defaults filled in, pushstore.DEFAULTS); `PUT` sets those it names (a kind
left out stays as it was) and answers them all. The push store keeps them (`notify_prefs`)."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from .identity import CurrentPlayer
from .pushstore import PushStore
from .schemas import ERRORS

router = APIRouter(prefix="/api/me", tags=["players"], responses=ERRORS)


class NoticeSwitches(BaseModel):
    """Whether the player is told, outside the game, of each kind of event."""

    turn: bool = Field(description="a game's turn passed to your seat")
    started: bool = Field(description="a game you are seated in started")
    ended: bool = Field(description="a game you are seated in ended")
    replaced: bool = Field(description="a bot took your seat (your time ran out, or "
                                       "another player handed it over)")
    rematch: bool = Field(description="another player offered a rematch")
    chat: bool = Field(description="a player's chat line @-mentioned your seat's name")
    nudge: bool = Field(description="another player nudged you to move")
    clock: bool = Field(description="your clock is running out (a quarter of the turn left, "
                                    "and an hour left on a turn over 4 hours)")


class SetNoticeSwitches(BaseModel):
    """The switches to change (a kind left out keeps its setting)."""

    model_config = ConfigDict(extra="forbid")
    turn: bool | None = None
    started: bool | None = None
    ended: bool | None = None
    replaced: bool | None = None
    rematch: bool | None = None
    chat: bool | None = None
    nudge: bool | None = None
    clock: bool | None = None


def _store(request: Request) -> PushStore:
    store: PushStore = request.app.state.pusher.store
    return store


@router.get("/notices", response_model=NoticeSwitches)
async def get_switches(request: Request, player: CurrentPlayer) -> NoticeSwitches:
    """The player's switches, each kind's default where they set none."""
    found = await asyncio.to_thread(_store(request).prefs, player.id)
    return NoticeSwitches.model_validate(found)


@router.put("/notices", response_model=NoticeSwitches)
async def put_switches(body: SetNoticeSwitches, request: Request,
                       player: CurrentPlayer) -> NoticeSwitches:
    """Turn the named switches on or off; every switch after."""
    changes = {k: v for k, v in body.model_dump().items() if v is not None}
    found = await asyncio.to_thread(_store(request).set_prefs, player.id, changes)
    return NoticeSwitches.model_validate(found)
