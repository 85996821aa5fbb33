"""The admin page's reads and writes across all games (adminpage.py): every game with its
filters a page at a time, the chat of all games and whom each game's chat has muted. Only
the admin page uses these. It writes nothing: ending a game is storage.py's `cancel_game`
(the host's cancel, for a running game too) and deleting one its `delete_game`."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, func, select

from .chatlog import SPECTATORS
from .storebase import StoreBase
from .tables import chat, chat_mutes, games, seats, status_is
from .vocab import GameStatus

PAGE = 50  # games or chat lines per page, at most
DEEPEST = 10_000  # the largest offset asked for: a page further than this is refused


@dataclass(frozen=True)
class GameFilter:
    status: GameStatus | None = None
    name: str | None = None  # the name contains this (any case)
    since: dt.datetime | None = None  # created at or after
    humans: bool | None = None  # has (True) or has no (False) seat a person took
    bots: bool | None = None  # has (True) or has no (False) bot seat
    game_id: str | None = None  # this game only


def _like(words: str) -> str:
    """`words` as a LIKE pattern that matches them anywhere, taken literally."""
    escaped = words.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


class AdminStore:
    def __init__(self, base: StoreBase) -> None:
        self.base = base

    def games(self, found: GameFilter, limit: int, offset: int) -> list[dict[str, Any]]:
        """Up to `limit` games after the first `offset`, newest first, each with its seats."""
        c = games.c
        human = select(seats.c.seat).where(seats.c.game_id == c.id, seats.c.bot.is_(False),
                                           seats.c.token_hash.is_not(None)).exists()
        bot = select(seats.c.seat).where(seats.c.game_id == c.id, seats.c.bot.is_(True)).exists()
        sql = select(c.id, c.name, c.status, c.players, c.listed, c.created_at, c.updated_at,
                     c.version)
        if found.status is not None:
            sql = sql.where(status_is(found.status))
        if found.name:
            sql = sql.where(func.lower(c.name).like(_like(found.name), escape="\\"))
        if found.game_id is not None:
            sql = sql.where(c.id == found.game_id)
        if found.since is not None:
            sql = sql.where(c.created_at >= found.since)
        for wanted, exists in ((found.humans, human), (found.bots, bot)):
            if wanted is not None:
                sql = sql.where(exists if wanted else ~exists)
        sql = sql.order_by(c.created_at.desc(), c.id.desc()).limit(limit).offset(offset)
        with self.base._tx() as conn:
            rows = conn.execute(sql).all()
            ids = [r.id for r in rows]
            held: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
            if ids:
                for s in conn.execute(select(seats.c.game_id, seats.c.seat, seats.c.name,
                                             seats.c.bot, seats.c.token_hash, seats.c.player_id)
                                      .where(seats.c.game_id.in_(ids)).order_by(seats.c.seat)):
                    held[s.game_id].append({
                        "seat": s.seat, "name": s.name, "bot": s.bot,
                        "taken": s.bot or s.token_hash is not None, "player_id": s.player_id})
        return [{"id": r.id, "name": r.name, "status": r.status, "players": r.players,
                 "listed": r.listed, "created_at": r.created_at, "updated_at": r.updated_at,
                 "version": r.version, "seats": held[r.id]} for r in rows]

    def status(self, game_id: str) -> str | None:
        """The game's status (None: no such game)."""
        with self.base._tx() as conn:
            found: str | None = conn.execute(select(games.c.status).where(
                games.c.id == game_id)).scalar()
        return found

    def chat_lines(self, limit: int, before: int | None,
                   game_id: str | None) -> list[dict[str, Any]]:
        """The latest `limit` chat lines of all games (or one), before line id `before`,
        newest first, with their game's name; deleted ones are left out."""
        sql = (select(chat.c.id, chat.c.game_id, chat.c.seat, chat.c.name, chat.c.text,
                      chat.c.spectator, chat.c.created_at, games.c.name.label("game_name"))
               .join(games, games.c.id == chat.c.game_id)
               .where(chat.c.deleted.is_(False)))
        if before is not None:
            sql = sql.where(chat.c.id < before)
        if game_id is not None:
            sql = sql.where(chat.c.game_id == game_id)
        with self.base._tx() as conn:
            rows = conn.execute(sql.order_by(chat.c.id.desc()).limit(limit)).all()
        return [{"id": r.id, "game_id": r.game_id, "game_name": r.game_name, "seat": r.seat,
                 "name": r.name, "text": r.text, "spectator": r.spectator,
                 "time": r.created_at} for r in rows]

    def muted(self, limit: int, offset: int) -> list[dict[str, Any]]:
        """Up to `limit` games whose chat has muted someone (after the first `offset`), newest
        game first: each with its muted seats (by name) and whether its spectators are."""
        g = games.c
        muting = select(chat_mutes.c.seat).where(chat_mutes.c.game_id == g.id).exists()
        with self.base._tx() as conn:
            rows = conn.execute(select(g.id, g.name).where(muting)
                                .order_by(g.created_at.desc(), g.id.desc())
                                .limit(limit).offset(offset)).all()
            found = {r.id: {"game_id": r.id, "game_name": r.name, "seats": [],
                            "spectators": False} for r in rows}
            if found:
                for m in conn.execute(
                        select(chat_mutes.c.game_id, chat_mutes.c.seat, seats.c.name, seats.c.bot)
                        .join(seats, and_(seats.c.game_id == chat_mutes.c.game_id,
                                          seats.c.seat == chat_mutes.c.seat), isouter=True)
                        .where(chat_mutes.c.game_id.in_(list(found)))
                        .order_by(chat_mutes.c.seat)):
                    if m.seat == SPECTATORS:
                        found[m.game_id]["spectators"] = True
                    else:
                        found[m.game_id]["seats"].append(
                            {"seat": m.seat, "name": m.name, "bot": bool(m.bot)})
        return [found[r.id] for r in rows]
