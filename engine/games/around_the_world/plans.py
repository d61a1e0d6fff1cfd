"""Card sets and plan costs on card values, fast and memoised: the same days and cards as
`ai._best_set` and `ai.plan_cost`, found on the values of a hand's ships and trains instead of
enumerating its card sets. Normal, keen and hard's playouts cost the same hands again and again
within a turn and across the playouts of a search."""

from __future__ import annotations

from . import data as D
from .ai import ELEPHANT_PLAN_DAYS, LOOKAHEAD_WEIGHTS, short_days

#: plan costs by (hand, progress): the same hands come back again and again within a turn and
#: across the playouts of hard's search (bounded: cleared when full)
_PLANS: dict[tuple[tuple[str, ...], int, int], float] = {}
_PLANS_MAX = 1 << 16
#: the bound of the memos whose entries are larger (a table per hand: `_TAKES`, `_GAINS`) or
#: come back less (`_TRAVELS`): under 3 MB for the three when full, which an AI worker's share
#: of the bot's 400 MB affords (at 8,192 entries: about 11 MB, playouts 4 % faster)
_TABLES_MAX = 1 << 11


def _cheapest(values: list[int], k: int) -> tuple[int, tuple[int, ...]] | None:
    """The first cheapest k of one kind's sorted card values as `ai._best_set` enumerates them
    (k <= 2; two identical cards count once), or None when too few."""
    if k == 0:
        return 0, ()
    if len(values) < k:
        return None
    if k == 1:
        return values[0], (values[0],)
    if values[0] == values[1]:
        return values[0], (values[0], values[0])
    best = values[0] + values[1]
    pick = (values[0], values[1])
    for i in range(1, len(values) - 1):
        if values[i] == values[i + 1] and values[i] < best:
            best, pick = values[i], (values[i], values[i])
            break
    return best, pick


def _split(hand: list[str]) -> tuple[list[int], list[int]]:
    """The values of a hand's ships and of its trains, each sorted (a card is its kind and
    value)."""
    ships: list[int] = []
    trains: list[int] = []
    for c in hand:
        if c[0] == "s":
            ships.append(_VALUE[c])
        elif c[0] == "t":
            trains.append(_VALUE[c])
    ships.sort()
    trains.sort()
    return ships, trains


def _leg_set(ships: list[int], trains: list[int], leg: int) -> tuple[float, tuple[int, ...], tuple[int, ...]] | float:
    """`ai._best_set` of a hand by its ships' and trains' values (not the elephant leg): the
    days and the values of the ships and trains paid, or the fallback days of a hand that
    cannot pay the leg."""
    best: int | None = None
    paid: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    reqs = D.LEG_REQS[leg]
    for s, t in reqs:
        a = _cheapest(ships, s)
        b = _cheapest(trains, t)
        if a is None or b is None:
            continue
        if best is None or a[0] + b[0] < best:
            best, paid = a[0] + b[0], (a[1], b[1])
    if best is not None:
        return float(best), paid[0], paid[1]
    return short_days(ships, trains, leg)


def _fast_set(hand: list[str], leg: int) -> tuple[float, tuple[str, ...] | None]:
    """`ai._best_set(hand, leg)` (the same days and cards), without enumerating every card
    set."""
    if leg == D.ELEPHANT_LEG:
        return float(D.WALK_DAYS), ()
    found = _leg_set(*_split(hand), leg)
    if isinstance(found, float):
        return found, None
    days, ships, trains = found
    return days, tuple(_SHIP[v] for v in ships) + tuple(_TRAIN[v] for v in trains)


_VALUE = {c: v for c, (_, v) in D.CARD_INFO.items()}
_SHIP = {v: c for c, (kind, v) in D.CARD_INFO.items() if kind == "ship"}
_TRAIN = {v: c for c, (kind, v) in D.CARD_INFO.items() if kind == "train"}


def _fast_plan(hand: list[str], progress: int, legs: int = 3) -> float:
    """`ai.plan_cost(hand, progress, legs)` (the same days), each leg's set found as `_fast_set`
    finds it, on the values of the hand's ships and trains."""
    ships, trains = _split(hand)
    total = 0.0
    for k in range(legs):
        leg = progress + k
        if leg >= D.HOME:
            break
        if leg == D.ELEPHANT_LEG:
            total += ELEPHANT_PLAN_DAYS * LOOKAHEAD_WEIGHTS[k]
            continue
        found = _leg_set(ships, trains, leg)
        if isinstance(found, float):
            total += found * LOOKAHEAD_WEIGHTS[k]
            continue
        days, paid_ships, paid_trains = found
        total += days * LOOKAHEAD_WEIGHTS[k]
        for v in paid_ships:
            ships.remove(v)
        for v in paid_trains:
            trains.remove(v)
    return total


def _plan_cost(hand: list[str], progress: int, legs: int = 3) -> float:
    """`ai.plan_cost` of a hand (the same days), memoised, by `_fast_plan`."""
    key = (tuple(hand), progress, legs)
    cost = _PLANS.get(key)
    if cost is None:
        if len(_PLANS) >= _PLANS_MAX:
            _PLANS.clear()
        cost = _PLANS[key] = _fast_plan(hand, progress, legs)
    return cost
