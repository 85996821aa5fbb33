"""`brass import` holds a record to the rules a client's input is held to (importcheck.py):
each crafted record below is refused with its reason in one line, and nothing is stored. The
record they are made from is real: a game on the session's server where a player resigned and
a bot played their seat to the end (so it has a seat change and stand-in marks)."""

from __future__ import annotations

import copy
import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from sqlalchemy import create_engine, func, select

from brass.server import importcheck
from brass.server.importcheck import BadRecord
from brass.server.lobby import new_game_id
from brass.server.storage import games
from brass.server.transfer import check_record

from .conftest import LiveServer, auth, make_game, repo_root
from .test_bots import watch_to_the_end


@pytest.fixture(scope="module")
def resigned(server: LiveServer) -> dict[str, Any]:
    """A finished 2-player game: seat 0's player resigned at once, a bot played it out."""
    with httpx.Client(base_url=server.base, timeout=60) as http:
        table = make_game(http, players=2, humans=1, bots=1)
        token = table.tokens[0]
        assert http.post(table.url("/resign"), headers=auth(token), json={}).status_code == 200
        watch_to_the_end(server, table.id)
        log: dict[str, Any] = http.get(table.url("/log")).json()
    assert [(c["seat"], c["change"]) for c in log["seat_changes"]] == [(0, "resigned")]
    return log


def refused(record: dict[str, Any]) -> str:
    with pytest.raises(BadRecord) as caught:
        check_record(record)
    message = str(caught.value)
    assert "\n" not in message
    return message


def depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((depth(v) for v in value), default=0)
    return 1


def test_a_real_record_passes_well_inside_the_limits(resigned: dict[str, Any]) -> None:
    assert check_record(resigned).scores == resigned["scores"]
    size, deep = len(orjson.dumps(resigned)), depth(resigned)
    print(f"a real 2-player record: {size:,} bytes, {deep} deep")
    assert size * 4 < importcheck.MAX_BYTES and deep * 2 <= importcheck.MAX_DEPTH
    assert all(importcheck.GAME_ID.fullmatch(new_game_id()) for _ in range(2000))


def test_names_are_held_to_the_api_rule(resigned: dict[str, Any]) -> None:
    long = copy.deepcopy(resigned)
    long["seats"][1]["name"] = "x" * 5000
    assert refused(long).startswith("seat 1's name is refused as a player's would be: "
                                    "String should have at most 40 characters")
    for bad in ("evil\u202egnp.exe", "nul\x00here", " padded", "zero\u200bwidth"):
        named = copy.deepcopy(resigned)
        named["name"] = bad
        assert refused(named).startswith(
            "the game's name is refused as a player's would be: "
            "the text must start and end with a visible character"), bad
    nameless = copy.deepcopy(resigned)
    nameless["seats"][0]["name"] = None
    assert refused(nameless).startswith("seat 0's name is refused")


@pytest.mark.parametrize("game_id", ["../../etc", "-rf", "a" * 33, "", "with space", "é"])
def test_an_id_is_one_a_server_makes(resigned: dict[str, Any], game_id: str) -> None:
    record = copy.deepcopy(resigned)
    record["id"] = game_id
    assert refused(record).startswith(
        f"the record's game id {game_id!r} is not one a server makes")


def change_instead_of(record: dict[str, Any], seq: int, **change: Any) -> dict[str, Any]:
    """`record` with the action `seq` replaced by a seat change at its version (a version
    nothing else holds; the replay would refuse the record later, this check comes first)."""
    out = copy.deepcopy(record)
    out["actions"] = [a for a in out["actions"] if a["seq"] != seq]
    out["seat_changes"] = sorted(out["seat_changes"] + [
        {"version": seq, "time": record["actions"][0]["time"], **change}],
        key=lambda c: c["version"])
    return out


def later_move(record: dict[str, Any], seat: int) -> int:
    """The seq of a move of `seat` after the first ten, followed by another of its own."""
    actions = record["actions"]
    return next(a["seq"] for a, b in itertools.pairwise(actions)
                if a["seq"] > 10 and a["seat"] == b["seat"] == seat)


def test_invented_resignations_are_refused(resigned: dict[str, Any]) -> None:
    first = resigned["seat_changes"][0]
    again = later_move(resigned, 0)
    assert refused(change_instead_of(resigned, again, seat=0, change="resigned")) == (
        f"seat change at version {again} (resigned of seat 0): the seat had resigned already")
    assert refused(change_instead_of(resigned, again, seat=0, change="returned")) == (
        f"seat change at version {again} (returned of seat 0): only a player timed out or "
        "handed over returns")

    bot = copy.deepcopy(resigned)
    bot["seat_changes"][0]["seat"] = 1
    assert refused(bot) == (f"seat change at version {first['version']} (resigned of seat 1): "
                            "no player holds that seat")

    after_the_end = copy.deepcopy(resigned)
    after_the_end["seat_changes"].append({**first, "version": resigned["version"] + 1})
    assert refused(after_the_end).endswith("that version is an action's, or past the game's")

    unmarked = copy.deepcopy(resigned)  # a resignation the moves do not show
    unmarked["seat_changes"] = []
    theirs = next(a["seq"] for a in resigned["actions"] if a["seat"] == 0)
    assert refused(unmarked) == (f"action #{theirs} is marked resigned, but seat 0 was played "
                                 "by its player then")


