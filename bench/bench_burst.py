"""Burst: many channels press a move at the same moment. How fast does the table keep up?

    .venv/bin/python bench/bench_burst.py [--channels 200] [--game rails-and-sails] [--rounds 2]
        [--warmup 4] [--drawn 2] [--processes N] [--rev REV [--ab-rounds 4]] [--profile FILE]

Through the table service as the Discord adapter drives it (SQLite in a temp dir, images from
the render pool as the bot makes it: `--processes` workers, default one per core, 0 = threads
in the bot's process; workers are warm before the clock starts). `--channels` games of two
humans are set up (other people in every channel: `players_of`), then every channel's player
to act presses a move (the AI's choice for that seat, sent as the public quick-button press
would be) at once; each press is timed from the call until its replies (ack and turn message
with the board image) are ready. The timed bursts are of tables in progress: `--drawn` untimed
bursts with boards come first (a busy server's games have had boards drawn before; `--drawn 0`
times each table's first boards instead, as right after a restart). Prints
turns/s over the burst, the median / p95 / max latency of a press, and the CPU time per turn
of the bot's process and of the render processes (robust on a busy machine), with the rate two
idle cores could sustain from those. Targets (issue "Fast
under load"): >= 100 turns/s, p95 <= 1.5 s with 200 channels.

`--rev REV` runs this benchmark alternately on this checkout and on REV (exported with `git
archive`; a revision without the render pool renders in threads) and prints both medians.
`--profile FILE` writes a cProfile of the bot's process over the timed bursts.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from abrev import add_ab_arguments, code_root, cores, measure_or_compare, pct

code_root()

from bot.replies import User, Where  # noqa: E402
from bot.service import TableService  # noqa: E402
from bot.store import SQLiteStore  # noqa: E402

FIRST_NAMES = ("Ann", "Ben", "Chloé", "Dmitri", "Eun-ji", "Farid", "Greta", "Hugo")


def players_of(channel: int) -> list[User]:
    """The two players of a channel: people of their own in every channel, as on a real
    server (the same two names everywhere let tables share the header's pictures)."""
    names = [f"{FIRST_NAMES[(channel + k) % len(FIRST_NAMES)]} {channel}" for k in (0, 3)]
    return [User(2 * channel + 1 + k, name, "en") for k, name in enumerate(names)]
TICK = os.sysconf("SC_CLK_TCK")


def cpu_of(pids: list[int]) -> float:
    """CPU seconds (user + system) the processes `pids` have used so far (Linux /proc)."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / TICK
    return total


def make_pool(processes: int) -> Any:
    """The render pool the bot would make (None: threads, or a revision without a pool)."""
    try:
        try:  # bot/images since the table became parts; bot/render_pool in revisions before (--rev)
            from bot.images.pool import RenderPool
        except ImportError:
            from bot.render_pool import RenderPool  # type: ignore[no-redef]
    except ImportError:
        return None
    return RenderPool(processes) if processes > 0 else None


def make_service(store: SQLiteStore, pool: Any) -> TableService:
    if pool is None:
        return TableService(store, render_in_thread=True)
    return TableService(store, render_in_thread=True, render_pool=pool)  # type: ignore[call-arg]


async def choose(service: TableService, store: SQLiteStore, where: Where) -> tuple[int, User, str, dict[str, Any]]:
    """The move the AI would make for the channel's player to act (chosen before the burst, so
    the burst times the table's work only): game id, user, seat, action."""
    record = await store.active_game(where.channel_id)
    assert record is not None
    loaded = service.load(record)
    seat = loaded.rules.to_act(loaded.state)[0]
    user = next(p for p in players_of(where.channel_id) if (s := record.seat_of_user(p.id)) is not None
                and s.seat == seat)
    action = loaded.spec.ai(loaded.rules.view(loaded.state, seat), seat, loaded.rules.legal_actions(loaded.state, seat))
    return record.id, user, seat, action


async def press(service: TableService, store: SQLiteStore, where: Where,
                move: tuple[int, User, str, dict[str, Any]]) -> float:
    """One player's move in one channel, as a command would send it; seconds until answered
    (negative: the answer carried no image, e.g. a rails draw that leaves the board alone)."""
    game_pk, user, seat, action = move
    start = time.perf_counter()
    if hasattr(service, "parts"):  # the service as composed parts
        lock, act, load = service.parts.tables.lock, service.parts.turns.act, service.load
    else:  # a revision before it (--rev)
        lock, act, load = service._lock, service._act, service._load  # type: ignore[attr-defined]
    async with lock(where.channel_id):
        fresh = load(await store.get_game(game_pk))  # type: ignore[arg-type]
        replies = await act(fresh, user, seat, action)
    assert replies and replies[0].text.startswith("✅"), replies[0].text
    took = time.perf_counter() - start
    return took if any(r.files for r in replies) else -took


async def burst(service: TableService, store: SQLiteStore, places: list[Where]) -> list[float]:
    moves = [await choose(service, store, w) for w in places]
    return await asyncio.gather(*(press(service, store, w, m) for w, m in zip(places, moves, strict=True)))


async def run(args: argparse.Namespace) -> dict[str, Any]:
    pool = make_pool(args.processes)
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteStore(Path(tmp) / "burst.sqlite3")
        await store.open()
        try:
            return await bursts(args, store, make_service(store, pool), pool)
        finally:
            if pool is not None:
                await pool.close()
            await store.close()


async def bursts(args: argparse.Namespace, store: SQLiteStore, service: TableService, pool: Any) -> dict[str, Any]:
    """Set the channels up, warm up, then time `args.rounds` bursts."""
    if pool is not None:
        await pool.start()
    places = [Where(channel_id=1000 + i, guild_id=1, guild_locale="en") for i in range(args.channels)]
    for i, where in enumerate(places):
        first, second = players_of(where.channel_id)
        await service.new_game(first, where, args.game, seed=i + 1)
        await service.join(second, where)
        await service.start(first, where)
    for _ in range(args.warmup):  # past the set-up's secret choices, which post no board
        await burst(service, store, places)
    if pool is not None:
        await pool.ready()
    for _ in range(args.drawn):  # tables in progress: the workers have drawn their boards before
        await burst(service, store, places)
    mode = f"{pool.processes} render processes" if pool is not None else "renders in threads"
    rates: list[float] = []
    latencies: list[float] = []
    # CPU time of the event loop's thread (wall time on a shared machine is mostly waiting)
    profile = cProfile.Profile(time.thread_time) if args.profile else None
    pids = pool.pids() if pool is not None else []
    main_cpu = loop_cpu = render_cpu = 0.0
    images = 0
    for round_no in range(args.rounds):
        moves = [await choose(service, store, w) for w in places]
        if profile:
            profile.enable()
        start, cpu_start, workers_start = time.perf_counter(), time.process_time(), cpu_of(pids)
        loop_start = time.thread_time()
        signed = await asyncio.gather(*(press(service, store, w, m) for w, m in zip(places, moves, strict=True)))
        wall = time.perf_counter() - start
        took = [abs(t) for t in signed]
        images += sum(t > 0 for t in signed)
        main_cpu += time.process_time() - cpu_start
        loop_cpu += time.thread_time() - loop_start  # the event loop's thread; the rest: the store's
        render_cpu += cpu_of(pids) - workers_start
        if profile:
            profile.disable()
        rates.append(len(places) / wall)
        latencies += took
        if not args.json:
            print(f"{args.game}, {args.channels} channels, {mode}, round {round_no + 1}:"
                  f" {rates[-1]:6.1f} turns/s; press -> replies median {statistics.median(took):.2f} s,"
                  f" p95 {pct(took, 0.95):.2f} s, max {max(took):.2f} s")
    if profile:
        profile.dump_stats(args.profile)
    turns = len(places) * args.rounds
    main_ms, render_ms = main_cpu * 1000 / turns, render_cpu * 1000 / turns
    # what two idle cores could do: the bot's process is one core at most, all of it shares two
    capacity = 1000 / max(main_ms, (main_ms + render_ms) / 2) if pool is not None else 1000 / main_ms
    return {"turns_per_s": statistics.median(rates), "p50_s": statistics.median(latencies),
            "p95_s": pct(latencies, 0.95), "max_s": max(latencies), "main_cpu_ms_per_turn": main_ms,
            "loop_cpu_ms_per_turn": loop_cpu * 1000 / turns,
            "render_cpu_ms_per_turn": render_ms, "idle_2core_turns_per_s": capacity,
            "turns_with_image_pct": 100 * images / turns}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--game", default="rails-and-sails")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--warmup", type=int, default=4, help="untimed bursts first (rails: the set-up choices)")
    parser.add_argument("--drawn", type=int, default=2,
                        help="untimed bursts with boards before the timed ones (0: time each table's first boards)")
    parser.add_argument("--processes", type=int, default=cores(),
                        help="render processes (default: one per core; 0: threads)")
    parser.add_argument("--profile", help="write a cProfile of the timed bursts to this file")
    add_ab_arguments(parser)
    args = parser.parse_args()
    figures = measure_or_compare(__file__, args, lambda: asyncio.run(run(args)))
    if figures is not None and not args.json:
        print(f"  all rounds: {figures['turns_per_s']:.1f} turns/s (median round), press -> replies"
              f" p50 {figures['p50_s']:.2f} s, p95 {figures['p95_s']:.2f} s, max {figures['max_s']:.2f} s")
        print(f"  {figures['turns_with_image_pct']:.0f} % of the turns carried a board image")
        print(f"  CPU per turn: bot process {figures['main_cpu_ms_per_turn']:.1f} ms (event loop thread"
              f" {figures['loop_cpu_ms_per_turn']:.1f} ms, other threads: the store), render processes"
              f" {figures['render_cpu_ms_per_turn']:.1f} ms -> on two idle cores at most"
              f" {figures['idle_2core_turns_per_s']:.0f} turns/s")


if __name__ == "__main__":
    main()
