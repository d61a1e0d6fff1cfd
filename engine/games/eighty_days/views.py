"""Views of an `eighty-days` game: everything a renderer and a UI need to draw and label
the board, built only from what the table can see (the seat's own secrets go under
``"private"``). Held adventure cards, drafts, future newspapers, decks and, during the
setup, the kept assistants (and so Jean's second suitcase) are never in the public view; the
past newspapers are (everyone read them), so a view is all a seat knows (`Rules.determinize`).
"""

from __future__ import annotations

from typing import Any

from . import content as C
from . import flow as F
from .packing import packing_view, suitcase
from .state import SETUP, DaysState

#: the map's fixed parts, built once and shared by every view (views are read-only: nothing
#: writes into one, see docs/architecture.md): the cities (market, position, distance to the
#: arrival London), and side A's lines with their printed costs
_CITIES: list[dict[str, Any]] = [{"id": cid, "market": mk, "x": x, "y": y, "distance": C.DISTANCE[cid]}
                                 for cid, (mk, x, y) in C.CITIES.items()]
_LINES_A: list[dict[str, Any]] = [{"id": lid, "a": a, "b": b, "kind": kind, "cost": C.cost_info(cost), "tile": None,
                                   "tile_space": False} for lid, (a, b, kind, cost, _space) in C.LINES.items()]


def map_view(state: DaysState) -> dict[str, Any]:
    """Cities (market, position, distance to the arrival London) and lines with what they
    cost on this side (side B: the line tile on the line, if any: see `flow.line_cost`)."""
    side = state.options["side"]
    if side == "A":
        lines = _LINES_A
    else:
        tiles = state.line_tiles
        lines = [{"id": lid, "a": a, "b": b, "kind": kind, "cost": C.cost_info(C.LINE_TILES[tile] if tile else None),
                  "tile": tile, "tile_space": space}
                 for lid, (a, b, kind, _cost, space) in C.LINES.items() for tile in (tiles.get(lid),)]
    return {"side": side, "start": C.START, "arrival": C.ARRIVAL, "cities": _CITIES, "lines": lines}


def _pending_public(entry: dict[str, Any]) -> dict[str, Any]:
    kind = entry["kind"]
    if kind in ("adventure", "assistant"):
        return {"kind": kind, "count": len(entry["cards"])}
    if kind == "albert":
        return {"kind": kind, "face": C.DIE_FACES[entry["face"]], "rolls": entry["rolls"]}
    if kind == "free_travel":
        return {"kind": kind, "travel": entry["travel"], "why": entry["why"]}
    if kind == "any_item":
        return {"kind": kind, "why": entry["why"]}
    return {"kind": kind}


def player_view(state: DaysState, i: int) -> dict[str, Any]:
    """One seat as the table sees it. During the setup drafts the kept assistant is secret,
    so the suitcase (its outline, fit and packing) is the character's own: Jean's second
    suitcase shows only once the assistants are revealed."""
    counts = tuple(state.items[i])
    show_assistant = state.phase != SETUP and state.assistant[i]
    jean = state.phase != SETUP and state.assistant[i] == "jean"
    case = suitcase(state.characters[i], jean)
    return {
        "seat": state.seats[i], "character": state.characters[i], "city": state.city[i],
        "distance": 0 if state.in_london[i] else C.DISTANCE[state.city[i]], "coins": state.coins[i],
        "items": {name: counts[k] for k, name in enumerate(C.ITEMS)}, "item_count": sum(counts),
        "fits": case.fits(counts), "packing": packing_view(case, counts), "suitcase": case.layout(),
        "second_suitcase": jean,
        "diary": [C.card_info(c) for c in state.diary[i]], "adventures": len(state.diary[i]),
        "may_enter_london": len(state.diary[i]) >= C.LONDON_ENTRY,
        "arrival": state.arrival[i] if state.in_london[i] else None, "in_london": state.in_london[i],
        "passed": state.passed[i], "has_adventure": bool(state.adventure[i]),
        "assistant": state.assistant[i] if show_assistant else None,
        "assistant_turned": state.turned[i], "matilda_revolvers": state.matilda[i],
        "pass_tile": state.taken_tile[i] or None, "pending": [_pending_public(e) for e in state.pending[i]],
        "score": F.score_parts(state, i),
    }


def public_view(state: DaysState, to_act: list[str]) -> dict[str, Any]:
    paper = F.newspaper(state)
    return {
        "game": "eighty-days", "seats": list(state.seats), "to_act": to_act, "over": state.phase == "over",
        "phase": state.phase, "period": state.period, "periods": C.PERIODS, "options": dict(state.options),
        "map": map_view(state),
        "areas": {a: {"stacks": list(state.stacks[a]), "fix": a in state.fix, "next_cost": F.area_cost(state, a)}
                  for a in C.AREAS},
        "juggler": list(state.juggler) if state.options["side"] == "A" else None,
        "pass_tiles": [{"id": t, "coins": state.pass_coins[t]} for t in state.pass_tiles]
        if state.options["side"] == "B" else None,
        "newspaper": {"id": paper, "period": state.period, "coins": C.NEWSPAPERS[paper]} if paper else None,
        # the newspapers of the periods before this one, in order: everyone read them
        "past_newspapers": state.newspapers[:max(0, state.period - 1)],
        "newspapers_left": C.NEWSPAPERS_PER_GAME - state.period,
        "start": state.seats[state.start], "current": state.seats[state.current] if state.period else None,
        "acted": state.acted, "arrival_cards": list(state.arrival_cards), "supply":
        {name: state.supply[k] for k, name in enumerate(C.ITEMS)},
        "decks": {"adventures": len(state.deck), "london": len(state.london_deck)},
        "last_roll": dict(state.last_roll) or None,
        "players": [player_view(state, i) for i in range(len(state.seats))],
    }


def seat_private(state: DaysState, i: int) -> dict[str, Any]:
    """The seat's own secrets: its adventure card, its open drafts, its assistant while the
    others are still choosing theirs."""
    queue = state.pending[i]
    draft: list[str] = next((e["cards"] for e in queue if e["kind"] == "adventure"), [])
    helpers: list[str] = next((e["cards"] for e in queue if e["kind"] == "assistant"), [])
    return {
        "seat": state.seats[i],
        "adventure": C.card_info(state.adventure[i]) if state.adventure[i] else None,
        "can_complete": F.can_complete(state, i),
        "draft": [C.card_info(c) for c in draft],
        "assistant_draft": list(helpers),
        "assistant": state.assistant[i] or None,
        "decision": queue[0]["kind"] if queue else None,
    }
