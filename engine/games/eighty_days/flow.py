"""What happens around the moves of `eighty-days`: costs, items, drafts, periods, scoring.

Everything here mutates a state that a move handler has already validated; nothing
raises. Decisions a player must make in the middle of something (which adventure to keep,
which item to give back, what a joker becomes...) are queued per seat in
`state.pending` and answered by their own actions; `settle` moves the game on once no
decision is waiting.
"""

from __future__ import annotations

from typing import Any

from engine.core import Event
from engine.rng import Rng

from . import content as C
from .packing import Suitcase, suitcase
from .state import OVER, PLAY, SETUP, DaysState

#: die faces as item indexes (5 = joker)
JOKER = 5


# -- reading the state ---------------------------------------------------------------------
def newspaper(state: DaysState) -> str:
    return state.newspapers[state.period - 1] if state.period >= 1 else ""


def case_of(state: DaysState, i: int) -> Suitcase:
    return suitcase(state.characters[i], state.assistant[i] == "jean")


def fits(state: DaysState, i: int, counts: tuple[int, ...] | None = None) -> bool:
    return case_of(state, i).fits(tuple(state.items[i]) if counts is None else counts)


def area_cost(state: DaysState, area: str) -> int:
    """What the next person pays on an area: one more than the last stack; 2 for the first
    with a fix coin. The Independent makes the black market exactly 2 for its period."""
    if area == "black" and newspaper(state) == "independent":
        return 2
    stacks = state.stacks[area]
    if stacks:
        return stacks[-1] + 1
    return 2 if area in state.fix else 1


def markets_at(state: DaysState, i: int) -> tuple[str, ...]:
    """Markets open to this seat: the city's symbol; all in the arrival London and in the
    Colors Festival variant."""
    if state.in_london[i] or state.options["colors_festival"]:
        return ("boutique", "bazaar")
    market = C.CITIES[state.city[i]][0]
    return ("boutique", "bazaar") if market == C.BOTH else (market,)


def sells(state: DaysState, market: str) -> tuple[int, ...]:
    """Items a market sells; the Guardian sells revolvers in both markets."""
    if market == "boutique" and newspaper(state) == "guardian":
        return (C.SHOES, C.REVOLVER, C.HAT, C.COAT)
    return C.MARKET_ITEMS[market]


def line_cost(state: DaysState, line: str) -> C.Cost:
    """Side A: the cost printed on the line; side B: the line tile on it, if any."""
    if state.options["side"] == "A":
        return C.LINES[line][3]
    tile = state.line_tiles.get(line)
    return C.LINE_TILES[tile] if tile else None


def line_coin_cost(state: DaysState, line: str) -> tuple[int, int]:
    """(item index or -1, coins) a line costs in addition to the travel area."""
    cost = line_cost(state, line)
    if cost is None:
        return -1, 0
    if cost[0] == "coins":
        return -1, cost[1]
    return C.ITEM_INDEX[cost[1]], 0


def item_count(state: DaysState, i: int, item: int) -> int:
    """Items usable for handing in: the suitcase, plus Matilda's revolvers."""
    n = state.items[i][item]
    if item == C.REVOLVER:
        n += state.matilda[i]
    return n


def can_enter(state: DaysState, i: int, to: str, diary: int | None = None) -> bool:
    """The arrival London opens at 4 completed adventures (`diary` of them, if given, else
    the seat's diary as it stands)."""
    return to != C.ARRIVAL or (len(state.diary[i]) if diary is None else diary) >= C.LONDON_ENTRY


def other_end(line: str, city: str) -> str:
    a, b = C.LINES[line][0], C.LINES[line][1]
    return b if a == city else a


