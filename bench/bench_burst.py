"""Burst: many channels press a move at the same moment. How fast does the table keep up?

    .venv/bin/python bench/bench_burst.py [--channels 200] [--game rails-and-sails|mix] [--rounds 2]
        [--warmup 4] [--drawn 2] [--processes N] [--cache-mb MB] [--ai-seats N [--ai-level hard]]
        [--rev REV [--ab-rounds 4]] [--profile FILE]

`--game mix` is a real server's mix: the four games in turn (detour, around-the-world,
rails-and-sails, eighty-days), 2-4 people per table with names of their own, each table 10-30
moves into its game before the clock starts (some tables further than others), and with
`--ai-seats N` N AI seats at every table, at `--ai-level` (the person's press then waits for
the AIs' replies, decided off the event loop). The memory of the whole bot — its process and every render and
AI worker — is sampled during the timed bursts: the peak of the summed RSS and PSS.

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
import contextlib
import cProfile
import ctypes
import gc
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from abrev import add_ab_arguments, code_root, cores, measure_or_compare, pct

code_root()

# The bot is imported where it is used, not here: an AI worker is spawned, and a spawned
# process imports the script it was started from, which the bot started as `python -m bot`
# does not (its `__main__` is skipped). A worker of this bench then holds what the bot's does.
if TYPE_CHECKING:
    from bot.replies import User, Where
    from bot.service import TableService
    from bot.store import SQLiteStore

FIRST_NAMES = ("Ann", "Ben", "Chloé", "Dmitri", "Eun-ji", "Farid", "Greta", "Hugo")
#: the real server's mix, in turn
MIX = ("detour", "around-the-world", "rails-and-sails", "eighty-days")
LANGS = ("en", "en", "de", "fr")


def players_of(channel: int, count: int = 2) -> list[User]:
    """The players of a channel: people of their own in every channel, as on a real server
    (the same names everywhere let tables share the header's pictures)."""
    from bot.replies import User

    names = [f"{FIRST_NAMES[(channel + 3 * k) % len(FIRST_NAMES)]} {channel}" for k in range(count)]
    # languages turn independently of the games (`MIX`): every game is played in every language
    first = channel // len(MIX) + channel
    return [User(8 * channel + 1 + k, name, LANGS[(first + k) % len(LANGS)]) for k, name in enumerate(names)]


def table_of(args: argparse.Namespace, index: int) -> tuple[str, int]:
    """The game and the number of people at the `index`-th channel's table."""
    if args.game != "mix":
        return args.game, 2
    game = MIX[index % len(MIX)]
    people = 2 + (index // len(MIX)) % 3  # 2, 3 or 4 people
    return game, min(people, 4 - args.ai_seats) if game == "detour" else people


def tree_memory(pids: list[int]) -> tuple[float, float]:
    """The summed RSS and PSS (MB) of `pids` (Linux /proc; PSS shares the pages processes
    share fairly between them)."""
    rss, pss, _first = tree_memory_of(pids)
    return rss, pss


def tree_memory_of(pids: list[int]) -> tuple[float, float, float]:
    """`tree_memory`, and the PSS (MB) of the first of `pids` alone."""
    rss = pss = first = 0
    for k, pid in enumerate(pids):
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Rss:"):
                    rss += int(line.split()[1])
                elif line.startswith("Pss:"):
                    pss += int(line.split()[1])
                    first += int(line.split()[1]) if k == 0 else 0
        except OSError:
            continue
    return rss / 1024, pss / 1024, first / 1024


PAGE_MB = os.sysconf("SC_PAGE_SIZE") / 2**20


def resident(pids: list[int]) -> float:
    """The summed RSS (MB) of `pids` from /proc/PID/statm: a few microseconds a process, where
    smaps_rollup walks every page table (`MemoryWatch`)."""
    total = 0
    for pid in pids:
        try:
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            continue
    return total * PAGE_MB


def trim() -> None:
    """glibc's `malloc_trim(0)` in this process (as `bot.memory.trim`, which an older revision
    measured with --rev may not have)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def children_of(pid: int) -> list[int]:
    """Every process below `pid` (render and AI workers, their template, and their helpers),
    whichever of its threads started them."""
    found: list[int] = []
    kids: list[str] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids += (task / "children").read_text().split()
        except OSError:
            continue
    for kid in map(int, kids):
        found += [kid, *children_of(kid)]
    return found


class MemoryWatch:
    """Samples the whole bot's memory while the bursts run: its RSS every `every` seconds
    (`resident`), its PSS whenever the RSS comes within `near` MB of its peak so far (at most
    every `pss_every` seconds) and at least every second. Reading the PSS of the bot's
    processes costs about 12 ms of CPU (the kernel walks their page tables): read every 50 ms,
    as this bench once did, it took 8 % of this 2-core machine from the bot it measured."""

    def __init__(self, every: float = 0.02, near: float = 8.0, pss_every: float = 0.25) -> None:
        self.every, self.near, self.pss_every = every, near, pss_every
        self.peak_rss = self.peak_pss = 0.0
        #: the peak PSS of the bot's own process, and of its workers together
        self.peak_main_pss = self.peak_workers_pss = 0.0
        self.pss_samples = 0
        self._task: asyncio.Task[None] | None = None

    async def _watch(self) -> None:
        last_pss = -1.0
        while True:
            pids = [os.getpid(), *children_of(os.getpid())]
            rss = resident(pids)
            now = time.monotonic()
            due = now - last_pss >= (self.pss_every if rss >= self.peak_rss - self.near else 1.0)
            self.peak_rss = max(self.peak_rss, rss)
            if due:
                last_pss = now
                _rss, pss, main_pss = await asyncio.to_thread(tree_memory_of, pids)
                self.pss_samples += 1
                self.peak_pss = max(self.peak_pss, pss)
                self.peak_main_pss = max(self.peak_main_pss, main_pss)
                self.peak_workers_pss = max(self.peak_workers_pss, pss - main_pss)
            await asyncio.sleep(self.every)

    def __enter__(self) -> MemoryWatch:
        self._task = asyncio.get_running_loop().create_task(self._watch())
        return self

    def __exit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()
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


def make_pool(processes: int, cache_mb: float | None = None) -> Any:
    """The render pool the bot would make (None: threads, or a revision without a pool), its
    picture caches bounded by `cache_mb` (`RENDER_CACHE_MB`; None: the revision's default)."""
    if cache_mb is not None:
        from bot.images.pool import pool_for

        return pool_for(processes, cache_mb)
    try:
        try:  # bot/images since the table became parts; bot/render_pool in revisions before (--rev)
            from bot.images.pool import RenderPool
        except ImportError:
            from bot.render_pool import RenderPool  # type: ignore[no-redef]
    except ImportError:
        return None
    return RenderPool(processes) if processes > 0 else None


def make_ai_pool(processes: int) -> Any:
    """Where AI seats decide, as the bot makes it (None: a revision that decides on the event loop)."""
    try:
        from bot.ai.pool import AIPool
    except ImportError:
        return None
    pool = AIPool(processes)
    pool.start()
    return pool


def make_service(store: SQLiteStore, pool: Any, ai_pool: Any = None) -> TableService:
    from bot.service import TableService

    kw: dict[str, Any] = {"render_pool": pool} if pool is not None else {}
    if ai_pool is not None:
        kw["ai_pool"] = ai_pool
    return TableService(store, render_in_thread=True, **kw)


def load_of(service: TableService) -> Any:
    """The service's game loader (`_load` in a revision before the table became parts: --rev)."""
    return getattr(service, "load", None) or service._load  # type: ignore[attr-defined]


async def choose(service: TableService, store: SQLiteStore,
                 where: Where) -> tuple[int, User, str, dict[str, Any]] | None:
    """The move the AI would make for the channel's person to act (chosen before the burst, so
    the burst times the table's work only): game id, user, seat, action; None: that game ended."""
    record = await store.active_game(where.channel_id)
    if record is None or record.state is None:
        return None
    loaded = load_of(service)(record)
    people = {s.seat: s for s in record.seats if not s.is_bot}
    seat = next(s for s in loaded.rules.to_act(loaded.state) if s in people)
    user = next(p for p in players_of(where.channel_id, 4) if p.id == people[seat].user_id)
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
    return await asyncio.gather(*(press(service, store, w, m) for w, m in zip(places, moves, strict=True)
                                  if m is not None))


async def run(args: argparse.Namespace) -> dict[str, Any]:
    pool = make_pool(args.processes, args.cache_mb)
    ai_pool = make_ai_pool(args.ai_processes) if args.ai_seats else None
    from bot.store import SQLiteStore

    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteStore(Path(tmp) / "burst.sqlite3")
        await store.open()
        try:
            return await bursts(args, store, make_service(store, pool, ai_pool), pool)
        finally:
            if pool is not None:
                await pool.close()
            if ai_pool is not None:
                await asyncio.to_thread(ai_pool.close)
            await store.close()


async def set_up(args: argparse.Namespace, service: TableService, store: SQLiteStore) -> list[Where]:
    """The channels' tables, started and played past their set-up (and, in the mix, 10-30
    moves into their games); the channels whose game is still on."""
    from bot.replies import Where

    places = [Where(channel_id=1000 + i, guild_id=1, guild_locale="en") for i in range(args.channels)]
    for i, where in enumerate(places):
        game, count = table_of(args, i)
        first, *others = players_of(where.channel_id, count)
        await service.new_game(first, where, game, seed=i + 1)
        for other in others:
            await service.join(other, where)
        if args.ai_seats:
            await service.addbot(first, where, args.ai_seats, args.ai_level)
        await service.start(first, where)
    for _ in range(args.warmup):  # past the set-up's secret choices, which post no board
        await burst(service, store, places)
    if args.game == "mix":  # tables 10-30 moves into their games, not all alike
        for i, where in enumerate(places):
            for _ in range(i % 21):
                move = await choose(service, store, where)
                if move is not None:
                    await press(service, store, where, move)
    return [w for w in places if await store.active_game(w.channel_id) is not None]


async def bursts(args: argparse.Namespace, store: SQLiteStore, service: TableService, pool: Any) -> dict[str, Any]:
    """Set the channels up, warm up, then time `args.rounds` bursts."""
    if pool is not None:
        await pool.start()
    places = await set_up(args, service, store)
    if pool is not None:
        await pool.ready()
    for _ in range(args.drawn):  # tables in progress: the workers have drawn their boards before
        await burst(service, store, places)
    gc.collect()
    trim()
    await asyncio.sleep(0.5)  # the workers trim once idle too
    _rss, idle_pss = tree_memory([os.getpid(), *children_of(os.getpid())])
    _rss, idle_main = tree_memory([os.getpid()])
    mode = f"{pool.processes} render processes" if pool is not None else "renders in threads"
    rates: list[float] = []
    latencies: list[float] = []
    # CPU time of the event loop's thread (wall time on a shared machine is mostly waiting)
    profile = cProfile.Profile(time.thread_time) if args.profile else None
    pids = pool.pids() if pool is not None else []
    main_cpu = loop_cpu = render_cpu = other_cpu = 0.0
    images = 0
    watch = MemoryWatch()
    watch.__enter__()
    for round_no in range(args.rounds):
        moves = [await choose(service, store, w) for w in places]
        if any(m is None for m in moves):  # a game ended: the others go on
            places = [w for w, m in zip(places, moves, strict=True) if m is not None]
            moves = [m for m in moves if m is not None]
        if profile:
            profile.enable()
        others = [p for p in children_of(os.getpid()) if p not in pids]  # AI workers (the template idles)
        start, cpu_start, workers_start = time.perf_counter(), time.process_time(), cpu_of(pids)
        others_start = cpu_of(others)
        loop_start = time.thread_time()
        signed = await asyncio.gather(*(press(service, store, w, m)  # type: ignore[arg-type]
                                        for w, m in zip(places, moves, strict=True)))
        wall = time.perf_counter() - start
        took = [abs(t) for t in signed]
        images += sum(t > 0 for t in signed)
        main_cpu += time.process_time() - cpu_start
        loop_cpu += time.thread_time() - loop_start  # the event loop's thread; the rest: the store's
        render_cpu += cpu_of(pids) - workers_start
        other_cpu += cpu_of(others) - others_start
        if profile:
            profile.disable()
        rates.append(len(places) / wall)
        latencies += took
        if not args.json:
            print(f"{args.game}, {args.channels} channels, {mode}, round {round_no + 1}:"
                  f" {rates[-1]:6.1f} turns/s; press -> replies median {statistics.median(took):.2f} s,"
                  f" p95 {pct(took, 0.95):.2f} s, max {max(took):.2f} s")
    watch.__exit__()
    if profile:
        profile.dump_stats(args.profile)
    turns = len(places) * args.rounds
    main_ms, render_ms, ai_ms = (cpu * 1000 / turns for cpu in (main_cpu, render_cpu, other_cpu))
    # what two idle cores could do: the bot's process is one core at most, all of it shares two
    capacity = (1000 / max(main_ms, (main_ms + render_ms + ai_ms) / 2) if pool is not None
                else 1000 / max(main_ms, (main_ms + ai_ms) / 2))
    return {"turns_per_s": statistics.median(rates), "p50_s": statistics.median(latencies),
            "p95_s": pct(latencies, 0.95), "max_s": max(latencies), "main_cpu_ms_per_turn": main_ms,
            "loop_cpu_ms_per_turn": loop_cpu * 1000 / turns,
            "render_cpu_ms_per_turn": render_ms, "ai_cpu_ms_per_turn": ai_ms, "idle_2core_turns_per_s": capacity,
            "turns_with_image_pct": 100 * images / turns,
            "peak_rss_mb": watch.peak_rss, "peak_pss_mb": watch.peak_pss,
            "peak_main_pss_mb": watch.peak_main_pss, "peak_workers_pss_mb": watch.peak_workers_pss,
            "idle_pss_mb": idle_pss, "idle_main_pss_mb": idle_main}


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
    parser.add_argument("--ai-seats", type=int, default=0, help="AI seats at every table (their replies are timed)")
    parser.add_argument("--ai-level", default="normal", choices=("easy", "normal", "hard"),
                        help="the AI seats' level (hard: each decision searches its CPU budget)")
    parser.add_argument("--ai-processes", type=int, default=1, help="processes AI seats decide in (0: threads)")
    parser.add_argument("--cache-mb", type=float, default=None,
                        help="RENDER_CACHE_MB: each drawing process's picture caches (default: the bot's)")
    add_ab_arguments(parser)
    args = parser.parse_args()
    figures = measure_or_compare(__file__, args, lambda: asyncio.run(run(args)))
    if figures is not None and not args.json:
        print(f"  all rounds: {figures['turns_per_s']:.1f} turns/s (median round), press -> replies"
              f" p50 {figures['p50_s']:.2f} s, p95 {figures['p95_s']:.2f} s, max {figures['max_s']:.2f} s")
        print(f"  {figures['turns_with_image_pct']:.0f} % of the turns carried a board image")
        print(f"  memory of the whole bot (its process and every worker): peak RSS {figures['peak_rss_mb']:.0f} MB,"
              f" peak PSS {figures['peak_pss_mb']:.0f} MB (bot process {figures.get('peak_main_pss_mb', 0):.0f} MB,"
              f" workers {figures.get('peak_workers_pss_mb', 0):.0f} MB); with every table in play and no press,"
              f" PSS {figures.get('idle_pss_mb', 0):.0f} MB (bot process {figures.get('idle_main_pss_mb', 0):.0f} MB)")
        print(f"  CPU per turn: bot process {figures['main_cpu_ms_per_turn']:.1f} ms (event loop thread"
              f" {figures['loop_cpu_ms_per_turn']:.1f} ms, other threads: the store), render processes"
              f" {figures['render_cpu_ms_per_turn']:.1f} ms, AI processes {figures.get('ai_cpu_ms_per_turn', 0):.1f} ms"
              f" -> on two idle cores at most"
              f" {figures['idle_2core_turns_per_s']:.0f} turns/s")


if __name__ == "__main__":
    main()
