"""Benchmark and balance report for around-the-world (Around the World in 80 Days).

    .venv/bin/python bench/bench_atw.py                 # playouts/s, dump size (medians)
    .venv/bin/python bench/bench_atw.py --balance 200   # + AI self-play balance and AI vs random

Random playouts pick uniformly among `legal_actions`; the target is >= 300 four-player
games per second.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_playouts import playout_line  # noqa: E402

from engine import registry  # noqa: E402

R = registry.get("around-the-world")


def seats(n: int) -> list[str]:
    return [f"p{k + 1}" for k in range(n)]


def random_game(n: int, seed: int, sizes: list[int] | None = None) -> tuple[int, int]:
    st = R.new_game(seats(n), seed, {})
    rnd = random.Random(seed)
    choice = rnd.choice
    steps = 0
    while st.phase != "over":
        seat = st.seats[st.order[st.turn]]
        R.push(st, seat, choice(R.legal_actions(st, seat)))  # listed: no second check
        steps += 1
        if sizes is not None and steps % 50 == 0:
            sizes.append(len(json.dumps(R.dump(st), separators=(",", ":"))))
    return steps, st.round


def bench_playouts(n: int = 4, games: int = 200, batches: int = 5) -> None:
    rates, cpu_rates, steps_all, rounds_all = [], [], [], []
    seed = 0
    for _ in range(batches):
        t0 = time.perf_counter()
        c0 = time.process_time()
        for _ in range(games):
            steps, rounds = random_game(n, seed)
            steps_all.append(steps)
            rounds_all.append(rounds)
            seed += 1
        rates.append(games / (time.perf_counter() - t0))
        cpu_rates.append(games / max(1e-9, time.process_time() - c0))
    print(f"random {n}-player playouts: median {statistics.median(rates):.0f} games/s wall clock "
          f"(batches of {games}: {', '.join(f'{r:.0f}' for r in rates)}); "
          f"{statistics.median(cpu_rates):.0f} games per CPU second")
    print(f"  median actions per game {statistics.median(steps_all):.0f}, rounds {statistics.median(rounds_all):.0f}")


def bench_dump() -> None:
    sizes: list[int] = []
    for seed in range(30):
        random_game(4, 10_000 + seed, sizes)
    t0 = time.perf_counter()
    st = R.new_game(seats(4), 1, {})
    for _ in range(2000):
        R.load(R.dump(st))
    per = (time.perf_counter() - t0) / 2000 * 1e6
    print(f"state dump (4 players, compact JSON): median {statistics.median(sizes):.0f} bytes, "
          f"max {max(sizes)}; dump+load {per:.0f} µs")


def ai_game(n: int, seed: int, ai_seats: set[str]) -> object:
    st = R.new_game(seats(n), seed, {})
    rnd = random.Random(seed)
    while not R.is_over(st):
        seat = R.to_act(st)[0]
        if seat in ai_seats:
            action = R.ai_action(st, seat)
        else:
            action = rnd.choice(R.legal_actions(st, seat))
        R.apply(st, seat, action)
    return st


def pct(values: list[int], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def balance(games: int) -> None:
    print(f"\nAI self-play, {games} seeded games per player count")
    print("| players | winner days: median (10%–90%) | all arrivals: median (10%–90%) "
          "| arrivals ≤ 80 | winners ≤ 80 | rounds (median) | s/game |")
    print("|---|---|---|---|---|---|---|")
    for n in range(2, 7):
        win_days, all_days, rounds = [], [], []
        t0 = time.perf_counter()
        for seed in range(games):
            st = ai_game(n, 50_000 + seed, set(seats(n)))
            res = R.result(st)
            for row in res["ranking"]:
                if row["rank"] == 1:
                    win_days.append(row["days"])
                if row["arrived"]:
                    all_days.append(row["days"])
            rounds.append(st.round)
        dt = (time.perf_counter() - t0) / games
        print(f"| {n} | {statistics.median(win_days):.0f} ({pct(win_days, .1):.0f}–{pct(win_days, .9):.0f}) "
              f"| {statistics.median(all_days):.0f} ({pct(all_days, .1):.0f}–{pct(all_days, .9):.0f}) "
              f"| {sum(d <= 80 for d in all_days) / len(all_days):.0%} "
              f"| {sum(d <= 80 for d in win_days) / len(win_days):.0%} "
              f"| {statistics.median(rounds):.0f} | {dt:.3f} |")
    print(f"\nOne AI against random players ({games} games per player count, the AI's seat rotates)")
    print("| players | AI win rate |")
    print("|---|---|")
    for n in range(2, 7):
        wins = 0
        for seed in range(games):
            ai = f"p{seed % n + 1}"
            st = ai_game(n, 90_000 + seed, {ai})
            wins += ai in R.result(st)["winners"]
        print(f"| {n} | {wins / games:.1%} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per playout batch")
    parser.add_argument("--balance", type=int, default=0, metavar="N", help="also run N AI games per player count")
    parser.add_argument("--full", action="store_true", help="also the batch playout and dump figures")
    args = parser.parse_args()
    playout_line("around-the-world")  # the standard figure (a few seconds)
    if args.full:
        bench_playouts(4, args.games)
        bench_dump()
    if args.balance:
        balance(args.balance)


if __name__ == "__main__":
    main()