def can_complete(state: DaysState, i: int) -> bool:
    card = state.adventure[i]
    if not card:
        return False
    market, needs, coins, _pts, _bonus = C.CARD_NEEDS[card]
    if card in C.LONDON_ADVENTURES:
        if not state.in_london[i]:
            return False
    elif state.in_london[i] or not C.market_allows(C.CITIES[state.city[i]][0], market):
        return False
    if state.coins[i] < coins:
        return False
    items = state.items[i]
    for k, n in enumerate(needs):  # noqa: SIM110 - a plain loop: this runs on every listing
        if n and items[k] + (state.matilda[i] if k == C.REVOLVER else 0) < n:
            return False
    return True


def has_pending(state: DaysState) -> bool:
    return any(state.pending)


# -- changing it ------------------------------------------------------------------------
def pay_area(state: DaysState, i: int, area: str) -> int:
    cost = area_cost(state, area)
    state.coins[i] -= cost
    state.stacks[area].append(cost)
    return cost


def hand_in(state: DaysState, i: int, item: int, n: int = 1) -> None:
    """Items go back to the supply; revolvers come from the suitcase first (that frees
    space), then from Matilda, who leaves the game with her last revolver."""
    from_case = min(n, state.items[i][item])
    state.items[i][item] -= from_case
    rest = n - from_case
    if rest:
        state.matilda[i] -= rest
        if state.matilda[i] == 0 and state.assistant[i] == "matilda":
            state.assistant[i] = ""
            state.assistant_box.append("matilda")
    state.supply[item] += n


def _push_front(state: DaysState, i: int, kind: str, **data: Any) -> None:
    state.pending[i].insert(0, {"kind": kind, **data})


def check_overflow(state: DaysState, i: int) -> None:
    """A suitcase that no longer fits asks its owner which item to give back."""
    queue = state.pending[i]
    over = queue and queue[0]["kind"] == "overflow"
    if fits(state, i):
        if over:
            queue.pop(0)
    elif not over:
        _push_front(state, i, "overflow")


def gain_item(state: DaysState, i: int, item: int, events: list[Event], why: str) -> None:
    if state.supply[item] == 0:
        events.append({"type": "supply_empty", "seat": state.seats[i], "item": C.ITEMS[item], "why": why})
        return
    state.supply[item] -= 1
    state.items[i][item] += 1
    events.append({"type": "gain", "seat": state.seats[i], "item": C.ITEMS[item], "why": why})
    check_overflow(state, i)


def roll_die(state: DaysState, i: int, events: list[Event], why: str) -> int:
    rng = Rng(state.rng)
    face = rng.below(6)
    state.rng = rng.state
    state.last_roll = {"seat": state.seats[i], "face": C.DIE_FACES[face], "why": why}
    events.append({"type": "roll", "seat": state.seats[i], "face": C.DIE_FACES[face], "why": why})
    return face


def take_face(state: DaysState, i: int, face: int, events: list[Event], why: str) -> None:
    """A rolled item goes to the suitcase; a joker lets its owner choose any item."""
    if face == JOKER:
        if any(state.supply):
            _push_front(state, i, "any_item", why=why)
        return
    gain_item(state, i, face, events, why)


def roll_and_take(state: DaysState, i: int, events: list[Event], why: str) -> None:
    take_face(state, i, roll_die(state, i, events, why), events, why)


def draw_count(state: DaysState, i: int) -> int:
    return 3 if state.assistant[i] == "alex" else 2


def draw_adventures(state: DaysState, i: int, n: int, events: list[Event], why: str) -> None:
    """Draw n cards from the seat's deck (London's once arrived) to choose one from."""
    deck = state.london_deck if state.in_london[i] else state.deck
    cards = [deck.pop() for _ in range(min(n, len(deck)))]
    events.append({"type": "draw_adventures", "seat": state.seats[i], "count": len(cards), "why": why,
                   "london": state.in_london[i], "private": {"cards": list(cards)}})
    if cards:
        state.pending[i].append({"kind": "adventure", "cards": cards})


