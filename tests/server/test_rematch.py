"""Rematch (rematch.py, docs/PLAYERS.md "Rematch") on SQLite and Postgres: an offer, the
answers, the new game made by the last answer (the players in their seats, the same bot
levels and settings), each player's new seat link from their old token, the host token for
the offerer; a declined seat left open; the offerer starting without an absent player; and
the refusals (a running game, a bot's seat, an answer after the start)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from .conftest import LiveServer, auth
from .test_ratings import CLOCKED, wait_for


class Ended:
    """A finished game of `humans` players (all resigned at once) and `bots` easy bots;
    `seated(game id)` is called once every seat is taken, before the resigns."""

    def __init__(self, http: httpx.Client, humans: int, bots: int,
                 seated: Callable[[str], None] | None = None) -> None:
        created = http.post("/api/games", json={"players": humans + bots, "name": "again",
                                                "clock": CLOCKED})
        assert created.status_code == 201, created.text
        self.http, self.id = http, created.json()["id"]
        self.tokens: dict[int, str] = {}
        for i in range(humans):
            joined = http.post(self.url("/join"), json={"name": f"P{i}",
                                                        "invite": created.json()["invite"]})
            assert joined.status_code == 201, joined.text
            self.tokens[joined.json()["seat"]] = joined.json()["token"]
        for _ in range(bots):
            added = http.post(self.url("/bots"), headers=auth(created.json()["host_token"]),
                              json={"level": "easy"})
            assert added.status_code == 201, added.text
        if seated is not None:
            seated(self.id)  # before the end: e.g. give a seat its player
        for token in self.tokens.values():
            resigned = http.post(self.url("/resign"), headers=auth(token), json={})
            assert resigned.status_code == 200, resigned.text

    def url(self, path: str = "") -> str:
        return f"/api/games/{self.id}{path}"

    def finished(self) -> None:
        seen: list[str] = []

        def over() -> bool:
            seen.append(self.http.get(self.url()).json()["status"])
            return seen[-1] == "finished"

        wait_for(over, f"game {self.id}'s end (statuses seen: {sorted(set(seen))})")

    def post(self, seat: int, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return self.http.post(self.url(path), headers=auth(self.tokens[seat]), json=body or {})

    def rematch(self, seat: int | None = None) -> dict[str, Any]:
        headers = {} if seat is None else auth(self.tokens[seat])
        reply = self.http.get(self.url("/rematch"), headers=headers)
        assert reply.status_code == 200, reply.text
        data: dict[str, Any] = reply.json()
        return data


def test_rematch_with_everyone_starts_with_the_same_players_and_bots(server: LiveServer) -> None:
    with httpx.Client(base_url=server.base, timeout=60) as http:
        games = [Ended(http, 2, 1), Ended(http, 2, 1), Ended(http, 3, 0)]
        waiting = http.post("/api/games", json={"players": 2, "name": "w"}).json()
        joined = http.post(f"/api/games/{waiting['id']}/join",
                           json={"name": "W", "invite": waiting["invite"]}).json()
        early = http.post(f"/api/games/{waiting['id']}/rematch", headers=auth(joined["token"]),
                          json={"empty_seats": "open"})
        assert early.status_code == 409 and early.json()["code"] == "game_not_running", early.text
        for game in games:
            game.finished()
        every, declined, absent = games
        a, b = sorted(every.tokens)
        assert every.rematch()["offered_by"] is None
        offered = every.post(a, "/rematch", {"empty_seats": "bot"}).json()
        assert offered["offered_by"] == a and offered["answers"] == {str(a): True}
        assert offered["waiting_for"] == [b] and offered["new_game_id"] is None
        bot_seat = next(s for s in range(3) if s not in every.tokens)
        refused = http.post(every.url("/rematch/answer"), json={"accept": True})
        assert refused.status_code == 401, refused.text
        accepted = every.post(b, "/rematch/answer", {"accept": True}).json()
        new = accepted["new_game_id"]
        assert new and accepted["token"], accepted
        assert accepted["host_token"] is None, "only the offerer gets the host token"
        again = every.post(b, "/rematch/answer", {"accept": False})
        assert again.status_code == 409, again.text
        # the new game: running, the same players and bot level, each player's new link
        game = http.get(f"/api/games/{new}").json()
        assert game["status"] == "running", game
        assert game["name"] == "again (2)", game  # the lists tell it from the first
        names = sorted((s["name"], s["bot"], s.get("bot_level")) for s in game["seats"])
        assert names == sorted([("P0", False, None), ("P1", False, None),
                                (f"Bot {[s['bot'] for s in game['seats']].index(True) + 1}",
                                 True, "easy")]), (names, bot_seat)
        mine = every.rematch(a)
        assert mine["token"] and mine["host_token"] and mine["new_game_id"] == new
        assert every.rematch()["token"] is None, "a spectator gets no link"
        by_name = {s["name"]: s["seat"] for s in game["seats"]}
        for old, link in ((a, mine["token"]), (b, accepted["token"])):
            state = http.get(f"/api/games/{new}/state", headers=auth(link))
            assert state.status_code == 200, state.text
            assert state.json()["seat"] == by_name[f"P{old}"], (old, state.json()["seat"])
        listed = http.post(f"/api/games/{new}/listed", headers=auth(mine["host_token"]),
                           json={"listed": False})
        assert listed.status_code == 200, listed.text

        # a declined seat stays open: the new game waits for a player
        c, d = sorted(declined.tokens)
        declined.post(c, "/rematch", {"empty_seats": "open"})
        said_no = declined.post(d, "/rematch/answer", {"accept": False}).json()
        assert said_no["token"] is None and said_no["new_game_id"], said_no
        waiting = http.get(f"/api/games/{said_no['new_game_id']}").json()
        assert waiting["status"] == "waiting"
        assert sum(1 for s in waiting["seats"] if s["name"] is None) == 1, waiting

        # the offerer starts without a player who never answers: a bot takes their seat
        e = sorted(absent.tokens)[0]
        absent.post(e, "/rematch", {"empty_seats": "bot"})
        other = sorted(absent.tokens)[1]
        not_theirs = absent.post(other, "/rematch/start")
        assert not_theirs.status_code == 401, not_theirs.text
        started = absent.post(e, "/rematch/start").json()
        assert started["new_game_id"], started
        seats = http.get(f"/api/games/{started['new_game_id']}").json()["seats"]
        assert sorted(s["bot"] for s in seats) == [False, True, True], seats


def test_a_rematch_is_numbered_within_the_names_length() -> None:
    from brass.server.rematch import rematch_name

    assert [rematch_name(n) for n in ("Friday", "Friday (2)", "Friday (9)", "(2)", "x (12345)")] \
        == ["Friday (2)", "Friday (3)", "Friday (10)", "(2) (2)", "x (12345) (2)"]
    long = "y" * 40
    assert rematch_name(long) == "y" * 36 + " (2)" and len(rematch_name(long)) == 40
