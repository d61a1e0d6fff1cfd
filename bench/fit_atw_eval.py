"""Fit around-the-world's heads-up position estimate (`engine/games/around_the_world/evaluation.py`):
seeded self-play games of normal at both seats, every turn's start recorded as the features of
the first seat and whether it won; logistic regression (Newton's method, pure Python, a little
L2), trained on the first games, its log-loss checked on the rest. Prints `WEIGHTS` to paste.

    .venv/bin/python bench/fit_atw_eval.py --games 6000 --seed 900000   # the weights in the code
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import registry  # noqa: E402
from engine.games.around_the_world.evaluation import NAMES, features  # noqa: E402
from engine.games.around_the_world.levels import normal, playout_view  # noqa: E402

Sample = tuple[list[float], float]


def self_play(games: int, seed0: int) -> list[list[Sample]]:
    """Per game, the first seat's features at every turn's start and its result (1 won, 0 lost,
    0.5 tied)."""
    rules = registry.get("around-the-world")
    out: list[list[Sample]] = []
    for g in range(games):
        st = rules.new_game(["p1", "p2"], seed0 + g)
        rows: list[list[float]] = []
        while not rules.is_over(st):
            if st.phase == "take" and st.taken is None:
                rows.append(features(st, 0))
            s = rules.to_act(st)[0]
            lg = rules.legal_actions(st, s)
            rules.push(st, s, lg[0] if len(lg) == 1 else normal(playout_view(st, s), s, lg))
        winners = st.result["winners"]
        y = 1.0 / len(winners) if "p1" in winners else 0.0
        out.append([(x, y) for x in rows])
    return out


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """a x = b by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                for j in range(c, n + 1):
                    m[r][j] -= f * m[c][j]
    return [m[i][n] / m[i][i] for i in range(n)]


def _p(w: list[float], x: list[float]) -> float:
    z = max(-30.0, min(30.0, sum(a * b for a, b in zip(w, x, strict=True))))
    return 1.0 / (1.0 + math.exp(-z))


def fit(data: list[Sample], l2: float = 1.0, iters: int = 12) -> list[float]:
    """Logistic regression without intercept (the features are differences between the seats)."""
    n = len(data[0][0])
    w = [0.0] * n
    for _ in range(iters):
        grad = [l2 * wi for wi in w]
        hess = [[l2 if i == j else 0.0 for j in range(n)] for i in range(n)]
        for x, y in data:
            p = _p(w, x)
            g = p - y
            h = p * (1 - p)
            for i in range(n):
                grad[i] += g * x[i]
                hi = h * x[i]
                if hi:
                    row = hess[i]
                    for j in range(n):
                        row[j] += hi * x[j]
        step = _solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step, strict=True)]
    return w


def logloss(w: list[float], data: list[Sample]) -> float:
    eps = 1e-9
    return -sum(y * math.log(_p(w, x) + eps) + (1 - y) * math.log(1 - _p(w, x) + eps) for x, y in data) / len(data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=900000)
    parser.add_argument("--test", type=float, default=0.2, help="share of the games held out")
    args = parser.parse_args()
    games = self_play(args.games, args.seed)
    cut = int(len(games) * (1 - args.test))
    train = [s for g in games[:cut] for s in g]
    test = [s for g in games[cut:] for s in g]
    w = fit(train)
    base = [0.0] * len(w)
    legs_only = fit([([x[0]], y) for x, y in train])
    print(f"{len(train)} train / {len(test)} test positions from {args.games} games (seeds {args.seed}+)")
    legs_test = [([x[0]], y) for x, y in test]
    print(f"held-out log-loss: {logloss(w, test):.4f} (legs only {logloss(legs_only, legs_test):.4f},"
          f" coin {logloss(base, test):.4f})")
    for name, wi in zip(NAMES, w, strict=True):
        print(f"  {name:10} {wi:+.4f}")
    print("WEIGHTS: tuple[float, ...] = (" + ", ".join(f"{wi:.4f}" for wi in w) + ")")


if __name__ == "__main__":
    main()