def drop_adventure(state: DaysState, i: int) -> None:
    """The held card goes face down under its draw pile."""
    card = state.adventure[i]
    if card:
        (state.london_deck if card in C.LONDON_ADVENTURES else state.deck).insert(0, card)
        state.adventure[i] = ""


def move_pawn(state: DaysState, i: int, line: str, events: list[Event], how: str) -> None:
    to = other_end(line, state.city[i])
    events.append({"type": "travel", "seat": state.seats[i], "line": line, "from": state.city[i], "to": to,
                   "how": how})
    state.city[i] = to
    if to == C.ARRIVAL:
        arrive(state, i, events)


def arrive(state: DaysState, i: int, events: list[Event]) -> None:
    """Arrival in London: the best arrival card left, the held adventure (and any regular
    draft still open) under the draw pile, then a draft of London adventures."""
    state.in_london[i] = True
    points = state.arrival_cards.pop(0) if state.arrival_cards else 0
    state.arrival[i] = points
    drop_adventure(state, i)
    for entry in [p for p in state.pending[i] if p["kind"] == "adventure"]:
        state.pending[i].remove(entry)
        for card in entry["cards"]:
            state.deck.insert(0, card)
    events.append({"type": "arrived", "seat": state.seats[i], "arrival_card": points})
    draw_adventures(state, i, draw_count(state, i), events, "arrival")


def free_travel_options(state: DaysState, i: int, kind: str, diary: int) -> list[str]:
    """Lines a free trip of this kind ('any' for all) can take from the seat's city, with
    `diary` completed adventures counted for the entry to London."""
    if state.in_london[i]:
        return []
    city = state.city[i]
    return [lid for lid, other in C.NEIGHBOURS[city]
            if (kind == "any" or C.LINES[lid][2] == kind) and can_enter(state, i, other, diary)]


def trip_diary(state: DaysState, i: int, entry: dict[str, Any]) -> int:
    """The completed adventures a waiting free trip counts. An adventure's bonus comes before
    its card slides into the diary (rulebook, Completing an adventure: "1. Receive the bonus
    ... immediately! 2. Slide the adventure card ..."), and the trip is answered after the
    slide, so a bonus trip does not count that card, the last one in the diary (nothing else
    can enter the diary while the trip waits first in the queue)."""
    return len(state.diary[i]) - (1 if entry["why"] == "bonus" else 0)


def offer_free_travel(state: DaysState, i: int, kind: str, events: list[Event], why: str) -> None:
    """Queue a free trip first in the seat's queue, if a line is open to it now (an
    adventure's bonus is offered before its card enters the diary)."""
    if free_travel_options(state, i, kind, len(state.diary[i])):
        state.pending[i].insert(0, {"kind": "free_travel", "travel": kind, "why": why})
    else:
        events.append({"type": "no_free_travel", "seat": state.seats[i], "travel": kind, "why": why})


def apply_bonus(state: DaysState, i: int, bonus: C.Bonus, events: list[Event]) -> None:
    if bonus is None:
        return
    kind = bonus[0]
    if kind == "coins":
        state.coins[i] += bonus[1]
        events.append({"type": "coins", "seat": state.seats[i], "coins": bonus[1], "why": "bonus"})
    elif kind == "roll":
        roll_and_take(state, i, events, "bonus")
    elif kind == "item":
        if any(state.supply):
            _push_front(state, i, "any_item", why="bonus")
    else:
        offer_free_travel(state, i, bonus[1], events, "bonus")


# -- the course of a period -------------------------------------------------------------------
def next_turn(state: DaysState) -> None:
    """The turn passes clockwise to the next seat that has not passed."""
    state.acted = False
    n = len(state.seats)
    for step in range(1, n + 1):
        k = (state.current + step) % n
        if not state.passed[k]:
            state.current = k
            return
    state.period_over = True


