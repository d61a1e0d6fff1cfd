"""Store benchmark: commit_action latency and throughput on a SQLite file in a temp dir.

    .venv/bin/python bench/bench_store.py [--commits 1000] [--state-kb 12] [--parallel 16] [--check]
        [--rev REV [--ab-rounds 4]]

For synchronous=NORMAL (the default) and durable=True (FULL): one game takes `--commits`
sequential commits, each writing a game-like state of about `--state-kb` KB of JSON and
appending one log row; prints median/p95/p99/max latency (ms) and commits per second.
Then `--parallel` games on one store commit concurrently (the bot's many channels) for
the aggregate rate. Target: sequential commit p99 <= 5 ms in the default mode; with
`--check` the script exits 1 when that is missed. `--rev REV` runs the same on another
revision too, interleaved run by run (A/B/A/B), and prints the medians of both side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from abrev import add_ab_arguments, code_root, measure_or_compare

code_root()

from bot.store import GameRecord, SeatRecord, SQLiteStore  # noqa: E402

TARGET_P99_MS = 5.0
SEATS = ("p1", "p2", "p3", "p4", "p5")
CITIES = [f"City {i:02d}" for i in range(48)]


def make_state(turn: int, kb: int) -> dict[str, Any]:
    """A game-like state: board, hands, decks, a rolling log; a few fields change per turn."""
    board = [{"city": c, "owner": SEATS[(i * 7 + turn // 5) % 5] if (i + turn) % 3 else None,
              "cubes": [(i + k + turn // 3) % 4 for k in range(4)],
              "links": [CITIES[(i + d) % len(CITIES)] for d in (1, 5, 11)]}
             for i, c in enumerate(CITIES)]
    state: dict[str, Any] = {
        "turn": turn, "to_act": SEATS[turn % 5], "phase": ("draw", "build", "move")[turn % 3],
        "board": board,
        "players": {s: {"money": 50 + (turn * (j + 1)) % 37, "score": turn // 5 + j,
                        "hand": [f"ticket-{(turn + j * 17 + k) % 120}" for k in range(8)],
                        "routes": [CITIES[(j + k * 3) % 48] for k in range(turn % 12)]}
                    for j, s in enumerate(SEATS)},
        "deck": [f"ticket-{(k * 37 + turn) % 120}" for k in range(80)],
        "log": [{"seat": SEATS[k % 5], "action": "build", "from": CITIES[k % 48], "to": CITIES[(k + 3) % 48]}
                for k in range(max(0, turn - 20), turn)],
    }
    # pad to the requested size with a discard pile (what a long game accumulates)
    size = len(json.dumps(state, separators=(",", ":")))
    pile: list[str] = []
    while size < kb * 1024:
        card = f"ticket-{(len(pile) * 13 + turn) % 120}"
        pile.append(card)
        size += len(card) + 3
    state["discard"] = pile
    return state


def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


async def new_game(store: SQLiteStore, channel: int, kb: int) -> GameRecord:
    game = await store.create_game(channel_id=channel, guild_id=1, game_id="bench",
                                   host=SeatRecord(0, 1, "Host"), options={}, settings={}, seed=channel)
    game.seats = [SeatRecord(i, i + 1, f"Player {i + 1}", seat=s) for i, s in enumerate(SEATS)]
    game.status = "running"
    game.state = make_state(0, kb)
    await store.save_lobby(game, expected_version=0)
    return game


async def commit(store: SQLiteStore, game: GameRecord, state: dict[str, Any], turn: int) -> None:
    await store.commit_action(game, expected_version=game.version, seat=SEATS[turn % 5],
                              action={"type": "build", "from": CITIES[turn % 48], "to": CITIES[(turn + 3) % 48]},
                              events=[{"type": "built", "seat": SEATS[turn % 5], "cost": turn % 7}], state=state,
                              status="running", actor="human", remind_at=1e9 + turn, timeout_at=2e9 + turn)


async def sequential(durable: bool, commits: int, warmup: int, kb: int) -> dict[str, float]:
    states = [make_state(t, kb) for t in range(1, commits + warmup + 1)]  # built before timing
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteStore(Path(tmp) / "bench.sqlite3", durable=durable)
        await store.open()
        try:
            game = await new_game(store, 1, kb)
            for t in range(warmup):
                await commit(store, game, states[t], t + 1)
            lat: list[float] = []
            start = time.perf_counter()
            for t in range(warmup, warmup + commits):
                t0 = time.perf_counter()
                await commit(store, game, states[t], t + 1)
                lat.append((time.perf_counter() - t0) * 1000)
            elapsed = time.perf_counter() - start
            assert len(await store.actions(game.id)) == commits + warmup
        finally:
            await store.close()
    return {"median": statistics.median(lat), "p95": pct(lat, 0.95), "p99": pct(lat, 0.99), "max": max(lat),
            "rate": commits / elapsed}


async def parallel(durable: bool, games: int, per_game: int, kb: int) -> dict[str, float]:
    states = [make_state(t, kb) for t in range(1, per_game + 1)]
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteStore(Path(tmp) / "bench.sqlite3", durable=durable)
        await store.open()
        try:
            records = [await new_game(store, g + 1, kb) for g in range(games)]
            lat: list[float] = []

            async def play(game: GameRecord) -> None:
                for t in range(per_game):
                    t0 = time.perf_counter()
                    await commit(store, game, states[t], t + 1)
                    lat.append((time.perf_counter() - t0) * 1000)

            start = time.perf_counter()
            await asyncio.gather(*(play(g) for g in records))
            elapsed = time.perf_counter() - start
        finally:
            await store.close()
    return {"median": statistics.median(lat), "p95": pct(lat, 0.95), "p99": pct(lat, 0.99), "max": max(lat),
            "rate": games * per_game / elapsed}


def line(label: str, r: dict[str, float]) -> str:
    return (f"  {label:<34} median {r['median']:6.2f} ms   p95 {r['p95']:6.2f} ms   p99 {r['p99']:6.2f} ms"
            f"   max {r['max']:7.2f} ms   {r['rate']:8.0f} commits/s")


async def run(args: argparse.Namespace) -> dict[str, float]:
    """Prints the figures as it goes; returns them by name (`--json`, `--rev`)."""
    size = len(json.dumps(make_state(args.commits, args.state_kb), separators=(",", ":")).encode())
    par = f"; {args.parallel} games x {args.per_game} commits in parallel" if args.parallel else ""
    print(f"commit_action on a SQLite file (WAL), state JSON {size / 1024:.1f} KB, {args.commits} sequential commits"
          f" after {args.warmup} warm-up{par}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"machine: {os.cpu_count()} CPUs, load average {load:.2f} (latency tails grow with CPU contention)")
    figures: dict[str, float] = {}
    for durable in (False, True):
        mode = "durable=True (synchronous=FULL)" if durable else "default (synchronous=NORMAL)"
        name = "full" if durable else "normal"
        seq = await sequential(durable, args.commits, args.warmup, args.state_kb)
        print(line(f"{mode}, sequential", seq))
        figures.update({f"{name} seq {key}": value for key, value in seq.items()})
        if args.parallel:
            together = await parallel(durable, args.parallel, args.per_game, args.state_kb)
            print(line(f"{mode}, {args.parallel} games at once", together))
            figures.update({f"{name} par {key}": value for key, value in together.items()})
        if not durable:
            ok = seq["p99"] <= TARGET_P99_MS
            print(f"  target: sequential p99 <= {TARGET_P99_MS:.0f} ms ... {'met' if ok else 'MISSED'}")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commits", type=int, default=1000)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--state-kb", type=int, default=12)
    parser.add_argument("--parallel", type=int, default=16, help="games committing at once (0: skip)")
    parser.add_argument("--per-game", type=int, default=100)
    parser.add_argument("--check", action="store_true", help="exit 1 when the p99 target is missed")
    add_ab_arguments(parser)
    args = parser.parse_args()
    figures = measure_or_compare(__file__, args, lambda: asyncio.run(run(args)))
    if args.check and figures is not None and figures["normal seq p99"] > TARGET_P99_MS:
        sys.exit(1)


if __name__ == "__main__":
    main()
