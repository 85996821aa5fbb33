"""A seat's claim returns the game's record as its own writes left it (RETURNING), without
reading the game again (storage.Storage.claim_seat): that record must be what the database
holds, for a join in the middle and for the join that starts the game (its status, first
turn's deadline and times), on SQLite and on Postgres. A game that starts with background
work (a clock, a bot) is what the steward is told of (`leases.needs_work`)."""

from __future__ import annotations

import secrets

from brass.engine import ENGINE_VERSION, new_game
from brass.server import migrate
from brass.server.clocks import Clock
from brass.server.leases import needs_work
from brass.server.storage import GameRecord, SeatRecord, Storage, now


def _game(storage: Storage, players: int, clock: Clock) -> str:
    game_id = f"claim-{secrets.token_hex(4)}"
    stamp = now()
    storage.create_game(GameRecord(
        id=game_id, name=game_id, players=players, status="waiting", seed=11, setup=None,
        version=0, engine_version=ENGINE_VERSION, host_token_hash="h", created_at=stamp,
        updated_at=stamp, seats=[SeatRecord(seat=s) for s in range(players)],
        settings={"clock": clock.to_json(), "shared_screen": False}))
    return game_id


def test_a_claims_record_is_what_the_database_holds(db_url: str) -> None:
    migrate.upgrade(db_url)
    storage = Storage(db_url, instance="claims")
    try:
        daily = Clock(kind="correspondence", per_turn=86400.0)
        for clock, bot_seat in ((Clock(), None), (daily, None), (Clock(), 1)):
            game_id = _game(storage, 3, clock)
            claims = []
            for n in range(3):
                bot = n == bot_seat
                claimed = storage.claim_seat(
                    game_id, None, None if bot else f"p{n}", None if bot else f"t{game_id}{n}",
                    bot, lambda: new_game(3, 11, None), browser_hash=f"b{n}",
                    one_per_browser=True, bot_level="easy" if bot else None)
                assert claimed is not None, f"claim {n} of {game_id} was refused"
                held = storage.load_game(game_id)
                assert claimed.record == held, (
                    f"claim {n} of {game_id} ({clock.kind}, bot seat {bot_seat}) returned "
                    f"{claimed.record!r}, the database holds {held!r}")
                claims.append(claimed)
            assert [c.seat for c in claims] == [0, 1, 2]
            assert [c.started for c in claims] == [False, False, True]
            final = claims[-1].record
            assert final.status == "running"
            assert (final.deadline is not None) == (clock.kind == "correspondence"), final
            worked = clock.kind == "correspondence" or bot_seat is not None
            assert needs_work(final) == worked, (
                f"{clock.kind}, bot seat {bot_seat}: needs_work said {needs_work(final)}")
            # the game is no longer waiting: a further claim is refused, nothing written
            assert storage.claim_seat(game_id, None, "late", "late", False,
                                      lambda: new_game(3, 11, None)) is None
            assert storage.load_game(game_id) == final
    finally:
        storage.close()


def test_a_browser_holding_a_seat_takes_no_second_one(db_url: str) -> None:
    """The browser check reads the seats the claim reads anyway: still refused."""
    migrate.upgrade(db_url)
    storage = Storage(db_url, instance="claims")
    try:
        game_id = _game(storage, 2, Clock())
        assert storage.claim_seat(game_id, None, "a", "ta", False,
                                  lambda: new_game(2, 11, None), browser_hash="same",
                                  one_per_browser=True) is not None
        before = storage.load_game(game_id)
        try:
            storage.claim_seat(game_id, None, "b", "tb", False, lambda: new_game(2, 11, None),
                               browser_hash="same", one_per_browser=True)
        except Exception as exc:
            assert type(exc).__name__ == "BrowserSeated", repr(exc)
        else:
            raise AssertionError("a second seat for one browser was not refused")
        assert storage.load_game(game_id) == before, "the refused claim wrote something"
    finally:
        storage.close()
