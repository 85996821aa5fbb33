"""Play: a seat's moves and undo, its legal moves, previews and extensions, and a bot's move
(the steward drives it). A move is checked once, by the engine as it carries it out (the
request models give it already shaped: it is not parsed again), written, then published."""

from __future__ import annotations

import asyncio
from typing import Any

from brass.engine import (
    Action,
    Game,
    IllegalAction,
    MalformedAction,
    Network,
    Sell,
    parse_action,
    play,
    public_events,
)

from . import legal, metrics, outbound
from .auth import new_token
from .core import GameCore
from .errors import ApiError
from .movewrite import MoveWriter
from .replays import Replays
from .runtime import Runtime, ends_round, step
from .storage import ActionRecord, DuplicateActionId, StaleVersion, Timing
from .undo import takes_back
from .vocab import StandIn
from .workers import bot_choice


class Play:
    def __init__(self, core: GameCore, replays: Replays, writer: MoveWriter | None,
                 bot_budget: float = 1.0) -> None:
        self.core = core
        self.replays = replays
        self.writer = writer  # a move's one-statement write on the event loop (Postgres)
        self.bot_budget = bot_budget  # seconds a search bot thinks per move

    @metrics.timed(metrics.MOVE_SECONDS)
    async def submit_as(self, rt: Runtime, seat: int, action_json: Action | dict[str, Any],
                        expected_version: int, action_id: str,
                        stand_in: StandIn | None = None) -> int:
        """Apply `seat`'s action (`stand_in`: a bot plays it for the seat's player, why);
        returns the new version (or, for a retried `action_id`, the version its first
        submission made). Raises `ApiError`; the game is untouched."""
        action = as_action(action_json)
        core = self.core
        async with rt.lock:
            earlier = await self._earlier(rt, action_id, expected_version)
            if earlier is not None:
                return _retried(earlier, seat, action)
            game = _movers_game(rt, seat, expected_version, stand_in)
            try:
                after, events = play(game, action)  # the one check of the action
            except (IllegalAction, MalformedAction) as exc:
                raise ApiError.refused(exc) from None
            effects = public_events(events, None)  # the log is public: nobody's cards
            scores = list(after.scores) if after.is_over else None
            turn = step(rt.turn, after, events)
            snapshot = (rt.count + 1, after.to_json()) if ends_round(events) else None
            ahead = legal.ahead(rt, after)  # computed while the row is written
            timing_in = None if len(turn) > 1 else rt.turn_start(seat, after)
            args = (rt.id, expected_version, seat, action.to_json(), action_id, effects,
                    scores, snapshot, timing_in, stand_in)
            quick = None if self.writer is None else core.storage.plan_append(*args)
            write = (core.db(core.storage.append_turn, *args) if quick is None
                     or self.writer is None else self.writer.append(rt.id, quick))
            try:
                row, timing = await core.written(rt, write)
            except DuplicateActionId:
                found = await core.db(core.storage.find_action, rt.id, action_id)
                assert found is not None
                return _retried(found, seat, action)
            except StaleVersion:
                await core.caught_up(rt)
                raise ApiError("stale_version", "The game moved on; fetch the new state") from None
            rt.played(row, turn)
            sending = self._recorded(rt, seat, after, turn, snapshot is not None, ahead,
                                     scores, timing)
            metrics.MOVES.labels(action.kind).inc()
        await core.publisher.sent(sending, rt, seat)
        core.evict_if_done(rt)
        return row.seq

    def _recorded(self, rt: Runtime, seat: int, after: Game, turn: list[Game],
                  snapshot: bool, ahead: tuple[int, asyncio.Future[str]] | None,
                  scores: list[int] | None, timing: Timing | None) -> asyncio.Task[None] | None:
        """What a written move changes beside its row (`Runtime.played` took that): the
        snapshot's place, the legal moves computed meanwhile, the end of the game, the
        clock; then publishing, and the notices of a turn passed or a game ended. The task
        that sends the mover its legal moves, if any."""
        core = self.core
        if snapshot:
            rt.snapshots.append(rt.count)
        if ahead is not None:
            rt.legal_cache = (rt.record.version, ahead[0], ahead[1])
        if scores is not None:
            rt.record.status, rt.record.scores = "finished", scores
            rt.record.ranks = after.ranks()  # as the write stored them (its game_end event)
        if timing is not None:
            rt.timed(timing)
        sending = core.publish(rt)
        if scores is not None:
            core.reach.game_ended(rt)
        elif len(turn) == 1 and after.current_seat != seat:
            core.reach.turn_began(rt)  # the turn passed to another seat
        return sending

    async def _earlier(self, rt: Runtime, action_id: str,
                       expected_version: int) -> ActionRecord | None:
        """The log row of `action_id` if it was written already (a retry), caught up first
        if the client saw a version from another instance."""
        earlier = rt.action_ids.get(action_id)
        if earlier is None and (rt.behind or expected_version > rt.record.version):
            await self.core.caught_up(rt)
            earlier = rt.action_ids.get(action_id)
        if earlier is None and expected_version != rt.record.version:
            # perhaps an older move resent
            earlier = await self.core.db(self.core.storage.find_action, rt.id, action_id)
        return earlier

    async def undo_as(self, rt: Runtime, seat: int, expected_version: int | None) -> int:
        """Take back the seat's last action, if it is part of the seat's current turn."""
        core = self.core
        async with rt.lock:
            if rt.behind or (expected_version or 0) > rt.record.version:
                await core.caught_up(rt)
            game = rt.running_game()
            rt.player_plays(seat, None)
            version = rt.record.version
            if expected_version is not None and expected_version != version:
                raise ApiError("stale_version", f"The game is at version {version}")
            if game.current_seat != seat:
                raise ApiError("not_your_turn", f"It is seat {game.current_seat}'s turn")
            if not takes_back(seat, rt.recent[-1] if rt.recent else None):
                raise ApiError("illegal", "Nothing to undo in this turn")
            last = rt.recent[-1]
            try:
                version = await core.written(rt, core.db(
                    core.storage.undo_actions, rt.id, version, [last.seq]))
            except StaleVersion:
                await core.caught_up(rt)
                raise ApiError("stale_version", "The game moved on; fetch the new state") from None
            rt.took_back(version, [last.seq], rt.turn[:-1])  # the state before the undone action
            sending = core.publish(rt)
        await core.publisher.sent(sending, rt, seat)
        return version

    async def bot_move(self, rt: Runtime, fallback: bool) -> None:
        """The bot to move makes its move: a versioned write, so never twice."""
        game, version = rt.game, rt.record.version
        if game is None or game.current_seat is None:
            return
        seat = game.current_seat
        public_log = [] if fallback else [r.effects for r in await self.replays.log_rows(rt)]
        choice = await self.core.workers.compute(bot_choice, game, f"{rt.id}:{version}",
                                                 fallback, rt.bot_level(seat),
                                                 self.bot_budget, public_log)
        # an id nobody can guess: a player who sent it first would stall the bot for good
        await self.submit_as(rt, seat, choice, version, f"bot-{new_token()}",
                             rt.record.seats[seat].stand_in)

    @staticmethod
    async def legal(rt: Runtime, seat: int) -> str:
        """The seat's legal moves with their prices, as JSON text (`[]` if it is not the
        seat's turn, or a bot plays the seat for its player: none of them would be taken)."""
        if rt.game is None:
            raise ApiError("game_not_running", "The game has not started")
        return await legal.text(rt, seat)

    @staticmethod
    async def extensions(rt: Runtime, seat: int, partial: Action | dict[str, Any],
                         version: int | None) -> str:
        """The `Extensions` message (JSON text) for a legal Sell or Network of the seat to
        move: each legal move made of it and one more sale, or its second link."""
        action = as_action(partial)
        game, at = _movers_game(rt, seat, version), rt.record.version  # before any wait
        if not isinstance(action, Sell | Network):
            raise ApiError("malformed", "Only a sell or a network action has extensions")
        try:
            return outbound.extensions(game, action, at)  # bounded, like the legal moves
        except (IllegalAction, MalformedAction) as exc:
            raise ApiError.refused(exc) from None

    @staticmethod
    async def preview(rt: Runtime, seat: int, action: Action | dict[str, Any],
                      version: int | None) -> str:
        """The `Preview` message (JSON text): the whole effect of a legal move of the seat to
        move, from the engine's `move` event, before it is confirmed."""
        checked_action = as_action(action)
        game, at = _movers_game(rt, seat, version), rt.record.version  # before any wait
        try:
            return outbound.preview(game, checked_action, at)  # one move carried out
        except (IllegalAction, MalformedAction) as exc:
            raise ApiError.refused(exc) from None


