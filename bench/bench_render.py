"""Board render benchmark: per game, render + encode p50 / p95 (ms) and PNG bytes over
boards from seeded random play, split into draw / quantize / encode.

    .venv/bin/python bench/bench_render.py [--rev REV] [--cpu] [--turns 20] [--games detour,...]

Each game contributes three windows of consecutive turns (three seeded 4-player games, one
per language, the window a third further into each game), the way a table renders turn
after turn. A worker first warms up as a render worker of the bot does, to the end
(`bot.render_pool._warm` of its revision and the steps it leaves for idle time; timed and
printed), then renders a "cold" pass (three windows of other seeds: the first tables a fresh
worker sees), then the timed "warm" pass (steady state: a worker that has drawn other tables
before). Both passes are printed.

Stages are timed by wrapping Pillow and zlib from outside the renderers, so any revision
can be measured the same way: quantize = `Image.quantize` and conversions to "P",
encode = `Image.save` plus `zlib` deflating (a PNG writer of our own), draw = the rest.

With `--rev REV` the same views are also rendered by a `git worktree` of REV (made in a
temporary folder and removed afterwards), in a second worker process, interleaved window
by window (A/B, then B/A, ...) so that both see the same load on a shared machine; both
are printed with the ratio.

    .venv/bin/python bench/bench_render.py --tables 256 [--rounds 4] [--players 2] [--start 6] [--cpu]
        [--rev REV] [--profile FILE]

`--tables N` is what a render worker of a busy bot does (`bench/bench_burst.py`): N tables
(seeded games of `--players`, `--start` moves in, in English as the burst plays), each board
after a move, table after table, round after round: every board comes after N - 1 boards of
other tables. Prints the board's p50 / p95 per round (the first round is every table's first
board: nothing of it was kept) and the worker's resident memory after each round. With
`--profile FILE` the worker writes a cProfile of its rounds after the first.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
ROOT = HERE.parent.parent
GAMES = ("rails-and-sails", "around-the-world", "detour", "eighty-days")
LANGS = ("en", "de", "fr")
NAMES = ["Maximilian-Alexander Großherzög", "🚂 Zoë 🌍✨", "Chloé", "Dmitri"]
STAGES = ("total", "draw", "quantize", "encode")
#: seeds of the windows: the cold pass, then the timed warm pass
PASSES = {"cold": 2000, "warm": 1000}
#: the worker's clock: wall time, or with `--cpu` the worker's CPU time (steadier when
#: other programs share the cores)
CLOCK: Callable[[], float] = time.perf_counter


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- the views (made once, by the current tree's engine, shared by both workers) -------------
def make_views(games: tuple[str, ...], turns: int) -> dict[str, Any]:
    """Per game: a warm-up board per language, and per pass three windows of `turns`
    consecutive boards (window `3 * pass + w`, the cold pass first)."""
    from engine import registry

    out: dict[str, Any] = {}
    for game in games:
        rules = registry.get(game)
        seats = [f"p{i + 1}" for i in range(4)]
        windows = []
        for (_name, first_seed), (w, lang) in ((p, wl) for p in PASSES.items() for wl in enumerate(LANGS)):
            seed = first_seed + w
            state = rules.new_game(seats, seed, {})
            rng = random.Random(seed)
            boards: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
            while not rules.is_over(state) and len(boards) < 3000:
                seat = rules.to_act(state)[0]
                events = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
                boards.append((json.loads(json.dumps(rules.view(state, None))), json.loads(json.dumps(events))))
            start = min(len(boards) - turns, len(boards) * w // 3) if len(boards) > turns else 0
            windows.append({"lang": lang, "boards": boards[start:start + turns]})
        warm = [{"lang": lang, "view": json.loads(json.dumps(rules.view(rules.new_game(seats, 7, {}), None)))}
                for lang in LANGS]
        out[game] = {"windows": windows, "warm": warm, "names": dict(zip(seats, NAMES, strict=True))}
    return out


def make_tables(game: str, tables: int, players: int, start: int, rounds: int) -> dict[str, Any]:
    """`tables` seeded games (seeds 1, 2, ...) `start` moves in, then the public view after
    each of the next `rounds` moves: `rounds[r][i]` is table i's board in round r."""
    from engine import registry

    rules = registry.get(game)
    seats = [f"p{i + 1}" for i in range(players)]
    per_round: list[list[dict[str, Any]]] = [[] for _ in range(rounds)]
    for seed in range(1, tables + 1):
        state = rules.new_game(seats, seed, {})
        rng = random.Random(seed)
        for r in range(start + rounds):
            if not rules.is_over(state):
                seat = rules.to_act(state)[0]
                rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
            if r >= start:
                per_round[r - start].append(json.loads(json.dumps(rules.view(state, None))))
    return {"game": game, "names": dict(zip(seats, NAMES, strict=False)), "rounds": per_round}


