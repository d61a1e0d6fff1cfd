"""Random 4-player playouts, engine alone, for every game: games per second (medians).

    .venv/bin/python bench/bench_playouts.py                 # this tree
    .venv/bin/python bench/bench_playouts.py --rev HEAD~3    # this tree and REV, interleaved A/B/A/B

Every repetition runs each tree in a fresh subprocess that plays seeded random games for a
fixed slice of CPU time per game (the same seeds for both trees), so machine load hits both
sides alike; the figures are medians over the repetitions, in games per CPU second (on an
idle machine that is games per wall second). REV is checked out with `git worktree add
--detach` into a temporary folder and removed afterwards; this script drives it, so REV
needs no benchmark of its own.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("detour", "around-the-world", "rails-and-sails", "eighty-days")
#: random playouts a game must not fall below (issue 25: floors, not targets)
FLOORS = {"detour": 2100, "around-the-world": 400, "rails-and-sails": 80, "eighty-days": 200}


def random_game(rules: Any, seats: list[str], seed: int) -> int:
    """One game where the first seat to act picks a uniformly random legal action; its steps."""
    from engine import Rng

    state = rules.new_game(seats, seed)
    rng = Rng.from_seed(seed + 7919)
    # the unchecked `push` for an action from `legal_actions` (a tree from before it: `apply`)
    apply = getattr(rules, "push", rules.apply)
    legal_actions, to_act, is_over = rules.legal_actions, rules.to_act, rules.is_over
    steps = 0
    while not is_over(state):
        seat = to_act(state)[0]
        legal = legal_actions(state, seat)
        apply(state, seat, legal[rng.below(len(legal))])
        steps += 1
    return steps


def normal_game(rules: Any, seats: list[str], seed: int, choose: Any) -> int:
    """One game where every seat plays `choose` (the normal AI) fed its own view, as a hard
    seat's playouts do (`engine.ai.playout`); its steps."""
    state = rules.new_game(seats, seed)
    apply = getattr(rules, "push", rules.apply)
    legal_actions, to_act, is_over, view = rules.legal_actions, rules.to_act, rules.is_over, rules.view
    steps = 0
    while not is_over(state):
        seat = to_act(state)[0]
        legal = legal_actions(state, seat)
        apply(state, seat, legal[0] if len(legal) == 1 else choose(view(state, seat), seat, legal))
        steps += 1
    return steps


def _policy(game_id: str, name: str) -> Any:
    """The playouts' policy: None for random moves, else the game's normal AI (a tree from
    before the levels: its registered policy)."""
    if name == "random":
        return None
    from engine import registry

    try:
        from engine.ai import policy
    except ImportError:
        return registry.get(game_id).policy
    return policy(game_id, name)


def playout_rate(game_id: str, seconds: float, seed: int = 0, players: int = 4, policy: str = "random") -> float:
    """Games per CPU second of `players`-player playouts (random moves, or every seat playing
    the normal AI) over about `seconds`."""
    from engine import registry

    rules = registry.get(game_id)
    choose = _policy(game_id, policy)
    games = 0
    seats = [f"p{i + 1}" for i in range(players)]

    def play(seed: int) -> int:
        return random_game(rules, seats, seed) if choose is None else normal_game(rules, seats, seed, choose)

    warm = time.process_time()
    while time.process_time() - warm < seconds / 3:  # warm up: memo caches fill on first use, as in a running bot
        play(999_999 - games)
        games += 1
    games = 0
    t0 = time.process_time()
    while (elapsed := time.process_time() - t0) < seconds:
        play(seed + games)
        games += 1
    return games / elapsed


def view_share(game_id: str, seconds: float, players: int = 4) -> tuple[float, float]:
    """The shares of a normal-AI playout's CPU time spent building views and legal lists."""
    from engine import registry

    rules = registry.get(game_id)
    choose = _policy(game_id, "normal")
    spent = {"view": 0.0, "legal": 0.0}

    def timed(name: str, call: Any) -> Any:
        def run(*args: Any) -> Any:
            t = time.perf_counter()
            try:
                return call(*args)
            finally:
                spent[name] += time.perf_counter() - t
        return run

    class Timed:
        """The game's rules, with the time spent in `view` and `legal_actions` counted."""

        view = staticmethod(timed("view", rules.view))
        legal_actions = staticmethod(timed("legal", rules.legal_actions))

        def __getattr__(self, name: str) -> Any:
            return getattr(rules, name)

    seats = [f"p{i + 1}" for i in range(players)]
    t0, games = time.perf_counter(), 0
    while time.perf_counter() - t0 < seconds:
        normal_game(Timed(), seats, games, choose)
        games += 1
    total = time.perf_counter() - t0
    return spent["view"] / total, spent["legal"] / total


