"""Benchmark of detour (a script, not a test): random playouts, AI games, rendering.

Run: .venv/bin/python bench/bench_detour.py [--quick]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

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


def bench_playouts(rules, players: int, seconds: float = 2.0) -> tuple[float, float]:
    seats = [f"p{i + 1}" for i in range(players)]
    rates = []
    rounds = []
    seed = 0
    for _ in range(5):
        n = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds / 5:
            s = random_game(rules, seats, seed)
            rounds.append(s.round)
            seed += 1
            n += 1
        rates.append(n / (time.perf_counter() - t0))
    return statistics.median(rates), statistics.mean(rounds)


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
                rules.apply(state, seat, a)
        rounds.append(state.round)
        if ai_seat in rules.result(state)["winners"]:
            wins += 1
    return wins / games, statistics.mean(rounds), 1 / players


def ai_selfplay(rules, players: int, games: int):
    rounds = []
    uses: dict[str, int] = {}
    for g in range(games):
        seats = [f"p{i + 1}" for i in range(players)]
        state = rules.new_game(seats, 10_000 + g)
        while not rules.is_over(state):
            for seat in rules.to_act(state):
                for ev in rules.apply(state, seat, rules.ai_action(state, seat)):
                    if ev["type"] in ("move", "block", "detour", "backward") and ev.get("type") != "move":
                        uses[ev["type"]] = uses.get(ev["type"], 0) + 1
                    elif ev["type"] == "move" and ev["days"] == ev["card"]:
                        uses[f"move{ev['card']}"] = uses.get(f"move{ev['card']}", 0) + 1
        rounds.append(state.round)
    rounds.sort()
    return statistics.mean(rounds), rounds[len(rounds) // 10], rounds[len(rounds) * 9 // 10], uses


def bench_render(rules, players: int, samples: int = 60):
    from render import detour as R

    seats = [f"p{i + 1}" for i in range(players)]
    names = {s: f"Player {i + 1}" for i, s in enumerate(seats)}
    views = []
    state = rules.new_game(seats, 3)
    while not rules.is_over(state) and len(views) < samples:
        events = []
        for seat in rules.to_act(state):
            events = rules.apply(state, seat, rules.ai_action(state, seat))
        views.append((rules.view(state, None), events))
    times, sizes = [], []
    for v, ev in views:
        t0 = time.perf_counter()
        png = R.render_board(v, names=names, lang="en", events=ev)
        times.append((time.perf_counter() - t0) * 1000)
        sizes.append(len(png))
    times.sort()
    htimes = []
    for _ in range(20):
        t0 = time.perf_counter()
        R.render_hand(rules.view(state, "p1"), "p1", names=names, lang="en")
        htimes.append((time.perf_counter() - t0) * 1000)
    return (statistics.median(times), times[int(len(times) * 0.95) - 1], statistics.median(sizes), max(sizes),
            statistics.median(htimes))


def main() -> None:
    quick = "--quick" in sys.argv
    rules = registry.get("detour")
    for players in (4, 3, 2):
        rate, mean_rounds = bench_playouts(rules, players, 1.0 if quick else 3.0)
        print(f"random playouts, {players} players: {rate:,.0f} games/s (median of 5), mean {mean_rounds:.1f} rounds")
    games = 100 if quick else 600
    for players in (2, 3, 4):
        win, rounds, base = ai_vs_random(rules, players, games)
        print(f"AI vs random, {players} players, {games} games: AI wins {win:.1%} (chance {base:.0%}), "
              f"mean {rounds:.1f} rounds")
    for players in (2, 3, 4):
        mean, p10, p90, uses = ai_selfplay(rules, players, 100 if quick else 300)
        print(f"AI self-play, {players} players: mean {mean:.1f} rounds (p10 {p10}, p90 {p90}); uses {uses}")
    try:
        med, p95, size, size_max, hand = bench_render(rules, 4)
        print(f"render board 4p: median {med:.1f} ms, p95 {p95:.1f} ms, PNG median {size / 1000:.0f} KB "
              f"(max {size_max / 1000:.0f} KB); hand {hand:.1f} ms")
    except ImportError as exc:
        print("renderer not available:", exc)


if __name__ == "__main__":
    main()
