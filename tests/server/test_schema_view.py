"""The OpenAPI models of the engine's view and quote (brass/server/schemas.py) describe exactly
what the engine sends: every view of random games (a few states, the finished one included, for
every seat and the spectator) and every quote of the legal actions at those states parses into
its model with no extra key (`extra="forbid"`: a key the engine adds fails here), in strict
mode, and dumps back to the same JSON, byte for byte (so a response model changes nothing on
the wire)."""

from __future__ import annotations

import datetime as dt
import json
import random
from typing import Any

import httpx
import pytest
from pydantic import BaseModel, TypeAdapter

from brass.engine import (
    Action,
    Game,
    apply_action,
    legal_actions,
    legal_moves,
    new_game,
    view,
)
from brass.server import create_app, outbound
from brass.server.schemas import LegalEntry, ReplayFrame, StateMessage, View

LEGAL = TypeAdapter(list[LegalEntry])
CLOCK = {"kind": "live", "reserve": 60.0, "increment": 5.0, "per_turn": 0.0,
         "handoff_after": 0.0, "deadline": 2.5, "turn_started": 1.0}


def same_json(model: type[BaseModel], payload: dict[str, Any]) -> None:
    parsed = model.model_validate(payload, strict=True)
    assert json.dumps(parsed.model_dump(mode="json")) == json.dumps(payload)


def random_game(players: int, seed: int) -> list[Game]:
    """Every state of a random game (passing only when nothing else is legal), to its end."""
    return random_play(players, seed)[0]


def random_play(players: int, seed: int) -> tuple[list[Game], list[Action]]:
    """A random game: every state, and the actions between them."""
    rng = random.Random(seed)
    game = new_game(players, seed)
    states, played = [game], []
    while not game.is_over:
        actions = legal_actions(game)
        played.append(rng.choice([a for a in actions if a.kind != "pass"] or actions))
        game = apply_action(game, played[-1])
        states.append(game)
    return states, played


def test_views_and_quotes_of_random_games_match_their_models() -> None:
    eras, sources = set(), set()
    for players, seed in [(2, 1), (3, 2), (4, 3)]:
        states = random_game(players, seed)
        assert states[-1].is_over and states[-1].era_scores
        for game in states:
            eras.add(game.era)
            if game.action_count % 20 == 0 or game.is_over:
                for seat in [None, *range(players)]:
                    same_json(View, view(game, seat))
                    same_json(StateMessage, {"type": "state", "game": "g", "status": "running",
                                             "version": 3, "seat": seat, "older_engine": False,
                                             "view": view(game, seat), "undone": [],
                                             "undoable": False, "seats": [], "clock": CLOCK,
                                             "seat_changes": [],
                                             "log": [], "legal": None,
                                             "may": None if seat is None else {
                                                 "resign": True, "take_over": False,
                                                 "hand_over": [{"seat": 0, "since": 2.5}]},
                                             "server_time": 1.5})
                same_json(ReplayFrame, {"n": 1, "actions": 2, "seat": 0,
                                        "view": view(game, 0)})
            if game.is_over:
                continue
            wire = outbound.legal(game, game.current_seat)  # GET /legal's body, as sent
            assert json.loads(wire) == [  # assembled from kept texts: the engine's moves
                {"action": m.action.to_json(), "quote": m.quote.to_json()}
                for m in legal_moves(game)]
            entries = LEGAL.validate_json(wire, strict=True)
            assert json.loads(LEGAL.dump_json(entries)) == json.loads(wire)
            for entry in json.loads(wire):
                sources |= {s["source"] for r in ("coal", "iron", "beer")
                            for s in entry["quote"][r]}
    assert eras == {"canal", "rail"}
    assert sources == {"tile", "market", "merchant"}


def test_the_seats_and_clock_dicts_are_their_models_dumps() -> None:
    """A state message's seats and clock are built as dicts (`seat_dicts`, `clock_dict`):
    exactly what the `SeatInfo` and `ClockView` models dump, whole numbers as floats too."""
    from brass.server.clocks import Clock
    from brass.server.records import GameRecord, SeatRecord

    now = dt.datetime(2026, 12, 7, tzinfo=dt.UTC)
    record = GameRecord(
        id="g", name="n", players=3, status="running", seed=1, setup=None, version=4,
        engine_version="1", host_token_hash="h", created_at=now, updated_at=now,
        turn_started_at=now,
        seats=[SeatRecord(seat=0, name="Ann", reserve=90),
               SeatRecord(seat=1, bot=True, bot_level="hard"),
               SeatRecord(seat=2, name="Cy", stand_in="timeout")],
        settings={"clock": Clock(kind="live", reserve=600, increment=5).to_json()})
    assert json.dumps(outbound.seat_dicts(record)) == json.dumps(
        [s.model_dump() for s in outbound.seats(record)])
    assert json.dumps(outbound.clock_dict(record)) == json.dumps(
        outbound.clock(record).model_dump())


