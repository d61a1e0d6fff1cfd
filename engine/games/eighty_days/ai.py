"""A greedy planner for `eighty-days`, deciding from the seat's own view only (the public
board plus its private adventure card and drafts) and the static content.

Each legal main action gets a value in "points". The seat plans its way home: a route
estimate to the arrival London (fewest lines, line costs weighed: coins, and items it
holds or would have to buy) gives each city a value, and a trip is worth the estimate it
saves, scaled by how far behind schedule the seat is (5 per line once the periods run
out), plus the arrival card and London's adventures. Buying is worth it for an item the
held adventure or the next line of the route needs; coins lose value as the game nears
its end (they only break ties). The best action is taken if it beats passing.
Additional actions: complete whenever possible, search when the held card is hopeless.
Drafts keep the card with the best points for what is still missing. Deterministic: ties go to the first legal action.
"""

from __future__ import annotations

import functools
import heapq
from collections.abc import Callable
from typing import Any

from . import content as C
from .packing import suitcase

Action = dict[str, Any]
COIN = 0.55  # points per coin spent (period I; less later)
ITEM_VALUE = 2.6  # points for an item the adventure still needs
ASSISTANT_PREFERENCE = ("amelie", "leonard", "jean", "alex", "luigi", "matilda", "albert", "paul", "jill", "mary")


class _Me:
    """What the seat knows about itself, read once from the view."""

    def __init__(self, view: dict[str, Any], seat: str) -> None:
        self.view = view
        self.me = next(p for p in view["players"] if p["seat"] == seat)
        private = view.get("private") or {}
        self.card: dict[str, Any] | None = private.get("adventure")
        self.items = [self.me["items"][name] for name in C.ITEMS]
        revolvers = self.me["matilda_revolvers"]
        self.usable = list(self.items)
        self.usable[C.REVOLVER] += revolvers
        self.coins = self.me["coins"]
        self.period = max(1, view["period"])
        self.case = suitcase(self.me["character"], self.me["second_suitcase"])
        self.missing = self.missing_for(self.card)
        #: points per coin: coins only break ties at the end, so they are worth less late
        self.coin = COIN * (1.15 - 0.17 * self.period)
        self.line_costs = {ln["id"]: ln["cost"] for ln in view["map"]["lines"]}

    @functools.cached_property
    def route(self) -> dict[str, float]:
        """The weighted distance home from every city (worked out only when a move asks: most
        decisions, drafts, completing, searching, ending the turn, never do)."""
        return _route(self)

    def missing_for(self, card: dict[str, Any] | None) -> list[int]:
        if not card:
            return [0] * 5
        return [max(0, card["items"].get(name, 0) - self.usable[k]) for k, name in enumerate(C.ITEMS)]

    def fits_with(self, item: int, minus: int = -1) -> bool:
        counts = list(self.items)
        counts[item] += 1
        if minus >= 0:
            counts[minus] -= 1
        return self.case.fits(tuple(counts))

    def market_ok(self, city: str) -> bool:
        card = self.card
        if not card:
            return False
        return bool(card["london"] or C.market_allows(C.CITIES[city][0], card["market"]))


def _card_value(me: _Me, card: dict[str, Any]) -> float:
    missing = me.missing_for(card)
    value = card["points"] - 1.2 * sum(missing) - 0.3 * card["coins"]
    if card["bonus"]:
        value += 1.0
    if not card["london"] and me.market_ok(me.me["city"]):
        value += 0.5
    return value


def _needed(me: _Me) -> set[int]:
    return {k for k, n in enumerate(me.missing) if n}


def _spare_item(me: _Me) -> int:
    """The held item the adventure needs least (the biggest of the unneeded ones)."""
    need = me.card["items"] if me.card else {}
    held = [k for k in range(5) if me.items[k]]
    return max(held, key=lambda k: (me.items[k] > need.get(C.ITEMS[k], 0), k))


