"""A heuristic AI for Around the World in 80 Days.

It decides only from `view(state, seat)` (public view + its own hand) and returns one of
the legal actions. The core is a small planner: the cost in days of the next few legs
with the cards in hand (pairs of identical cards on two-of-a-kind legs count once;
missing cards are charged their expected value plus a waiting penalty). Display cards
are valued by how much they lower that plan plus a bonus for their action; the traveller
moves when the best card set for the leg is at or below a par for the leg, relaxed when
behind, under time pressure or when the detective sits here.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any

from . import data as D
from .cards import leg_days
from .cards import multiset_combos as _multiset_combos

Action = dict[str, Any]
NLOC = len(D.LOCATIONS)
#: expected value of an unknown card of each kind
EXPECT = {"ship": 6.2, "train": 4.2}
WAIT = 2.5
EXPECTED_DIE = 3.5
#: a "good" number of days per leg: travel when the best set is at or below it
PAR = [9, 4, 5, 8, 12, 5, 8, 8, 6, 11]
LOOKAHEAD_WEIGHTS = (1.0, 0.7, 0.45)
#: what the elephant leg counts for in a plan (its walk and its die)
ELEPHANT_PLAN_DAYS = 10.0
#: what ending a journey on the detective counts for when deciding to travel (the 2 days)
DETECTIVE_WEIGHT = 2.0


def _best_set(hand: list[str], leg: int, offer: bool = False) -> tuple[float, tuple[str, ...] | None]:
    """Cheapest card set in `hand` for leg `leg` (fixed days, cards) or (fallback cost, None)."""
    if leg == D.ELEPHANT_LEG:
        return float(D.WALK_DAYS), ()
    ships = [c for c in hand if c[0] == "s"]
    trains = [c for c in hand if c[0] == "t"]
    reqs = list(D.LEG_REQS[leg])
    if offer:
        reqs = reqs + [(s - 1, t) for s, t in reqs if s] + [(s, t - 1) for s, t in reqs if t]
    best: float | None = None
    best_cards: tuple[str, ...] | None = None
    for s, t in reqs:
        if s > len(ships) or t > len(trains):
            continue
        for sc in _multiset_combos(ships, s):
            for tc in _multiset_combos(trains, t):
                combo = sc + tc
                d = leg_days(combo)
                if best is None or d < best:
                    best, best_cards = d, combo
    if best is not None:
        return float(best), best_cards
    return short_days(sorted(D.CARD_INFO[c][1] for c in ships), sorted(D.CARD_INFO[c][1] for c in trains), leg), None


def short_days(ships: list[int], trains: list[int], leg: int) -> float:
    """A leg's days for a hand that cannot pay it, by its ships' and trains' sorted values: the
    best partial set plus the expected missing cards and a wait for each."""
    fallback: float | None = None
    for s, t in D.LEG_REQS[leg]:
        have_s = ships[:s]
        have_t = trains[:t]
        cost = sum(have_s) + sum(have_t) + (s - len(have_s)) * EXPECT["ship"] + (t - len(have_t)) * EXPECT["train"]
        cost += WAIT * ((s - len(have_s)) + (t - len(have_t)))
        if fallback is None or cost < fallback:
            fallback = cost
    assert fallback is not None
    return fallback


def plan_cost(hand: list[str], progress: int, legs: int = 3) -> float:
    """Weighted days for the next `legs` legs with these cards (greedy, disjoint sets, each
    leg's the cheapest `_best_set` of the cards left)."""
    remaining = sorted(hand)
    total = 0.0
    for k in range(legs):
        leg = progress + k
        if leg >= D.HOME:
            break
        cost, cards = _best_set(remaining, leg)
        if leg == D.ELEPHANT_LEG:
            cost = ELEPHANT_PLAN_DAYS
        total += cost * LOOKAHEAD_WEIGHTS[k]
        if cards:
            for c in cards:
                remaining.remove(c)
    return total


class _Ctx:
    def __init__(self, view: dict[str, Any], seat: str, legal: list[Action]) -> None:
        self.view = view
        self.seat = seat
        self.legal = legal
        priv = view.get("private", {})
        self.hand: list[str] = sorted(priv.get("travel", []))
        self.events: list[str] = list(priv.get("events", []))
        self.progress = D.HOME if view["arrived"][seat] else view["positions"][seat]
        self.gold: int = view["gold"][seat]
        self.detective = D.LOCATIONS.index(view["detective"])
        self.turn = view.get("turn", {})
        self.pressure = bool(view["arrival_order"])
        opp = [s for s in view["seats"] if s != seat and not view["arrived"][s]]
        self.opponents = opp

    @property
    def seed(self) -> int:
        """`choose`'s last resort picks by it (rarely: computed only when asked)."""
        v = self.view
        return zlib.crc32(repr((v["round"], self.seat, self.hand, v["days"])).encode())

    def progress_of(self, s: str) -> int:
        return D.HOME if self.view["arrived"][s] else self.view["positions"][s]

    def plan(self, hand: list[str], progress: int, legs: int = 3) -> float:
        """`plan_cost` (a playout's context answers the same from a memo)."""
        return plan_cost(hand, progress, legs)

    def best_set(self, hand: list[str], leg: int) -> tuple[float, tuple[str, ...] | None]:
        """`_best_set` (a playout's context answers the same more cheaply)."""
        return _best_set(hand, leg)

    def best_travel(self, plan: PlanCost) -> tuple[float, Action | None]:
        """`_best_travel` (a playout's context answers the same more cheaply)."""
        return _best_travel(self, plan)

    def slack(self) -> float:
        v = self.view
        slack = 0.0
        if self.pressure:
            slack += 2.0
        if self.detective == self.progress:
            slack += D.DETECTIVE_DAYS
        # falling behind the field costs tempo: relax the par
        others = [self.progress_of(s) for s in v["seats"] if s != self.seat]
        lead = max(others) if others else self.progress
        if lead > self.progress + 1:
            slack += 1.5 * (lead - self.progress - 1)
        expected = (v["round"] - 1) * 0.8
        if expected > self.progress + 1:
            slack += 1.0 * (expected - self.progress - 1)
        if len(v["seats"]) == 2 and lead >= self.progress:
            slack += 1.0
        if self.turn.get("balloon"):  # the display balloon is lost if we do not travel now
            slack += 1.5
        return slack


def balloon_die(gold: int) -> float:
    """The die a balloon ride is expected to show, re-rolls bought with the gold held."""
    return EXPECTED_DIE - (0.8 if gold >= 2 else 0.4 if gold else 0)


def _travel_cost(ctx: _Ctx, action: Action) -> float:
    cards = action["cards"]
    if "balloon" in action:
        idx = cards.index(action["balloon"])
        cost = leg_days(cards, {idx: 0}) + balloon_die(ctx.gold)
    else:
        cost = float(action["days"])
    dest = (ctx.progress + 1) % NLOC
    if dest != 0 and dest == ctx.detective:
        cost += DETECTIVE_WEIGHT
    return cost


#: what the rest of a hand costs over the next legs (`plan_cost`, or a memoised one)
PlanCost = Callable[[list[str], int, int], float]


def _best_travel(ctx: _Ctx, plan: PlanCost = plan_cost) -> tuple[float, Action | None]:
    best: tuple[float, Action | None] = (1e9, None)
    for a in ctx.legal:
        if a["type"] != "travel":
            continue
        rest = list(ctx.hand)
        for c in a["cards"]:
            rest.remove(c)
        cost = _travel_cost(ctx, a) + 0.35 * plan(rest, ctx.progress + 1, 2)
        if cost < best[0]:
            best = (cost, a)
    return best


def _detective_target(ctx: _Ctx) -> int | None:
    """Where to put the detective: the likely next stop of the strongest opponent."""
    v = ctx.view
    mine = {ctx.progress % NLOC, (ctx.progress + 1) % NLOC}
    best = None
    for s in ctx.opponents:
        p = ctx.progress_of(s)
        strength = p * 9 - v["days"][s]
        for loc in ((p + 1) % NLOC, p % NLOC):
            if loc == 0 or loc in mine:
                continue
            if best is None or strength > best[0]:
                best = (strength, loc)
            break
    return None if best is None else best[1]


def _find(legal: list[Action], **fields: Any) -> Action | None:
    """The first action of `legal` with these fields, or None."""
    if len(fields) == 1:
        ((key, value),) = fields.items()
        for a in legal:
            if a.get(key) == value:
                return a
        return None
    items = fields.items()
    for a in legal:
        for k, v in items:
            if a.get(k) != v:
                break
        else:
            return a
    return None


def choose(view: dict[str, Any], seat: str, legal: list[Action]) -> Action:
    if not legal:
        raise ValueError("no legal action")
    return choose_in(_Ctx(view, seat, legal))


def choose_in(ctx: _Ctx) -> Action:
    """`choose` of a built context."""
    legal = ctx.legal
    if not legal:
        raise ValueError("no legal action")
    phase = ctx.view["phase"]
    act: Action | None
    try:
        if phase == "take":
            act = _choose_take(ctx)
        elif phase == "action":
            act = _choose_pending(ctx)
        elif phase == "travel":
            act = _choose_travel_phase(ctx)
        elif phase == "roll":
            act = _choose_roll(ctx)
        elif phase == "discard":
            act = _choose_discard(ctx)
        else:
            act = None
    except (ValueError, KeyError):  # defensive: never fail a turn
        act = None
    if act is None or act not in legal:
        act = legal[ctx.seed % len(legal)] if phase not in ("travel",) else (
            _find(legal, type="stay") or _find(legal, type="done") or legal[0])
    return act


def _choose_take(ctx: _Ctx) -> Action:
    v = ctx.view
    base = ctx.plan(ctx.hand, ctx.progress)
    best: tuple[float, Action] | None = None
    for a in ctx.legal:
        if a["type"] == "take_top":
            score = 0.7
        else:
            slot = a["slot"]
            space = v["display"][slot]
            card = space["card"]
            hand = sorted(ctx.hand + [card])
            score = base - ctx.plan(hand, ctx.progress)
            score += _action_bonus(ctx, space["action"], hand)
        if best is None or score > best[0]:
            best = (score, a)
    assert best is not None
    return best[1]


def _action_bonus(ctx: _Ctx, action: str, hand: list[str]) -> float:
    v = ctx.view
    if action == "gold":
        return 1.3 if v["gold_supply"] > 0 else 0.0
    if action == "event":
        return 0.9 if v["event_deck"] else 0.0
    if action == "detective":
        bonus = 0.6 if _detective_target(ctx) is not None else 0.0
        if ctx.detective == ctx.progress:
            bonus += 1.0
        return bonus
    if action == "first_player":
        return 0.4
    if action == "exchange":
        return 0.5
    if action == "balloon":
        p = ctx.progress
        if p >= D.HOME or p == D.ELEPHANT_LEG:
            return 0.0
        cost, cards = ctx.best_set(hand, p)
        if not cards:
            return 0.0
        best = cost
        for idx in range(len(cards)):
            best = min(best, leg_days(cards, {idx: 0}) + EXPECTED_DIE - (0.6 if ctx.gold else 0))
        return max(0.0, cost - best) * (1.0 if cost <= PAR[p] + 3 else 0.5)
    return 0.0


def _choose_pending(ctx: _Ctx) -> Action | None:
    pending = ctx.turn.get("pending")
    if pending == "detective":
        target = _detective_target(ctx)
        if target is not None:
            a = _find(ctx.legal, type="detective", location=D.LOCATIONS[target])
            if a:
                return a
        if ctx.detective == ctx.progress:
            # move him away from here, anywhere harmless
            for a in ctx.legal:
                if a["type"] == "detective":
                    loc = D.LOCATIONS.index(a["location"])
                    if loc not in (ctx.progress, (ctx.progress + 1) % NLOC):
                        return a
        return _find(ctx.legal, type="skip_action")
    if pending == "exchange":
        return _choose_exchange(ctx)
    return _find(ctx.legal, type="use_action") or _find(ctx.legal, type="skip_action")


def _choose_exchange(ctx: _Ctx) -> Action | None:
    # cards the plan for the next three legs does not use, worst first
    remaining = list(ctx.hand)
    used: list[str] = []
    for k in range(3):
        leg = ctx.progress + k
        if leg >= D.HOME:
            break
        _, cards = ctx.best_set(remaining, leg)
        if cards:
            for c in cards:
                remaining.remove(c)
                used.append(c)
    junk = sorted((c for c in remaining if D.CARD_INFO[c][1] >= (6 if c[0] == "s" else 5)),
                  key=lambda c: -D.CARD_INFO[c][1])[:3]
    if junk:
        a = _find(ctx.legal, type="exchange", cards=sorted(junk))
        if a:
            return a
    return _find(ctx.legal, type="skip_action")


def _choose_roll(ctx: _Ctx) -> Action | None:
    rolls = ctx.view.get("last_roll") or [1]
    die = rolls[-1]
    if ctx.gold >= 1 and (die >= 5 or (die == 4 and ctx.gold >= 3)):
        return {"type": "reroll"}
    return _find(ctx.legal, type="keep")


def _event_value(ctx: _Ctx, card: str) -> float:
    if card == "elephant":
        return 3.0 if ctx.progress <= D.ELEPHANT_LEG else 0.5
    return {"balloon": 2.5, "offer": 3.0, "propeller_train": 2.0, "submarine": 2.0,
            "connections": 2.5, "detective": 1.5, "princess": 1.5}.get(card, 1.0)


def _choose_discard(ctx: _Ctx, plan: PlanCost | None = None) -> Action:
    """The card whose loss costs the plan least (`plan`, else the context's)."""
    plan = plan or ctx.plan
    base = plan(ctx.hand, ctx.progress, 3)
    best: tuple[float, Action] | None = None
    for a in ctx.legal:
        card = a["card"]
        if card in D.CARD_INFO:
            rest = list(ctx.hand)
            rest.remove(card)
            loss = plan(rest, ctx.progress, 3) - base
        else:
            loss = _event_value(ctx, card)
        if best is None or loss < best[0]:
            best = (loss, a)
    assert best is not None
    return best[1]


def _choose_travel_phase(ctx: _Ctx) -> Action | None:
    """One decision ladder, read top to bottom (its steps are the helpers below)."""
    legal = ctx.legal
    p = ctx.progress
    types = {a["type"] for a in legal}
    # sell an elephant we can no longer ride
    if "elephant_gold" in types and p > D.ELEPHANT_LEG:
        return {"type": "elephant_gold"}
    events = [a for a in legal if a["type"] == "event"]
    can_travel = any(a["type"] == "travel" for a in legal)
    # the elephant leg: ride if we can, else walk
    if can_travel and p == D.ELEPHANT_LEG:
        ride = _find(events, card="elephant") or _find(events, card="princess")
        if ride and (ride["card"] == "elephant" or ctx.view.get("event_discard_top") == "elephant"):
            return ride
        return _find(legal, type="travel")
    par = PAR[p % NLOC] + ctx.slack()
    step = _travel_at_par(ctx, events, par, ctx.plan) if can_travel else _connections(ctx, events)
    if step is None:
        step = _detective_move(ctx, events)
    if step is not None:
        return step
    # buy a travel card when stuck and rich
    buy = _find(legal, type="buy", deck="travel")
    if buy and can_travel is False and ctx.turn.get("travels", 0) == 0 and ctx.gold >= 3:
        return buy
    if buy and ctx.turn.get("travels", 0) == 0 and ctx.gold >= 4:
        return buy
    return _find(legal, type="stay") or _find(legal, type="done") or legal[0]


def _travel_at_par(ctx: _Ctx, events: list[Action], par: float, plan: PlanCost = plan_cost) -> Action | None:
    """A booster worth playing before travelling, else the best travel if it is at par."""
    _, best = ctx.best_travel(plan)
    fixed = _travel_cost(ctx, best) if best else 1e9
    booster = _booster(ctx, events, best, fixed, par)
    if booster is not None:
        return booster
    if best is not None and fixed <= par:
        return best
    return None


def _booster(ctx: _Ctx, events: list[Action], best: Action | None, fixed: float, par: float) -> Action | None:
    """The first event card that pays before travelling: propeller train / submarine on a slow
    card, the balloon on a very slow one, the offer for a much cheaper set."""
    p = ctx.progress
    for a in events:
        card = a["card"] if a["card"] != "princess" else ctx.view.get("event_discard_top")
        if card in ("propeller_train", "submarine") and best is not None:
            kind = "train" if card == "propeller_train" else "ship"
            vals = [D.CARD_INFO[c][1] for c in best["cards"] if D.CARD_INFO[c][0] == kind]
            if vals and max(vals) - (1 if kind == "train" else 2) >= 3 and fixed - 2 <= par + 2:
                return a
        if card == "balloon" and best is not None and "balloon" not in best and best["cards"]:
            vals = [D.CARD_INFO[c][1] for c in best["cards"]]
            if max(vals) >= 6 and fixed - max(vals) + EXPECTED_DIE <= par + 2:
                return a
        if card == "offer":
            hyp, cards = _best_set(ctx.hand, p, offer=True)
            if cards is not None and hyp + 3 <= fixed and hyp <= par + 3:
                return a
    return None


def _connections(ctx: _Ctx, events: list[Action]) -> Action | None:
    """After a journey: Connections when the next leg is cheap enough."""
    p = ctx.progress
    conn = _find(events, card="connections") or (
        _find(events, card="princess") if ctx.view.get("event_discard_top") == "connections" else None)
    if conn and p < D.HOME and ctx.turn.get("travels", 0) >= 1:
        cost, _ = ctx.best_set(ctx.hand, p)
        if cost <= PAR[p % NLOC] + ctx.slack():
            return conn
    return None


def _detective_move(ctx: _Ctx, events: list[Action]) -> Action | None:
    """The detective card: move him onto a leader, or off our location if we stay."""
    p = ctx.progress
    det = [a for a in events if a["card"] == "detective" or (
        a["card"] == "princess" and ctx.view.get("event_discard_top") == "detective")]
    if det:
        target = _detective_target(ctx)
        if ctx.detective == p % NLOC or (target is not None and ctx.pressure):
            for a in det:
                if target is not None and a["location"] == D.LOCATIONS[target]:
                    return a
            for a in det:
                loc = D.LOCATIONS.index(a["location"])
                if loc not in (p % NLOC, (p + 1) % NLOC):
                    return a
    return None
