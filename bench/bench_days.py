"""Benchmark of eighty-days (a script, not a test): random playouts and AI against random.

Run: .venv/bin/python bench/bench_days.py [--full [--quick] [--matches | --balance]]   (default: the playout rate only)
(--matches: the AI against random and greedy seats; --balance: AI self-play tables and
the degenerate seats, as reported in docs/games/eighty-days.md)
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_playouts import playout_line  # noqa: E402

from engine import Rng, registry  # noqa: E402
from engine.games.eighty_days import ai  # noqa: E402
from engine.games.eighty_days import content as C  # noqa: E402


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


Policy = Callable[[Any, str, Any], dict]


def random_policy(rng: Rng) -> Policy:
    """A uniformly random legal action (its own generator)."""
    def pick(rules: Any, seat: str, state: Any) -> dict:
        legal = rules.legal_actions(state, seat)
        return legal[rng.below(len(legal))]
    return pick


def ai_policy(rules: Any, seat: str, state: Any) -> dict:
    return rules.ai_action(state, seat)


def _view_policy(decide: Callable[[dict, str, list[dict]], dict]) -> Policy:
    """A baseline deciding, like the AI, from its own view and its legal actions."""
    def pick(rules: Any, seat: str, state: Any) -> dict:
        return decide(rules.view(state, seat), seat, rules.legal_actions(state, seat))
    return pick


def _missing(view: dict, seat: str) -> dict[str, int]:
    me = next(p for p in view["players"] if p["seat"] == seat)
    card = (view.get("private") or {}).get("adventure")
    if not card:
        return {}
    return {k: n - me["items"][k] for k, n in card["items"].items() if n > me["items"][k]}


def greedy_decide(view: dict, seat: str, legal: list[dict]) -> dict:
    """The greedy baseline: complete whenever possible; keep the card that misses the
    fewest items; buy an item the held adventure still needs when the market sells it;
    otherwise the cheapest trip that gets nearer the arrival London; otherwise pass."""
    by: dict[str, list[dict]] = {}
    for a in legal:
        by.setdefault(a["type"], []).append(a)
    if "keep_adventure" in by:
        draft = {c["id"]: c for c in (view.get("private") or {}).get("draft", [])}
        me = next(p for p in view["players"] if p["seat"] == seat)
        return min(by["keep_adventure"], key=lambda a: sum(
            max(0, n - me["items"][k]) for k, n in draft[a["card"]]["items"].items()) if a["card"] in draft else 9)
    if "complete" in by:
        return by["complete"][0]
    if "end_turn" in by:
        return by["end_turn"][0]
    if "pass" not in by:  # a waiting decision
        return legal[0]
    missing = _missing(view, seat)
    buys = [a for a in by.get("buy", []) if a["item"] in missing]
    if buys:
        return min(buys, key=lambda a: view["areas"][a["market"]]["next_cost"])
    me = next(p for p in view["players"] if p["seat"] == seat)
    dist = {c["id"]: c["distance"] for c in view["map"]["cities"]}
    lines = {ln["id"]: ln for ln in view["map"]["lines"]}

    def to(a: dict) -> str:
        ln = lines[a["line"]]
        return ln["b"] if ln["a"] == me["city"] else ln["a"]

    def cost(a: dict) -> int:
        c = lines[a["line"]]["cost"]
        return view["areas"][a["area"]]["next_cost"] + (c["coins"] if c and c["kind"] == "coins" else 0)
    east = [a for a in by.get("travel", []) if dist[to(a)] < me["distance"]]
    if east:
        return min(east, key=cost)
    return by["pass"][0]


def never_travel_decide(view: dict, seat: str, legal: list[dict]) -> dict:
    """A degenerate seat: the AI's choices, but it never travels."""
    allowed = [a for a in legal if a["type"] not in ("travel", "leonard", "mary")] or legal
    return ai.choose(view, seat, allowed)


