"""Burst: many channels press a move at the same moment. How fast does the table keep up?

    .venv/bin/python bench/bench_burst.py [--channels 200] [--game rails-and-sails] [--rounds 2] [--warmup 4]

Through the table service as the Discord adapter drives it (SQLite in a temp dir, renders in
threads): `--channels` games of two humans are set up, then every channel's player to act
presses a move (the AI's choice for that seat, sent as the public quick-button press would be)
at once; each press is timed from the call until its replies (ack and turn message with the
board image) are ready. Prints turns/s over the burst and the median / p95 / max latency of a
press. Targets (issue "Fast under load"): >= 100 turns/s, p95 <= 1.5 s with 200 channels.
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

from bot.replies import User, Where  # noqa: E402
from bot.service import TableService  # noqa: E402
from bot.store import SQLiteStore  # noqa: E402

PLAYERS = [User(1, "Ann", "en"), User(2, "Ben", "en")]


async def press(service: TableService, store: SQLiteStore, where: Where) -> float:
    """One player's move in one channel, as a command would send it; seconds until answered."""
    record = await store.active_game(where.channel_id)
    assert record is not None
    loaded = service._load(record)
    seat = loaded.rules.to_act(loaded.state)[0]
    user = next(p for p in PLAYERS if (s := record.seat_of_user(p.id)) is not None and s.seat == seat)
    action = loaded.spec.ai(loaded.rules.view(loaded.state, seat), seat, loaded.rules.legal_actions(loaded.state, seat))
    start = time.perf_counter()
    async with service._lock(where.channel_id):
        fresh = service._load(await store.get_game(record.id))  # type: ignore[arg-type]
        replies = await service._act(fresh, user, seat, action)
    assert replies and replies[0].text.startswith("✅"), replies[0].text
    return time.perf_counter() - start


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteStore(Path(tmp) / "burst.sqlite3")
        await store.open()
        service = TableService(store, render_in_thread=True)
        places = [Where(channel_id=1000 + i, guild_id=1, guild_locale="en") for i in range(args.channels)]
        for i, where in enumerate(places):
            await service.new_game(PLAYERS[0], where, args.game, seed=i + 1)
            await service.join(PLAYERS[1], where)
            await service.start(PLAYERS[0], where)
        for _ in range(args.warmup):  # past the set-up's secret choices, which post no board
            await asyncio.gather(*(press(service, store, w) for w in places))
        for round_no in range(args.rounds):
            start = time.perf_counter()
            latencies = await asyncio.gather(*(press(service, store, w) for w in places))
            wall = time.perf_counter() - start
            ordered = sorted(latencies)
            p95 = ordered[max(0, int(len(ordered) * 0.95) - 1)]
            print(f"{args.game}, {args.channels} channels, round {round_no + 1}: {len(places) / wall:6.1f} turns/s;"
                  f" press -> replies median {statistics.median(latencies):.2f} s, p95 {p95:.2f} s,"
                  f" max {ordered[-1]:.2f} s")
        await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--game", default="rails-and-sails")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--warmup", type=int, default=4, help="untimed bursts first (rails: the set-up choices)")
    asyncio.run(main(parser.parse_args()))