def rss_mb() -> float:
    """This process's resident memory now (Linux /proc), MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def tables_worker(views: dict[str, Any], profile_file: str | None) -> None:
    """Render round r of every table for each round number read from stdin; print the times
    and the resident memory after it."""
    import cProfile

    from abrev import warm_like_a_worker

    from bot.games import get as game_spec

    spec = game_spec(views["game"])
    t = spec.ui.translator("en")
    started = CLOCK()
    warm_like_a_worker()
    warm_up = CLOCK() - started
    print(json.dumps({"ready": str(_render_root()), "warm_up": warm_up, "rss": rss_mb()}), flush=True)
    profile = cProfile.Profile() if profile_file else None
    for line in sys.stdin:
        r = int(line)
        if profile and r > 0:
            profile.enable()
        times = []
        for view in views["rounds"][r]:
            t0 = CLOCK()
            spec.renderer.render_board(view, names=views["names"], translator=t)
            times.append((CLOCK() - t0) * 1000)
        if profile:
            profile.disable()
        print(json.dumps({"times": times, "rss": rss_mb()}), flush=True)
    if profile and profile_file:
        profile.dump_stats(profile_file)


def _render_root() -> Path:
    """The tree the worker's `render` package comes from (which `Side` checks)."""
    import render

    return Path(render.__file__).parent.parent


def run_tables(args: argparse.Namespace) -> None:
    """The `--tables` mode: this tree (and `--rev`) rendering the same tables, interleaved by round."""
    with tempfile.TemporaryDirectory(prefix="bench-render-") as tmp:
        views_file = str(Path(tmp) / "tables.json")
        Path(views_file).write_text(json.dumps(make_tables(args.games.split(",")[0], args.tables, args.players,
                                                           args.start, args.rounds)))
        rev_tree = Path(tmp) / "rev"
        extra = ["--tables", str(args.tables), *(["--profile", args.profile] if args.profile else [])]
        sides = []
        try:
            if args.rev:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(rev_tree),
                                args.rev], check=True)
                sides.append(Side(args.rev, rev_tree, views_file, args.cpu, extra[:2]))
            sides.append(Side("this tree", ROOT, views_file, args.cpu, extra))
            results: dict[str, list[dict[str, Any]]] = {side.label: [] for side in sides}
            for r in range(args.rounds):
                for side in (sides if r % 2 == 0 else sides[::-1]):
                    results[side.label].append(side.ask(r))
            for side in sides:
                side.close()
        finally:
            if args.rev:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(rev_tree)], check=False)
    clock = "CPU ms" if args.cpu else "ms"
    print(f"{args.games.split(',')[0]}: {args.tables} tables of {args.players} players, {args.start} moves in,"
          f" round-robin, {clock} per board")
    for side in sides:
        print(f"  {side.label}: warm-up {side.warm_up:.2f} s, RSS after warm-up {side.rss:.0f} MB")
        for r, got in enumerate(results[side.label]):
            times = got["times"]
            print(f"    round {r + 1}{' (first boards)' if r == 0 else '               '}: p50 "
                  f"{statistics.median(times):6.2f}  p95 {pct(times, 0.95):6.2f}  mean {statistics.mean(times):6.2f}"
                  f"   RSS {got['rss']:.0f} MB")
        later = [x for got in results[side.label][1:] for x in got["times"]]
        if later:
            print(f"    rounds 2+: p50 {statistics.median(later):6.2f}  p95 {pct(later, 0.95):6.2f}"
                  f"  mean {statistics.mean(later):6.2f}")
    if len(sides) == 2:
        for r in range(args.rounds):
            a, b = (statistics.mean(results[s.label][r]["times"]) for s in sides)
            print(f"  round {r + 1}: mean {a / b:.2f}x ({sides[0].label} / {sides[1].label})")


