"""What a render process holds, cache by cache: warm, then after drawing the boards of many
tables of the mix (every game, 2-4 players with names of their own, 10-30 random moves in).

    .venv/bin/python bench/bench_cache_memory.py                  # 400 tables
    .venv/bin/python bench/bench_cache_memory.py --tables 5000 --cache-mb 60

It runs in this process as a render worker does (`bot.images.pool`'s warm-up, then
`draw`): each cache of the render budget (`render.budget`) is listed with what it counts and
what emptying it gives back to the system (`malloc_trim` after each), then the process's
anonymous memory that is left (Python, fonts, small bounded caches).
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import games, memory  # noqa: E402
from bot.images import pool  # noqa: E402
from bot.images.pool import RenderJob, draw  # noqa: E402
from render import budget  # noqa: E402

NAMES = ("Ana", "Bjørn", "Chloé", "Dmitri", "Eve", "Farah", "Gus", "Hana", "Ines", "Jürgen", "Kofi", "Léa")


def anon_mb() -> float:
    """This process's anonymous memory (the heap: what it allocated), in MB."""
    for line in Path("/proc/self/smaps_rollup").read_text().splitlines():
        if line.startswith("Anonymous:"):
            return int(line.split()[1]) / 1024
    return 0.0


def rss_mb() -> float:
    for line in Path("/proc/self/smaps_rollup").read_text().splitlines():
        if line.startswith("Rss:"):
            return int(line.split()[1]) / 1024
    return 0.0


def settle() -> float:
    gc.collect()
    memory.trim()
    return anon_mb()


def draw_tables(count: int, seed: int) -> float:
    """Boards of `count` tables of the mix, in turn; the CPU seconds they took."""
    rng = random.Random(seed)
    ids = [line.id for line in games.GAMES]
    started = time.process_time()
    for i in range(count):
        game_id = ids[i % len(ids)]
        spec = pool._registered(game_id)
        rules = spec.rules
        seats = [f"t{i}s{k}" for k in range(rng.randint(rules.min_players, min(4, rules.max_players)))]
        names = {s: f"{rng.choice(NAMES)}{rng.randint(1, 9999)}" for s in seats}
        state = rules.new_game(seats, i, {})
        for _ in range(rng.randint(10, 30)):
            if rules.is_over(state):
                break
            seat = rules.to_act(state)[0]
            rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
        draw(RenderJob(game_id, "board", rules.view(state, None), names, "en", table=i), spec)
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=400)
    parser.add_argument("--cache-mb", type=float, help="RENDER_CACHE_MB (default: the budget's own)")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    if args.cache_mb is not None:
        budget.configure(args.cache_mb)
    start = settle()
    for _ in pool._warm():
        pass
    warm = settle()
    print(f"render process: {start:.0f} MB anonymous after imports, {warm:.0f} MB warm (RSS {rss_mb():.0f} MB),"
          f" budget {budget.total_bytes() / (1 << 20):.0f} MB")
    cpu = draw_tables(args.tables, args.seed)
    after = settle()
    print(f"after {args.tables} tables of the mix ({cpu * 1000 / max(1, args.tables):.1f} ms CPU a board):"
          f" {after:.0f} MB anonymous (RSS {rss_mb():.0f} MB)")
    print(f"{'cache':<24}{'limit MB':>9}{'counted MB':>11}{'entries':>9}{'freed MB':>10}")
    for name in budget.DEFAULTS_MB:
        cache = budget.cache(name) if name in ("layers", "sprites", "text") else None
        counted = cache.currsize / (1 << 20) if cache is not None else float("nan")
        entries = len(cache) if cache is not None else 0
        before = anon_mb()
        if cache is not None:
            cache.clear()
        freed = before - settle()
        if cache is not None:
            print(f"{name:<24}{budget.limit(name) / (1 << 20):>9.1f}{counted:>11.1f}{entries:>9}{freed:>10.1f}")
    before = anon_mb()
    budget.configure(budget.total_bytes() / (1 << 20))  # every other cache of the budget too
    print(f"{'kept layers, bands':<24}{'':>9}{'':>11}{'':>9}{before - settle():>10.1f}")
    print(f"left: {anon_mb():.0f} MB anonymous (Python, fonts, the deflated sprites, small bounded caches)")


if __name__ == "__main__":
    main()
