"""around-the-world's hard level, its own search (`Hard`, which `engine.ai` plays for this game
instead of the generic one): its own move and the others worth a look (`levels.shortlist`'s
best two; `_extras`: event cards, the die, discards) are each played out to the end from the
same sampled worlds; an alternative is dropped once clearly worse world by world and played only
when its paired gain is clear (`Z`, `DROP`), within the CPU budget of `levels.HARD` counted from
the call. Heads-up its own move, its shortlist and every seat of its playouts judge as
`levels.keen` (normal weighing the rounds a hand's card kinds leave to London, playing its event
cards as soon as they pay): a stronger playout is a stronger search, since the few worlds a
decision affords find only the clearer gains (the rows: docs/games/around-the-world.md).

Its playouts choose by `playout_normal`: normal read off the game state (`_StateCtx`, its view
built only as far as a decision reads it, plans costed on card values, plans, best travels and
a bought card's gains memoised), the same moves (checked on 38,735 decisions of seeded self-play
and playouts, 2 and 4 players) at about 0.64 of the cost of building `playout_view` for it: some
1,200 playouts a CPU second instead of 800, so more sampled worlds a decision. Measured rows:
the `levels` module's docstring.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from engine.ai import HardConfig

from . import data as D
from .ai import DETECTIVE_WEIGHT, PlanCost, _Ctx, balloon_die
from .cards import leg_days
from .keen import Keen, LeavePlan
from .levels import NLOC, _discard_scored, judge_of, keen, normal_in, shortlist
from .plans import _TABLES_MAX, _fast_set, _plan_cost

Action = dict[str, Any]


def _finished(result: dict[str, Any], state: Any, seat: str) -> float:
    """A finished game's worth to `seat`: a win (shared when tied), then the rank, then a
    little for the margin (legs ahead of the best other seat, days fewer)."""
    rows = result["ranking"]
    n = len(rows)
    rank = next((r["rank"] for r in rows if r["seat"] == seat), n)
    score = (1.0 / len(result["winners"]) if seat in result["winners"] else 0.0)
    score += 0.25 * (n - rank) / max(1, n - 1)
    k = state.seats.index(seat)
    others = [j for j in range(n) if j != k]
    legs = state.progress[k] - max(state.progress[j] for j in others)
    days = min(state.days[j] for j in others) - state.days[k]
    return score + MARGIN_LEGS * max(-3, min(3, legs)) / 3 + MARGIN_DAYS * max(-10, min(10, days)) / 10


#: the margin's weights in `_finished` (a win counts 1): legs ahead of the best other seat,
#: days fewer
MARGIN_LEGS = 0.3
MARGIN_DAYS = 0.1

#: hard's test, per sampled world (paired): an alternative still in the race after `MIN_ROUNDS`
#: is dropped once its mean gain over the first candidate (hard's own move) is `DROP` standard
#: errors below zero; at the end the one whose gain is highest `Z` standard errors below its
#: mean, if above zero, is played instead of it. Replayed on 115 heads-up decisions of normal's self-play
#: (200 worlds each, gains judged on worlds not used to choose): the rule hardly matters (z
#: 0.25-1.5, dropping or not, a fixed margin: 0.004-0.007 of a win per decision at 60
#: playouts); the number of playouts does (40: 0.005, 150: 0.008; choosing the best with
#: hindsight: 0.018). Scoring by days ahead as well as the win was worse; by legs ahead, the same.
Z = 0.5
DROP = 1.0
MIN_ROUNDS = 4
def _turn(st: Any) -> dict[str, Any]:
    return {"taken": st.taken, "pending": st.pending, "balloon": st.balloon, "armed": st.armed,
            "travels": st.travels, "extra_leg": st.extra, "last_leg": st.last_leg, "roll": st.roll}


#: how `playout_view` builds each key from (state, seat index): the same values as `rules.view`
_VIEW_KEYS: dict[str, Callable[[Any, int], Any]] = {
    "seats": lambda st, k: st.seats,
    "phase": lambda st, k: st.phase,
    "round": lambda st, k: st.round,
    "first_player": lambda st, k: st.seats[st.first],
    "positions": lambda st, k: {s: p % NLOC for s, p in zip(st.seats, st.progress, strict=True)},
    "arrived": lambda st, k: {s: p >= D.HOME for s, p in zip(st.seats, st.progress, strict=True)},
    "arrival_order": lambda st, k: st.arrival_order,
    "days": lambda st, k: dict(zip(st.seats, st.days, strict=True)),
    "gold": lambda st, k: dict(zip(st.seats, st.gold, strict=True)),
    "gold_supply": lambda st, k: st.gold_supply,
    "detective": lambda st, k: D.LOCATIONS[st.detective],
    "display": lambda st, k: [{"action": D.DISPLAY_ACTIONS[j], "card": c} for j, c in enumerate(st.display)],
    "event_deck": lambda st, k: len(st.event_deck),
    "event_discard_top": lambda st, k: st.event_discard[-1] if st.event_discard else None,
    "travel_discard_pile": lambda st, k: st.travel_discard,
    "hands": lambda st, k: {s: {"travel": len(h), "event": len(e)}
                            for s, h, e in zip(st.seats, st.hand, st.events, strict=True)},
    "known_travel": lambda st, k: dict(zip(st.seats, st.seen, strict=True)),
    "last_roll": lambda st, k: st.last_roll,
    "turn": lambda st, k: _turn(st),
    "private": lambda st, k: {"travel": list(st.hand[k]), "events": list(st.events[k])},
}


def playout_view(st: Any, seat: str) -> dict[str, Any]:
    """The part of `rules.view` that normal reads (the same values); hard's playouts build it
    only as far as a decision reads it (`_LazyView`)."""
    k = st.seats.index(seat)
    return {key: build(st, k) for key, build in _VIEW_KEYS.items()}


class _LazyView(dict[str, Any]):
    """`playout_view` of (`st`, seat `k`), each key built when first read (a decision reads
    only a few)."""

    st: Any
    k: int

    def __missing__(self, key: str) -> Any:
        value = self[key] = _VIEW_KEYS[key](self.st, self.k)
        return value

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in _VIEW_KEYS else default


class _StateCtx(_Ctx):
    """The `_Ctx` of `rules.view(st, seat k)` (the same fields), read off a playout's state,
    with memoised plans, card sets and best travels (the same answers)."""

    def __init__(self, st: Any, k: int, legal: list[Action]) -> None:
        seats = st.seats
        prog = st.progress
        self.turn = turn = _turn(st)
        view = self.view = _LazyView(phase=st.phase, seats=seats, turn=turn, round=st.round,
                                     gold_supply=st.gold_supply, event_deck=len(st.event_deck))
        view.st, view.k = st, k
        self.st = st
        self.seat = seats[k]
        self.legal = legal
        self.hand = sorted(st.hand[k])
        self.events = list(st.events[k])
        p = prog[k]
        self.progress = D.HOME if p >= D.HOME else p % NLOC
        self.gold = st.gold[k]
        self.detective = st.detective
        self.pressure = bool(st.arrival_order)
        self.opponents = [s for j, s in enumerate(seats) if j != k and prog[j] < D.HOME]

    def progress_of(self, s: str) -> int:
        p: int = self.st.progress[self.st.seats.index(s)]
        return D.HOME if p >= D.HOME else p % NLOC

    def plan(self, hand: list[str], progress: int, legs: int = 3) -> float:
        return _plan_cost(hand, progress, legs)

    def best_set(self, hand: list[str], leg: int) -> tuple[float, tuple[str, ...] | None]:
        return _fast_set(hand, leg)

    def best_travel(self, plan: PlanCost) -> tuple[float, Action | None]:
        """`ai._best_travel` with the plan (normal's plans cost a hand alike, keen's
        `LeavePlan` adds the rounds the kinds left leave and the cards' days), memoised: the legal actions are the
        rules' own listing, whose travels come first, the same for the same hand, leg, display
        balloon and armed events; the gold (a balloon ride's re-rolls) and the detective change
        their costs."""
        turn = self.turn
        leave = plan if isinstance(plan, LeavePlan) else None
        key = (tuple(self.hand), self.progress, turn["balloon"], tuple(turn["armed"]), self.detective,
               min(self.gold, 2), leave)
        found = _TRAVELS.get(key)
        if found is None:
            if len(_TRAVELS) >= _TABLES_MAX:
                _TRAVELS.clear()
            cost, best = _best_listed_travel(self, leave)
            found = _TRAVELS[key] = (cost, -1 if best is None else self.legal.index(best))
        return found[0], None if found[1] < 0 else self.legal[found[1]]


#: `_StateCtx.best_travel`'s memo: the cost and the index of the best travel in the legal
#: actions (bounded: `_TABLES_MAX`)
_TRAVELS: dict[tuple[object, ...], tuple[float, int]] = {}


def _best_listed_travel(ctx: _Ctx, leave: LeavePlan | None = None) -> tuple[float, Action | None]:
    """`ai._best_travel(ctx, _plan_cost)` (with `leave`, `ai._best_travel(ctx, leave)`; the same
    cost and travel), the rest of the hand planned once per card set, a balloon ride's days
    memoised."""
    hand = ctx.hand
    p = ctx.progress
    die = balloon_die(ctx.gold)
    plan: PlanCost = _plan_cost if leave is None else leave
    dest = (p + 1) % NLOC
    watched = dest != 0 and dest == ctx.detective
    rests: dict[tuple[str, ...], float] = {}
    best: tuple[float, Action | None] = (1e9, None)
    for a in ctx.legal:
        if a["type"] != "travel":
            continue
        cards = tuple(a["cards"])
        rest_cost = rests.get(cards)
        if rest_cost is None:
            rest = list(hand)
            for c in cards:
                rest.remove(c)
            rest_cost = rests[cards] = plan(rest, p + 1, 2)
        if "balloon" in a:
            ride = (a["balloon"], *cards)
            days = _RIDES.get(ride)
            if days is None:
                days = _RIDES[ride] = leg_days(cards, {cards.index(a["balloon"]): 0})
            cost = days + die
        else:
            cost = float(a["days"])
        if watched:
            cost += DETECTIVE_WEIGHT
        cost = cost + 0.35 * rest_cost
        if cost < best[0]:
            best = (cost, a)
    return best


#: a balloon ride's days by (the card it replaces, the cards)
_RIDES: dict[tuple[str, ...], int] = {}


def playout_normal(st: Any, legal: list[Action], judge: Keen | None = None) -> Action:
    """`normal(rules.view(st, seat), seat, legal)` of the seat to act, read off the state (with
    `judge`, `levels.keen`'s move)."""
    if len(legal) == 1:
        return legal[0]
    return normal_in(_StateCtx(st, st.order[st.turn], legal), judge)


def _gain(d: list[float]) -> tuple[float, float]:
    """The mean of paired differences and its standard error."""
    n = len(d)
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


#: hard's candidates beyond `shortlist`'s (`_extras`), at most (without them: 54.5 % from seed
#: 1000 and 66.0 % from seed 5000, the same games as above, with the collector still running)
EXTRAS = 2


def _extras(view: dict[str, Any], seat: str, legal: list[Action]) -> list[Action]:
    """Moves normal decides without `shortlist`: the event cards to play now (but the
    detective's many squares) and an event card bought, the die kept or rolled again, the
    second-best discard."""
    phase = view["phase"]
    if phase == "travel":
        return [a for a in legal if (a["type"] == "event" and "location" not in a)
                or a == {"type": "buy", "deck": "event"}]
    if phase == "roll":
        return [a for a in legal if a["type"] in ("keep", "reroll")]
    if phase == "discard":
        ranked = sorted(_discard_scored(_Ctx(view, seat, legal)), key=lambda sa: -sa[0])
        return [a for _, a in ranked[:2]]
    return []


class Hard:
    """Hard: its own move (`keen`) and the best `candidates - 1` others of `shortlist`, each
    played out to the end by normal (heads-up: keen) at every seat from the same sampled worlds
    (at most `rounds`, within `budget` CPU seconds from the call, its own choice included); an
    alternative is played when its gain over that move, world by world, is clear (`Z`, `DROP`)."""

    __name__ = "around_the_world_hard"

    def __init__(self, config: HardConfig, z: float | None = None, drop: float | None = None) -> None:
        from engine import registry

        self.rules = registry.get(D.GAME_ID)
        self.cap, self.rounds, self.candidates = config.budget, config.rounds, config.candidates
        self.z = Z if z is None else z
        self.drop = DROP if drop is None else drop

    def play(self, view: dict[str, Any], seat: str, world: int, action: Action) -> float:
        """`action` in the sampled world `world`, then normal (heads-up: keen) at every seat to
        the end."""
        r = self.rules
        state = r.determinize(view, seat, world)
        r.push(state, seat, action)
        judge = judge_of(view)
        while state.phase != "over":
            s = state.seats[state.order[state.turn]]
            r.push(state, s, playout_normal(state, r.legal_actions(state, s), judge))
        return _finished(state.result, state, seat)

    def race(self, view: dict[str, Any], seat: str, cands: list[Action], start: float) -> dict[int, list[float]]:
        """Each alternative's gains over its own move (`cands[0]`), world by world."""
        from engine.ai import view_seed

        seed = view_seed(view, seat, "hard")
        diffs: dict[int, list[float]] = {j: [] for j in range(1, len(cands))}
        alive = list(diffs)
        slowest = 0.0
        for k in range(self.rounds):
            t0 = time.thread_time()
            if not alive or t0 - start + 1.25 * slowest > self.cap:
                break
            world = (seed + 7919 * k) & ((1 << 62) - 1)
            base = self.play(view, seat, world, cands[0])
            for j in alive:
                diffs[j].append(self.play(view, seat, world, cands[j]) - base)
            if k + 1 >= MIN_ROUNDS:
                alive = [j for j in alive if (m := _gain(diffs[j]))[0] + self.drop * m[1] > 0]
            slowest = max(slowest, time.thread_time() - t0)
        return diffs

    def __call__(self, view: dict[str, Any], seat: str, legal: list[Action]) -> Action:
        """The candidate whose gain over its own move is clearest (`engine.ai` holds the
        cyclic collector off meanwhile: `collector_waits`)."""
        start = time.thread_time()
        best = keen(view, seat, legal)
        if len(legal) < 2:
            return best
        judge = judge_of(view)
        cands = [best, *[a for _, a in shortlist(view, seat, legal, judge) if a != best][: self.candidates - 1]]
        cands += [a for a in _extras(view, seat, legal) if a not in cands][:EXTRAS]
        if len(cands) < 2:
            return best
        pick, bound = 0, 0.0
        for j, d in self.race(view, seat, cands, start).items():
            if len(d) >= 2:
                mean, se = _gain(d)
                if mean > 0 and mean - self.z * se > bound:
                    pick, bound = j, mean - self.z * se
        return cands[pick]