def _decide(me: _Me, legal: list[Action]) -> Action:
    """Answers to waiting decisions."""
    kind = legal[0]["type"]
    needed = _needed(me)
    if kind == "keep_adventure":
        cards = {c["id"]: c for c in (me.view.get("private") or {}).get("draft", [])}
        return max(legal, key=lambda a: _card_value(me, cards[a["card"]]) if a["card"] in cards else 0)
    if kind == "keep_assistant":
        return min(legal, key=lambda a: ASSISTANT_PREFERENCE.index(a["assistant"]))
    if kind == "give_back":
        spare = C.ITEMS[_spare_item(me)]
        return next((a for a in legal if a["item"] == spare), legal[0])
    if kind == "take_item":
        return max(legal, key=lambda a: (C.ITEM_INDEX[a["item"]] in needed,
                                         me.fits_with(C.ITEM_INDEX[a["item"]]), -C.ITEM_INDEX[a["item"]]))
    if kind == "albert":
        face = me.me["pending"][0].get("face", "joker") if me.me["pending"] else "joker"
        good = face == "joker" or C.ITEM_INDEX[face] in needed
        return next((a for a in legal if a["keep"] == good), legal[0])
    if kind == "observer":
        return _observe(me, legal, needed)
    if kind == "free_travel":
        return max(legal, key=lambda a: _travel_gain(me, a["line"], 0.0))
    if kind == "swap":
        for a in legal[1:]:
            if C.ITEM_INDEX[a["take"]] in needed and C.ITEM_INDEX[a["give"]] not in needed:
                return a
        return legal[0]
    return legal[0]


def _observe(me: _Me, legal: list[Action], needed: set[int]) -> Action:
    """Answer the observer: hand over a spare item the adventure does not need, else the first
    answer."""
    if any(me.items):
        spare = _spare_item(me)
        if spare not in needed and me.items[spare] > (me.card or {"items": {}})["items"].get(C.ITEMS[spare], 0):
            return next(a for a in legal if a.get("item") == C.ITEMS[spare])
    return legal[0]


def _dest(me: _Me, line: str) -> str:
    a, b = C.LINES[line][0], C.LINES[line][1]
    return b if a == me.me["city"] else a


def _line_weight(me: _Me, line: str) -> float:
    """How many "lines" a line is worth on the way home: 1, plus its coins, plus an item
    the seat would have to hand in (cheap when it holds a spare one)."""
    cost = me.line_costs[line]
    if not cost:
        return 1.0
    if cost["kind"] == "coins":
        return 1.0 + 0.12 * cost["coins"]
    k = C.ITEM_INDEX[cost["item"]]
    have = me.usable[k] - (me.card["items"].get(cost["item"], 0) if me.card else 0)
    return 1.25 if have > 0 else 1.9


def _route(me: _Me) -> dict[str, float]:
    """Weighted distance of every city to the arrival London (Dijkstra, a 25-city map)."""
    return distances_home(lambda line, _other: _line_weight(me, line))


def distances_home(weight: Callable[[str, str], float]) -> dict[str, float]:
    """Every city's distance to the arrival London, a line from `other` weighing
    `weight(line, other)` (Dijkstra over the 25-city map)."""
    dist = {C.ARRIVAL: 0.0}
    todo = [(0.0, C.ARRIVAL)]
    while todo:
        d, city = heapq.heappop(todo)
        if d > dist[city]:
            continue
        for line, other in C.NEIGHBOURS[city]:
            nd = d + weight(line, other)
            if nd < dist.get(other, 1e9):
                dist[other] = nd
                heapq.heappush(todo, (nd, other))
    return dist


def _next_lines(me: _Me) -> list[str]:
    """The lines leaving the seat's city that lie on a best route home."""
    here = me.me["city"]
    if here == C.ARRIVAL:
        return []
    best = me.route[here]
    return [line for line, other in C.NEIGHBOURS[here]
            if abs(me.route[other] + _line_weight(me, line) - best) < 1e-9]


def _line_per_point(me: _Me) -> float:
    """Points a line nearer home is worth now: 5 once the seat is behind schedule (about
    2.5 lines a period), less while there is time to spare."""
    lines_left = C.DISTANCE[me.me["city"]]
    capacity = 2.6 * (C.PERIODS - me.period + 1)
    return C.CITY_PENALTY * min(1.0, 0.45 + 0.6 * lines_left / max(1.0, capacity))


