"""Leak test: complete games of 2, 3 and 4 seats, every seat played over its own websocket by
the bot heuristic (choosing from `GET /legal`), plus a spectator socket. Every byte every socket
received and every REST response is recorded, then checked against the true hidden state
(replayed from the finished game's log): no other seat's hand, no deck order, no face-down card,
no seed while the game runs; a spectator sees no hand at all."""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from brass.bots import choose_entry
from brass.engine import Game, apply_action, new_game, parse_action, view

from .conftest import LiveServer, auth, run_in_own_loop

SECRET_KEYS = {"seed", "deck", "face_down", "hands", "rail_deck", "setup", "token_hash",
               "host_token_hash"}
COMPACT = (",", ":")


@dataclass
class Recording:
    game_id: str = ""
    players: int = 0
    socket: dict[int | None, list[str]] = field(default_factory=dict)  # by seat; None: spectator
    rest: list[tuple[int | None, str, str]] = field(default_factory=list)  # seat, path, body
    log: dict[str, Any] = field(default_factory=dict)


async def _get(http: httpx.AsyncClient, rec: Recording, seat: int | None, path: str,
               token: str | None = None) -> Any:
    reply = await http.get(path, headers=auth(token) if token else {})
    rec.rest.append((seat, path, reply.text))
    return reply.json()


async def _seat_loop(ws: ClientConnection, seat: int | None, token: str | None,
                     http: httpx.AsyncClient, rec: Recording) -> None:
    rng = random.Random(seat)
    acted_at, money, current = -1, 0, {}
    base = f"/api/games/{rec.game_id}"

    async def send(pick: Any, version: int) -> None:
        await ws.send(json.dumps({"type": "action", "action": pick["action"],
                                  "expected_version": version,
                                  "action_id": f"{seat}-{version}"}))

    async for raw in ws:
        assert isinstance(raw, str)
        rec.socket[seat].append(raw)
        msg = json.loads(raw)
        if msg["type"] == "error":
            acted_at = -1
            await ws.send(json.dumps({"type": "sync"}))
            continue
        if msg["type"] == "extensions":  # grow the sale or railway while it pays, then send
            assert msg["action"] == current["action"]
            grown = choose_entry([current, *msg["moves"]], rng, money)
            if grown is not current and rng.random() < 0.8:
                current = grown
                await ws.send(json.dumps({"type": "extend", "action": grown["action"],
                                          "version": msg["version"]}))
            else:
                await send(grown, msg["version"])
            continue
        if msg["type"] != "state":
            continue
        if msg["status"] == "finished":
            return
        game_view, version = msg["view"], msg["version"]
        if game_view is None:  # still waiting for players
            continue
        if seat is None:  # the spectator also reads every public REST door now and then
            if version % 7 == 0:
                for path in ["/api/games", base, f"{base}/log", f"{base}/replay/{version}",
                             f"{base}/state"]:
                    await _get(http, rec, None, path)
            continue
        if game_view["current_seat"] == seat and msg["legal"] is None:
            continue  # the new version at once; the same again with the legal moves follows
        if game_view["current_seat"] == seat and version > acted_at:
            acted_at = version
            entries = msg["legal"]  # the state message of the seat to move carries them
            if version % 5 == 0:  # and the other doors give the same
                assert await _get(http, rec, seat, f"{base}/legal", token) == entries
                assert (await _get(http, rec, seat, f"{base}/state", token))["legal"] == entries
            money = game_view["players"][seat]["money"]
            pick = choose_entry(entries, rng, money)
            growing = [e for e in entries if e["action"]["kind"] in ("sell", "network")]
            if growing and not current:  # every seat asks for extensions at least once
                pick = rng.choice(growing)
            current = pick
            if pick["action"]["kind"] in ("sell", "network"):  # one sale, one link: ask more
                await ws.send(json.dumps({"type": "extend", "action": pick["action"],
                                          "version": version}))
            else:
                await send(pick, version)


async def play_recorded(server: LiveServer, players: int) -> Recording:
    rec = Recording(players=players)
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
        created = (await http.post("/api/games", json={"players": players, "name": "leak"}))
        rec.game_id = created.json()["id"]
        url = f"{server.ws_base}/ws/games/{rec.game_id}"
        spectator = await connect(url, max_size=None)
        await spectator.send(json.dumps({"type": "hello", "token": None}))
        rec.socket[None] = []
        tasks = [asyncio.create_task(_seat_loop(spectator, None, None, http, rec))]
        sockets = [spectator]
        for i in range(players):
            joined = (await http.post(f"/api/games/{rec.game_id}/join",
                                      json={"name": f"p{i}",
                                            "invite": created.json()["invite"]})).json()
            seat, token = joined["seat"], joined["token"]
            ws = await connect(url, max_size=None)
            sockets.append(ws)
            rec.socket[seat] = []
            await ws.send(json.dumps({"type": "hello", "token": token}))
            tasks.append(asyncio.create_task(_seat_loop(ws, seat, token, http, rec)))
        try:
            await asyncio.wait_for(asyncio.gather(*tasks), timeout=300)
        finally:
            for ws in sockets:
                await ws.close()
        rec.log = (await http.get(f"/api/games/{rec.game_id}/log")).json()
    return rec


def replayed_states(log: dict[str, Any]) -> list[Game]:
    game = new_game(log["players"], log["seed"], log["setup"])
    states = [game]
    for entry in log["actions"]:
        game = apply_action(game, parse_action(entry["action"]))
        states.append(game)
    return states