# -- the worker: renders views of one revision, timing the stages ----------------------------
class Stages:
    """Time spent inside the wrapped functions during one render, by stage (outermost only)."""

    def __init__(self) -> None:
        self.spent = {"quantize": 0.0, "encode": 0.0}
        self.depth = 0

    def wrap(self, stage: str, fn: Callable[..., Any], when: Callable[..., bool] | None = None) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            if self.depth or (when is not None and not when(*args, **kwargs)):
                return fn(*args, **kwargs)
            self.depth += 1
            t0 = CLOCK()
            try:
                return fn(*args, **kwargs)
            finally:
                self.spent[stage] += CLOCK() - t0
                self.depth -= 1
        return timed


class _TimedCompressor:
    def __init__(self, inner: Any, stages: Stages) -> None:
        self.compress = stages.wrap("encode", inner.compress)
        self.flush = stages.wrap("encode", inner.flush)
        self.copy = inner.copy


def instrument() -> Stages:
    import zlib

    from PIL import Image

    stages = Stages()
    Image.Image.quantize = stages.wrap("quantize", Image.Image.quantize)  # type: ignore[method-assign]
    Image.Image.convert = stages.wrap(  # type: ignore[method-assign]
        "quantize", Image.Image.convert, lambda _self, mode=None, *a, **k: mode == "P")
    Image.Image.save = stages.wrap("encode", Image.Image.save)  # type: ignore[method-assign]
    compressobj, compress = zlib.compressobj, zlib.compress
    zlib.compressobj = lambda *a, **k: _TimedCompressor(compressobj(*a, **k), stages)  # type: ignore[assignment]
    zlib.compress = stages.wrap("encode", compress)  # type: ignore[assignment]
    return stages


def worker(views_file: str, cpu: bool) -> None:
    """Read window numbers from stdin, render that window of every game, print the timings."""
    from abrev import warm_like_a_worker

    import render
    from bot.games import get as game_spec

    global CLOCK
    CLOCK = time.process_time if cpu else time.perf_counter

    views = json.loads(Path(views_file).read_text())
    specs = {game: game_spec(game) for game in views}
    translators = {(game, lang): specs[game].ui.translator(lang) for game in views for lang in LANGS}
    started = CLOCK()
    warm_like_a_worker()
    warm_up = CLOCK() - started
    stages = instrument()
    for game, data in views.items():
        for warm in data["warm"]:
            specs[game].renderer.render_board(warm["view"], names=data["names"],
                                              translator=translators[game, warm["lang"]])
    print(json.dumps({"ready": str(Path(render.__file__).parent.parent), "warm_up": warm_up}), flush=True)
    for line in sys.stdin:
        w = int(line)
        result: dict[str, dict[str, list[float]]] = {}
        for game, data in views.items():
            window = data["windows"][w]
            t = translators[game, window["lang"]]
            rows: dict[str, list[float]] = {k: [] for k in (*STAGES, "bytes")}
            for view, events in window["boards"]:
                stages.spent = {"quantize": 0.0, "encode": 0.0}
                t0 = CLOCK()
                png = specs[game].renderer.render_board(view, names=data["names"], translator=t, events=events)
                total = CLOCK() - t0
                rows["total"].append(total * 1000)
                rows["quantize"].append(stages.spent["quantize"] * 1000)
                rows["encode"].append(stages.spent["encode"] * 1000)
                rows["draw"].append((total - stages.spent["quantize"] - stages.spent["encode"]) * 1000)
                rows["bytes"].append(len(png))
            result[game] = rows
        print(json.dumps(result), flush=True)


