"""The engine's docstring examples run (python-chess style: the docs cannot go stale)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import brass.engine


def test_every_engine_docstring_example_runs() -> None:
    attempted = 0
    for info in pkgutil.iter_modules(brass.engine.__path__, "brass.engine."):
        result = doctest.testmod(importlib.import_module(info.name))
        assert result.failed == 0, info.name
        attempted += result.attempted
    result = doctest.testmod(brass.engine)
    assert result.failed == 0
    assert result.attempted > 0 and attempted > 0  # the package's own example, and others
