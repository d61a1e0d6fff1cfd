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


def _items_held(state: DaysState, i: int) -> list[int]:
    return [k for k, n in enumerate(state.items[i]) if n]


def _give_backs(state: DaysState, i: int) -> list[Action]:
    return [{"type": "give_back", "item": ITEMS[k]} for k in _items_held(state, i)]


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
        return [{"type": "free_travel", "line": lid} for lid in F.free_travel_options(state, i, entry["travel"])]
    if kind == "observer":
        return [{"type": "observer"}] + [{"type": "observer", "item": ITEMS[k]} for k in _items_held(state, i)]
    # swap (pass tile): decline, or any swap that fits
    return [{"type": "swap"}, *_swaps(state, i, "swap")]


def _travels(state: DaysState, i: int, out: list[Action]) -> None:
    if state.in_london[i]:
        return
    coins = state.coins[i]
    paper = F.newspaper(state)
    sunday = paper == "sunday_express"
    revolver_ok = paper != "guardian" or F.item_count(state, i, C.REVOLVER) > 0
    costs = {a: F.area_cost(state, a) for a in C.TRAVEL_AREAS}
    assistant = state.assistant[i]
    mary = assistant == "mary" and not state.turned[i] and state.items[i][C.UMBRELLA] > 0
    for lid, other in C.NEIGHBOURS[state.city[i]]:
        if not F.can_enter(state, i, other):
            continue
        kind = C.LINES[lid][2]
        item, extra = F.line_coin_cost(state, lid)
        if item >= 0 and F.item_count(state, i, item) < 1:
            item_ok = False
        else:
            item_ok = True
        if item_ok and (kind != C.TRAIN or revolver_ok):
            if coins >= costs[kind] + extra:
                out.append({"type": "travel", "line": lid, "area": kind})
            if sunday and kind != C.SPECIAL and coins >= costs[C.SPECIAL] + extra:
                out.append({"type": "travel", "line": lid, "area": C.SPECIAL})
        if assistant == "leonard" and item_ok and coins >= C.LEONARD_COST + extra:
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
