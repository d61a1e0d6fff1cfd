"""Status storm: how much do 30 `/game status` calls at once delay a real move?

    .venv/bin/python bench/bench_status_storm.py [--rounds 6] [--watchers 30] [--game rails-and-sails]
        [--processes N] [--rev REV [--ab-rounds 4]]

A real game through the table service (SQLite in a temp dir, images from the render pool as the
bot makes it: `--processes` workers, default one per core, 0 = threads in the bot's process).
Each round makes one move and times it from the call to its replies, three ways, interleaved
round by round so machine noise hits all alike:
  quiet      the move alone;
  storm      the move while `--watchers` people ask for `/game status` at the same moment
             (the shipped service: shared render cache, status renders queued behind moves);
  unguarded  the same storm with the cache, the queue and the per-user limit switched off
             (what the service did before).
Prints the median and max move latency of each (ms). Target: storm - quiet <= 100 ms.
`--rev REV` runs the same on another revision, interleaved, and prints both medians.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from abrev import add_ab_arguments, code_root, cores, measure_or_compare

code_root()

from bot.replies import User, Where  # noqa: E402
from bot.service import TableService, action_hash, custom_id  # noqa: E402
from bot.store import SQLiteStore  # noqa: E402
from bot.table.shared import RateLimiter  # noqa: E402

HERE = Where(channel_id=1, guild_id=1, guild_locale="en")
PLAYERS = [User(1, "Ann", "en"), User(2, "Ben", "en")]


def unguarded(service: TableService) -> None:
    """Every status call renders on its own, at once, unlimited: the service before."""
    if hasattr(service, "parts"):  # the service as composed parts
        images = service.parts.images

        async def draw_now(key: object, spec: Any, job: Any, t: Any) -> bytes:
            return await images.draw(spec, job, t, urgent=True)

        images._side_render = draw_now  # type: ignore[method-assign]
        service.parts.answers.asks.too_often = lambda user_id: False  # type: ignore[method-assign]
        return

    async def render_now(key: object, *args: Any, **kw: Any) -> bytes:
        if hasattr(service, "_draw"):  # (loaded, job, t): a revision with the render pool
            loaded, job, t = args
            return await service._draw(loaded, job, t, urgent=True)
        return await service._render(*args, **kw)  # (fn, *args): a revision before it

    service._side_render = render_now  # type: ignore[method-assign,assignment]
    service._too_often = lambda user: False  # type: ignore[method-assign]


def load_of(service: TableService) -> Any:
    """The service's game loader (`_load` in a revision before the table became parts: --rev)."""
    return getattr(service, "load", None) or service._load  # type: ignore[attr-defined]


async def one_move(service: TableService, store: SQLiteStore, watchers: list[User]) -> float:
    record = await store.active_game(HERE.channel_id)
    assert record is not None
    loaded = load_of(service)(record)
    seat = loaded.rules.to_act(loaded.state)[0]
    user = next(p for p in PLAYERS if record.seat_of_user(p.id).seat == seat)  # type: ignore[union-attr]
    action = loaded.rules.ai_action(loaded.state, seat)
    button = custom_id(record.id, record.version, "act", action_hash(action))
    storm = [asyncio.create_task(service.status(w, HERE)) for w in watchers]
    await asyncio.sleep(0)  # the storm is under way when the move arrives
    start = time.perf_counter()
    replies = await service.component(user, HERE, button)
    took = time.perf_counter() - start
    assert replies and replies[0].text.startswith("✅"), replies[0].text
    await asyncio.gather(*storm)
    return took * 1000


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


async def table(path: Path, game: str, pool: Any) -> tuple[SQLiteStore, TableService]:
    store = SQLiteStore(path)
    await store.open()
    if pool is None:
        service = TableService(store, render_in_thread=True)
    else:
        service = TableService(store, render_in_thread=True, render_pool=pool)  # type: ignore[call-arg]
    await service.new_game(PLAYERS[0], HERE, game, seed=4)
    await service.join(PLAYERS[1], HERE)
    await service.start(PLAYERS[0], HERE)
    return store, service


async def run(args: argparse.Namespace) -> dict[str, Any]:
    pool = make_pool(args.processes)  # shared: the three tables take turns, never at once
    if pool is not None:
        await pool.ready()
    with tempfile.TemporaryDirectory() as tmp:
        tables = {mode: await table(Path(tmp) / f"{mode}.sqlite3", args.game, pool)
                  for mode in ("quiet", "storm", "unguarded")}
        unguarded(tables["unguarded"][1])
        watchers = [User(1000 + i, f"W{i}", "en") for i in range(args.watchers)]
        times: dict[str, list[float]] = {mode: [] for mode in tables}
        for _ in range(args.rounds):
            for mode, (store, service) in tables.items():
                if hasattr(service, "parts"):
                    service.parts.answers.asks = RateLimiter()
                else:
                    service._asked.clear()  # type: ignore[attr-defined]
                times[mode].append(await one_move(service, store, [] if mode == "quiet" else watchers))
        for store, _ in tables.values():
            await store.close()
    if pool is not None:
        await pool.close()
    figures: dict[str, Any] = {f"{mode} median ms": statistics.median(values) for mode, values in times.items()}
    figures["storm delay ms"] = statistics.median(times["storm"]) - statistics.median(times["quiet"])
    figures["unguarded delay ms"] = statistics.median(times["unguarded"]) - statistics.median(times["quiet"])
    if args.json:
        return figures
    mode_text = f"{args.processes} render processes" if pool is not None else "renders in threads"
    print(f"{args.game}: one move, {args.watchers} status calls at the same moment, {args.rounds} rounds,"
          f" {mode_text} (ms)")
    for mode, values in times.items():
        print(f"  {mode:<10} median {statistics.median(values):7.1f}   max {max(values):7.1f}")
    print(f"  delay of a move by the storm: {figures['storm delay ms']:.1f} ms (target <= 100); unguarded: "
          f"{figures['unguarded delay ms']:.1f} ms")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--watchers", type=int, default=30)
    parser.add_argument("--game", default="rails-and-sails")
    parser.add_argument("--processes", type=int, default=cores(),
                        help="render processes (default: one per core; 0: threads)")
    add_ab_arguments(parser)
    args = parser.parse_args()
    measure_or_compare(__file__, args, lambda: asyncio.run(run(args)))


if __name__ == "__main__":
    main()