# -- the driver ------------------------------------------------------------------------------
class Side:
    """One revision's worker process."""

    def __init__(self, label: str, root: Path, views_file: str, cpu: bool, extra: list[str] | None = None) -> None:
        self.label = label
        env = dict(os.environ, PYTHONPATH=str(root))
        command = [sys.executable, str(HERE), "--worker", views_file, *(["--cpu"] if cpu else []), *(extra or [])]
        self.proc = subprocess.Popen(command, cwd=root, env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        ready = json.loads(self.read())
        if Path(ready["ready"]).resolve() != root.resolve():
            raise SystemExit(f"{label}: the worker imported render from {ready['ready']}, not {root}")
        self.warm_up: float = ready["warm_up"]
        self.rss: float = ready.get("rss", 0.0)
        #: pass -> game -> stage -> values
        self.rows: dict[str, dict[str, dict[str, list[float]]]] = {name: {} for name in PASSES}

    def read(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"{self.label}: the worker stopped")
        return line

    def ask(self, number: int) -> Any:
        """Send one number, read one JSON answer (the `--tables` worker)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{number}\n")
        self.proc.stdin.flush()
        return json.loads(self.read())

    def run(self, window: int) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{window}\n")
        self.proc.stdin.flush()
        for game, rows in json.loads(self.read()).items():
            mine = self.rows[list(PASSES)[window // len(LANGS)]].setdefault(game, {})
            for key, values in rows.items():
                mine.setdefault(key, []).extend(values)

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def report(sides: list[Side], games: tuple[str, ...], cpu: bool) -> None:
    clock = "CPU " if cpu else ""
    for side in sides:
        print(f"{side.label}: worker warm-up (bot.render_pool._warm) {side.warm_up:.2f} s {clock}")
    for game in games:
        for name in reversed(PASSES):
            n = len(sides[0].rows[name][game]["total"])
            print(f"{game} [{name}]: {n} boards (4 players, en/de/fr), {clock}ms")
            for side in sides:
                rows = side.rows[name][game]
                cells = "  ".join(f"{k} {statistics.median(rows[k]):6.2f}/{pct(rows[k], 0.95):6.2f}"
                                  for k in STAGES)
                print(f"  {side.label:<10} p50/p95  {cells}   bytes {statistics.median(rows['bytes']) / 1000:6.1f}"
                      f" KB (max {max(rows['bytes']) / 1000:.1f})")
            if len(sides) == 2:
                a, b = sides[0].rows[name][game]["total"], sides[1].rows[name][game]["total"]
                print(f"  {'':<10} total p50 {statistics.median(b) / statistics.median(a):.2f}x,"
                      f" p95 {pct(b, 0.95) / pct(a, 0.95):.2f}x ({sides[1].label} / {sides[0].label})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", help="also time this git revision (a temporary worktree), interleaved")
    parser.add_argument("--turns", type=int, default=20, help="consecutive boards per window (3 windows)")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--cpu", action="store_true", help="time CPU seconds of the workers, not wall time")
    parser.add_argument("--tables", type=int, help="render this many tables round-robin (see above)")
    parser.add_argument("--rounds", type=int, default=4, help="--tables: boards per table")
    parser.add_argument("--players", type=int, default=2, help="--tables: players per table")
    parser.add_argument("--start", type=int, default=6, help="--tables: moves played before the first board")
    parser.add_argument("--profile", help="--tables: write a cProfile of this tree's worker (rounds 2+)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        global CLOCK
        CLOCK = time.process_time if args.cpu else time.perf_counter
        if args.tables:
            tables_worker(json.loads(Path(args.worker).read_text()), args.profile)
        else:
            worker(args.worker, args.cpu)
        return
    sys.path.insert(0, str(ROOT))
    if args.tables:
        if args.games == ",".join(GAMES):
            args.games = "rails-and-sails"
        run_tables(args)
        return
    games = tuple(g for g in args.games.split(",") if g)
    with tempfile.TemporaryDirectory(prefix="bench-render-") as tmp:
        views_file = str(Path(tmp) / "views.json")
        Path(views_file).write_text(json.dumps(make_views(games, args.turns)))
        rev_tree = Path(tmp) / "rev"
        sides = []
        try:
            if args.rev:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(rev_tree),
                                args.rev], check=True)
                sides.append(Side(args.rev, rev_tree, views_file, args.cpu))
            sides.append(Side("this tree", ROOT, views_file, args.cpu))
            for w in range(len(LANGS) * len(PASSES)):
                for side in (sides if w % 2 == 0 else sides[::-1]):
                    side.run(w)
            for side in sides:
                side.close()
        finally:
            if args.rev:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(rev_tree)], check=False)
        report(sides, games, args.cpu)


if __name__ == "__main__":
    main()