def _travel_gain(me: _Me, line: str, coins: float) -> float:
    here, there = me.me["city"], _dest(me, line)
    gain = _line_per_point(me) * (me.route[here] - me.route[there])
    if there == C.ARRIVAL:
        cards = me.view["arrival_cards"]
        gain += (cards[0] if cards else 0) + 5
    if me.card and not me.card["london"] and not any(me.missing):
        gain += 3 if me.market_ok(there) and not me.market_ok(here) else 0
    if me.me["adventures"] < C.LONDON_ENTRY and C.DISTANCE[there] <= 1 and me.period < 5:
        gain -= 4  # no use waiting next to London without the adventures to enter
    return gain - me.coin * coins


def _line_cost(me: _Me, line: str) -> tuple[int, float]:
    info = me.line_costs[line]
    if not info:
        return 0, 0.0
    if info["kind"] == "coins":
        return info["coins"], 0.0
    return 0, (ITEM_VALUE if C.ITEM_INDEX[info["item"]] in _needed(me) else 0.6)


def _route_items(me: _Me) -> set[int]:
    """Items the next line of the route asks for that the seat does not hold."""
    out = set()
    for line in _next_lines(me):
        cost = me.line_costs[line]
        if cost and cost["kind"] == "item" and me.usable[C.ITEM_INDEX[cost["item"]]] == 0:
            out.add(C.ITEM_INDEX[cost["item"]])
    return out


def _value(me: _Me, a: Action) -> float:
    """What a main action is worth, in points."""
    t = a["type"]
    areas = me.view["areas"]
    if t in ("travel", "leonard", "mary"):
        coins, item_loss = _line_cost(me, a["line"]) if t != "mary" else (0, 1.0)
        coins += areas[a["area"]]["next_cost"] if t == "travel" else (C.LEONARD_COST if t == "leonard" else 0)
        return _travel_gain(me, a["line"], coins) - item_loss
    needed = _needed(me)
    if t in ("buy", "paul"):
        item = C.HAT if t == "paul" else C.ITEM_INDEX[a["item"]]
        cost = C.PAUL_COST if t == "paul" else areas[a["market"]]["next_cost"]
        if not me.fits_with(item):
            return -9.0
        if item in needed:
            return ITEM_VALUE - me.coin * cost
        if item in _route_items(me):
            return 0.6 * _line_per_point(me) - me.coin * cost
        return -9.0
    if t == "black_market":
        return (len(needed) + 1) / 6 * ITEM_VALUE - me.coin * areas["black"]["next_cost"] if needed else -9.0
    if t == "juggle":
        return me.coin * me.view["juggler"][a["stack"]] - 0.2
    return -9.0


def _pass_value(me: _Me, a: Action) -> float:
    tile = a.get("tile")
    if not tile:
        return 0.0
    coins = next(t["coins"] for t in me.view["pass_tiles"] if t["id"] == tile)
    bonus = {"give_me_the_money": 1.1, "and_bye": 1.5, "on_offer": 0.8, "me_first": 0.6}.get(tile, 0.2)
    return me.coin * coins + bonus


def choose(view: dict[str, Any], seat: str, legal: list[Action]) -> Action:
    me = _Me(view, seat)
    if legal[0]["type"] in ("keep_adventure", "keep_assistant", "give_back", "take_item", "albert", "observer",
                            "free_travel", "swap") and not any(a["type"] == "pass" or a["type"] == "end_turn"
                                                               for a in legal):
        return _decide(me, legal)
    by_type: dict[str, list[Action]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    if "complete" in by_type:
        return by_type["complete"][0]
    if "search" in by_type and _hopeless(me):
        return by_type["search"][0]
    if "end_turn" in by_type:
        return by_type["end_turn"][0]
    best, best_value = None, 0.0
    for a in legal:
        if a["type"] == "pass":
            v = _pass_value(me, a)
        elif a["type"] in ("give_back", "search", "jill"):
            continue
        else:
            v = _value(me, a)
        if best is None or v > best_value:
            best, best_value = a, v
    return best if best is not None else legal[0]


def _hopeless(me: _Me) -> bool:
    """Search for a new card when there is none, or the held one misses too much."""
    if me.card is None:
        return me.coins >= C.SEARCH_COST
    missing = sum(me.missing)
    return missing >= 3 and me.coins >= 6
