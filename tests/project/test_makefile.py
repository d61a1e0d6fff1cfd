"""`make run`/`make test` set up `.venv` themselves, and build it again when the one there
cannot be used (a first try with Python 3.10 left it behind, or its interpreter is gone)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def planned(tmp_path: Path, venv_python: str | None) -> str:
    """What `make -n run` would do in a copy of the project whose `.venv/bin/python` is
    `venv_python` (a shell script body), or with no `.venv` at all."""
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(ROOT / name, tmp_path / name)
    if venv_python is not None:
        bin_dir = tmp_path / ".venv" / "bin"
        bin_dir.mkdir(parents=True)
        python = bin_dir / "python"
        python.write_text("#!/bin/sh\n" + venv_python + "\n")
        python.chmod(0o755)
        (tmp_path / ".venv" / ".installed").touch()
        os.utime(tmp_path / "pyproject.toml", (1, 1))  # older than the stamp: nothing changed
    result = subprocess.run(["make", "-n", "run", f"PYTHON={sys.executable}"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60)
    return result.stdout + result.stderr


def test_a_usable_venv_is_kept(tmp_path: Path) -> None:
    plan = planned(tmp_path, f'exec "{sys.executable}" "$@"')
    assert "-m venv" not in plan and ".venv/bin/python -m bot" in plan


def test_a_venv_left_by_an_old_python_is_built_again(tmp_path: Path) -> None:
    plan = planned(tmp_path, "exit 1")  # what `python3.10 -c 'sys.version_info < (3, 11)'` answers
    assert "-m venv .venv" in plan and "pip install" in plan


def test_a_venv_whose_python_is_gone_is_built_again(tmp_path: Path) -> None:
    plan = planned(tmp_path, "exec /nonexistent/python3 \"$@\"")
    assert "-m venv .venv" in plan


def test_no_venv_is_built_from_scratch(tmp_path: Path) -> None:
    assert "-m venv .venv" in planned(tmp_path, None)
