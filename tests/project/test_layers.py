"""The layers' import rules, checked on the source: engine imports nothing from render or
bot (nor discord, PIL or the database drivers); render nothing from bot (nor discord or the
database); and no module imports itself back through others, at any depth, including imports
hidden inside functions or made through `importlib.import_module("…")`. Inside the bot:
the store knows nothing of the table, the features or the adapters; the table's parts know
no feature and no adapter; a feature knows no other feature and no adapter; only the wiring
(and the facade over it) names them all, and neither knows the adapters above them."""

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
        elif isinstance(node, ast.Call) and ast.unparse(node.func) in ("importlib.import_module", "import_module") \
                and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            found.add(node.args[0].value)  # an import by name is an import too
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


#: inside the bot: (modules under this prefix, prefixes they must not import)
BOT_RULES = [
    ("bot.store", ("bot.table", "bot.features", "bot.adapters", "bot.service", "bot.wiring")),
    ("bot.table", ("bot.features", "bot.adapters", "bot.service", "bot.wiring")),
    ("bot.features", ("bot.adapters", "bot.service", "bot.wiring")),
    ("bot.wiring", ("bot.adapters", "bot.service")),
    ("bot.service", ("bot.adapters",)),
    ("bot.commands", ("bot.adapters",)),
]


@pytest.mark.parametrize(("inside", "forbidden"), BOT_RULES)
def test_the_bot_parts_import_only_downwards(inside: str, forbidden: tuple[str, ...]) -> None:
    bad = [f"{name} imports {target}" for name, path in modules().items()
           if name == inside or name.startswith(inside + ".")
           for target in imports(name, path) if any(target == f or target.startswith(f + ".") for f in forbidden)]
    assert not bad, bad


def test_no_feature_imports_another() -> None:
    """Features plug into the hooks; none builds on another."""
    known = modules()
    features = {n for n in known if n.startswith("bot.features.")}
    bad = [f"{name} imports {target}" for name in sorted(features) for target in imports(name, known[name])
           if (owner := resolve(target, known)) in features and owner != name]
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
