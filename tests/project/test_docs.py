"""The README and docs: the local-table walk-through works verbatim, and no link leaves the
repository (a clone has nothing beside it)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.local_driver import run_lines

ROOT = Path(__file__).resolve().parents[2]
MARKER = "<!-- local-table-walkthrough -->"
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)[^)]*\)")


def walkthrough() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert MARKER in text, "README.md lost its walk-through marker"
    block = re.search(r"```text\n(.*?)```", text[text.index(MARKER):], re.DOTALL)
    assert block is not None
    return [line for line in block.group(1).splitlines() if line.strip()]


async def test_the_readme_walkthrough_runs_without_an_error(tmp_path: Path) -> None:
    lines = walkthrough()
    assert len(lines) >= 8 and lines[0].startswith("alice /game new")
    for attempt in range(2):  # each game gets a fresh random seed
        replies = await run_lines(tmp_path / str(attempt), lines)
        errors = [str(r["text"]) for r in replies if "⚠️" in str(r["text"])]
        assert not errors, errors
        assert any(r["to"] == "channel" and "travels" in str(r["text"]) for r in replies)
        assert str(replies[-1]["text"]).startswith("📜")  # the log, last line


def test_docs_link_only_inside_the_repository() -> None:
    problems = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        rel = doc.relative_to(ROOT)
        for needle in ("../shared", "shared/seeds", "shared/rules", "shared/DESIGN"):
            if needle in text:
                problems.append(f"{rel}: mentions {needle}")
        for target in LINK.findall(text):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue  # a web address or an anchor on the same page
            path = (doc.parent / target.split("#")[0]).resolve()
            if not path.is_relative_to(ROOT):
                problems.append(f"{rel}: {target} points outside the repository")
            elif not path.exists():
                problems.append(f"{rel}: {target} does not exist")
    assert not problems, "\n".join(problems)


def test_the_license_matches_pyproject() -> None:
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert 'license = "MIT"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