def test_the_seat_permissions_dict_is_its_models_dump() -> None:
    """`may` is built as a dict (`seatrules.permissions`): it validates as `SeatPermissions`
    in strict mode and dumps back to the same JSON, a seat that may be handed over too."""
    from brass.server import seatrules
    from brass.server.clocks import Clock
    from brass.server.records import GameRecord, SeatRecord
    from brass.server.schemas import SeatPermissions

    now = dt.datetime(2026, 12, 7, 12, 0, 0, 123000, tzinfo=dt.UTC)
    game = new_game(3, 1)
    record = GameRecord(
        id="g", name="n", players=3, status="running", seed=1, setup=None, version=4,
        engine_version="1", host_token_hash="h", created_at=now, updated_at=now,
        turn_started_at=now, seats=[SeatRecord(seat=i, name=f"P{i}") for i in range(3)],
        settings={"clock": Clock(kind="none", handoff_after=3600).to_json()})
    for seat in range(3):
        may = seatrules.permissions(record, game, seat)
        assert may["hand_over"] == ([] if seat == game.current_seat else [
            {"seat": game.current_seat, "since": round(now.timestamp() + 3600, 3)}])
        same_json(SeatPermissions, may)
        assert outbound.dumps(may) == SeatPermissions.model_validate(may).model_dump_json()


def test_the_kept_action_and_price_texts_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outbound, "TEXTS", 5)
    monkeypatch.setattr(outbound, "_action_texts", {})
    monkeypatch.setattr(outbound, "_quote_texts", {})
    game = new_game(4, 9)
    for _ in range(2):  # the second time from the kept texts, as far as they go
        wire = json.loads(outbound.legal(game, game.current_seat))
        assert len(wire) > 5 and len({json.dumps(e["quote"]) for e in wire}) > 5
        assert 0 < len(outbound._action_texts) <= 5 and 0 < len(outbound._quote_texts) <= 5
        assert wire == [{"action": m.action.to_json(), "quote": m.quote.to_json()}
                        for m in legal_moves(game)]


def test_a_new_view_key_fails() -> None:
    v = view(new_game(2, 0), None)
    with pytest.raises(ValueError):
        View.model_validate({**v, "secret": 1})
    with pytest.raises(ValueError):
        View.model_validate({**v, "players": [{**v["players"][0], "deck": []}]})


def test_the_openapi_schema_describes_the_view_quote_and_websocket_messages() -> None:
    doc = create_app().openapi()
    schemas = doc["components"]["schemas"]
    ref = "#/components/schemas/"
    assert schemas["ReplayFrame"]["properties"]["view"] == {"$ref": ref + "View"}
    assert schemas["LegalEntry"]["properties"]["quote"] == {"$ref": ref + "Quote"}
    assert set(schemas["View"]["properties"]) == set(View.model_fields)
    assert schemas["View"]["additionalProperties"] is False
    assert {"WsAck", "WsError", "QuoteTileSupply", "QuoteMarketSupply", "QuoteMerchantSupply",
            "TileSupply", "MoveEvent", "Event", "Action", "Build"} <= set(schemas)
    # every action is the one `Action` definition: a request's, a legal move's, a move
    # event's and the analysis' moves alike (no untyped object, no copy of the union)
    action = {"$ref": ref + "Action"}
    assert schemas["SubmitAction"]["properties"]["action"] == action
    assert schemas["LegalEntry"]["properties"]["action"] == action
    assert schemas["MoveEvent"]["properties"]["action"] == action
    for key in ("played", "preferred"):
        assert {k: v for k, v in schemas["MoveJudged"]["properties"][key].items()
                if k != "description"} == action
    assert schemas["Action"]["discriminator"]["propertyName"] == "kind"


