"""`brass backup OUT` (sqlitecopy.py): a whole copy of a running server's SQLite database,
the commits still in its write-ahead log included, that a server started on the copy serves;
a Postgres database, a missing file and an OUT already there are refused in one line. The
server's file and the copy are readable by their owner alone."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import httpx
import pytest

from brass.cli import main
from brass.server import Settings

from .conftest import LiveServer, make_game


def test_a_running_servers_games_are_copied_whole(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path}/brass.db"
    out = tmp_path / "copies" / "brass-copy.db"
    out.parent.mkdir()
    with LiveServer(Settings(database_url=url, bot_delay=0.0)) as live, \
            httpx.Client(base_url=live.base, timeout=30) as http:
        table = make_game(http, players=2, humans=2)  # started: its first state stored
        assert (tmp_path / "brass.db-wal").is_file(), "the server's log beside its file"
        assert main(["backup", str(out), "--database", url]) == 0
        said = capsys.readouterr().out
        assert said.startswith(f"copied 1 game to {out}"), said
        with sqlite3.connect(out) as copy:
            assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        copy.close()
    assert sorted(p.name for p in out.parent.iterdir()) == ["brass-copy.db"]  # no .partial
    # each holds every seat's token hash and chat line: its owner's alone, as a dump is
    modes = {p.name: oct(p.stat().st_mode & 0o777) for p in (tmp_path / "brass.db", out)}
    assert modes == {"brass.db": "0o600", "brass-copy.db": "0o600"}, modes
    with LiveServer(Settings(database_url=f"sqlite:///{out}", bot_delay=0.0)) as live, \
            httpx.Client(base_url=live.base, timeout=30) as http:
        game = http.get(f"/api/games/{table.id}").json()
        assert game["status"] == "running" and game["version"] == 0, game
        assert all(s["taken"] for s in game["seats"]), game


@pytest.mark.parametrize(("database", "out", "refusal"), [
    ("postgresql+psycopg://postgres@127.0.0.1:5432/brass", "new.db",
     "is Postgres: deploy/backup.sh dumps it (pg_dump)"),
    ("sqlite:///{tmp}/none.db", "new.db", "no database at"),
    ("sqlite:///{tmp}/brass.db", "brass.db", "is there already: name a new file"),
])
def test_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                             database: str, out: str, refusal: str) -> None:
    sqlite3.connect(tmp_path / "brass.db").close()
    assert main(["backup", str(tmp_path / out),
                 "--database", database.format(tmp=tmp_path)]) == 2
    said = capsys.readouterr().err
    assert said.startswith("brass backup: ") and refusal in said and said.count("\n") == 1, said
