"""A heads-up position's worth for hard's search: the chance that a seat wins when normal plays
both seats from here, by logistic regression on a few features of the full (sampled) state,
fitted offline to normal's self-play (`bench/fit_atw_eval.py`, which prints `WEIGHTS`).

Hard cuts its heads-up playouts a few turns after the move it weighs and scores them with this
instead of playing to the end: a cut playout costs a fraction of a whole one, so many more
sampled worlds fit in the budget, and the estimate is less noisy than one game's result.
"""

from __future__ import annotations

import math
from typing import Any

from . import data as D

#: the features' names, in `features` order (each is the seat's value minus the other seat's:
#: P(other wins) = 1 - P(seat wins), no intercept)
NAMES = ("legs", "race", "race_late", "pay1", "pay2", "plan", "gold", "days", "late80", "events", "cards")

#: fitted by `bench/fit_atw_eval.py` (see its output for the data and the held-out log-loss)
WEIGHTS: tuple[float, ...] = (0.9464, 0.6602, 1.2877, 0.1298, 0.1818, 0.7933, 0.1832, 1.2317, 6.8882, 0.1301, 0.1918)


def _cover(hand: list[str], progress: int, legs: int) -> int:
    """How many of the next `legs` legs the hand pays one after the other (cheapest sets,
    disjoint; the elephant leg needs no card)."""
    from .levels import _fast_set

    remaining = list(hand)
    paid = 0
    for k in range(legs):
        leg = progress + k
        if leg >= D.HOME:
            return legs
        if leg != D.ELEPHANT_LEG:
            _, cards = _fast_set(remaining, leg)
            if cards is None:
                return paid
            for c in cards:
                remaining.remove(c)
        paid += 1
    return paid


def _arrival(st: Any, k: int, legs: int) -> int:
    """The index, in the coming sequence of turns, of seat `k`'s `legs`-th turn (its arrival if
    it travels every turn): heads-up the first-player marker alternates, so a seat second in a
    round plays twice in a row."""
    if legs <= 0:
        return -1
    n = len(st.seats)
    order = list(st.order[st.turn:]) if st.phase != "over" else []
    first = st.first
    idx = 0
    seen = 0
    for _ in range(4 * D.HOME + 4):
        for s in order:
            if s == k:
                seen += 1
                if seen == legs:
                    return idx
            idx += 1
        first = (first + 1) % n
        order = [(first + j) % n for j in range(n)]
    return idx


def features(st: Any, k: int) -> list[float]:
    """Seat `k`'s features minus the other seat's (heads-up, at the start of a turn)."""
    from .levels import _plan_cost

    o = 1 - k
    prog = st.progress
    left = [D.HOME - prog[j] for j in (k, o)]
    arr = [_arrival(st, j, left[i]) for i, j in enumerate((k, o))]
    race = max(-4.0, min(4.0, (arr[1] - arr[0]) / 2.0))
    late = race / (1.0 + min(left))
    pay1 = [1.0 if left[i] == 0 or _cover(st.hand[j], prog[j], 1) >= 1 else 0.0 for i, j in enumerate((k, o))]
    pay2 = [float(min(left[i], 3)) - _cover(st.hand[j], prog[j], min(left[i], 3)) if left[i] else 0.0
            for i, j in enumerate((k, o))]
    plan = [_plan_cost(st.hand[j], prog[j]) / 10.0 if prog[j] < D.HOME else 0.0 for j in (k, o)]
    late80 = [max(0.0, st.days[j] + 6.5 * left[i] - D.TARGET_DAYS) / 10.0 for i, j in enumerate((k, o))]
    return [
        float(left[1] - left[0]),
        race,
        late,
        pay1[0] - pay1[1],
        pay2[1] - pay2[0],
        plan[1] - plan[0],
        float(min(st.gold[k], 6) - min(st.gold[o], 6)),
        (st.days[o] - st.days[k]) / 10.0,
        late80[1] - late80[0],
        float(len(st.events[k]) - len(st.events[o])),
        float(len(st.hand[k]) - len(st.hand[o])),
    ]


def win_chance(st: Any, k: int, weights: tuple[float, ...] = WEIGHTS) -> float:
    """The chance seat `k` wins a heads-up game from `st` (normal at both seats)."""
    z = sum(w * x for w, x in zip(weights, features(st, k), strict=True))
    z = max(-30.0, min(30.0, z))
    return 1.0 / (1.0 + math.exp(-z))
