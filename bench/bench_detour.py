"""Benchmark of detour (a script, not a test): random playouts, AI games, rendering.

Run: .venv/bin/python bench/bench_detour.py [--full [--quick]]   (default: the playout rate only, a few seconds)
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_playouts import playout_line  # noqa: E402

from engine import Rng, registry  # noqa: E402


def random_game(rules, seats, seed):
    state = rules.new_game(seats, seed)
    rng = Rng.from_seed(seed + 7919)
    legal_actions, apply, to_act = rules.legal_actions, rules.apply, rules.to_act
    while state.phase != "over":
        for seat in to_act(state):
            legal = legal_actions(state, seat)
            if legal:
                apply(state, seat, legal[rng.below(len(legal))])
    return state


def bench_playouts(rules, players: int, seconds: float = 2.0) -> tuple[float, float, float]:
    """(games per wall-clock second, games per CPU second, mean rounds); medians of 5 batches.
    The CPU figure is the one to compare when the machine is shared (see `os.getloadavg`)."""
    seats = [f"p{i + 1}" for i in range(players)]
    wall_rates, cpu_rates = [], []
    rounds = []
    seed = 0
    for _ in range(5):
        n = 0
        t0, c0 = time.perf_counter(), time.process_time()
        while time.perf_counter() - t0 < seconds / 5:
            s = random_game(rules, seats, seed)
            rounds.append(s.round)
            seed += 1
            n += 1
        wall_rates.append(n / (time.perf_counter() - t0))
        cpu_rates.append(n / max(1e-9, time.process_time() - c0))
    return statistics.median(wall_rates), statistics.median(cpu_rates), statistics.mean(rounds)


def ai_vs_random(rules, players: int, games: int) -> tuple[float, float, float]:
    """Seat order rotates so the AI sits everywhere equally often. Returns (AI win rate,
    mean rounds, baseline 1/players)."""
    wins = 0
    rounds = []
    for g in range(games):
        seats = [f"p{i + 1}" for i in range(players)]
        ai_seat = seats[g % players]
        state = rules.new_game(seats, g)
        rng = Rng.from_seed(g * 31 + 5)
        while not rules.is_over(state):
            for seat in rules.to_act(state):
                if seat == ai_seat:
                    a = rules.ai_action(state, seat)
                else:
                    legal = rules.legal_actions(state, seat)
                    a = legal[rng.below(len(legal))]
                rules.push(state, seat, a)  # listed or the policy's pick: no second check
        rounds.append(state.round)
        if ai_seat in rules.result(state)["winners"]:
            wins += 1
    return wins / games, statistics.mean(rounds), 1 / players


def ai_selfplay(rules, players: int, games: int, noise: int = 15):
    """AI seats against each other; each decision is a random legal one with probability
    `noise` % (seeded), so the games differ (pure AI self-play only varies the first player).
    Returns mean/p10/p90 rounds and how often per game each card is used for what."""
    rounds = []
    uses: dict[str, int] = {}
    for g in range(games):
        seats = [f"p{i + 1}" for i in range(players)]
        state = rules.new_game(seats, 10_000 + g)
        rng = Rng.from_seed(g + 77)
        while not rules.is_over(state):
            for seat in rules.to_act(state):
                legal = rules.legal_actions(state, seat)
                if rng.below(100) < noise:
                    action = legal[rng.below(len(legal))]
                else:
                    action = rules.ai_action(state, seat)
                if action["type"] != "choose":
                    card = rules.view(state, None)["resolving"]["card"]
                    key = f"{card} {action['type']}"
                    uses[key] = uses.get(key, 0) + 1
                events = rules.apply(state, seat, action)
                for i, ev in enumerate(events):
                    if ev["type"] == "auto":  # a card with one possible use: the next event says which
                        key = f"{ev['card']} {events[i + 1]['type']}"
                    elif ev["type"] == "no_effect":
                        key = f"{ev['card']} nothing"
                    else:
                        continue
                    uses[key] = uses.get(key, 0) + 1
        rounds.append(state.round)
    rounds.sort()
    per_game = {k: round(v / games, 2) for k, v in sorted(uses.items(), key=lambda kv: (-int(kv[0].split()[0]), kv[0]))}
    return statistics.mean(rounds), rounds[len(rounds) // 10], rounds[len(rounds) * 9 // 10], per_game


def bench_render(rules, players: int, samples: int = 60):
    """Board render + encode over a real game's views: wall ms (median, p95), CPU ms median,
    PNG bytes (median, max); hand render + encode wall ms median."""
    from bot.games import get
    from render import detour as R

    T = get("detour").ui.translator("en")  # noqa: N806 - the image's translator, as the bot passes it
    seats = [f"p{i + 1}" for i in range(players)]
    names = {s: f"Player {i + 1}" for i, s in enumerate(seats)}
    views = []
    state = rules.new_game(seats, 3)
    while not rules.is_over(state) and len(views) < samples:
        seat = rules.to_act(state)[0]
        events = rules.apply(state, seat, rules.ai_action(state, seat))
        views.append((rules.view(state, None), events))
    R.render_board(views[0][0], names=names, translator=T, events=views[0][1])  # the static layer is cached once
    times, cpu, sizes = [], [], []
    for v, ev in views:
        t0, c0 = time.perf_counter(), time.process_time()
        png = R.render_board(v, names=names, translator=T, events=ev)
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        sizes.append(len(png))
    times.sort()
    htimes = []
    for _ in range(20):
        t0 = time.perf_counter()
        R.render_hand(rules.view(state, "p1"), "p1", names=names, translator=T)
        htimes.append((time.perf_counter() - t0) * 1000)
    return (statistics.median(times), times[int(len(times) * 0.95) - 1], statistics.median(cpu),
            statistics.median(sizes), max(sizes), statistics.median(htimes))


def main() -> None:
    playout_line("detour")  # the standard figure (a few seconds); the reports below only with --full
    if "--full" not in sys.argv:
        return
    quick = "--quick" in sys.argv
    rules = registry.get("detour")
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    for players in (4, 3, 2):
        wall, cpu, mean_rounds = bench_playouts(rules, players, 1.0 if quick else 3.0)
        print(f"random playouts, {players} players: {wall:,.0f} games/s wall, {cpu:,.0f} games per CPU-second "
              f"(medians of 5), mean {mean_rounds:.1f} rounds")
    games = 100 if quick else 600
    for players in (2, 3, 4):
        win, rounds, base = ai_vs_random(rules, players, games)
        print(f"AI vs random, {players} players, {games} games: AI wins {win:.1%} (chance {base:.0%}), "
              f"mean {rounds:.1f} rounds")
    for players in (2, 3, 4):
        mean, p10, p90, uses = ai_selfplay(rules, players, 100 if quick else 300)
        print(f"AI self-play (15% noise), {players} players: mean {mean:.1f} rounds (p10 {p10}, p90 {p90}); "
              f"card uses per game {uses}")
    try:
        med, p95, cpu, size, size_max, hand = bench_render(rules, 4)
        print(f"render+encode board 4p: median {med:.1f} ms, p95 {p95:.1f} ms wall (CPU median {cpu:.1f} ms), "
              f"PNG median {size / 1000:.0f} KB (max {size_max / 1000:.0f} KB); hand {hand:.1f} ms")
    except ImportError as exc:
        print("renderer not available:", exc)


if __name__ == "__main__":
    main()
