"""Per-turn pipeline benchmark: apply + commit + render + encode, as the bot does a turn.

    .venv/bin/python bench/bench_pipeline.py [--game detour] [--players 4] [--games 3]

Prints medians and p95 (milliseconds) for each stage and the whole, plus PNG bytes.
Random legal moves from seeded games; a fresh SQLite file in a temp directory.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games import get as game_spec  # noqa: E402
from bot.store import SeatRecord, SQLiteStore  # noqa: E402
from engine import registry  # noqa: E402


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(game_id: str, players: int, games: int) -> None:
    rules = registry.get(game_id)
    spec = game_spec(game_id)
    renderer, translator = spec.renderer, spec.ui.translator("en")
    seats = [f"p{i + 1}" for i in range(players)]
    names = {s: f"Player {i + 1}" for i, s in enumerate(seats)}
    stages: dict[str, list[float]] = {"apply": [], "commit": [], "render+encode": [], "pipeline": []}
    sizes: list[int] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteStore(Path(tmp) / "bench.sqlite3")
        await store.open()
        for g in range(games):
            rng = random.Random(g)
            record = await store.create_game(channel_id=g + 1, guild_id=1, game_id=game_id,
                                             host=SeatRecord(0, 1, "p1"), options={}, settings={}, seed=g)
            state = rules.new_game(seats, g, {})
            while not rules.is_over(state):
                seat = rules.to_act(state)[0]
                action = rng.choice(rules.legal_actions(state, seat))
                t0 = time.perf_counter()
                events = rules.apply(state, seat, action)
                t1 = time.perf_counter()
                await store.commit_action(record, expected_version=record.version, seat=seat, action=action,
                                          events=events, state=rules.dump(state), status="running", actor="human",
                                          remind_at=None, timeout_at=None)
                t2 = time.perf_counter()
                png = renderer.render_board(rules.view(state, None), names=names, translator=translator,
                                            events=events)
                t3 = time.perf_counter()
                stages["apply"].append((t1 - t0) * 1000)
                stages["commit"].append((t2 - t1) * 1000)
                stages["render+encode"].append((t3 - t2) * 1000)
                stages["pipeline"].append((t3 - t0) * 1000)
                sizes.append(len(png))
        await store.close()
    print(f"{game_id}, {players} players, {games} games, {len(stages['pipeline'])} turns")
    for name, values in stages.items():
        print(f"  {name:<14} median {statistics.median(values):7.2f} ms   p95 {pct(values, 0.95):7.2f} ms"
              f"   p99 {pct(values, 0.99):7.2f} ms")
    print(f"  png bytes      median {statistics.median(sizes):9.0f}   max {max(sizes)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="detour")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(run(args.game, args.players, args.games))


if __name__ == "__main__":
    main()
