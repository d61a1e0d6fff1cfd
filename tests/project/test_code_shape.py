"""A function over 60 lines says why in a `# long: <reason>` comment next to its `def`.
(How modules are split is checked where it matters: the layers and features in test_layers.)"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FUNCTION_LIMIT = 60


def sources() -> list[Path]:
    return sorted(p for package in ("engine", "render", "bot") for p in (ROOT / package).rglob("*.py"))


def test_long_functions_say_why() -> None:
    unexplained = []
    for path in sources():
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if node.end_lineno is None or node.end_lineno - node.lineno + 1 <= FUNCTION_LIMIT:
                continue
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            near = lines[max(0, start - 3):node.body[0].lineno + 2]
            if not any("# long:" in line for line in near):
                unexplained.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}")
    assert not unexplained, unexplained
