"""Shared by the table benchmarks: which code they measure, and A/B runs against a revision.

`code_root()` puts the code to measure first on `sys.path`: this checkout, or the folder named
by `PASSEPARTOUT_CODE` (an exported revision, see `compare`). `compare` exports `--rev REV`
with `git archive` into a temporary folder (no worktree, nothing in `.git` changes) and runs
the same benchmark script as a subprocess alternately on this checkout and on REV (A/B/A/B),
so noise from a shared machine hits both alike; each run prints one JSON line of figures,
and the median of each figure per side is printed side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
MARK = "BENCH-JSON "


def code_root() -> Path:
    """The code under measurement, first on `sys.path`. For another revision the editable
    install's finder is dropped too: it would serve modules that revision does not have."""
    root = Path(os.environ.get("PASSEPARTOUT_CODE") or HERE).resolve()
    sys.path.insert(0, str(root))
    if root != HERE:
        sys.meta_path[:] = [f for f in sys.meta_path if "__editable__" not in getattr(f, "__module__", "")]
    return root


def cores() -> int:
    """CPU cores this process may run on (what `RENDER_PROCESSES` defaults to)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def warm_like_a_worker() -> bool:
    """Warm this process as the bot warms a render worker before it takes turns (static layers,
    palettes, sprites, every game and language: `bot.render_pool._warm` and the steps it leaves
    for idle time); False for a revision without a render pool (its boards come as they are)."""
    try:
        try:  # bot/images since the table became parts; bot/render_pool in revisions before (--rev)
            from bot.images.pool import _warm
        except ImportError:
            from bot.render_pool import _warm  # type: ignore[no-redef]
    except ImportError:
        return False
    for _ in _warm() or ():  # a revision whose warm-up had no steps returns None
        pass
    return True


def emit(figures: dict[str, Any]) -> None:
    """The figures of one run, for `compare` to read."""
    print(MARK + json.dumps(figures), flush=True)


def pct(values: Sequence[float], q: float) -> float:
    """The `q` quantile (0..1) by the nearest-rank rule."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(q * len(ordered) + 0.5) - 1))]


def export(rev: str, into: Path) -> None:
    """The files of `rev` in `into` (git archive: the repository is not touched)."""
    archive = subprocess.run(["git", "-C", str(HERE), "archive", "--format=tar", rev], check=True,
                             capture_output=True).stdout
    tar_path = into / "rev.tar"
    tar_path.write_bytes(archive)
    with tarfile.open(tar_path) as tar:
        tar.extractall(into / "code", filter="data")


def compare(script: Path, argv: list[str], rev: str, rounds: int) -> None:
    """Run `script argv --json` `rounds` times on this checkout and on `rev`, interleaved."""
    figures: dict[str, list[dict[str, Any]]] = {"this": [], rev: []}
    with tempfile.TemporaryDirectory() as tmp:
        export(rev, Path(tmp))
        roots = {"this": HERE, rev: Path(tmp) / "code"}
        for i in range(rounds):
            for label in (("this", rev) if i % 2 == 0 else (rev, "this")):
                env = {**os.environ, "PASSEPARTOUT_CODE": str(roots[label])}
                run = subprocess.run([sys.executable, str(script), *argv, "--json"], env=env, capture_output=True,
                                     text=True, cwd=roots[label], timeout=3600)
                lines = [line for line in run.stdout.splitlines() if line.startswith(MARK)]
                if run.returncode != 0 or not lines:
                    raise SystemExit(f"{script.name} on {label} failed:\n{run.stdout}\n{run.stderr}")
                figures[label].append(json.loads(lines[-1][len(MARK):]))
                print(f"  run {i + 1}/{rounds} {label}: done", file=sys.stderr)
    print(f"{script.name} {' '.join(argv)}: medians of {rounds} interleaved runs")
    keys = [k for k, v in figures["this"][0].items() if isinstance(v, int | float)]
    print(f"  {'figure':<28} {'this':>12} {rev[:12]:>12}")
    for key in keys:
        this = statistics.median(run[key] for run in figures["this"])
        other = statistics.median(run[key] for run in figures[rev] if key in run) if all(
            key in run for run in figures[rev]) else float("nan")
        print(f"  {key:<28} {this:12.2f} {other:12.2f}")


def add_ab_arguments(parser: argparse.ArgumentParser) -> None:
    """`--rev`, `--ab-rounds` and the hidden `--json` that every A/B-able benchmark takes."""
    parser.add_argument("--rev", help="also run on this git revision, interleaved, and compare")
    parser.add_argument("--ab-rounds", type=int, default=4, help="runs per side with --rev")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)


def measure_or_compare(script: str, args: argparse.Namespace,
                       measure: Callable[[], dict[str, Any]]) -> dict[str, Any] | None:
    """With `--rev`: the interleaved A/B comparison (None). Otherwise this checkout's figures,
    also printed as the JSON line `compare` reads when `--json` is given."""
    if args.rev:
        compare(Path(script).resolve(), strip_rev(sys.argv[1:]), args.rev, args.ab_rounds)
        return None
    figures = measure()
    if args.json:
        emit(figures)
    return figures


def strip_rev(argv: list[str]) -> list[str]:
    """The command line without `--rev X`, `--ab-rounds N` (what each A/B run gets)."""
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg in ("--rev", "--ab-rounds"):
            skip = True
            continue
        if arg.startswith(("--rev=", "--ab-rounds=")):
            continue
        out.append(arg)
    return out
