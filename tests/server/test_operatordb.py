"""The operator's commands on the server's database (`brass admin`, `brass settings`;
operatordb.py): a SQLite file that is not there is refused and not made (a mistyped path set up
a new, empty database that no server reads, and the command seemed to work); a database that
cannot be reached is one line naming it (no password), not a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from brass.server import migrate

from .conftest import repo_root

UNREACHABLE = "postgresql://brass:secret@127.0.0.1:1/nowhere"  # port 1: nothing listens


def brass(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith("BRASS_") and k != "DATABASE_URL"}
    return subprocess.run([sys.executable, "-m", "brass.cli", *args], cwd=cwd,
                          env={**clean, "PYTHONPATH": str(repo_root()), **env},
                          capture_output=True, text=True, timeout=120, check=False)


COMMANDS = [("settings", "create-policy"), ("settings", "create-policy", "invite"),
            ("admin", "grant", "someone"), ("admin", "link")]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_missing_sqlite_file_is_refused_not_made(command: tuple[str, ...],
                                                   tmp_path: Path) -> None:
    missing = tmp_path / "typo" / "brass.db"
    done = brass(*command, cwd=tmp_path, DATABASE_URL=f"sqlite:///{missing}")
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.strip() == (
        f"brass {command[0]}: no database at {missing} (the server's setting): name the "
        "server's own, or start the server once to make it"), done.stderr
    assert done.stdout == "", done.stdout  # no policy shown, no link printed
    # the default, var/brass.db, from a folder where the server never ran
    default = brass(*command, cwd=tmp_path)
    assert default.returncode == 2 and "no database at var/brass.db" in default.stderr, \
        default.stderr
    assert not (tmp_path / "typo").exists() and not (tmp_path / "var").exists()


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_an_unreachable_database_is_one_line(command: tuple[str, ...], tmp_path: Path) -> None:
    done = brass(*command, cwd=tmp_path, DATABASE_URL=UNREACHABLE)
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"brass {command[0]}: postgresql+psycopg://brass:***@127.0.0.1:1"
                               "/nowhere: "), lines
    assert "secret" not in done.stderr and "Traceback" not in done.stderr


def test_the_server_database_given_works(tmp_path: Path) -> None:
    """A database that is there (migrated, as the server's first start leaves it) is used, from
    the server's setting or `--database`."""
    db = tmp_path / "brass.db"
    migrate.upgrade(f"sqlite:///{db}")
    done = brass("settings", "create-policy", "accounts", cwd=tmp_path,
                 DATABASE_URL=f"sqlite:///{db}")
    assert done.returncode == 0 and done.stdout == "create policy: accounts\n", done.stderr
    again = brass("settings", "create-policy", "--database", f"sqlite:///{db}", cwd=repo_root())
    assert again.stdout == "create policy: accounts\n", again.stderr
