"""The server's shape (docs/SERVER.md): no import cycle inside `brass.server`, not even one
made only for type checking, and no module over `MOST_LINES` lines but the declarative ones
(the API's models), and no function above rank C (cyclomatic complexity over 20, by radon,
the issue's measure). A newcomer reads a room without reading the whole house."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

from radon.complexity import cc_rank, cc_visit

SERVER = Path(__file__).resolve().parents[2] / "brass" / "server"
MOST_LINES = 450
MOST_COMPLEX = "C"  # radon's rank: A 1-5, B 6-10, C 11-20, D 21-30...
DECLARATIVE = {"schemas.py"}  # the API's models: long, but one declaration after another
# metrics.py types `observe(service)` with GameService under TYPE_CHECKING (issue 22: metrics.py
# is another branch's; it takes the games held, or a Protocol, and this edge goes)
WAIVED: set[tuple[str, str]] = set()


def imports(path: Path) -> set[str]:
    """The modules of `brass.server` that `path` imports, anywhere in it (under
    `TYPE_CHECKING` and inside functions too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:  # from .x import y / from . import x
                base = [node.module] if node.module else [a.name for a in node.names]
                found.update(name.split(".")[0] for name in base)
            elif node.module and node.module.startswith("brass.server"):
                rest = node.module.removeprefix("brass.server").lstrip(".")
                found.update([rest.split(".")[0]] if rest else [a.name for a in node.names])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("brass.server."):
                    found.add(alias.name.split(".")[2])
    modules = {p.stem for p in SERVER.glob("*.py")}
    return {m for m in found if m in modules and m != "__init__"}


def cycle(modules: dict[str, set[str]]) -> list[str] | None:
    """An import cycle among `modules` (each with the modules it imports), or None."""
    try:
        graphlib.TopologicalSorter(modules).prepare()
    except graphlib.CycleError as exc:
        found: list[str] = exc.args[1]
        return found
    return None


def test_no_import_cycle_inside_the_server() -> None:
    modules = {p.stem: {m for m in imports(p) if (p.stem, m) not in WAIVED}
               for p in SERVER.glob("*.py") if p.stem != "__init__"}
    found = cycle(modules)
    assert found is None, "an import cycle (TYPE_CHECKING included): " + " -> ".join(found)


def test_the_cycle_finder_sees_an_import_made_only_for_type_checking(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                      "    from .core import GameCore\n")
    assert imports(module) == {"core"}
    assert cycle({"core": {"steward"}, "steward": {"core"}, "play": {"core"}}) is not None
    assert cycle({"core": set(), "steward": {"core"}, "play": {"core"}}) is None


def test_no_server_module_is_too_long_to_read() -> None:
    long = {p.name: n for p in SERVER.glob("*.py") if p.name not in DECLARATIVE
            and (n := len(p.read_text().splitlines())) > MOST_LINES}
    assert not long, f"modules over {MOST_LINES} lines: {long}"


def test_no_server_function_is_too_tangled_to_change() -> None:
    tangled = {f"{p.name}:{b.lineno} {b.fullname}": b.complexity
               for p in sorted(SERVER.glob("*.py")) for b in cc_visit(p.read_text())
               if cc_rank(b.complexity) > MOST_COMPLEX}
    assert not tangled, f"functions ranked above {MOST_COMPLEX} by radon: {tangled}"
