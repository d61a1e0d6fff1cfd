"""Benchmark of rails-and-sails (a script, not a test): random playouts, state size, AI reports.

Run: .venv/bin/python bench/bench_rails.py [--full [--quick] [--ai GAMES]]   (default: the playout rate only)
     .venv/bin/python bench/bench_rails.py --bounds [GAMES]   (what the playout rate could reach, see `playout_bounds`)
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_playouts import FLOORS, playout_line  # noqa: E402
from bench_playouts import random_game as playout_game  # noqa: E402

from engine import Rng, registry  # noqa: E402


def random_game(rules, seats, seed):
    state = rules.new_game(seats, seed)
    rng = Rng.from_seed(seed + 7919)
    legal_actions, apply, to_act = rules.legal_actions, rules.apply, rules.to_act
    steps = 0
    while state.phase != "over":
        acting = to_act(state)
        seat = acting[0]
        legal = legal_actions(state, seat)
        apply(state, seat, legal[rng.below(len(legal))])
        steps += 1
    return state, steps


def bench_playouts(rules, players: int, seconds: float) -> tuple[float, float, float, int]:
    """Median games per CPU second over 5 slices; mean actions per game; median and max dump size (bytes)."""
    seats = [f"p{i + 1}" for i in range(players)]
    rates, steps, sizes = [], [], []
    seed = 0
    for _ in range(5):
        n = 0
        t0 = time.process_time()  # CPU time of this process: robust when the machine is shared
        while time.process_time() - t0 < seconds / 5:
            s, k = random_game(rules, seats, seed)
            steps.append(k)
            seed += 1
            n += 1
        rates.append(n / (time.process_time() - t0))
        sizes.append(len(json.dumps(rules.dump(s), separators=(",", ":"))))
    return statistics.median(rates), statistics.mean(steps), statistics.median(sizes), max(sizes)


def state_sizes(rules, players: int) -> tuple[int, int]:
    """Dump size (compact JSON) at the start of play and at the end of an AI game."""
    seats = [f"p{i + 1}" for i in range(players)]
    s = rules.new_game(seats, 1)
    sizes = []
    while not rules.is_over(s):
        if s.phase == "play" and not sizes:
            sizes.append(len(json.dumps(rules.dump(s), separators=(",", ":"))))
        seat = rules.to_act(s)[0]
        rules.apply(s, seat, rules.ai_action(s, seat))
    sizes.append(len(json.dumps(rules.dump(s), separators=(",", ":"))))
    return sizes[0], sizes[1]


def per_move_costs(rules, players: int = 4) -> dict[str, float]:
    """Median µs per call over the states of one AI game: what the platform pays per move."""
    seats = [f"p{i + 1}" for i in range(players)]
    s = rules.new_game(seats, 2)
    times: dict[str, list[float]] = {"dump+json": [], "load": [], "view public": [], "view seat": [], "legal": [],
                                     "ai_action": []}
    clock = time.perf_counter
    while not rules.is_over(s):
        seat = rules.to_act(s)[0]
        t0 = clock()
        text = json.dumps(rules.dump(s))
        t1 = clock()
        rules.load(json.loads(text))
        t2 = clock()
        rules.view(s, None)
        t3 = clock()
        rules.view(s, seat)
        t4 = clock()
        rules.legal_actions(s, seat)
        t5 = clock()
        action = rules.ai_action(s, seat)
        t6 = clock()
        for key, dt in zip(times, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5), strict=True):
            times[key].append(dt * 1e6)
        rules.apply(s, seat, action)
    return {k: statistics.median(v) for k, v in times.items()}


def ai_vs_random(rules, players: int, games: int):
    """One AI seat (rotating through the seat order) against random players."""
    wins = 0
    ai_scores, rnd_scores, turns = [], [], []
    for g in range(games):
        seats = [f"p{i + 1}" for i in range(players)]
        ai_seat = seats[g % players]
        state = rules.new_game(seats, g)
        rng = Rng.from_seed(g * 31 + 5)
        while not rules.is_over(state):
            seat = rules.to_act(state)[0]
            if seat == ai_seat:
                a = rules.ai_action(state, seat)
            else:
                legal = rules.legal_actions(state, seat)
                a = legal[rng.below(len(legal))]
            rules.push(state, seat, a)  # listed or the policy's pick: no second check
        res = rules.result(state)
        wins += ai_seat in res["winners"]
        for row in res["ranking"]:
            (ai_scores if row["seat"] == ai_seat else rnd_scores).append(row["score"])
        turns.append(state.turn)
    return wins / games, statistics.mean(ai_scores), statistics.mean(rnd_scores), statistics.mean(turns)


def ai_selfplay(rules, players: int, games: int):
    scores, turns, tickets_done, tickets_all, harbors, parts = [], [], 0, 0, 0, {"routes": 0, "tickets": 0,
                                                                                      "harbors": 0}
    stalled = 0
    t0 = time.perf_counter()
    for g in range(games):
        seats = [f"p{i + 1}" for i in range(players)]
        state = rules.new_game(seats, 10_000 + g)
        while not rules.is_over(state):
            seat = rules.to_act(state)[0]
            events = rules.apply(state, seat, rules.ai_action(state, seat))
            stalled += any(e["type"] == "final_round_stalled" for e in events)
        res = rules.result(state)
        for row in res["ranking"]:
            scores.append(row["score"])
            tickets_done += row["completed"]
            tickets_all += len(row["ticket_detail"])
            for k in parts:
                parts[k] += row[k]
        harbors += len(state.harbors)
        turns.append(state.turn)
    elapsed = time.perf_counter() - t0
    n = games * players
    return {
        "score": statistics.mean(scores), "turns": statistics.mean(turns), "per_player_turns": statistics.mean(turns)
        / players, "tickets_done": tickets_done / max(1, tickets_all), "tickets_per_player": tickets_all / n,
        "harbors_per_player": harbors / n, "routes": parts["routes"] / n, "tickets": parts["tickets"] / n,
        "harbor_points": parts["harbors"] / n, "ms_per_game": elapsed / games * 1000, "stalled": stalled,
    }


def playout_bounds(games: int = 40, repetitions: int = 5) -> None:
    """Upper bounds of the random-playout rate: the same seeded games (those of
    bench_playouts.py) replayed with a part of the work answered from a recording of a first
    run, at the cost of one `next()` -- (a) the claim listing (`_claims`) free, (b) all of
    `legal_actions` free, leaving `push`, `to_act`, `is_over` and the harness. No listing of
    claims, however it is cached or invalidated, can beat (a); no listing at all can beat (b).
    The three are interleaved per repetition (machine noise hits them alike); medians."""
    rules = type(registry.get("rails-and-sails"))()  # a private instance: patched below
    seats = ["p1", "p2", "p3", "p4"]

    def run() -> tuple[float, int]:
        t0, steps = time.process_time(), 0
        for g in range(games):
            steps += playout_game(rules, seats, g)
        return games / (time.process_time() - t0), steps

    def recording(name: str) -> list:
        real = getattr(rules, name)
        out: list = []
        setattr(rules, name, lambda *args: out.append(real(*args)) or out[-1])
        try:
            run()
        finally:
            delattr(rules, name)
        return out

    for g in range(games // 4):  # warm the memo caches, as in a running bot
        playout_game(rules, seats, 999_999 - g)
    recorded = {"_claims": recording("_claims"), "legal_actions": recording("legal_actions")}
    labels = {"": "as built", "_claims": "claim listing free", "legal_actions": "legal_actions free"}
    rates: dict[str, list[float]] = {k: [] for k in labels}
    steps = 0
    for _ in range(repetitions):
        for name in labels:
            if name:
                answers = iter(recorded[name])
                setattr(rules, name, lambda *args, nxt=answers.__next__: nxt())
            try:
                rate, steps = run()
            finally:
                if name:
                    delattr(rules, name)
            rates[name].append(rate)
    floor = FLOORS["rails-and-sails"]
    print(f"rails-and-sails random 4-player playouts, {games} seeded games ({steps / games:.0f} steps/game), "
          f"{repetitions} interleaved repetitions (floor {floor}):")
    for name, label in labels.items():
        median = statistics.median(rates[name])
        print(f"  {label:>20}: {median:6,.0f} games/s  {1e6 / (median * steps / games):5.1f} µs/step  "
              f"[{', '.join(f'{r:,.0f}' for r in rates[name])}]")


def main() -> None:
    if "--bounds" in sys.argv:
        at = sys.argv.index("--bounds") + 1
        playout_bounds(int(sys.argv[at]) if at < len(sys.argv) else 40)
        return
    playout_line("rails-and-sails")  # the standard figure (a few seconds); the reports below only with --full
    if "--full" not in sys.argv:
        return
    quick = "--quick" in sys.argv
    ai_games = int(sys.argv[sys.argv.index("--ai") + 1]) if "--ai" in sys.argv else (20 if quick else 100)
    rules = registry.get("rails-and-sails")
    for players in (2, 4):
        rate, steps, size, size_max = bench_playouts(rules, players, 2.0 if quick else 6.0)
        print(f"random playouts, {players} players: {rate:,.1f} games/s (median of 5), {steps:.0f} actions/game, "
              f"final dump {size:,} B median ({size_max:,} B max)")
    for players in (2, 3, 4, 5):
        start, end = state_sizes(rules, players)
        print(f"state size, {players} players: {start:,} B at the start of play, {end:,} B at the end (JSON dump)")
    costs = per_move_costs(rules)
    print("per move, 4 players (median µs): " + ", ".join(f"{k} {v:,.0f}" for k, v in costs.items()))
    for players in (2, 3, 4, 5):
        win, ai, rnd, turns = ai_vs_random(rules, players, ai_games)
        print(f"AI vs random, {players} players, {ai_games} games: AI wins {win:.1%}, mean score AI {ai:.1f} / "
              f"random {rnd:.1f}, mean {turns:.0f} turns")
    for players in (2, 3, 4, 5):
        r = ai_selfplay(rules, players, ai_games)
        print(f"AI self-play, {players} players, {ai_games} games: mean score {r['score']:.1f} (routes "
              f"{r['routes']:.1f}, tickets {r['tickets']:.1f}, harbors {r['harbor_points']:.1f}); "
              f"{r['turns']:.0f} turns ({r['per_player_turns']:.1f} per player); "
              f"{r['tickets_per_player']:.1f} tickets/player, {r['tickets_done']:.0%} completed; "
              f"{r['harbors_per_player']:.1f} harbors/player; {r['ms_per_game']:.0f} ms/game; "
              f"{r['stalled']} ended by a safety rule")


if __name__ == "__main__":
    main()
