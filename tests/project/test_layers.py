"""The layers' import rules, checked on the source: engine imports nothing from render or
bot (nor discord, PIL or the database drivers); render nothing from bot (nor discord or the
database); and no module imports itself back through others, at any depth, including imports
hidden inside functions."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "render", "bot")
FORBIDDEN = {
    "engine": ("render", "bot", "discord", "PIL", "aiosqlite", "asyncpg", "asyncio", "sqlite3"),
    "render": ("bot", "discord", "aiosqlite", "asyncpg"),
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}


def imports(name: str, path: Path) -> set[str]:
    """Every module `name` imports anywhere in its source (absolute, relative resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base if is_package else base[:-1]
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def resolve(target: str, known: dict[str, Path]) -> str | None:
    """The project module an import names (a name imported from a package is the package)."""
    while target:
        if target in known:
            return target
        target = target.rpartition(".")[0]
    return None


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_lower_layers_import_nothing_from_higher_ones(layer: str) -> None:
    bad = []
    for name, path in modules().items():
        if name.split(".")[0] != layer:
            continue
        for target in imports(name, path):
            if target.split(".")[0] in FORBIDDEN[layer]:
                bad.append(f"{name} imports {target}")
    assert not bad, bad


def test_no_import_circles() -> None:
    known = modules()
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        edges = {resolve(t, known) for t in imports(name, path)}
        graph[name] = {e for e in edges if e and e != name and not name.startswith(e + ".")}
    # a package importing its own submodules (to re-export them) is not a circle
    cycles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt.startswith(node + "."):
                continue
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    assert not cycles, cycles
