"""The rooms of generator/ and rules/ and the one direction imports may flow between them.

Each room has a rank; a module may import from its own room or from a room of lower rank. A few
small helpers every stage uses (paths, atomic output, the process pool, a terminal's status line, problems, whole
numbers read from text) may be imported from anywhere. Every import counts, including those inside functions, and no two modules may import
each other, even through others.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

RANKS = {
    "generator.cli": 110,
    "generator.serve": 105,
    "generator.build": 100, "generator.new": 100, "generator.check": 100,
    "generator.outputs": 90, "generator.site": 90,
    "generator.book": 85,
    "generator.render": 80,
    "generator.layout": 70,
    "rules.sim": 65,
    "rules.ci": 60,
    "rules.load": 50,
    "rules.gamefolders": 45,
    "rules.book": 40,
    "rules.games": 35,
    "rules.data": 30,
    "rules.engine": 20,
}
HELPERS = {"generator", "generator.output", "generator.parallel", "generator.status", "rules", "rules.problems",
           "rules.numbers"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def room(module: str) -> str | None:
    best = None
    for name in RANKS:
        if (module == name or module.startswith(name + ".")) and (best is None or len(name) > len(best)):
            best = name
    return best


def imports_of(path: Path) -> set[str]:
    """Every deckwright module the file imports, as names without the ``deckwright.`` prefix."""
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.startswith("deckwright."):
                target = node.module.removeprefix("deckwright.")
            else:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.add(sub if _is_module(sub) else target)
        elif isinstance(node, ast.Import):
            found.update(a.name.removeprefix("deckwright.") for a in node.names if a.name.startswith("deckwright."))
    return found


def _is_module(name: str) -> bool:
    base = ROOT.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


SOURCES = sorted(p for top in ("generator", "rules") for p in (ROOT / top).rglob("*.py"))
GRAPH = {module_name(p): imports_of(p) for p in SOURCES}


def test_every_module_is_in_a_room_or_is_a_helper():
    homeless = [m for m in GRAPH if room(m) is None and m not in HELPERS]
    assert homeless == []


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_imports_flow_one_way(module):
    mine = room(module)
    wrong = []
    for target in sorted(GRAPH[module]):
        if target in HELPERS or room(target) is None:
            continue
        theirs = room(target)
        if mine is not None and theirs != mine and RANKS[theirs] >= RANKS[mine]:
            wrong.append(f"{module} ({mine}) imports {target} ({theirs})")
    assert wrong == []


def test_no_import_circles():
    circles = []
    for start in GRAPH:
        stack, seen = [(start, (start,))], set()
        while stack:
            node, trail = stack.pop()
            for nxt in GRAPH.get(node, ()):
                if nxt == start:
                    circles.append(" -> ".join(trail + (start,)))
                elif nxt not in seen and nxt in GRAPH:
                    seen.add(nxt)
                    stack.append((nxt, trail + (nxt,)))
    assert circles == []


def test_rooms_say_what_they_hold():
    for folder in [p.parent for p in SOURCES if p.name == "__init__.py"]:
        init = (folder / "__init__.py").read_text()
        assert ast.get_docstring(ast.parse(init)) or (folder / "README.md").is_file(), folder
