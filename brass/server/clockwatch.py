"""What the steward needs to know of a turn's clock beyond the stored deadline (docs/REACH.md):
the mover's vacations, which stop a correspondence clock (clocks.paused_deadline), and the
reminders before it runs out, each sent once per turn and threshold across instances and
restarts: the steward holding the game's lease sends it, after an insert into
`clock_reminders` that only one writer can make (the sent mark, taken before the notice
leaves: a crash between the two loses that notice rather than sending it twice)."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from . import clocks
from .records import _utc
from .runtime import Runtime
from .storebase import StoreBase
from .tables import clock_reminders, vacations

log = logging.getLogger("brass.server")
Send = Callable[[str, dict[str, Any]], None]  # Pusher.notify
RECHECK = 600.0  # seconds: the longest wait before the vacations are read again


def away_of(conn: Connection, player_ids: Collection[str],
            after: dt.datetime) -> dict[str, list[clocks.Away]]:
    """The players' vacations that end after `after`, each player's earliest first (the
    steward's plan; the desk's time left, desk.py)."""
    found: dict[str, list[clocks.Away]] = {}
    for r in conn.execute(select(vacations.c.player_id, vacations.c.starts_at,
                                 vacations.c.ends_at)
                          .where(vacations.c.player_id.in_(list(player_ids)),
                                 vacations.c.ends_at > after)
                          .order_by(vacations.c.player_id, vacations.c.starts_at)):
        found.setdefault(r.player_id, []).append((_utc(r.starts_at), _utc(r.ends_at)))
    return found


@dataclass(frozen=True)
class Plan:
    """The mover's turn as the steward times it: `deadline` with the vacations taken out,
    `grace` the seconds it was pushed back by them, `away` the end of a vacation under way
    (None: the player is here), `reminders` not yet sent (name, when due, seconds left)."""

    deadline: dt.datetime
    grace: float
    away: dt.datetime | None
    reminders: list[tuple[str, dt.datetime, float]] = field(default_factory=list)


class ClockWatch:
    def __init__(self, base: StoreBase, send: Send | None = None,
                 minimum: float = 600.0) -> None:
        self.base, self.send, self.minimum = base, send, minimum
        # {game id: (turn start, reminders known sent)}: saves a database write per wake
        self._sent: dict[str, tuple[dt.datetime | None, set[str]]] = {}

    def away(self, player_id: str, after: dt.datetime) -> list[clocks.Away]:
        """The player's vacations that end after `after`, earliest first."""
        with self.base._tx() as conn:
            return away_of(conn, [player_id], after).get(player_id, [])

    def plan(self, rt: Runtime, seat: int, deadline: dt.datetime,
             at: dt.datetime) -> Plan:
        """The turn of `seat` (a person, to move, with `deadline`) as of `at` (blocking: a
        database read of the player's vacations, for a clock they stop)."""
        record = rt.record
        started = record.turn_started_at
        player = record.seats[seat].player_id
        away: list[clocks.Away] = []
        if player is not None and clocks.pauses(record.clock):
            away = self.away(player, started or at)
        paused = clocks.paused_deadline(deadline, started, away)
        total = (deadline - started).total_seconds() if started is not None else 0.0
        known = self._sent.get(rt.id)
        sent = known[1] if known is not None and known[0] == started else set()
        due = [(name, paused - dt.timedelta(seconds=left), left)
               for name, left in clocks.reminders(total, self.minimum) if name not in sent]
        if player is None or self.send is None:
            due = []
        return Plan(paused, (paused - deadline).total_seconds(),
                    clocks.away_until(away, at), due)

    def claim(self, rt: Runtime, plan: Plan, at: dt.datetime) -> tuple[str, float] | None:
        """Mark the reminders due `at` sent; the one to send now (the latest, if a restart
        let several pass: the others are marked, unsent), with its seconds left, unless
        another writer marked it first (blocking: the marks are database writes)."""
        started = rt.record.turn_started_at
        due = [r for r in plan.reminders if r[1] <= at]
        if not due or started is None:
            return None
        known = self._sent.get(rt.id)
        if known is None or known[0] != started:
            known = self._sent[rt.id] = (started, set())
        name, _, left = min(due, key=lambda r: r[2])
        ours = False
        for each, _, _ in due:
            known[1].add(each)
            try:
                with self.base._tx() as conn:
                    conn.execute(insert(clock_reminders).values(
                        game_id=rt.id, turn_started_at=started, threshold=each, sent_at=at))
                ours = ours or each == name
            except IntegrityError:  # another instance (or this one before a restart) sent it
                log.info("clock reminder %s of game %s was sent already", each, rt.id)
        return (name, left) if ours else None

    def tell(self, rt: Runtime, seat: int, plan: Plan, name: str, left: float) -> None:
        """The reminder leaves (on the event loop: the sender starts a background task)."""
        player = rt.record.seats[seat].player_id
        if player is None or self.send is None:
            return
        self.send(player, {"kind": "clock", "game": rt.id, "name": rt.record.name,
                           "seat": seat, "threshold": name, "left": round(left),
                           "deadline": plan.deadline.isoformat(),
                           "url": f"/#/game/{rt.id}"})

    def forget(self, game_id: str) -> None:
        self._sent.pop(game_id, None)
