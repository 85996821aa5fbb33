"""Ratings (OpenSkill's Plackett-Luce model): the one writer of the `ratings` table.

A game's ratings are written by `game_finished`, called in the transaction of the move that
ends the game (movelog.py): that write is versioned, so of two instances only one finishes a
game, and the ratings are written once (the primary key, player and game, is the backstop).
The rules (docs/PLAYERS.md "Ratings"):
- a game counts when it cannot be held hostage by a player who stops moving (a clock, or a
  game without one that lets the others hand an idle seat to a bot), has at least one seat
  of a player with an account, and no player holds two of its seats;
- the places are the engine's (VP, then income, then money; equal on all three share a
  place), except that a seat a bot plays for at the end (resigned, timed out, handed over)
  ranks last, behind every seat still played by its player (such seats share last place);
- only players with an account are rated; a bot has a fixed rating per level and a guest
  (or a seat from before players) the newcomer's rating, neither of which moves;
- a player's first `PROVISIONAL` rated games are provisional (shown as such).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import bindparam, func, insert, select
from sqlalchemy.engine import Connection

from .playerstore import _account as has_account
from .tables import games, players, ratings, seats

log = logging.getLogger("brass.server")
MODEL = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6: OpenSkill's defaults
PROVISIONAL = 5  # rated games before a rating is no longer provisional
# A bot's fixed rating by level: the newcomer's mu for medium; easy and hard 10 and 8 below and
# above, so that PlackettLuce predicts what bench/bots.py measured (docs/BOTS.md: medium beats
# easy in 96% of 2-player games, hard beats medium in 93%; a gap of 10 with sigma 1 predicts
# 95%, of 8: 92%). Sigma 1: they are known, and they never move.
BOT_RATINGS: dict[str, tuple[float, float]] = {"easy": (15.0, 1.0), "medium": (25.0, 1.0),
                                               "hard": (33.0, 1.0)}
GUEST = (MODEL.mu, MODEL.sigma)  # a guest counts as a newcomer who is never rated
LAST_PLACE_CHANGES = ("resigned", "timeout", "handover")


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int  # rated games played

    @property
    def ordinal(self) -> float:
        """The shown rating: mu - 3 sigma (99.7% sure the skill is at least this)."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL


NEWCOMER = Rating(MODEL.mu, MODEL.sigma, 0)


@dataclass(frozen=True)
class Change:
    """One rated player's rating before and after a game."""

    player_id: str
    seat: int
    before: Rating
    after: Rating


@dataclass(frozen=True)
class Entrant:
    """A seat of a finished game as rating sees it: `player_id` set for a rated player;
    `fixed` the rating of a seat that is not rated (a bot's, a guest's)."""

    seat: int
    rank: int
    player_id: str | None
    fixed: tuple[float, float] | None


def places(ranking: Sequence[Mapping[str, Any]], stand_ins: Mapping[int, str | None]
           ) -> dict[int, int]:
    """Each seat's place (1 best) from the engine's `game_end` ranking, with the seats a bot
    plays for at the end put last (sharing that place)."""
    playing = [r for r in ranking if stand_ins.get(int(r["seat"])) not in LAST_PLACE_CHANGES]
    out = {int(r["seat"]): int(r["rank"]) for r in playing}
    # the engine's ranks skip over the seats put last: close the gaps, keep the ties
    dense = {rank: i + 1 for i, rank in enumerate(sorted(set(out.values())))}
    out = {seat: dense[rank] for seat, rank in out.items()}
    last = len(dense) + 1
    for r in ranking:
        out.setdefault(int(r["seat"]), last)
    return out


def counts(settings: Mapping[str, Any] | None, entrants: Sequence[Entrant]) -> bool:
    """Whether a finished game is rated (the rules above)."""
    clock = (settings or {}).get("clock") or {}
    finishable = clock.get("kind", "none") != "none" or float(clock.get("handoff_after") or 0) > 0
    rated = [e.player_id for e in entrants if e.player_id is not None]
    return finishable and len(entrants) >= 2 and bool(rated) and len(set(rated)) == len(rated)


def rate(entrants: Sequence[Entrant], before: Mapping[str, Rating]) -> list[Change]:
    """The rated players' new ratings (pure: the model only)."""
    teams = []
    for e in entrants:
        if e.player_id is not None:
            r = before.get(e.player_id, NEWCOMER)
            teams.append([MODEL.rating(mu=r.mu, sigma=r.sigma)])
        else:
            assert e.fixed is not None
            teams.append([MODEL.rating(mu=e.fixed[0], sigma=e.fixed[1])])
    rated = MODEL.rate(teams, ranks=[float(e.rank) for e in entrants])
    out = []
    for e, team in zip(entrants, rated, strict=True):
        if e.player_id is not None:
            r = before.get(e.player_id, NEWCOMER)
            out.append(Change(e.player_id, e.seat, r,
                              Rating(team[0].mu, team[0].sigma, r.games + 1)))
    return out


