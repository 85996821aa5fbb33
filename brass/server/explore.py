"""The analysis board over HTTP: `POST /api/games/{id}/explore` plays a line of other moves
from any position of a finished game and answers with where it leads (`brass.bots.explore`:
the position, its legal moves, the evaluation, a bot's reply). Nothing is stored: the line
is the player's, the game is untouched.

Only a finished game: its log and seed are public then, so the position reveals nothing; a
running game's position is never explored, by anyone (409 `game_not_running`). Each request
is one worker call of bounded CPU (the replay of at most the whole log and the line, and a
reply of at most the analysis budget); a few at a time per instance (`IN_FLIGHT`), others
are told to come back (429 `rate_limited`), so explorations never crowd out bot moves.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from brass.bots.explore import explore
from brass.engine import IllegalAction, MalformedAction

from .deps import GameAt, Service
from .errors import ApiError
from .play import as_action
from .runtime import Runtime
from .schemas import ERRORS, Explored, ExploreRequest

router = APIRouter(prefix="/api", responses=ERRORS)
IN_FLIGHT = 2  # explorations computed at once on an instance


class _Gate:
    """How many explorations are being computed on this instance."""

    busy = 0


async def finished(rt: GameAt) -> Runtime:
    """The game, once it is finished (checked before the body is: whatever is asked of a
    running game, the answer is no)."""
    if rt.record.status != "finished":
        raise ApiError("game_not_running", "A position is explored once the game is over")
    return rt


@router.post("/games/{game_id}/explore", response_model=Explored)
async def explore_line(game_id: str, service: Service,
                       rt: Annotated[Runtime, Depends(finished)],
                       body: ExploreRequest) -> dict[str, Any]:
    """The position after the game's first `frame` moves and then `line` (not stored)."""
    record = rt.record
    rows = await service.replays.log_rows(rt)
    if body.frame > len(rows):
        raise ApiError("not_found", f"The game has {len(rows)} actions, not {body.frame}")
    if _Gate.busy >= IN_FLIGHT:
        raise ApiError("rate_limited", "Other positions are being explored: try again",
                       retry_after=1)
    line = [as_action(action).to_json() for action in body.line]
    _Gate.busy += 1
    try:
        found = await service.workers.compute(
            explore, record.players, record.seed, record.setup,
            [row.action for row in rows[:body.frame]], line, service.analyses.budget,
            record.id)
    except (IllegalAction, MalformedAction) as exc:
        raise ApiError.refused(exc) from None
    finally:
        _Gate.busy -= 1
    return {"frame": body.frame, "line": line, **found}