def start_period(state: DaysState, events: list[Event]) -> None:
    state.period += 1
    state.phase = PLAY
    state.current = state.start
    state.acted = False
    state.passed = [False] * len(state.seats)
    state.period_over = False
    paper = newspaper(state)
    coins = C.NEWSPAPERS[paper]
    events.append({"type": "newspaper", "period": state.period, "newspaper": paper, "coins": coins,
                   "start": state.seats[state.start]})
    if paper in C.PRESET_STACK:
        state.stacks[C.PRESET_STACK[paper]].append(2)
    for i in range(len(state.seats)):
        if paper == "observer":
            if any(state.items[i]):
                state.pending[i].append({"kind": "observer"})
            else:
                state.coins[i] += coins
        else:
            state.coins[i] += coins
        if paper == "santa_express":
            roll_and_take(state, i, events, "newspaper")


def end_period(state: DaysState, events: list[Event]) -> None:
    """Phase 3: coins off the areas (fix coins stay), the newspaper out, assistants back,
    the juggler refilled (A) or a coin on each pass tile left (B); after V the game ends."""
    if state.period >= C.PERIODS:
        state.phase = OVER
        events.append({"type": "game_over", "winners": ranking(state)[1]})
        return
    for stacks in state.stacks.values():
        stacks.clear()
    state.turned = [False] * len(state.seats)
    if state.options["side"] == "A":
        state.juggler = list(C.JUGGLER)
    else:
        for tile in state.pass_tiles:
            state.pass_coins[tile] += 1
        back = set(state.pass_tiles) | {t for t in state.taken_tile if t}
        state.pass_tiles = [t for t in C.PASS_TILES if t in back]
        state.taken_tile = [""] * len(state.seats)
    events.append({"type": "period_end", "period": state.period})
    start_period(state, events)


def reveal_assistants(state: DaysState, events: list[Event]) -> None:
    """The drafted assistants are shown together; Matilda takes her two revolvers from the
    supply only now, so the public supply never hints at a secret choice."""
    if not state.options["assistants"]:
        return
    for i, name in enumerate(state.assistant):
        if name == "matilda":
            n = min(C.MATILDA_REVOLVERS, state.supply[C.REVOLVER])
            state.supply[C.REVOLVER] -= n
            state.matilda[i] = n
    events.append({"type": "assistants", "assistants": dict(zip(state.seats, state.assistant, strict=True))})


def settle(state: DaysState, events: list[Event]) -> None:
    """Move the game on when nobody has a decision waiting: the drafts done -> period I;
    everybody passed -> the end of the period."""
    if has_pending(state):
        return
    if state.phase == SETUP:
        reveal_assistants(state, events)
        start_period(state, events)
    elif state.phase == PLAY and state.period_over:
        end_period(state, events)


# -- scoring --------------------------------------------------------------------------------
def score_parts(state: DaysState, i: int) -> dict[str, int]:
    diary = sum(C.CARD_NEEDS[c][3] for c in state.diary[i])
    amelie = C.amelie_points(len(state.diary[i])) if state.assistant[i] == "amelie" else 0
    distance = 0 if state.in_london[i] else C.DISTANCE[state.city[i]]
    penalty = -C.CITY_PENALTY * distance
    return {"diary": diary, "arrival": state.arrival[i], "amelie": amelie, "distance": distance,
            "penalty": penalty, "score": diary + state.arrival[i] + amelie + penalty}


def ranking(state: DaysState) -> tuple[list[dict[str, Any]], list[str]]:
    """Most points first; ties by coins; still tied: shared rank (and a shared victory)."""
    rows: list[dict[str, Any]] = [
        {"seat": s, **score_parts(state, i), "coins": state.coins[i], "adventures": len(state.diary[i])}
        for i, s in enumerate(state.seats)]
    rows.sort(key=lambda r: (-r["score"], -r["coins"]))
    rank = 0
    prev = None
    for k, row in enumerate(rows):
        key = (row["score"], row["coins"])
        if key != prev:
            rank, prev = k + 1, key
        row["rank"] = rank
    return rows, [r["seat"] for r in rows if r["rank"] == 1]
