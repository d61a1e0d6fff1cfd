"""Every legal action of a seat, enumerated directly (the hot path of playouts and AI).

Each list here must be exactly the set of actions the `check` functions of `moves` and
`extras` accept; the property tests compare the two on random states.
"""

from __future__ import annotations

from engine.core import Action

from . import content as C
from . import flow as F
from .moves import tile_required
from .state import PLAY, DaysState

ITEMS = C.ITEMS
#: city -> (line, other city, kind) for every line leaving it, in line order
_OUT: dict[str, tuple[tuple[str, str, str], ...]] = {
    city: tuple((lid, other, C.LINES[lid][2]) for lid, other in nbrs) for city, nbrs in C.NEIGHBOURS.items()}


def _item_coins(cost: C.Cost) -> tuple[int, int]:
    """A line cost as (item index or -1, coins), like `flow.line_coin_cost`."""
    if cost is None:
        return -1, 0
    if cost[0] == "coins":
        return -1, cost[1]
    return C.ITEM_INDEX[cost[1]], 0


#: (item or -1, coins) of every line on side A and of every side B line tile
_COST_A: dict[str, tuple[int, int]] = {lid: _item_coins(line[3]) for lid, line in C.LINES.items()}
_COST_TILE: dict[str, tuple[int, int]] = {tid: _item_coins(cost) for tid, cost in C.LINE_TILES.items()}
_NO_COST = (-1, 0)


def _items_held(state: DaysState, i: int) -> list[int]:
    return [k for k, n in enumerate(state.items[i]) if n]


def _give_backs(state: DaysState, i: int) -> list[Action]:
    return [{"type": "give_back", "item": ITEMS[k]} for k, n in enumerate(state.items[i]) if n]


def _swaps(state: DaysState, i: int, kind: str) -> list[Action]:
    case = F.case_of(state, i)
    counts = state.items[i]
    supply = state.supply
    out: list[Action] = []
    for g in _items_held(state, i):
        for t in range(5):
            if t != g and supply[t]:
                c = list(counts)
                c[g] -= 1
                c[t] += 1
                if case.fits(tuple(c)):
                    out.append({"type": kind, "give": ITEMS[g], "take": ITEMS[t]})
    return out


def pending_actions(state: DaysState, i: int, entry: dict) -> list[Action]:
    kind = entry["kind"]
    if kind == "adventure":
        return [{"type": "keep_adventure", "card": c} for c in entry["cards"]]
    if kind == "assistant":
        return [{"type": "keep_assistant", "assistant": c} for c in entry["cards"]]
    if kind == "overflow":
        return _give_backs(state, i)
    if kind == "any_item":
        return [{"type": "take_item", "item": ITEMS[k]} for k in range(5) if state.supply[k]]
    if kind == "albert":
        acts: list[Action] = [{"type": "albert", "keep": True}]
        if entry["rolls"]:
            acts.append({"type": "albert", "keep": False})
        return acts
    if kind == "free_travel":
        lines = F.free_travel_options(state, i, entry["travel"], F.trip_diary(state, i, entry))
        return [{"type": "free_travel", "line": lid} for lid in lines]
    if kind == "observer":
        return [{"type": "observer"}] + [{"type": "observer", "item": ITEMS[k]} for k in _items_held(state, i)]
    # swap (pass tile): decline, or any swap that fits
    return [{"type": "swap"}, *_swaps(state, i, "swap")]


def _travels(state: DaysState, i: int, out: list[Action]) -> None:
    """Trips from the seat's city (the hot path: line costs from precomputed tables)."""
    if state.in_london[i]:
        return
    coins = state.coins[i]
    paper = F.newspaper(state)
    sunday = paper == "sunday_express"
    items = state.items[i]
    matilda = state.matilda[i]
    revolver_ok = paper != "guardian" or items[C.REVOLVER] + matilda > 0
    costs = {a: F.area_cost(state, a) for a in C.TRAVEL_AREAS}
    special = costs[C.SPECIAL]
    assistant = state.assistant[i]
    leonard = assistant == "leonard"
    mary = assistant == "mary" and not state.turned[i] and items[C.UMBRELLA] > 0
    may_enter = len(state.diary[i]) >= C.LONDON_ENTRY
    side_a = state.options["side"] == "A"
    tiles = state.line_tiles
    for lid, other, kind in _OUT[state.city[i]]:
        if other == C.ARRIVAL and not may_enter:
            continue
        if side_a:
            item, extra = _COST_A[lid]
        else:
            tile = tiles.get(lid)
            item, extra = _COST_TILE[tile] if tile else _NO_COST
        item_ok = item < 0 or items[item] + (matilda if item == C.REVOLVER else 0) >= 1
        if item_ok and (kind != C.TRAIN or revolver_ok):
            if coins >= costs[kind] + extra:
                out.append({"type": "travel", "line": lid, "area": kind})
            if sunday and kind != C.SPECIAL and coins >= special + extra:
                out.append({"type": "travel", "line": lid, "area": C.SPECIAL})
        if leonard and item_ok and coins >= C.LEONARD_COST + extra:
            out.append({"type": "leonard", "line": lid})
        if mary:
            out.append({"type": "mary", "line": lid})


def _buys(state: DaysState, i: int, out: list[Action]) -> None:
    coins = state.coins[i]
    supply = state.supply
    for market in F.markets_at(state, i):
        if coins >= F.area_cost(state, market):
            out.extend({"type": "buy", "market": market, "item": ITEMS[k]}
                       for k in F.sells(state, market) if supply[k])
    if coins >= F.area_cost(state, "black"):
        out.append({"type": "black_market"})


def _main_actions(state: DaysState, i: int, out: list[Action]) -> None:
    _travels(state, i, out)
    _buys(state, i, out)
    if state.options["side"] == "A":
        out.extend({"type": "juggle", "stack": k} for k, n in enumerate(state.juggler) if n)
    if state.assistant[i] == "paul" and state.coins[i] >= C.PAUL_COST and state.supply[C.HAT]:
        out.append({"type": "paul"})
    if tile_required(state):
        out.extend({"type": "pass", "tile": t} for t in state.pass_tiles)
    else:
        out.append({"type": "pass"})


def turn_actions(state: DaysState, i: int) -> list[Action]:
    out: list[Action] = []
    if state.acted:
        out.append({"type": "end_turn"})
        if state.assistant[i] == "luigi" and not state.turned[i]:
            out.append({"type": "luigi"})
    else:
        _main_actions(state, i, out)
    if state.adventure[i] and F.can_complete(state, i):
        out.append({"type": "complete"})
    if state.coins[i] >= C.SEARCH_COST and (state.london_deck if state.in_london[i] else state.deck):
        out.append({"type": "search"})
    out.extend(_give_backs(state, i))
    if state.assistant[i] == "jill" and not state.turned[i]:
        out.extend(_swaps(state, i, "jill"))
    return out


def legal(state: DaysState, i: int) -> list[Action]:
    queue = state.pending[i]
    if queue:
        return pending_actions(state, i, queue[0])
    if state.phase != PLAY or state.current != i or state.period_over or any(state.pending):
        return []
    return turn_actions(state, i)
