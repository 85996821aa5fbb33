"""`make run` installs only what the server needs (issue 25): its own virtual environment
gets the package without extras, and the package's dependencies name no test or lint tool.
Read from make itself (`make -n`: what it would run), not from the Makefile's text."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOLS = {"pytest", "hypothesis", "playwright", "schemathesis", "ruff", "mypy", "httpx",
         "aiosmtpd", "pillow", "hatchling", "numpy"}


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_run_installs_the_package_without_extras() -> None:
    plan = subprocess.run(["make", "-n", "-B", "run"], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout.splitlines()
    installs = [line for line in plan if "pip install" in line and "--upgrade pip" not in line]
    served = [line for line in plan if line.endswith("brass serve")]
    assert served, plan
    venv = served[-1].split("/bin/brass")[0]
    ours = [line for line in installs if line.startswith(f"{venv}/bin/pip ")]
    assert ours, plan
    for line in ours:
        assert re.search(r"\s-e \.$", line), line  # the package alone: no [test] or [dev]


def test_the_server_dependencies_name_no_test_or_lint_tool() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {re.split(r"[<>=\[ ;]", dep, maxsplit=1)[0].lower()
             for dep in project["dependencies"]}
    assert not names & TOOLS, names & TOOLS
