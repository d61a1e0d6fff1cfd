"""AI levels head to head: seeded 2- and 4-player games between two policies, win rates with 95 %
Wilson intervals, one row per game, pair and player count.

    .venv/bin/python bench/bench_ai_levels.py --games 20                     # every default row
    .venv/bin/python bench/bench_ai_levels.py --game detour --pair hard,normal --games 100 --players 2
    .venv/bin/python bench/bench_ai_levels.py --game rails-and-sails --pair hard,normal --budget 0.1

A player is a level (`easy`, `normal`, `hard`, from `engine.ai.policy`), `today` (the game's
registered `choose`, the AI before the levels) or `random` (a seeded random legal move). In a
2-player game A and B swap seats every game; in a 4-player game A holds two seats and B two,
alternating, the pattern rotating every game (ABAB, BABA, ...), so seat order favours neither.
A game's score for A: 1 for a win, 0 for a loss, the share of the winners that are A's on a
tie; the rate is the mean score, 50 % means even. Decisions are timed in CPU seconds of this
thread; hard's mean and worst decision time are printed with its row.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Rng, registry  # noqa: E402
from engine.ai import LEVELS, policy  # noqa: E402
from engine.core import Action, Policy, View  # noqa: E402

GAMES = ("detour", "around-the-world", "rails-and-sails", "eighty-days")
PLAYERS = (*LEVELS, "today", "random")
DEFAULT_PAIRS = ("easy,normal", "normal,today", "hard,normal", "normal,random")


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate `score / n`."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def make_player(game_id: str, name: str, budget: float | None) -> Policy:
    """A policy by its bench name."""
    if name == "today":
        rules = registry.get(game_id)
        assert rules.policy is not None
        return rules.policy
    if name == "random":
        def random_choice(view: View, seat: str, legal: list[Action]) -> Action:
            from engine.ai import view_seed

            return legal[Rng.from_seed(view_seed(view, seat, "random")).below(len(legal))]

        return random_choice
    return policy(game_id, name, budget=budget)


class Timer:
    """CPU time per decision of one player (only its decisions with a real choice)."""

    def __init__(self) -> None:
        self.total = 0.0
        self.count = 0
        self.worst = 0.0

    def wrap(self, choose: Policy) -> Policy:
        def timed(view: View, seat: str, legal: list[Action]) -> Action:
            if len(legal) < 2:
                return legal[0]
            t0 = time.thread_time()
            action = choose(view, seat, legal)
            spent = time.thread_time() - t0
            self.total += spent
            self.count += 1
            self.worst = max(self.worst, spent)
            return action

        return timed


def play(game_id: str, seats: list[str], chooser: Callable[[str], Policy], seed: int) -> dict[str, Any]:
    """One game; every policy gets only its seat's view and legal actions. The result."""
    rules = registry.get(game_id)
    state = rules.new_game(seats, seed)
    while not rules.is_over(state):
        seat = rules.to_act(state)[0]
        legal = rules.legal_actions(state, seat)
        action = chooser(seat)(rules.view(state, seat), seat, legal)
        if action not in legal:
            raise AssertionError(f"{game_id}: illegal action {action} for {seat}")
        rules.push(state, seat, action)
    result = rules.result(state)
    assert result is not None
    return dict(result)


def row(game_id: str, a: str, b: str, players: int, games: int, budget: float | None, seed0: int) -> str:
    """Play `games` seeded games of A against B; the printed row."""
    pa, pb = make_player(game_id, a, budget), make_player(game_id, b, budget)
    ta, tb = Timer(), Timer()
    pa, pb = ta.wrap(pa), tb.wrap(pb)
    score = 0.0
    t0 = time.perf_counter()
    for g in range(games):
        seats = [f"p{i + 1}" for i in range(players)]
        if players == 2:
            pattern = "AB" if g % 2 == 0 else "BA"
        else:
            base = "AB" * (players // 2) + ("A" if players % 2 else "")
            shift = g % players
            pattern = base[shift:] + base[:shift]
        owner = dict(zip(seats, pattern, strict=True))
        result = play(game_id, seats, lambda s, o=owner: pa if o[s] == "A" else pb, seed0 + g)  # type: ignore[misc]
        winners = result["winners"]
        score += sum(owner[w] == "A" for w in winners) / len(winners)
    lo, hi = wilson(score, games)
    timing = ""
    for name, t in ((a, ta), (b, tb)):
        if name == "hard" and t.count:
            timing += f"  {name}: {t.total / t.count * 1000:.0f} ms/decision mean, {t.worst * 1000:.0f} worst"
    return (f"{game_id:17} {players}p {a:>6} vs {b:<6} {games:4} games: {a} scores {score / games:6.1%} "
            f"[{lo:.1%}, {hi:.1%}]  ({time.perf_counter() - t0:.0f} s){timing}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per row")
    parser.add_argument("--game", action="append", choices=GAMES, help="only these games")
    parser.add_argument("--pair", action="append", help="A,B among " + ", ".join(PLAYERS))
    parser.add_argument("--players", type=int, action="append", help="2 and/or 4 (default both)")
    parser.add_argument("--budget", type=float, help="hard's CPU seconds per decision (default: per game)")
    parser.add_argument("--seed", type=int, default=1000, help="first game's seed")
    args = parser.parse_args()
    for pair in args.pair or DEFAULT_PAIRS:
        a, _, b = pair.partition(",")
        if a not in PLAYERS or b not in PLAYERS:
            parser.error(f"--pair {pair!r}: players are {', '.join(PLAYERS)}")
    for game_id in args.game or GAMES:
        for pair in args.pair or DEFAULT_PAIRS:
            a, _, b = pair.partition(",")
            for players in args.players or (2, 4):
                print(row(game_id, a, b, players, args.games, args.budget, args.seed), flush=True)


if __name__ == "__main__":
    main()