def playout_medians(game_id: str, seconds: float, repetitions: int = 5, players: int = 4) -> list[float]:
    """The rate of `repetitions` slices of `seconds / repetitions` each, in this process."""
    return [playout_rate(game_id, seconds / repetitions, 10_000 * k, players) for k in range(repetitions)]


def playout_line(game_id: str, seconds: float = 3.0, repetitions: int = 5) -> float:
    """Print and return the median random 4-player playout rate of `game_id` in this process
    (the figure the game benchmarks open with; bench_playouts.py compares trees)."""
    rates = playout_medians(game_id, seconds, repetitions)
    median = statistics.median(rates)
    print(f"{game_id}: random 4-player playouts: {median:,.0f} games/s (median of {repetitions} slices of "
          f"{seconds / repetitions:.1f} CPU s: {', '.join(f'{r:,.0f}' for r in rates)})")
    return median


def worker(root: str, seconds: float, seed: int, games: list[str], policy: str) -> None:
    """Measure the tree at `root` (its `engine` package comes first on the path)."""
    sys.path.insert(0, root)
    print(json.dumps({g: playout_rate(g, seconds, seed, policy=policy) for g in games}))


def measure(root: Path, seconds: float, seed: int, games: list[str], policy: str = "random") -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", str(root), "--seconds", str(seconds),
         "--seed", str(seed), "--policy", policy, *[arg for g in games for arg in ("--game", g)]],
        check=True, capture_output=True, text=True, cwd=root,
    )
    rates: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return rates


def report(label: str, runs: list[dict[str, float]], games: list[str], policy: str = "random") -> dict[str, float]:
    medians = {g: statistics.median(r[g] for r in runs) for g in games}
    for g in games:
        target = f" (floor {FLOORS[g]:,})" if g in FLOORS and policy == "random" else ""
        what = "random" if policy == "random" else f"{policy}-AI"
        print(f"{label} {g}: {what} 4-player playouts: {medians[g]:,.2f} games/s{target} "
              f"[{', '.join(f'{r[g]:,.0f}' for r in runs)}]")
    return medians


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", help="also measure this git revision, interleaved")
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=0.35, help="CPU seconds per game and repetition")
    parser.add_argument("--game", action="append", choices=GAMES, help="only these games")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--policy", choices=("random", "normal"), default="random",
                        help="normal: every seat plays the normal AI on its own view (a hard seat's playouts)")
    parser.add_argument("--shares", action="store_true",
                        help="with --policy normal: the shares of views and legal lists in a playout")
    parser.add_argument("--worker", metavar="ROOT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    games = args.game or list(GAMES)
    if args.worker:
        worker(args.worker, args.seconds, args.seed, games, args.policy)
        return
    if args.shares:
        for g in games:
            views, legal = view_share(g, args.seconds * args.repetitions)
            print(f"{g}: normal-AI playouts spend {views:.0%} of their time building views, {legal:.0%} legal lists")
        return
    if not args.rev:
        runs = [measure(ROOT, args.seconds, 1_000 * k, games, args.policy) for k in range(args.repetitions)]
        report("this tree", runs, games, args.policy)
        return
    with tempfile.TemporaryDirectory(prefix="bench-rev-") as tmp:
        other = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(other), args.rev],
                       check=True)
        try:
            mine, theirs = [], []
            for k in range(args.repetitions):
                mine.append(measure(ROOT, args.seconds, 1_000 * k, games, args.policy))
                theirs.append(measure(other, args.seconds, 1_000 * k, games, args.policy))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)], check=True)
    before = report(f"{args.rev}:", theirs, games, args.policy)
    after = report("this tree:", mine, games, args.policy)
    for g in games:
        print(f"{g}: {after[g] / before[g]:.2f}× of {args.rev}")


if __name__ == "__main__":
    main()
