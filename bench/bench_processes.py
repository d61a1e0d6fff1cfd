"""The burst of bench_burst.py through 1, 2 and 3 bot processes sharing one database.

    .venv/bin/python bench/bench_processes.py [--url sqlite:///file | postgresql://...] [--channels 200]
                                              [--game rails-and-sails] [--processes 1,2,3] [--rounds 1]

Each process is `tests/multiproc_driver.py` (the table service as the Discord adapter drives
it, renders in threads, no network), started as shard k of N; a channel's commands go to
process `channel % N`, as a guild's go to its shard. `--channels` games of two humans are set
up and a few untimed bursts play past the set-up's secret choices, without drawing images but
for the last one (which fills each process's caches). Then every channel's player to act
presses the move the AI would choose, all at once (the burst of bench_burst.py). A press is
timed from sending it until its answer (acknowledgement and turn message with the board) is back.
Prints turns/s over the burst and the median / p95 / max latency for each number of processes.
Default URL: a fresh temporary SQLite file (WAL) per run; with `--url` every run uses its own
channel numbers, so one database serves them all.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.multiproc_driver import Process  # noqa: E402

HOST, GUEST = 1, 2


async def press_all(procs: list[Process], channels: list[int], *, first_only: bool) -> list[float]:
    """Every channel's player(s) to act press their move at once; seconds until each answer."""
    turns = await asyncio.gather(*(procs[c % len(procs)].call(op="turn", channel=c) for c in channels))

    async def press(channel: int, user: int, custom_id: str) -> float:
        start = time.perf_counter()
        answer = await procs[channel % len(procs)].call(op="press", channel=channel, user=user, custom_id=custom_id)
        assert answer["ok"], answer
        return time.perf_counter() - start

    moves = [(c, m) for c, t in zip(channels, turns, strict=True) for m in t["to_act"][: 1 if first_only else None]]
    return list(await asyncio.gather(*(press(c, m["user"], m["press"]) for c, m in moves)))


async def run(url: str, n: int, channels: list[int], args: argparse.Namespace) -> None:
    procs = [Process(url, shard, n, render=False, timeout=600) for shard in range(n)]  # set up without images
    await procs[0].start()  # the first one creates the schema
    await asyncio.gather(*(p.start() for p in procs[1:]))
    try:
        async def open_table(i: int, channel: int) -> None:
            proc = procs[channel % n]
            await proc.call(op="new", channel=channel, user=HOST, game=args.game, seed=i + 1)
            await proc.call(op="join", channel=channel, user=GUEST)
            assert (await proc.call(op="start", channel=channel, user=HOST))["ok"]

        began = time.perf_counter()
        await asyncio.gather(*(open_table(i, c) for i, c in enumerate(channels)))
        for warm in range(args.warmup):
            if warm == args.warmup - 1:  # the last one draws: each process's first boards fill its caches
                await asyncio.gather(*(p.call(op="drawing", on=True) for p in procs))
            await press_all(procs, channels, first_only=False)
        print(f"{n} process{'es' if n > 1 else ''}: set up in {time.perf_counter() - began:.1f} s", flush=True)
        for round_no in range(args.rounds):
            start = time.perf_counter()
            latencies = await press_all(procs, channels, first_only=True)
            wall = time.perf_counter() - start
            ordered = sorted(latencies)
            p95 = ordered[max(0, int(len(ordered) * 0.95) - 1)]
            print(f"{n} process{'es' if n > 1 else '  '}: {args.game}, {len(channels)} channels, round {round_no + 1}:"
                  f" {len(latencies) / wall:6.1f} turns/s; press -> answer median {statistics.median(latencies):.2f} s,"
                  f" p95 {p95:.2f} s, max {ordered[-1]:.2f} s", flush=True)
    finally:
        await asyncio.gather(*(p.stop() for p in procs))


async def main(args: argparse.Namespace) -> None:
    counts = [int(x) for x in args.processes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        for run_no, n in enumerate(counts):
            url = args.url or f"sqlite:///{Path(tmp) / f'processes-{n}.sqlite3'}"
            base = 1_000_000 * (run_no + 1) + int(time.time()) % 1000 * 1000 if args.url else 1000
            await run(url, n, [base + i for i in range(args.channels)], args)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="database URL shared by the processes (default: a temp SQLite file per run)")
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--game", default="rails-and-sails")
    parser.add_argument("--processes", default="1,2,3", help="comma-separated process counts to run")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--warmup", type=int, default=4, help="untimed bursts first (rails: the set-up choices)")
    asyncio.run(main(parser.parse_args()))
