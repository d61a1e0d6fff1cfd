"""Per-turn pipeline benchmark: load + apply + dump + commit + render/encode, as the bot does a turn.

    .venv/bin/python bench/bench_pipeline.py [--game rails-and-sails ...] [--players 4] [--games 1]
        [--render-every 3] [--processes 0] [--rev REV [--ab-rounds 4]]

For each game (default: every registered one) random legal moves from seeded games, on a fresh
SQLite file in a temp directory. Each turn: the game is read from the store and its state
loaded, the move applied, the state dumped, the move committed; every `--render-every`th turn
also draws and encodes the public board (in this process, warmed first as the bot warms a
render worker before it takes turns, or `--cold` without that warm-up; or with `--processes N`
through a render pool as the bot does, round trip included). Prints p50 and p95 (milliseconds) of each
stage and of the whole pipeline (turns with a render), wall clock and CPU time of this process
(the CPU figures hold on a busy machine; with a pool, a render's CPU is spent in the worker),
plus PNG bytes. Target (issue "Fast
under load"): pipeline p95 <= 25 ms for rails / atw / detour. `--rev REV` runs the same on
another revision, interleaved, and prints both medians.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from abrev import add_ab_arguments, code_root, measure_or_compare, pct, warm_like_a_worker

code_root()

from bot.games import get as game_spec  # noqa: E402
from bot.games import specs  # noqa: E402
from bot.store import SeatRecord, SQLiteStore  # noqa: E402

STAGES = ("load", "apply", "dump", "commit", "render+encode", "pipeline")


def make_pool(processes: int) -> Any:
    if processes <= 0:
        return None
    try:  # bot/images since the table became parts; bot/render_pool in revisions before (--rev)
        from bot.images.pool import RenderPool  # a revision without the pool cannot take --processes
    except ImportError:
        from bot.render_pool import RenderPool  # type: ignore[no-redef]

    return RenderPool(processes)


async def run(game_id: str, players: int, games: int, render_every: int, pool: Any) -> dict[str, list[float]]:
    spec = game_spec(game_id)
    rules, renderer, translator = spec.rules, spec.renderer, spec.ui.translator("en")
    seats = [f"p{i + 1}" for i in range(players)]
    names = {s: f"Player {i + 1}" for i, s in enumerate(seats)}
    stages: dict[str, list[float]] = {name: [] for name in (*STAGES, *(f"{n} cpu" for n in STAGES), "png bytes")}
    turn = 0
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteStore(Path(tmp) / "bench.sqlite3")
        await store.open()
        for g in range(games):
            rng = random.Random(g)
            record = await store.create_game(channel_id=g + 1, guild_id=1, game_id=game_id,
                                             host=SeatRecord(0, 1, "p1"), options={}, settings={}, seed=g)
            state = rules.new_game(seats, g, {})
            await store.commit_action(record, expected_version=record.version, seat="p1", action={"type": "start"},
                                      events=[], state=rules.dump(state), status="running", actor="human",
                                      remind_at=None, timeout_at=None)
            while not rules.is_over(state):
                seat = rules.to_act(state)[0]
                action = rng.choice(rules.legal_actions(state, seat))  # untimed: the player's choice
                c0, t0 = time.process_time(), time.perf_counter()
                fresh = await store.get_game(record.id)
                assert fresh is not None
                state = rules.load(fresh.state)
                c1, t1 = time.process_time(), time.perf_counter()
                events = rules.apply(state, seat, action)
                c2, t2 = time.process_time(), time.perf_counter()
                dumped = rules.dump(state)
                c3, t3 = time.process_time(), time.perf_counter()
                await store.commit_action(fresh, expected_version=fresh.version, seat=seat, action=action,
                                          events=events, state=dumped, status="running", actor="human",
                                          remind_at=None, timeout_at=None)
                c4, t4 = time.process_time(), time.perf_counter()
                record = fresh
                for name, took, cpu in zip(STAGES, (t1 - t0, t2 - t1, t3 - t2, t4 - t3),
                                           (c1 - c0, c2 - c1, c3 - c2, c4 - c3), strict=False):
                    stages[name].append(took * 1000)
                    stages[f"{name} cpu"].append(cpu * 1000)
                turn += 1
                if render_every <= 0 or turn % render_every:
                    continue
                c5, t5 = time.process_time(), time.perf_counter()
                view = rules.view(state, None)
                public = [{k: v for k, v in e.items() if k != "private"} for e in events]
                if pool is not None:
                    try:  # bot/images since the table became parts; bot/render_pool in revisions before (--rev)
                        from bot.images.pool import RenderJob
                    except ImportError:
                        from bot.render_pool import RenderJob  # type: ignore[no-redef]

                    png = await pool.render(RenderJob(game_id, "board", view, names, "en", events=public))
                else:
                    png = renderer.render_board(view, names=names, lang="en", events=public, translator=translator)
                c6, t6 = time.process_time(), time.perf_counter()
                stages["render+encode"].append((t6 - t5) * 1000)
                stages["pipeline"].append((t4 - t0 + t6 - t5) * 1000)
                stages["render+encode cpu"].append((c6 - c5) * 1000)
                stages["pipeline cpu"].append((c4 - c0 + c6 - c5) * 1000)
                stages["png bytes"].append(len(png))
        await store.close()
    return stages


async def run_all(args: argparse.Namespace) -> dict[str, Any]:
    pool = make_pool(args.processes)
    if pool is not None:
        await pool.ready()
    elif not args.cold and args.render_every > 0 and not warm_like_a_worker() and not args.json:
        print("(this revision has no render warm-up: its first boards are timed cold)")
    figures: dict[str, Any] = {}
    try:
        for game_id in args.game or list(specs()):
            stages = await run(game_id, args.players, args.games, args.render_every, pool)
            if not args.json:
                how = f"render in {pool.processes} pool processes" if pool is not None else "render here"
                print(f"{game_id}, {args.players} players, {args.games} games, {len(stages['load'])} turns"
                      f" ({len(stages['pipeline'])} drawn, {how})")
            if not args.json:
                print(f"  {'stage (ms)':<14} {'p50':>8} {'p95':>8}   {'CPU p50':>8} {'CPU p95':>8}")
            for name in STAGES:
                wall, cpu = stages[name], stages[f"{name} cpu"]
                if not wall:  # nothing drawn (--render-every 0)
                    continue
                figures[f"{game_id} {name} p50"] = statistics.median(wall)
                figures[f"{game_id} {name} p95"] = pct(wall, 0.95)
                figures[f"{game_id} {name} cpu p50"] = statistics.median(cpu)
                figures[f"{game_id} {name} cpu p95"] = pct(cpu, 0.95)
                if not args.json:
                    print(f"  {name:<14} {statistics.median(wall):8.2f} {pct(wall, 0.95):8.2f}"
                          f"   {statistics.median(cpu):8.2f} {pct(cpu, 0.95):8.2f}")
            sizes = stages["png bytes"]
            if sizes:
                figures[f"{game_id} png kB max"] = max(sizes) / 1000
            if sizes and not args.json:
                print(f"  png bytes      median {statistics.median(sizes):9.0f}   max {max(sizes):.0f}")
    finally:
        if pool is not None:
            await pool.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game id (repeat for several; default: every game)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--render-every", type=int, default=3, help="draw the board every Nth turn (0: never)")
    parser.add_argument("--processes", type=int, default=0, help="render through a pool of N processes (0: here)")
    parser.add_argument("--cold", action="store_true",
                        help="render here without the render workers' warm-up first (a process's first boards)")
    add_ab_arguments(parser)
    args = parser.parse_args()
    measure_or_compare(__file__, args, lambda: asyncio.run(run_all(args)))


if __name__ == "__main__":
    main()
