"""The memory of one render worker, warm and idle: what each render process of the bot costs
before any table, and once tables in some languages have asked it for boards.

    .venv/bin/python bench/bench_worker_memory.py                      # before any table
    .venv/bin/python bench/bench_worker_memory.py --langs en,de,fr     # after a board in each
    .venv/bin/python bench/bench_worker_memory.py --rev HEAD~3 --ab-rounds 4

A real `RenderPool` of one worker (the bot's own: forked from its warm template) is started; with `--langs`
it draws one board of every game in each language. Then the worker is left idle until its
warm-up steps are done (its CPU time stops growing), and its RSS, PSS and private memory are
read from /proc, and those of the template it was forked from (its parent, when that is not
this process), which holds the pages the workers share. `--rev` runs the same on REV and this
checkout, interleaved (bench/abrev.py).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from abrev import code_root, compare, emit  # noqa: E402

code_root()


def worker_memory(pid: int) -> dict[str, float]:
    """RSS, PSS and private (clean + dirty) memory of `pid` in MB, from smaps_rollup."""
    fields = {"Rss:": 0, "Pss:": 0, "Private_Clean:": 0, "Private_Dirty:": 0}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        key = line.split()[0]
        if key in fields:
            fields[key] += int(line.split()[1])
    return {"rss_mb": fields["Rss:"] / 1024, "pss_mb": fields["Pss:"] / 1024,
            "private_mb": (fields["Private_Clean:"] + fields["Private_Dirty:"]) / 1024}


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def cpu_seconds(pid: int) -> float:
    parts = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / 100  # utime + stime, in clock ticks of 1/100 s


async def measure(langs: list[str], settle: float) -> dict[str, Any]:
    from bot import games
    from bot.images.pool import RenderJob, RenderPool

    pool = RenderPool(1)
    started = time.perf_counter()
    await pool.ready()
    try:
        for lang in langs:
            for line in games.GAMES:
                spec = games.get(line.id)
                rules = spec.rules
                seats = [f"p{i + 1}" for i in range(rules.min_players)]
                state = rules.new_game(seats, 3, {})
                await pool.render(RenderJob(line.id, "board", rules.view(state, None), {s: s for s in seats}, lang))
        pid = pool.pids()[0]
        last, quiet = cpu_seconds(pid), 0.0
        while quiet < settle:  # idle: no more warm-up steps running
            await asyncio.sleep(0.5)
            now = cpu_seconds(pid)
            quiet = quiet + 0.5 if now - last < 0.02 else 0.0
            last = now
        parent = parent_of(pid)
        template = {f"template_{k}": v for k, v in worker_memory(parent).items()} if parent != os.getpid() else {}
        return {**worker_memory(pid), **template, "warm_cpu_s": cpu_seconds(pid),
                "ready_after_s": time.perf_counter() - started}
    finally:
        await pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--langs", default="", help="draw a board of every game in each of these first")
    parser.add_argument("--settle", type=float, default=3.0, help="seconds of worker idleness that end the wait")
    parser.add_argument("--rev", help="also measure this revision, interleaved (A/B)")
    parser.add_argument("--ab-rounds", type=int, default=4)
    parser.add_argument("--json", action="store_true", help="one line of figures (for --rev runs)")
    args = parser.parse_args()
    if args.rev:
        argv = [a for a in sys.argv[1:] if not a.startswith("--rev") and a != args.rev]
        argv = [a for i, a in enumerate(argv) if a != "--ab-rounds" and (i == 0 or argv[i - 1] != "--ab-rounds")]
        compare(Path(__file__), argv, args.rev, args.ab_rounds)
        return
    langs = [lang for lang in args.langs.split(",") if lang]
    figures = asyncio.run(measure(langs, args.settle))
    if args.json:
        emit(figures)
        return
    print(f"render worker, idle after warm-up{' and boards in ' + ','.join(langs) if langs else ''}:"
          f" RSS {figures['rss_mb']:.0f} MB, PSS {figures['pss_mb']:.0f} MB, private {figures['private_mb']:.0f} MB"
          f" (warm-up {figures['warm_cpu_s']:.1f} s CPU)")
    if "template_pss_mb" in figures:
        print(f"its template: RSS {figures['template_rss_mb']:.0f} MB, PSS {figures['template_pss_mb']:.0f} MB,"
              f" private {figures['template_private_mb']:.0f} MB")


if __name__ == "__main__":
    main()