def _retried(earlier: ActionRecord, seat: int, action: Action) -> int:
    """A retry gets the original result; an id reused for something else is refused, and
    so is the retry of an undone action (it is not in the game: it was not accepted)."""
    if earlier.seat != seat:
        raise ApiError("malformed", "This action_id was already used by another seat")
    if earlier.action != action.to_json():
        raise ApiError("malformed", "This action_id was already used for another action")
    if earlier.undone:
        raise ApiError("action_undone", "This action was undone; to play it again, send "
                       "it with a new action_id")
    return earlier.seq


def _movers_game(rt: Runtime, seat: int, version: int | None,
                 stand_in: StandIn | None = None) -> Game:
    """The running game, if `seat` is to move in it at `version` (None: any); a typed
    refusal otherwise (moves, extensions and previews are for the seat to move, at its
    version; `stand_in`: a bot moves for the seat's player, else not while one does)."""
    game = rt.running_game()
    rt.player_plays(seat, stand_in)
    if version is not None and version != rt.record.version:
        raise ApiError("stale_version", f"The game is at version {rt.record.version}, "
                       f"not {version}")
    if game.current_seat != seat:
        raise ApiError("not_your_turn", f"It is seat {game.current_seat}'s turn")
    return game


def as_action(action: Action | dict[str, Any]) -> Action:
    """The action as the request models shaped it (the engine checks its ids as it carries
    it out), or parsed from JSON (`ApiError("malformed")` if it is not one)."""
    if not isinstance(action, dict):
        return action
    try:
        return parse_action(action)
    except MalformedAction as exc:
        raise ApiError.refused(exc) from None
