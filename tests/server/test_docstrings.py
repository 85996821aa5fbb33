"""The server's docstring examples run, as the engine's do (tests/engine/test_docstrings.py):
an example that went stale fails here."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import brass.server


def test_every_server_docstring_example_runs() -> None:
    attempted, failed = 0, []
    for info in pkgutil.iter_modules(brass.server.__path__, "brass.server."):
        result = doctest.testmod(importlib.import_module(info.name))
        if result.failed:
            failed.append(info.name)
        attempted += result.attempted
    assert not failed, failed
    assert attempted > 0