def pass_at_once_decide(view: dict, seat: str, legal: list[dict]) -> dict:
    """A degenerate seat: answers decisions like the AI, passes at its first turn of every period."""
    passes = [a for a in legal if a["type"] == "pass"]
    return passes[0] if passes else ai.choose(view, seat, legal)


def never_complete_decide(view: dict, seat: str, legal: list[dict]) -> dict:
    """A degenerate seat: the AI's choices, but it never completes an adventure."""
    allowed = [a for a in legal if a["type"] != "complete"] or legal
    return ai.choose(view, seat, allowed)


POLICIES: dict[str, Callable[[int], Policy]] = {
    "ai": lambda seed: ai_policy,
    "random": lambda seed: random_policy(Rng.from_seed(seed)),
    "greedy": lambda seed: _view_policy(greedy_decide),
    "never_travel": lambda seed: _view_policy(never_travel_decide),
    "pass_at_once": lambda seed: _view_policy(pass_at_once_decide),
    "never_complete": lambda seed: _view_policy(never_complete_decide),
}


def match(rules: Any, names: list[str], games: int, options: dict, seed0: int = 0) -> dict[str, Any]:
    """Seeded games with the policies `names` rotated over the seats (so each sits at every
    place); per policy: win rate (shared wins count), mean score, adventures, London rate;
    plus the winner's scores and how often each adventure was completed."""
    players = len(names)
    stats = {n: {"win": 0.0, "score": [], "adventures": [], "london": 0, "seats": 0} for n in set(names)}
    winner_scores: list[int] = []
    completed: dict[str, int] = {}
    for g in range(games):
        seed = seed0 + g
        seats = [f"p{i + 1}" for i in range(players)]
        rot = [names[(i + g) % players] for i in range(players)]
        pols = {s: POLICIES[n](seed * 31 + k) for k, (s, n) in enumerate(zip(seats, rot, strict=True))}
        state = rules.new_game(seats, seed, options)
        while not rules.is_over(state):
            seat = rules.to_act(state)[0]
            rules.apply(state, seat, pols[seat](rules, seat, state))
        result = rules.result(state)
        winner_scores.append(result["ranking"][0]["score"])
        for row in result["ranking"]:
            n = rot[seats.index(row["seat"])]
            st = stats[n]
            st["win"] += row["seat"] in result["winners"]
            st["score"].append(row["score"])
            st["adventures"].append(row["adventures"])
            st["london"] += row["distance"] == 0
            st["seats"] += 1
        for diary in state.diary:
            for card in diary:
                completed[card] = completed.get(card, 0) + 1
    out = {n: {"win": st["win"] / games, "score": statistics.mean(st["score"]),
               "adventures": statistics.mean(st["adventures"]), "london": st["london"] / st["seats"],
               "seats_per_game": st["seats"] / games} for n, st in stats.items()}
    return {"policies": out, "winner_score": statistics.mean(winner_scores), "completed": completed,
            "games": games}


def ai_vs_random(rules: Any, players: int, games: int, options: dict) -> dict[str, float]:
    """One AI seat (rotating) against random seats: win rate, its mean score, adventures and
    how often it reached London."""
    r = match(rules, ["ai"] + ["random"] * (players - 1), games, options)["policies"]["ai"]
    return {**r, "chance": 1 / players}


def matches(rules: Any, games: int) -> None:
    """The AI against random and greedy seats, every player count, both sides."""
    for opp in ("random", "greedy"):
        for options in ({}, {"side": "B"}):
            for players in (2, 3, 4):
                r = match(rules, ["ai"] + [opp] * (players - 1), games, options)["policies"]
                a, o = r["ai"], r[opp]
                side = options.get("side", "A")
                print(f"AI vs {players - 1} {opp}, side {side}, {games} games: AI wins {a['win']:.0%}"
                      f" (score {a['score']:.1f}, London {a['london']:.0%}, {a['adventures']:.1f} adventures);"
                      f" {opp} wins {o['win']:.0%} (score {o['score']:.1f}, London {o['london']:.0%})")


