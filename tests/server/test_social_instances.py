"""Two `brass serve` processes on one Postgres database: a rated game's ratings are written
once (by the move that ends it, whichever instance's bot plays it), and two players who
accept a rematch at the same moment on different instances make one new game, which both
are seated in."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import create_engine, func, select

from brass.server.tables import games, ratings

from .test_instances import cluster, instance_logs
from .test_races import together
from .test_ratings import account, seat_player
from .test_rematch import Ended


def test_ratings_and_the_rematch_happen_once_across_two_instances(tmp_path: Path) -> None:
    with cluster(tmp_path, 2, bot_delay=0.0) as found:
        a, b = found.instances
        ada = account(found.url, "Ada")
        # every seat resigns: the bots play it out, on either instance
        ended = Ended(a.http, 3, 0, lambda game: seat_player(found.url, game, 0, ada))
        try:
            ended.finished()
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{instance_logs(tmp_path)}") from None
        engine = create_engine(found.url)
        try:
            with engine.connect() as conn:
                rated = conn.execute(select(ratings.c.player_id, ratings.c.games).where(
                    ratings.c.game_id == ended.id)).all()
                before = conn.execute(select(func.count()).select_from(games)).scalar()
            assert [tuple(r) for r in rated] == [(ada, 1)], rated

            offered = ended.post(0, "/rematch", {"empty_seats": "bot"})
            assert offered.status_code == 200, offered.text
            replies = together([
                lambda: a.http.post(ended.url("/rematch/answer"), json={"accept": True},
                                    headers={"Authorization": f"Bearer {ended.tokens[1]}"}),
                lambda: b.http.post(ended.url("/rematch/answer"), json={"accept": True},
                                    headers={"Authorization": f"Bearer {ended.tokens[2]}"})])
            assert all(r.status_code == 200 for r in replies), [r.text for r in replies]
            made = {r.json()["new_game_id"] for r in replies} - {None}
            assert len(made) == 1, [r.json() for r in replies]
            with engine.connect() as conn:
                after = conn.execute(select(func.count()).select_from(games)).scalar()
            assert after == before + 1, (before, after)
            (new,) = made
            for inst, seat in ((a, 0), (b, 1), (a, 2), (b, 0)):
                link = inst.http.get(ended.url("/rematch"), headers={
                    "Authorization": f"Bearer {ended.tokens[seat]}"}).json()
                assert link["new_game_id"] == new and link["token"], (seat, link)
                state = inst.http.get(f"/api/games/{new}/state", headers={
                    "Authorization": f"Bearer {link['token']}"})
                assert state.status_code == 200 and state.json()["seat"] is not None, state.text
        finally:
            engine.dispose()
