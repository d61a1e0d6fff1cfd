"""Benchmark of eighty-days (a script, not a test): random playouts and AI against random.

Run: .venv/bin/python bench/bench_days.py [--quick]
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Rng, registry  # noqa: E402


def random_game(rules, seats, seed, options):
    state = rules.new_game(seats, seed, options)
    rng = Rng.from_seed(seed + 7919)
    legal_actions, apply, to_act = rules.legal_actions, rules.apply, rules.to_act
    steps = 0
    while state.phase != "over":
        seat = to_act(state)[0]
        legal = legal_actions(state, seat)
        apply(state, seat, legal[rng.below(len(legal))])
        steps += 1
    return state, steps


def bench_playouts(rules, players: int, options: dict, seconds: float) -> tuple[float, float, float]:
    """(games per wall-clock second, games per CPU second, mean decisions); medians of 5 batches."""
    seats = [f"p{i + 1}" for i in range(players)]
    wall, cpu, steps = [], [], []
    seed = 0
    for _ in range(5):
        n = 0
        t0, c0 = time.perf_counter(), time.process_time()
        while time.perf_counter() - t0 < seconds / 5:
            _, k = random_game(rules, seats, seed, options)
            steps.append(k)
            seed += 1
            n += 1
        wall.append(n / (time.perf_counter() - t0))
        cpu.append(n / max(1e-9, time.process_time() - c0))
    return statistics.median(wall), statistics.median(cpu), statistics.mean(steps)


def ai_vs_random(rules, players: int, games: int, options: dict) -> dict[str, float]:
    """One AI seat (rotating) against random seats: win rate, its mean score, adventures and
    how often it reached London."""
    wins, scores, adventures, london = 0, [], [], 0
    for g in range(games):
        seats = [f"p{i + 1}" for i in range(players)]
        ai_seat = seats[g % players]
        state = rules.new_game(seats, g, options)
        rng = Rng.from_seed(g * 31 + 5)
        while not rules.is_over(state):
            seat = rules.to_act(state)[0]
            if seat == ai_seat:
                action = rules.ai_action(state, seat)
            else:
                legal = rules.legal_actions(state, seat)
                action = legal[rng.below(len(legal))]
            rules.apply(state, seat, action)
        result = rules.result(state)
        row = next(r for r in result["ranking"] if r["seat"] == ai_seat)
        wins += ai_seat in result["winners"]
        scores.append(row["score"])
        adventures.append(row["adventures"])
        london += row["distance"] == 0
    return {"win": wins / games, "score": statistics.mean(scores), "adventures": statistics.mean(adventures),
            "london": london / games, "chance": 1 / players}


def main() -> None:
    quick = "--quick" in sys.argv
    rules = registry.get("eighty-days")
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    for options in ({}, {"side": "B", "assistants": True}):
        for players in (4, 3, 2):
            wall, cpu, steps = bench_playouts(rules, players, options, 1.0 if quick else 3.0)
            print(f"random playouts, {players} players {options or 'side A'}: {wall:,.0f} games/s wall, "
                  f"{cpu:,.0f} games per CPU-second (medians of 5), mean {steps:.0f} decisions")
    games = 40 if quick else 200
    for options in ({}, {"side": "B", "assistants": True}):
        for players in (2, 3, 4):
            r = ai_vs_random(rules, players, games, options)
            print(f"AI vs random, {players} players {options or 'side A'}, {games} games: AI wins {r['win']:.0%} "
                  f"(chance {r['chance']:.0%}), mean score {r['score']:.1f}, {r['adventures']:.1f} adventures, "
                  f"London {r['london']:.0%}")


if __name__ == "__main__":
    main()