def keys_in(obj: Any) -> set[str]:
    """Every key in the payload (an era end's rail deal names its `hands`: their cards are
    checked by `assert_events_public`)."""
    if isinstance(obj, dict):
        own = set(obj) - {"hands"} if "deck_left" in obj and "hands" in obj else set(obj)
        return own | {k for v in obj.values() for k in keys_in(v)}
    if isinstance(obj, list):
        return {k for v in obj for k in keys_in(v)}
    return set()


def events_in(obj: Any) -> list[dict[str, Any]]:
    """Every engine event in a payload (the effects of its log entries)."""
    if isinstance(obj, dict):
        found = [e for e in obj.get("effects") or [] if isinstance(e, dict)]
        return found + [e for v in obj.values() for e in events_in(v)]
    if isinstance(obj, list):
        return [e for v in obj for e in events_in(v)]
    return []


def assert_events_public(obj: Any) -> int:
    """The log is public: no effect anywhere names the cards anyone drew or was dealt.
    Returns how many events there were."""
    events = events_in(obj)
    for event in events:
        if event["type"] == "draw":
            assert event["cards"] is None and event["count"] >= 0, event
        if event["type"] == "era_end" and event["deal"] is not None:
            assert all(h["cards"] is None for h in event["deal"]["hands"]), event
    return len(events)


def assert_legal_is_own(msg: dict[str, Any], game: Game, seat: int | None) -> None:
    """Legal moves go to the seat to move only, and name only cards of its own hand."""
    if msg["legal"] is None:  # the seat to move also gets each version first without them
        return
    assert seat is not None and game.current_seat == seat and msg["legal"]
    hand = set(game.players[seat].hand)
    for entry in msg["legal"]:
        action = entry["action"]
        assert set(action.get("cards") or [action.get("card")]) <= hand, action


def without_own_hand(raw: str, seat: int | None) -> str:
    """The payload with the viewer's own hand and legal moves blanked: they may equal another
    seat's hand or hold the same run of cards as the deck, by chance (`assert_legal_is_own`
    checks that the moves name only the seat's own cards)."""
    data = json.loads(raw)
    game_view = data.get("view") if isinstance(data, dict) else None
    if seat is not None and isinstance(game_view, dict):
        game_view["players"][seat]["hand"] = None
    if seat is not None and isinstance(data, dict):
        data.pop("legal", None)
    return json.dumps(data, separators=COMPACT)


def assert_no_secrets(raw: str, game: Game, seat: int | None) -> None:
    """`raw` went to `seat` while `game` (the true state) was running."""
    assert str(game.seed) not in raw
    assert not keys_in(json.loads(raw)) & SECRET_KEYS
    assert_events_public(json.loads(raw))
    others = without_own_hand(raw, seat)  # the own hand may repeat a run of the deck
    if len(game.deck) >= 3:
        assert json.dumps(list(game.deck[:3]), separators=COMPACT)[1:-1] not in others
    for player in game.players:
        if player.seat != seat and len(player.hand) >= 2:
            assert json.dumps(list(player.hand), separators=COMPACT) not in others


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_message_leaks_hidden_information(server: LiveServer, players: int) -> None:
    rec = run_in_own_loop(play_recorded(server, players))
    log = rec.log
    assert log["status"] == "finished" and log["seed"] is not None
    states = replayed_states(log)
    assert list(states[-1].scores) == log["scores"]
    seen_versions, events, extensions = set(), 0, 0
    for seat, messages in rec.socket.items():
        assert messages, f"seat {seat} received nothing"
        for raw in messages:
            msg = json.loads(raw)
            if msg["type"] == "extensions":  # the seat to move only, its own cards only
                extensions += 1
                assert seat is not None and not keys_in(msg) & SECRET_KEYS
                assert states[msg["version"]].current_seat == seat
                if msg["moves"]:
                    assert_legal_is_own({"status": "running", "legal": msg["moves"]},
                                        states[msg["version"]], seat)
                continue
            if msg["type"] != "state":
                assert msg["type"] in {"ack", "error"}, msg
                assert not keys_in(msg) & SECRET_KEYS
                continue
            assert msg["seat"] == seat
            if msg["view"] is None:
                assert msg["status"] == "waiting"
                continue
            game = states[msg["version"]]
            assert msg["view"] == json.loads(json.dumps(view(game, seat)))
            if msg["status"] == "finished":
                continue
            seen_versions.add(msg["version"])
            assert_no_secrets(raw, game, seat)
            assert_legal_is_own(msg, game, seat)
            events += len(events_in(msg))
            hands = [p["hand"] for p in msg["view"]["players"]]
            assert [h is not None for h in hands] == [s == seat for s in range(players)]
    assert seen_versions == set(range(len(states) - 1))
    assert events >= len(states) - 1  # every state message after a move carried its effects
    assert extensions > 0
    kinds = {e["type"] for e in events_in(log)}
    assert kinds == {"move", "draw", "turn_end", "round_end", "era_end", "game_end"}
    for seat, path, body in rec.rest:
        data = json.loads(body)
        version = data.get("version", data.get("n")) if isinstance(data, dict) else None
        game = states[version] if isinstance(version, int) else states[0]
        assert not keys_in(data) & SECRET_KEYS - {"seed", "setup"}, path
        if isinstance(data, dict) and data.get("status") == "finished":
            continue  # fetched just after the end: a finished game has no secrets
        assert str(log["seed"]) not in body, path
        if path.endswith("/log"):
            assert data["seed"] is None and data["setup"] is None
        if path.endswith("/state") or "/replay/" in path:
            assert_no_secrets(body, game, seat)
    assert {path.rsplit("/", 1)[-1] for _, path, _ in rec.rest} >= {"legal", "log", "state"}
