"""Game-end memories benchmark: CPU seconds and bytes of the timelapse GIF (and the summary
PNG) per game, for a whole seeded game of AI seats at the most players the game allows.

    .venv/bin/python bench/bench_memories.py [--rev REV] [--seeds 11] [--games rails-and-sails,...]

Of the given seeds, each game's longest playout (most actions) is drawn. Every game is drawn
in a fresh worker process: `cold` is its first timelapse (static layers and caches built, as
in a render worker's first memory of a language), `warm` the best of two more. With
`--rev REV` the same games (played by this tree's engine and AI, sent as plain data) are also
drawn by a `git worktree` of REV in its own fresh process, game by game, A then B, and both
are printed with the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
ROOT = HERE.parent.parent
GAMES = ("rails-and-sails", "around-the-world", "detour", "eighty-days")
NAMES = ["Alice", "Bob the Builder", "Chloé", "Dmitri 🚂", "Eve", "Fritz"]


def playout(game_id: str, seed: int) -> dict[str, Any]:
    """A whole seeded game of AI seats, as the plain fields of a `MemoryJob`."""
    from bot import games

    spec = games.get(game_id)
    rules = spec.rules
    seats = [f"p{i + 1}" for i in range(rules.max_players)]
    state = rules.new_game(seats, seed, {})
    actions = []
    while not rules.is_over(state):
        seat = rules.to_act(state)[0]
        action = spec.ai(rules.view(state, seat), seat, rules.legal_actions(state, seat))
        rules.apply(state, seat, action)
        actions.append([seat, action])
    return {"game_id": game_id, "seats": seats, "names": dict(zip(seats, NAMES, strict=False)), "seed": seed,
            "options": {}, "actions": actions, "lang": "en"}


def worker() -> None:
    """Draw the job on stdin (in whichever tree is first on sys.path) and print the figures."""
    from bot.features.memories import MemoryJob, render_memory

    raw = json.load(sys.stdin)
    job = MemoryJob(raw["game_id"], tuple(raw["seats"]), raw["names"], raw["seed"], raw["options"],
                    tuple((seat, action) for seat, action in raw["actions"]), raw["lang"])
    times = []
    gif = b""
    for _ in range(3):
        start = time.process_time()
        gif = render_memory("timelapse", job)
        times.append(time.process_time() - start)
    start = time.process_time()
    summary = render_memory("summary", job)
    summary_s = time.process_time() - start
    print(json.dumps({"cold": times[0], "warm": min(times[1:]), "bytes": len(gif), "summary": summary_s,
                      "summary_bytes": len(summary)}))


def run(root: Path, job: dict[str, Any]) -> dict[str, Any]:
    """One fresh worker process over the tree at `root` (its modules first on the path)."""
    env = dict(os.environ, PYTHONPATH=str(root))
    out = subprocess.run([sys.executable, str(HERE), "--worker"], input=json.dumps(job), env=env, cwd=root,
                         capture_output=True, text=True, check=True)
    figures: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


def line(label: str, f: dict[str, Any]) -> str:
    return (f"{label:>4}: timelapse cold {f['cold']:5.2f} s  warm {f['warm']:5.2f} s  {f['bytes'] / 1e6:5.2f} MB"
            f"  | summary {f['summary']:4.2f} s  {f['summary_bytes'] / 1e3:4.0f} KB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--rev", help="also draw with this git revision (A/B, game by game)")
    parser.add_argument("--seeds", default="11", help="comma-separated seeds; the longest game is drawn")
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    sys.path.insert(0, str(ROOT))
    other: Path | None = None
    tmp = tempfile.TemporaryDirectory() if args.rev else None
    try:
        if tmp is not None:
            other = Path(tmp.name) / "rev"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(other), args.rev],
                           check=True, capture_output=True)
        for game in args.games.split(","):
            jobs = [playout(game, int(seed)) for seed in args.seeds.split(",")]
            job = max(jobs, key=lambda j: len(j["actions"]))
            print(f"{game} (seed {job['seed']}, {len(job['seats'])} players, {len(job['actions'])} moves)")
            mine = run(ROOT, job)
            print(line("this", mine))
            if other is not None:
                theirs = run(other, job)
                print(line("rev", theirs))
                print(f"      this/rev CPU: cold {mine['cold'] / theirs['cold']:.2f}  warm "
                      f"{mine['warm'] / theirs['warm']:.2f}")
    finally:
        if other is not None:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)], check=False,
                           capture_output=True)
        if tmp is not None:
            tmp.cleanup()


if __name__ == "__main__":
    main()
