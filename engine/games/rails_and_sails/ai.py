"""The Rails & Sails AI seat.

It decides only from `view(state, seat)` (its hand, its tickets, the public board) and picks
a member of the legal actions it is given. No randomness: ties break on list order.

Plan: for every unfinished ticket, the cheapest chain of routes (Dijkstra over free routes,
the player's own routes cost nothing, the map wraps east-west because wrap routes are plain
edges) -> a set of needed routes -> claim them when the cards are there, collect the cards
they need otherwise, build harbors in ticket cities, swap pieces when the plan needs the
other kind, and once the tickets are done draw new ones or claim long routes for points.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import Any

from .mapdata import CITIES, COLOURS, ROUTES, ROUTES_BY_ID, TICKETS_BY_ID, WILD

Action = dict[str, Any]

ADJ: dict[str, list[tuple[str, str]]] = {}
for _r in ROUTES:
    ADJ.setdefault(_r.a, []).append((_r.b, _r.id))
    ADJ.setdefault(_r.b, []).append((_r.a, _r.id))

HARBOR_CITIES = frozenset(c for c, city in CITIES.items() if city.harbor)
SCARCE = 3  # extra cost per space when a route's kind of piece is short


class Planner:
    def __init__(self, view: dict[str, Any], seat: str) -> None:
        self.seat = seat
        self.claimed: dict[str, str] = view["claimed"]
        self.few = len(view["seats"]) <= 3
        pieces = view["pieces"].get(seat) or {"trains": 25, "ships": 35}
        self.trains = pieces["trains"]
        self.ships = pieces["ships"]
        self._costs: dict[str, float | None] | None = None

    def usable(self, rid: str) -> bool:
        if rid in self.claimed:
            return False
        twin = ROUTES_BY_ID[rid].double
        if twin is not None and twin in self.claimed:
            return not (self.few or self.claimed[twin] == self.seat)
        return True

    def route_costs(self) -> dict[str, float | None]:
        """Each route's cost outside any plan, worked out once per planner (a plan's searches
        ask for it at every step): 0 for my own, None when not usable, else its spaces (a
        rough one counts twice) and `SCARCE` more a space when my pieces of its kind are short."""
        if self._costs is None:
            costs: dict[str, float | None] = {}
            for r in ROUTES:
                if self.claimed.get(r.id) == self.seat:
                    costs[r.id] = 0.0
                elif not self.usable(r.id):
                    costs[r.id] = None
                else:
                    have = self.trains if r.kind == "train" else self.ships
                    costs[r.id] = float(r.length + r.rough + (SCARCE * r.length if have < r.length else 0))
            self._costs = costs
        return self._costs

    def path(self, a: str, b: str, planned: set[str]) -> tuple[float, list[str]] | None:
        """The cheapest chain of routes from `a` to `b` (Dijkstra; `planned` routes are free)."""
        costs = self.route_costs()
        dist = {a: 0.0}
        prev: dict[str, tuple[str, str]] = {}
        heap = [(0.0, a)]
        pop, push = heapq.heappop, heapq.heappush
        while heap:
            d, node = pop(heap)
            if node == b:
                break
            if d > dist[node]:
                continue
            for nb, rid in ADJ[node]:
                c = 0.0 if rid in planned else costs[rid]
                if c is None:
                    continue
                nd = d + c
                if nd < dist.get(nb, 1e18):
                    dist[nb] = nd
                    prev[nb] = (node, rid)
                    push(heap, (nd, nb))
        if b not in dist:
            return None
        routes = []
        node = b
        while node != a:
            node, rid = prev[node]
            routes.append(rid)
        return dist[b], routes

    def plan(self, ticket_ids: list[str], planned: set[str] | None = None) -> tuple[float, set[str], list[str]]:
        """Cost, needed free routes and the feasible tickets among `ticket_ids` (in that order)."""
        planned = set(planned or ())
        total = 0.0
        feasible = []
        for tid in ticket_ids:
            cities = TICKETS_BY_ID[tid].cities
            cost = 0.0
            routes: list[str] = []
            ok = True
            for x, y in zip(cities, cities[1:], strict=False):
                found = self.path(x, y, planned | set(routes))
                if found is None:
                    ok = False
                    break
                cost += found[0]
                routes += found[1]
            if not ok:
                continue
            feasible.append(tid)
            total += cost
            planned.update(r for r in routes if self.claimed.get(r) != self.seat)
        return total, planned, feasible


Decide = Callable[[dict[str, Any], str, list[Action]], Action]


def decide(view: dict[str, Any], seat: str, legal: list[Action], keep: Decide | None = None,
           turn: Decide | None = None) -> Action:
    """The move for the kind of decision: the set-up's piece mix, which tickets to keep (`keep`,
    default today's), or a turn (`turn`, default today's)."""
    if len(legal) == 1:
        return legal[0]
    kind = legal[0]["type"]
    if kind == "choose_mix":
        return _choose_mix(view, seat, legal)
    if kind == "keep_tickets":
        return (keep or _keep)(view, seat, legal)
    return (turn or _turn)(view, seat, legal)


def choose(view: dict[str, Any], seat: str, legal: list[Action]) -> Action:
    return decide(view, seat, legal)


def _open_tickets(view: dict[str, Any]) -> list[str]:
    tickets = view["private"]["tickets"]
    open_ = [t for t in tickets if t["status"] == "open"]
    open_.sort(key=lambda t: -t["points"][0])
    return [t["id"] for t in open_]


def _keep(view: dict[str, Any], seat: str, legal: list[Action]) -> Action:
    planner = Planner(view, seat)
    setup = view["phase"] == "setup_tickets"
    base_cost, base_plan, _ = planner.plan(_open_tickets(view)) if not setup else (0.0, set(), [])
    pieces = 60 if setup else planner.trains + planner.ships
    crowd = 8 * (len(view["seats"]) - 2)  # more players block more routes
    budget = max(0.0, pieces - 32 - crowd - base_cost)
    best = None
    best_score = -1e18
    for action in legal:
        ids = sorted(action["ids"], key=lambda t: -TICKETS_BY_ID[t].points[0])
        cost, _, feasible = planner.plan(ids, base_plan)
        points = sum(TICKETS_BY_ID[t].points[0] for t in feasible)
        lost = sum(TICKETS_BY_ID[t].points[-1] for t in ids if t not in feasible)
        score = points - 0.6 * cost - 2 * lost
        if cost > budget:
            score -= 3 * (cost - budget) + 20
        if score > best_score:
            best, best_score = action, score
    return best if best is not None else legal[-1]


def _choose_mix(view: dict[str, Any], seat: str, legal: list[Action]) -> Action:
    planner = Planner(view, seat)
    _, needed, _ = planner.plan(_open_tickets(view))
    t_need = sum(ROUTES_BY_ID[r].length for r in needed if ROUTES_BY_ID[r].kind == "train")
    want = max(10, min(25, t_need + 6))
    for action in legal:
        if action["trains"] == want:
            return action
    return legal[0]


def _hand_counts(hand: list[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for c in hand:
        counts[c] = counts.get(c, 0) + 1
    return counts


def _turn(view: dict[str, Any], seat: str, legal: list[Action]) -> Action:
    """The priority ladder of a turn, in order (the longer steps are helpers below)."""
    by_type: dict[str, list[Action]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    planner = Planner(view, seat)
    tickets = view["private"]["tickets"]
    open_ids = _open_tickets(view)
    _, needed, feasible = planner.plan(open_ids)
    hand = _hand_counts(view["private"]["hand"])
    final = view["final_turns_left"] is not None
    claims = by_type.get("claim", [])
    draws = by_type.get("draw", [])

    wanted = _harbor_wish(view, seat, tickets, feasible, hand)
    if view["drawn"]:
        return _pick_draw(draws, needed, hand, view, wanted) or legal[0]

    # 2. harbors in the cities of my tickets
    harbors = by_type.get("harbor", [])
    if harbors:
        harbor = _harbor_choice(harbors, tickets, feasible, final, planner)
        if harbor is not None:
            return harbor

    # 1. claim a planned route (longest first, fewest wilds)
    planned_claims = [a for a in claims if a["route"] in needed]
    if planned_claims:
        return _best_claim(planned_claims)

    # 3. nothing left to plan: new tickets while there is room, else points
    unplanned = _unplanned_choice(by_type, needed, final, planner)
    if unplanned is not None:
        return unplanned

    # 4. swap pieces when the plan needs the other kind
    exchanges = by_type.get("exchange", [])
    if exchanges and needed:
        exchange = _exchange_choice(exchanges, needed, planner)
        if exchange is not None:
            return exchange

    # 5. cards
    if draws:
        pick = _pick_draw(draws, needed, hand, view, wanted)
        if pick is not None:
            return pick
    return _last_resort(legal, by_type, final)


def _last_resort(legal: list[Action], by_type: dict[str, list[Action]], final: bool) -> Action:
    """No draw worth taking: the best claim, else new tickets (not in the final round), else
    anything but an exchange."""
    claims = by_type.get("claim", [])
    if claims:
        return _best_claim(claims)
    if by_type.get("tickets") and not final:
        return by_type["tickets"][0]
    for a in legal:
        if a["type"] != "exchange":
            return a
    return legal[0]


def _unplanned_choice(
    by_type: dict[str, list[Action]], needed: set[str], final: bool, planner: Planner
) -> Action | None:
    """Nothing left to plan: new tickets while there is room, else the best claim; in the
    final round the best claim too."""
    claims = by_type.get("claim", [])
    if not needed:
        pieces = planner.trains + planner.ships
        if by_type.get("tickets") and not final and pieces >= 22:
            return by_type["tickets"][0]
        if claims:
            return _best_claim(claims)
    elif final and claims:
        return _best_claim(claims)
    return None


def _harbor_choice(
    harbors: list[Action], tickets: list[dict[str, Any]], feasible: list[str], final: bool, planner: Planner
) -> Action | None:
    """A harbor in the cities of my done or feasible tickets (most of them, fewest wilds); any
    harbor late in the game (an unbuilt harbor costs points); else none."""
    weight: dict[str, int] = {}
    for t in tickets:
        if t["status"] != "open" or t["id"] in feasible:
            for c in t["cities"]:
                weight[c] = weight.get(c, 0) + 1
    good = [a for a in harbors if weight.get(a["city"], 0) > 0]
    if good:
        return min(good, key=lambda a: (-weight[a["city"]], a["cards"].count(WILD)))
    if final or planner.trains + planner.ships <= 20:  # an unbuilt harbor costs 4 points
        return min(harbors, key=lambda a: a["cards"].count(WILD))
    return None


def _exchange_choice(exchanges: list[Action], needed: set[str], planner: Planner) -> Action | None:
    """Swap pieces toward the kind the planned routes lack, as close to the shortfall as
    offered; none when the pieces fit the plan."""
    t_need = sum(ROUTES_BY_ID[r].length for r in needed if ROUTES_BY_ID[r].kind == "train")
    s_need = sum(ROUTES_BY_ID[r].length for r in needed if ROUTES_BY_ID[r].kind == "ship")
    want = 0
    if t_need > planner.trains and planner.ships > s_need:
        want = min(t_need - planner.trains, planner.ships - s_need)
    elif s_need > planner.ships and planner.trains > t_need:
        want = -min(s_need - planner.ships, planner.trains - t_need)
    if want:
        options = [a["trains"] for a in exchanges if (a["trains"] > 0) == (want > 0)]
        if options:
            n = max(options, key=lambda x: (-abs(abs(x) - abs(want)), -abs(x)))
            return {"type": "exchange", "trains": n}
    return None


def _harbor_wish(
    view: dict[str, Any], seat: str, tickets: list[dict[str, Any]], feasible: list[str], hand: dict[str, int]
) -> dict[str, float]:
    """Card values for collecting a harbor payment: the colour closest to 2 train cards with the
    harbor symbol + 2 single ships, while a free harbor city of my tickets exists."""
    if view["harbors_left"].get(seat, 0) <= 0:
        return {}
    taken = view["harbors"]
    targets: set[str] = set()
    for t in tickets:
        if t["status"] != "open" or t["id"] in feasible:
            targets.update(c for c in t["cities"] if c in HARBOR_CITIES and c not in taken)
    if not targets:
        return {}
    best = max(COLOURS, key=lambda c: min(2, hand.get(f"t:{c}:h", 0)) + min(2, hand.get(f"s:{c}", 0)))
    wish: dict[str, float] = {}
    if hand.get(f"t:{best}:h", 0) < 2:
        wish[f"t:{best}:h"] = 1.8
    if hand.get(f"s:{best}", 0) < 2:
        wish[f"s:{best}"] = 1.8
    return wish


def _best_claim(claims: list[Action]) -> Action:
    return max(
        claims,
        key=lambda a: (ROUTES_BY_ID[a["route"]].length, -a["cards"].count(WILD), -len(a["cards"])),
    )


def _deficits(needed: set[str], hand: dict[str, int]) -> tuple[dict[str, int], dict[str, int], int, int]:
    need_t = dict.fromkeys(COLOURS, 0)
    need_s = dict.fromkeys(COLOURS, 0)
    any_t = any_s = 0
    for rid in needed:
        r = ROUTES_BY_ID[rid]
        if r.kind == "train":
            any_t += 2 * r.rough
            if r.colour == "grey":
                any_t += r.length - r.rough
            else:
                need_t[r.colour] += r.length - r.rough
        elif r.colour == "grey":
            any_s += r.length
        else:
            need_s[r.colour] += r.length
    def_t = {}
    def_s = {}
    for c in COLOURS:
        have_t = hand.get(f"t:{c}", 0) + hand.get(f"t:{c}:h", 0)
        have_s = hand.get(f"s:{c}", 0) + 2 * hand.get(f"s:{c}:2", 0)
        def_t[c] = max(0, need_t[c] - have_t)
        def_s[c] = max(0, need_s[c] - have_s)
    return def_t, def_s, any_t, any_s


def _card_value(card: str | None, def_t: dict[str, int], def_s: dict[str, int], any_t: int, any_s: int) -> float:
    if card is None or card == WILD:
        return 0.0
    parts = card.split(":")
    colour = parts[1]
    if parts[0] == "t":
        v = 2.0 if def_t[colour] > 0 else (0.5 if any_t else 0.0)
        if parts[-1] == "h":
            v += 0.3
        return v
    if parts[-1] == "2":
        return 3.0 if def_s[colour] >= 2 else (2.0 if def_s[colour] > 0 else (0.5 if any_s else 0.0))
    return 2.0 if def_s[colour] > 0 else (0.6 if any_s else 0.2)


def _pick_draw(
    draws: list[Action], needed: set[str], hand: dict[str, int], view: dict[str, Any],
    wanted: dict[str, float] | None = None, *, prefer: str | None = None, full: tuple[bool, bool] = (False, False),
) -> Action | None:
    """A face-up card worth taking, else a blind card of the `prefer`red kind (by default the
    kind with the larger deficit); a kind whose pieces are `full` (trains, ships) is worth only
    what `wanted` says of it."""
    if not draws:
        return None
    wanted = wanted or {}
    def_t, def_s, any_t, any_s = _deficits(needed, hand)
    prefer = prefer or ("train" if 0 < sum(def_t.values()) + any_t >= sum(def_s.values()) + any_s else "ship")
    face_up = view["face_up"]
    best = None
    best_v = 1.0
    for a in draws:
        if a["source"] != "face_up":
            continue
        card = face_up[a["slot"]]
        if card and card != WILD and ((card[0] == "t" and full[0]) or (card[0] == "s" and full[1])):
            v = wanted.get(card, 0.0)  # no pieces left for it: only a route it completes counts
        else:
            v = max(_card_value(card, def_t, def_s, any_t, any_s), wanted.get(card or "", 0.0))
        if a["refill"] == prefer:
            v += 0.01
        if v > best_v:
            best, best_v = a, v
    if best is not None:
        return best
    for a in draws:
        if a["source"] == f"{prefer}_deck":
            return a
    for a in draws:
        if a["source"] != "face_up":
            return a
    non_wild = [a for a in draws if face_up[a["slot"]] != WILD]
    return non_wild[0] if non_wild else draws[0]