def balance(rules: Any, games: int) -> None:
    """AI self-play over 2-4 players, both sides, assistants off/on; the degenerate seats."""
    total: dict[str, int] = {}
    n_games = 0
    print("| Players | Side | Assistants | London | Adventures | Winner's score | Mean score |")
    print("|---|---|---|---|---|---|---|")
    for players in (2, 3, 4):
        for side in ("A", "B"):
            for helpers in (False, True):
                r = match(rules, ["ai"] * players, games, {"side": side, "assistants": helpers})
                a = r["policies"]["ai"]
                print(f"| {players} | {side} | {'on' if helpers else 'off'} | {a['london']:.0%} |"
                      f" {a['adventures']:.1f} | {r['winner_score']:.1f} | {a['score']:.1f} |")
                for card, k in r["completed"].items():
                    total[card] = total.get(card, 0) + k
                n_games += games
    print(f"\nadventures completed per 100 games ({n_games} games):")
    print(" ".join(f"{c}:{100 * total.get(c, 0) / n_games:.0f}" for c in [*C.ADVENTURES, *C.LONDON_ADVENTURES]))
    print("\n| Degenerate seat | Side | Its wins | AI wins | Its score | AI score |")
    print("|---|---|---|---|---|---|")
    for bot in ("never_travel", "pass_at_once", "never_complete"):
        for side in ("A", "B"):
            r = match(rules, [bot, "ai", "ai"], games, {"side": side})["policies"]
            print(f"| {bot} | {side} | {r[bot]['win']:.0%} | {r['ai']['win']:.0%} | {r[bot]['score']:.1f} |"
                  f" {r['ai']['score']:.1f} |")


def main() -> None:
    playout_line("eighty-days")  # the standard figure (a few seconds); the reports below only with --full
    if "--full" not in sys.argv:
        return
    quick = "--quick" in sys.argv
    rules = registry.get("eighty-days")
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    if "--balance" in sys.argv:
        balance(rules, 20 if quick else 60)
        return
    if "--matches" in sys.argv:
        matches(rules, 30 if quick else 100)
        return
    for options in ({}, {"side": "B", "assistants": True}):
        for players in (4, 3, 2):
            wall, cpu, steps = bench_playouts(rules, players, options, 1.0 if quick else 3.0)
            print(f"random playouts, {players} players {options or 'side A'}: {wall:,.0f} games/s wall, "
                  f"{cpu:,.0f} games per CPU-second (medians of 5), mean {steps:.0f} decisions")
    decisions = ai_decision_ms(rules, 10 if quick else 30)
    print(f"AI decision: median {statistics.median(decisions):.2f} ms, p95 {pct(decisions, 0.95):.2f} ms")
    games = 40 if quick else 200
    for options in ({}, {"side": "B", "assistants": True}):
        for players in (2, 3, 4):
            r = ai_vs_random(rules, players, games, options)
            print(f"AI vs random, {players} players {options or 'side A'}, {games} games: AI wins {r['win']:.0%} "
                  f"(chance {r['chance']:.0%}), mean score {r['score']:.1f}, {r['adventures']:.1f} adventures, "
                  f"London {r['london']:.0%}")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ai_decision_ms(rules: Any, games: int) -> list[float]:
    """Milliseconds per AI decision (view + policy), 4-player AI self-play."""
    out = []
    for g in range(games):
        seats = ["p1", "p2", "p3", "p4"]
        state = rules.new_game(seats, g, {"side": "AB"[g % 2]})
        while not rules.is_over(state):
            seat = rules.to_act(state)[0]
            t0 = time.perf_counter()
            action = rules.ai_action(state, seat)
            out.append((time.perf_counter() - t0) * 1000)
            rules.apply(state, seat, action)
    return out


if __name__ == "__main__":
    main()