def test_invented_time_out_marks_are_refused(resigned: dict[str, Any]) -> None:
    mark = copy.deepcopy(resigned)
    bot_move = next(a for a in mark["actions"] if a["seat"] == 1)
    bot_move["stand_in"] = "timeout"
    assert refused(mark) == (f"action #{bot_move['seq']} is marked timeout, but seat 1 was "
                             "played by its player then")

    relabelled = copy.deepcopy(resigned)
    theirs = next(a for a in relabelled["actions"] if a["seat"] == 0)
    theirs["stand_in"] = "timeout"
    assert refused(relabelled) == (f"action #{theirs['seq']} is marked timeout, but seat 0 "
                                   "was resigned then")

    # a game where seat 0's player played to the end: a time-out of seat 0 while seat 1 is
    # to move, and one while seat 0 is to move that its next moves do not show
    played = copy.deepcopy(resigned)
    played["seat_changes"], played["seats"][0]["stand_in"] = [], None
    for action in played["actions"]:
        action["stand_in"] = None
    played["version"] -= 1  # no seat change: one version fewer
    for action in played["actions"]:
        action["seq"] -= 1
    check_record(played)  # the same moves, by seat 0's player: a record a server could make
    theirs, mine = later_move(played, 1), later_move(played, 0)
    assert refused(change_instead_of(played, theirs, seat=0, change="timeout")) == (
        f"seat change at version {theirs} (timeout of seat 0): only the seat to move, played "
        "by its player, can be timed out or handed over")
    assert refused(change_instead_of(played, mine, seat=0, change="timeout")) == (
        f"action #{mine + 1} is marked played by its player, but seat 0 was timeout then")

    final = copy.deepcopy(resigned)  # the seat's final mark disagrees with its changes
    final["seats"][0]["stand_in"] = "timeout"
    assert refused(final) == ("seat 0 is marked timeout, but its seat changes leave it "
                              "resigned")


def test_size_and_nesting_have_limits() -> None:
    with pytest.raises(BadRecord, match="over the 4,194,304 bytes"):
        importcheck.parse(b" " * (importcheck.MAX_BYTES + 1))
    for text in (b"[" * 100 + b"]" * 100, b"[" * 100_000 + b"]" * 100_000, b"[" * 5000):
        with pytest.raises(BadRecord, match="nested over 24 deep"):
            importcheck.parse(text)
    with pytest.raises(BadRecord, match="not JSON"):  # brackets in a string are not nesting
        importcheck.parse(b'["' + b"[" * 5000 + b'"')
    assert importcheck.nesting(b'[["]]]]\\\"[[[", {"a": [1]}]]') == 4
    nested: Any = []
    for _ in range(100_000):  # deeper than Python's stack: walked without recursion
        nested = [nested]
    with pytest.raises(BadRecord, match="nested over 24 deep"):
        importcheck.check_shape({"format": "brass-game-log/1", "setup": nested})


def brass_import(path: Path, database: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "brass.cli", "import", str(path),
                           "--database", database], capture_output=True, text=True,
                          cwd=repo_root(), timeout=120, check=False)


def test_the_command_refuses_crafted_files_in_one_line_and_stores_nothing(
        resigned: dict[str, Any], tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'target.db'}"
    huge = copy.deepcopy(resigned)
    huge["setup"] = {"padding": "x" * (50 * 1024 * 1024)}
    deep = copy.deepcopy(resigned)
    deep["setup"] = {}
    bidi = copy.deepcopy(resigned)
    bidi["name"] = "\u202eevil"
    files = {"huge": (orjson.dumps(huge), "over the 4,194,304 bytes"),
             "deep": (orjson.dumps(deep).replace(b'"setup":{}', b'"setup":' + b"[" * 5000
                                                 + b"]" * 5000), "nested over 24 deep"),
             "bidi": (orjson.dumps(bidi), "the game's name is refused"),
             "traversal": (json.dumps({**resigned, "id": "../../etc"}).encode(),
                           "the record's game id '../../etc'")}
    for name, (content, reason) in files.items():
        path = tmp_path / f"{name}.json"
        path.write_bytes(content)
        done = brass_import(path, database)
        assert done.returncode == 2, (name, done.stderr)
        assert done.stderr.startswith(f"brass import: {path}: "), (name, done.stderr)
        assert reason in done.stderr and len(done.stderr.strip().splitlines()) == 1, \
            (name, done.stderr[:500])
    if (tmp_path / "target.db").exists():
        with create_engine(database).connect() as conn:
            assert conn.execute(select(func.count()).select_from(games)).scalar() == 0
    good = tmp_path / "good.json"
    good.write_bytes(orjson.dumps(resigned))
    done = brass_import(good, database)
    assert done.returncode == 0, done.stderr