INDUSTRIES = {"cotton", "manufacturer", "pottery", "coal", "iron", "brewery"}
ERAS = {"canal", "rail"}
STATUSES = {"waiting", "running", "finished", "expired", "cancelled"}
STAND_INS = {"timeout", "resigned", "handover"}
ERROR_CODES = {  # DESIGN.md's, then the server's own
    "malformed", "illegal", "not_your_turn", "stale_version", "unauthorized", "not_found",
    "game_not_running", "seat_taken", "rate_limited", "action_undone", "too_many_sockets",
    "timeout", "internal", "one_seat_per_browser", "not_yet", "unavailable",
    "forbidden", "create_refused",  # the players' cookie from another site; the create policy
    "link_invalid", "link_used", "link_expired", "wrong_origin", "passkey_refused",
    "not_offered",  # signing in (accounts)
    "stand_in_playing",  # a bot plays for the seat
    "nudge_not_allowed", "nudge_too_soon",  # nudges (docs/REACH.md)
    "vacation_off", "vacation_in_past", "vacation_overlaps", "vacation_too_long",
    "vacation_started",  # vacations (docs/REACH.md)
    "chat_muted"}  # the host or the admin muted a chat sender
# (schema, property) -> the words its value may be (None too, where it is nullable)
VOCABULARIES: dict[tuple[str, str], set[str | None]] = {
    ("Build", "industry"): set(INDUSTRIES), ("Develop", "industries"): set(INDUSTRIES),
    ("Sale", "develop"): {*INDUSTRIES, None}, ("TileView", "industry"): set(INDUSTRIES),
    ("PlacedTile", "industry"): set(INDUSTRIES), ("Developed", "industry"): set(INDUSTRIES),
    ("SaleEffect", "industry"): set(INDUSTRIES), ("TileScore", "industry"): set(INDUSTRIES),
    ("Bonus", "develop"): {*INDUSTRIES, None},
    ("View", "era"): set(ERAS), ("LinkView", "kind"): set(ERAS), ("LinkRef", "kind"): set(ERAS),
    ("RoundEndEvent", "era"): set(ERAS),
    ("GameInfo", "status"): set(STATUSES), ("StateMessage", "status"): set(STATUSES),
    ("GameLog", "status"): set(STATUSES),
    ("Error", "code"): set(ERROR_CODES), ("WsError", "code"): set(ERROR_CODES),
    ("ClockChoice", "kind"): {"none", "live", "correspondence"},
    ("ClockView", "kind"): {"none", "live", "correspondence"},
    ("SeatInfo", "stand_in"): {*STAND_INS, None}, ("LogEntry", "stand_in"): {*STAND_INS, None},
    ("SeatChangeEntry", "change"): {*STAND_INS, "returned"},
    **{(kind.capitalize(), "kind"): {kind} for kind in (
        "build", "network", "develop", "sell", "loan", "scout", "pass")},
}


def words(schemas: dict[str, Any], prop: dict[str, Any]) -> set[str | None]:
    """The values a property's schema allows, if it names them all (a bare string fails)."""
    if "$ref" in prop:
        return words(schemas, schemas[prop["$ref"].rsplit("/", 1)[1]])
    if "anyOf" in prop:
        return set().union(*(words(schemas, p) for p in prop["anyOf"]))
    if prop.get("type") == "array":
        return words(schemas, prop["items"])
    if prop.get("type") == "null":
        return {None}
    assert "enum" in prop or "const" in prop, f"{prop} names no words: a plain string"
    return set(prop.get("enum", [prop.get("const")]))


@pytest.fixture(scope="module")
def schemas() -> dict[str, Any]:
    found: dict[str, Any] = create_app().openapi()["components"]["schemas"]
    return found


@pytest.mark.parametrize(("name", "key"), sorted(VOCABULARIES))
def test_the_openapi_schema_names_the_words_of_each_fixed_vocabulary(
        schemas: dict[str, Any], name: str, key: str) -> None:
    """Eras, statuses, industries, action kinds, clock kinds, stand-in reasons and error codes
    are enums in the schema, so the generated client types are unions, not `string`."""
    assert words(schemas, schemas[name]["properties"][key]) == VOCABULARIES[(name, key)]


def test_plain_http_on_the_websocket_path_is_told_to_upgrade(http: httpx.Client) -> None:
    reply = http.get("/ws/games/nothing")
    assert reply.status_code == 426 and reply.headers["upgrade"] == "websocket"