def game_finished(conn: Connection, game_id: str, effects: Sequence[Any] | None,
                  at: dt.datetime) -> list[Change]:
    """Rate the game that the move being written in `conn` ends (its public `effects` hold
    the engine's final ranking); nothing if it does not count. The rated players' rows are
    locked first (in id order), so that two of their games ending at once are rated one
    after the other, each from the rating the other left."""
    ranking = next((e["ranking"] for e in effects or () if e.get("type") == "game_end"), None)
    if ranking is None:
        return []
    rows = conn.execute(SEATS, {"game": game_id}).all()
    if not rows:
        return []
    ranks = places(ranking, {r.seat: r.stand_in for r in rows})
    entrants = [Entrant(r.seat, ranks[r.seat], r.player if r.account and not r.bot else None,
                        None if r.account and not r.bot else
                        BOT_RATINGS[r.bot_level or "easy"] if r.bot else GUEST)
                for r in sorted(rows, key=lambda r: r.seat)]
    if not counts(rows[0].settings, entrants):
        return []
    ids = sorted(e.player_id for e in entrants if e.player_id is not None)
    if conn.dialect.name == "postgresql":
        conn.execute(LOCK, {"ids": ids})
    changes = rate(entrants, latest(conn, ids))
    conn.execute(insert(ratings).values([  # one statement, whatever the number of rows
        {"player_id": c.player_id, "game_id": game_id, "mu": c.after.mu,
         "sigma": c.after.sigma, "ordinal": c.after.ordinal, "games": c.after.games,
         "created_at": at} for c in changes]))
    log.info("game %s rated: %s", game_id, ", ".join(
        f"seat {c.seat} {c.before.ordinal:.1f} -> {c.after.ordinal:.1f}" for c in changes))
    return changes


def latest(conn: Connection, player_ids: Sequence[str]) -> dict[str, Rating]:
    """Each player's rating now (their last row, one statement for all); a player never
    rated is missing."""
    return {r.player_id: Rating(r.mu, r.sigma, r.games)
            for r in conn.execute(LATEST, {"ids": list(player_ids)})}


def _seats_query() -> Any:
    """SQL: a game's seats, each with its player if rated-able and the game's settings."""
    account = has_account()  # playerstore's own rule: a verified e-mail or a passkey
    return (select(seats.c.seat, seats.c.bot, seats.c.bot_level, seats.c.stand_in,
                   games.c.settings, players.c.id.label("player"), account.label("account"))
            .join(games, games.c.id == seats.c.game_id)
            .outerjoin(players, (players.c.id == seats.c.player_id)
                       & players.c.deleted_at.is_(None))
            .where(seats.c.game_id == bindparam("game")))


def _latest_query() -> Any:
    ids: Any = bindparam("ids", expanding=True)
    last = (select(ratings.c.player_id, func.max(ratings.c.games).label("games"))
            .where(ratings.c.player_id.in_(ids)).group_by(ratings.c.player_id).subquery())
    return (select(ratings.c.player_id, ratings.c.mu, ratings.c.sigma, ratings.c.games)
            .join(last, (last.c.player_id == ratings.c.player_id)
                  & (last.c.games == ratings.c.games)))


# built once: a game's end runs them in the finishing move's transaction, so their cost is
# the move's (bench/ratings.py: at most 5 ms of CPU); four statements in all
SEATS, LATEST = _seats_query(), _latest_query()
LOCK = (select(players.c.id).where(players.c.id.in_(bindparam("ids", expanding=True)))
        .order_by(players.c.id).with_for_update())


def of_game(conn: Connection, game_id: str) -> list[tuple[str, Rating, Rating]]:
    """A rated game's changes: (player id, rating before, rating after) per rated player."""
    out = []
    for row in conn.execute(select(ratings).where(ratings.c.game_id == game_id)):
        prior = conn.execute(select(ratings.c.mu, ratings.c.sigma, ratings.c.games)
                             .where(ratings.c.player_id == row.player_id,
                                    ratings.c.games == row.games - 1)).first()
        before = NEWCOMER if prior is None else Rating(prior.mu, prior.sigma, prior.games)
        out.append((row.player_id, before, Rating(row.mu, row.sigma, row.games)))
    return out
