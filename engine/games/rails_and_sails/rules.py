"""Rules of Rails & Sails (world map), as the bot plays them.

See docs/games/rails-and-sails.md for the decisions the rulebook leaves open.
Hot paths (`legal_actions`, `apply`) work on plain lists and dicts; the state
is one dataclass of JSON-safe fields so `dump` is a shallow conversion.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, fields
from functools import lru_cache
from itertools import combinations
from operator import itemgetter
from typing import Any

from engine.core import Action, Event, IllegalAction, Rules, View
from engine.rng import Rng

from .mapdata import (
    CITIES,
    COLOURS,
    ROUTE_POINTS,
    ROUTES,
    ROUTES_BY_ID,
    SHIP_CARDS,
    TICKETS,
    TICKETS_BY_ID,
    TRAIN_CARDS,
    WILD,
)

GAME_ID = "rails-and-sails"
PIECES_TOTAL = 60
MAX_TRAINS = 25
MAX_SHIPS = 50
MIN_TRAINS = PIECES_TOTAL - MAX_SHIPS  # 10
HARBORS_PER_PLAYER = 3
END_PIECES = 6
SETUP_TICKETS = 5
SETUP_KEEP = 3
DRAW_TICKETS = 4
#: consecutive turns (per player) without a claim or harbor after which the end is triggered
IDLE_TURNS_PER_PLAYER = 40
#: the face-up layout is redealt at most this often in a row (three wilds each time)
MAX_REDEALS = 5
#: search budget of the route-ticket order check (nodes visited)
ORDER_BUDGET = 100_000
HARBOR_POINTS = (0, 20, 30, 40)
UNBUILT_HARBOR_PENALTY = 4

# -- card helpers (card codes: "t:red", "t:red:h", "t:wild", "s:red", "s:red:2") ------------
TRAIN_PLAIN = {c: f"t:{c}" for c in COLOURS}
TRAIN_HARBOR = {c: f"t:{c}:h" for c in COLOURS}
SHIP_SINGLE = {c: f"s:{c}" for c in COLOURS}
SHIP_DOUBLE = {c: f"s:{c}:2" for c in COLOURS}
ALL_CARD_CODES = frozenset(TRAIN_CARDS) | frozenset(SHIP_CARDS)


def card_kind(card: str) -> str:
    return "train" if card[0] == "t" else "ship"


def card_colour(card: str) -> str | None:
    """Colour of a card, None for a wild."""
    if card == WILD:
        return None
    return card.split(":")[1]


# -- static map indexes -----------------------------------------------------------------------
ROUTE_INDEX = {r.id: i for i, r in enumerate(ROUTES)}
ROUTES_AT: dict[str, list[str]] = {}
for _r in ROUTES:
    ROUTES_AT.setdefault(_r.a, []).append(_r.id)
    ROUTES_AT.setdefault(_r.b, []).append(_r.id)
for _r in ROUTES:
    # the payment listing relies on it: a rough route is rough on every space (rulebook)
    if _r.rough not in (0, _r.length) or (_r.rough and _r.kind != "train"):
        raise ValueError(f"route {_r.id}: rough terrain must cover every space of a train route")
_groups: dict[tuple[str, str, int, bool], list[tuple[str, str | None]]] = {}
for _r in ROUTES:
    # a rough route's colour never matters (each space takes a pair of any colour): it is
    # listed with the grey routes
    _colour = "grey" if _r.rough else _r.colour
    _groups.setdefault((_r.kind, _colour, _r.length, bool(_r.rough)), []).append((_r.id, _r.double))
#: coloured train routes by colour: (length, [(id, twin)]) sorted by length
TRAIN_GROUPS: dict[str, list[tuple[int, list[tuple[str, str | None]]]]] = {c: [] for c in COLOURS}
#: coloured ship routes by colour: (length, [(id, twin)]) sorted by length
SHIP_GROUPS: dict[str, list[tuple[int, list[tuple[str, str | None]]]]] = {c: [] for c in COLOURS}
#: grey and rough routes: (kind, length, rough, [(id, twin)])
GREY_GROUPS: list[tuple[str, int, bool, list[tuple[str, str | None]]]] = []
for (_k, _c, _n, _rough), _routes in _groups.items():
    if _c == "grey":
        GREY_GROUPS.append((_k, _n, _rough, _routes))
    elif _k == "train":
        TRAIN_GROUPS[_c].append((_n, _routes))
    else:
        SHIP_GROUPS[_c].append((_n, _routes))
for _c in COLOURS:
    TRAIN_GROUPS[_c].sort(key=lambda g: g[0])
    SHIP_GROUPS[_c].sort(key=lambda g: g[0])
HARBOR_CITIES = frozenset(c.id for c in CITIES.values() if c.harbor)
DRAW_SOURCES = ("face_up", "train_deck", "ship_deck")
_COLOUR_INDEX = {c: k for k, c in enumerate(COLOURS)}


_copy_dict = dict.copy
#: the face-up draw actions by (train deck not empty, ship deck not empty), slot and card
#: (`_draw_options` hands out copies): one per deck that can refill the slot. With both decks
#: empty (so both discards too: an emptied deck takes its discards at once) no card can be
#: taken at all, face-up ones included (rulebook, "Transportkarten nehmen").
_FACE_UP_DRAWS: dict[tuple[bool, bool], list[dict[str, tuple[dict[str, Any], ...]]]] = {
    (train, ship): [
        {
            card: tuple(
                {"type": "draw", "source": "face_up", "slot": slot, "card": card, "refill": refill}
                for refill in [k for k, ok in (("train", train), ("ship", ship)) if ok]
            )
            for card in sorted(set(TRAIN_CARDS) | set(SHIP_CARDS))
        }
        for slot in range(6)
    ]
    for train in (False, True) for ship in (False, True)
}
#: exchange actions, 1, 2, ... trains taken (`_EXCHANGE_UP`) or given back (`_EXCHANGE_DOWN`)
_EXCHANGE_UP = tuple({"type": "exchange", "trains": n} for n in range(1, PIECES_TOTAL + 1))
_EXCHANGE_DOWN = tuple({"type": "exchange", "trains": -n} for n in range(1, PIECES_TOTAL + 1))
#: per route the harbor cities at its ends
_HARBOR_ENDS = {r.id: tuple(c for c in (r.a, r.b) if c in HARBOR_CITIES) for r in ROUTES}


@dataclass
class RSState:
    seats: list[str]
    rng: int
    phase: str  # setup_tickets | setup_pieces | play | over
    current: int
    turn: int
    drawn: int  # transport cards taken so far in the current turn (0 or 1)
    train_deck: list[str]  # top of a deck is the END of the list
    ship_deck: list[str]
    train_discard: list[str]
    ship_discard: list[str]
    face_up: list[str | None]
    ticket_deck: list[str]  # top is the end; returned tickets go to index 0 (under the deck)
    hands: list[dict[str, int]]
    tickets: list[list[str]]
    pending: list[list[str]]
    mix: list[int | None]  # trains chosen in the secret setup choice
    trains: list[int]
    ships: list[int]
    box_trains: list[int]
    box_ships: list[int]
    harbors_left: list[int]
    claimed: dict[str, int]  # route id -> seat index
    harbors: dict[str, int]  # city id -> seat index
    scores: list[int]  # route points minus exchange costs
    final_left: list[int] | None
    last: dict[str, Any] | None
    idle: int
    result: dict[str, Any] | None


_FIELDS = [f.name for f in fields(RSState)]


# -- payments ------------------------------------------------------------------------------------
def _take(counts: dict[str, int], card: str, n: int, out: list[str]) -> int:
    """Move up to n cards of a code from `counts` (a scratch copy) to `out`; returns how many."""
    have = counts.get(card, 0)
    k = have if have < n else n
    if k:
        counts[card] = have - k
        out.extend([card] * k)
    return k


def train_payment(hand: dict[str, int], colour: str, length: int, rough: int) -> list[str] | None:
    """Cheapest payment of a train route in `colour` (plain cards before harbor cards, then wilds)."""
    scratch = dict(hand)
    out: list[str] = []
    normal = length - rough
    got = _take(scratch, TRAIN_PLAIN[colour], normal, out)
    got += _take(scratch, TRAIN_HARBOR[colour], normal - got, out)
    wilds = normal - got
    for _ in range(rough):
        best = None
        best_n = 0
        for c in COLOURS:
            n = scratch.get(TRAIN_PLAIN[c], 0) + scratch.get(TRAIN_HARBOR[c], 0)
            if n > best_n:
                best, best_n = c, n
        if best is None:
            wilds += 2
            continue
        k = _take(scratch, TRAIN_PLAIN[best], 2, out)
        k += _take(scratch, TRAIN_HARBOR[best], 2 - k, out)
        wilds += 2 - k
    if wilds > hand.get(WILD, 0):
        return None
    out.extend([WILD] * wilds)
    out.sort()
    return out


def ship_payments(hand: dict[str, int], colour: str, length: int) -> list[list[str]]:
    """Up to two minimal ship payments: doubles first, and singles first."""
    found = _ship_options(
        colour, hand.get(SHIP_SINGLE[colour], 0), hand.get(SHIP_DOUBLE[colour], 0), hand.get(WILD, 0), length
    )
    return [list(cards) for cards in found]


@lru_cache(maxsize=16384)
def _ship_options(colour: str, s: int, d: int, w: int, length: int) -> tuple[tuple[str, ...], ...]:
    """Pure helper of `ship_payments` on card counts (memoised: legal_actions is a hot path)."""
    if s + 2 * d + w < length:
        return ()
    found: list[tuple[int, int, int]] = []
    # doubles first
    kd = min(d, length // 2)
    rem = length - 2 * kd
    ks = min(s, rem)
    rem -= ks
    if rem == 1 and ks == 0 and d > kd:
        kd += 1
        rem = 0
    if rem <= w:
        found.append((ks, kd, rem))
    # singles first
    ks = min(s, length)
    rem = length - ks
    kd = min(d, rem // 2)
    rem -= 2 * kd
    if rem == 1 and d > kd:
        if ks > 0:
            ks -= 1
        kd += 1
        rem = 0
    if rem <= w and (ks, kd, rem) not in found:
        found.append((ks, kd, rem))
    out = []
    for ks, kd, kw in found:
        cards = [WILD] * kw + [SHIP_SINGLE[colour]] * ks + [SHIP_DOUBLE[colour]] * kd
        cards.sort()
        out.append(tuple(cards))
    return tuple(out)


#: the most payments `legal_actions` lists for one rough route (besides all wilds): the
#: fewest-wilds payments can be many (which colour pays which space), any other valid
#: payment is still accepted by `apply`
ROUGH_OPTIONS = 6


@lru_cache(maxsize=16384)
def _rough_payments(length: int, counts: tuple[int, ...]) -> tuple[tuple[str, ...], ...]:
    """The payments of a rough route of `length` spaces (each space two train cards of one
    colour, any colour, wilds replace any card) that use the fewest wilds, at most
    ROUGH_OPTIONS of them, then all wilds; () if the hand cannot pay. On the train card counts
    (plain and harbor-symbol count per colour of COLOURS, then wilds), memoised.

    Fewest wilds: a space paid by a pair of one colour needs none, so as many spaces as
    possible take pairs; the rest take a colour's odd card and a wild, then two wilds. The
    options differ in which colours pay (the colours with the most cards first); within a
    colour plain cards go before harbor-symbol cards (kept for harbors)."""
    wild = counts[-1]
    totals = [counts[2 * k] + counts[2 * k + 1] for k in range(len(COLOURS))]
    held = sorted((k for k, n in enumerate(totals) if n), key=totals.__getitem__, reverse=True)  # stable
    paired = [k for k in held if totals[k] >= 2]
    pairs = [totals[k] // 2 for k in paired]
    found: list[tuple[str, ...]] = []
    if sum(pairs) >= length:
        for spaces in _pair_splits(pairs, length):
            found.append(_rough_cards(counts, [(k, 2 * n) for k, n in zip(paired, spaces, strict=True) if n], 0))
            if len(found) == ROUGH_OPTIONS:
                break
    else:
        rest = length - sum(pairs)
        odd = [k for k in held if totals[k] % 2]
        half = min(rest, len(odd))  # spaces paid by one card and a wild
        wilds = half + 2 * (rest - half)
        if wilds <= wild:
            for singles in combinations(odd, half):
                used = [(k, totals[k] - (totals[k] % 2 and k not in singles)) for k in held]
                found.append(_rough_cards(counts, used, wilds))
                if len(found) == ROUGH_OPTIONS:
                    break
    everything = (WILD,) * (2 * length)
    if wild >= 2 * length and everything not in found:
        found.append(everything)
    return tuple(found)


def _pair_splits(pairs: list[int], length: int, j: int = 0) -> Iterator[tuple[int, ...]]:
    """Every way to pay `length` spaces with whole pairs, at most pairs[i] spaces from colour i
    (tuples of spaces per colour from j on), the first colours taking as many as they can
    first. Needs sum(pairs[j:]) >= length."""
    if length == 0:
        yield (0,) * (len(pairs) - j)
        return
    if j == len(pairs) - 1:
        yield (length,)
        return
    later = sum(pairs[j + 1:])
    for k in range(min(pairs[j], length), max(0, length - later) - 1, -1):
        for tail in _pair_splits(pairs, length - k, j + 1):
            yield (k, *tail)


def _rough_cards(counts: tuple[int, ...], used: list[tuple[int, int]], wilds: int) -> tuple[str, ...]:
    """The sorted cards of a rough payment: per (colour index, n) n train cards of that colour
    (plain before harbor-symbol cards), then `wilds` wilds."""
    out: list[str] = [WILD] * wilds
    for k, n in used:
        plain = min(counts[2 * k], n)
        c = COLOURS[k]
        out += [TRAIN_PLAIN[c]] * plain + [TRAIN_HARBOR[c]] * (n - plain)
    out.sort()
    return tuple(out)


@lru_cache(maxsize=16384)
def _train_plain_payment(colour: str, plain: int, harbor: int, w: int, length: int) -> tuple[str, ...] | None:
    """`train_payment` of a route without rough terrain, on card counts (memoised)."""
    k = min(plain, length)
    h = min(harbor, length - k)
    need = length - k - h
    if need > w:
        return None
    return tuple(sorted([TRAIN_PLAIN[colour]] * k + [TRAIN_HARBOR[colour]] * h + [WILD] * need))


#: every card code a hand can hold, per colour of COLOURS (train, train harbor, ship single,
#: ship double), then the wild: `_HAND_COUNTS` reads a hand's counts in this order at once
_HAND_CODES = (
    *(code for c in COLOURS for code in (TRAIN_PLAIN[c], TRAIN_HARBOR[c], SHIP_SINGLE[c], SHIP_DOUBLE[c])), WILD
)
_NO_CARDS = dict.fromkeys(_HAND_CODES, 0)
_HAND_COUNTS = itemgetter(*_HAND_CODES)
#: the train counts (plain, harbor per colour of COLOURS, then wilds) out of `_HAND_COUNTS`
_TRAIN_COUNTS = itemgetter(*(4 * k + j for k in range(len(COLOURS)) for j in (0, 1)), 4 * len(COLOURS))
#: the longest coloured train and ship routes: more pieces than this never change what can be claimed
_MAX_TRAIN_LENGTH = max(g[0] for groups in TRAIN_GROUPS.values() for g in groups)
_MAX_SHIP_LENGTH = max(g[0] for groups in SHIP_GROUPS.values() for g in groups)

#: one claimable route of a colour: (route id, twin id, payments)
_ColourClaim = tuple[str, str | None, tuple[tuple[str, ...], ...]]
#: (plain, harbor, single, double, wilds, trains, ships) of one colour
_ColourKey = tuple[int, ...]
_ColourInfo = tuple[tuple[_ColourClaim, ...], tuple[str, ...] | None]
#: per colour of COLOURS the memo of `_colour_claims`; each is cleared when full (a bounded cache
#: of pure results)
_COLOUR_CLAIMS: tuple[dict[_ColourKey, _ColourInfo], ...] = tuple({} for _ in COLOURS)
_COLOUR_CLAIMS_MAX = 4096
#: what `_claims` loops over: (colour, its counts in `_HAND_COUNTS`, its memo)
_COLOUR_SLOTS = tuple((c, slice(4 * k, 4 * k + 4), _COLOUR_CLAIMS[k]) for k, c in enumerate(COLOURS))


def _colour_claims(colour: str, key: _ColourKey) -> _ColourInfo:
    """What one colour of a hand with these counts pays for: the coloured routes of that colour
    in the order `_claims` lists them (train groups, then ship groups, each group's routes in
    order), each with its payments; and the colour's harbor payment (None if it has none, see
    `harbor_payments`). Pieces are capped by the caller at the longest route of their kind (more
    never matter), so the memo stays small."""
    memo = _COLOUR_CLAIMS[_COLOUR_INDEX[colour]]
    found = memo.get(key)
    if found is not None:
        return found
    plain, harbor, single, double, w, ptrains, pships = key
    routes = _colour_train_claims(colour, plain, harbor, w, ptrains) + _colour_ship_claims(
        colour, single, double, w, pships
    )
    th, ss = min(harbor, 2), min(single, 2)
    harbor_payment = _HARBOR_PAYMENT[colour, th, ss] if (harbor or single) and 4 - th - ss <= w else None
    if len(memo) >= _COLOUR_CLAIMS_MAX:
        memo.clear()
    found = memo[key] = (routes, harbor_payment)
    return found


@lru_cache(maxsize=8192)
def _colour_train_claims(colour: str, plain: int, harbor: int, w: int, ptrains: int) -> tuple[_ColourClaim, ...]:
    """The train half of `_colour_claims`."""
    out: list[_ColourClaim] = []
    budget = plain + harbor + w
    for length, routes in TRAIN_GROUPS[colour]:
        if budget < length:
            break
        if ptrains < length:
            continue
        cards = _train_plain_payment(colour, plain, harbor, w, length)
        if cards:
            out.extend((rid, twin, (cards,)) for rid, twin in routes)
    return tuple(out)


@lru_cache(maxsize=8192)
def _colour_ship_claims(colour: str, single: int, double: int, w: int, pships: int) -> tuple[_ColourClaim, ...]:
    """The ship half of `_colour_claims`."""
    out: list[_ColourClaim] = []
    budget = single + 2 * double + w
    for length, routes in SHIP_GROUPS[colour]:
        if budget < length:
            break
        if pships < length:
            continue
        options = _ship_options(colour, single, double, w, length)
        if options:
            out.extend((rid, twin, options) for rid, twin in routes)
    return tuple(out)


@lru_cache(maxsize=16384)
def _grey_train_payments(length: int, counts: tuple[int, ...]) -> tuple[tuple[str, ...], ...]:
    """The distinct cheapest payments of a grey train route, on the train card counts (see
    `_rough_payments`): one per colour with a card (as `train_payment` pays it), then all wilds."""
    wild = counts[-1]
    seen: list[tuple[str, ...]] = []
    for k, c in enumerate(COLOURS):
        plain, harbor = counts[2 * k], counts[2 * k + 1]
        n = plain + harbor
        # colours without a card only repeat the all-wilds payment added below
        if not n or n + wild < length:
            continue
        one = _train_plain_payment(c, plain, harbor, wild, length)
        if one is not None and one not in seen:
            seen.append(one)
    if wild >= length and (WILD,) * length not in seen:
        seen.append((WILD,) * length)
    return tuple(seen)


def _grey_ship_payments(hand: dict[str, int], length: int) -> list[tuple[str, ...]]:
    """The distinct minimal payments of a grey ship route: per colour held (see `ship_payments`),
    then all wilds."""
    get = hand.get
    wild = get(WILD, 0)
    seen: list[tuple[str, ...]] = []
    for c in COLOURS:
        single, double = get(SHIP_SINGLE[c], 0), get(SHIP_DOUBLE[c], 0)
        if not single and not double:
            continue
        for cards in _ship_options(c, single, double, wild, length):
            if cards not in seen:
                seen.append(cards)
    if wild >= length and (WILD,) * length not in seen:
        seen.append((WILD,) * length)
    return seen


def check_train_payment(cards: list[str], colour: str, length: int, rough: int) -> bool:
    """Exactly the cards for a train route: normal spaces in the route colour (any one colour
    when grey), each rough space two train cards of one colour; wilds replace any card."""
    if len(cards) != length + rough:
        return False
    counts: dict[str, int] = {}
    wilds = 0
    for card in cards:
        if card == WILD:
            wilds += 1
        elif card[0] == "t":
            c = card_colour(card)
            counts[c] = counts.get(c, 0) + 1
        else:
            return False
    normal = length - rough
    candidates = COLOURS if colour == "grey" else (colour,)
    for x in candidates:
        nx = counts.get(x, 0)
        for a in range(min(nx, normal) + 1):
            rest = dict(counts)
            rest[x] = nx - a
            slots = 0
            odd = 0
            for n in rest.values():
                slots += (n + 1) // 2
                odd += n % 2
            if slots > rough:
                continue
            need_wilds = (normal - a) + odd + 2 * (rough - slots)
            if need_wilds == wilds:
                return True
    return False


def check_ship_payment(cards: list[str], colour: str, length: int) -> bool:
    """Ship cards of one colour (route colour unless grey) and wilds, worth at least `length`
    ships and minimal: no card could be left out (so at most one ship of a double is lost)."""
    if not cards:
        return False
    seen: str | None = None
    value = 0
    small = 0  # singles and wilds
    for card in cards:
        if card == WILD:
            value += 1
            small += 1
            continue
        if card[0] != "s":
            return False
        c = card_colour(card)
        if seen is None:
            seen = c
        elif c != seen:
            return False
        if card.endswith(":2"):
            value += 2
        else:
            value += 1
            small += 1
    if seen is not None and colour != "grey" and seen != colour:
        return False
    if small:
        return value == length
    return length <= value <= length + 1


def harbor_payments(hand: dict[str, int]) -> list[list[str]]:
    """Per colour the harbor payment with the fewest wilds (2 train + 2 ship cards with the harbor
    symbol, one colour, wilds replace any), plus four wilds. (`legal_actions` reads the same
    payments per colour out of the `_colour_claims` memo.)"""
    get = hand.get
    w = get(WILD, 0)
    out = []
    for c, th_code, ss_code in _HARBOR_CODES:
        th = min(2, get(th_code, 0))
        ss = min(2, get(ss_code, 0))
        if (th or ss) and 4 - th - ss <= w:
            out.append(list(_HARBOR_PAYMENT[c, th, ss]))
    if w >= 4:
        out.append([WILD] * 4)
    return out


_HARBOR_CODES = tuple((c, TRAIN_HARBOR[c], SHIP_SINGLE[c]) for c in COLOURS)
_HARBOR_PAYMENT = {
    (c, th, ss): tuple(sorted([TRAIN_HARBOR[c]] * th + [SHIP_SINGLE[c]] * ss + [WILD] * (4 - th - ss)))
    for c in COLOURS for th in range(3) for ss in range(3)
}
_HARBOR_WILDS = (WILD,) * 4


def _held_cards(state: Any, i: int, action: Action) -> tuple[list[str], dict[str, int]]:
    """The action's "cards", checked to be a card list the player `i` holds (else IllegalAction),
    and how many of each card that is."""
    cards = action["cards"]
    if not _card_list(cards):
        raise IllegalAction("malformed", "That is not a valid move.")
    hand = state.hands[i]
    need: dict[str, int] = {}
    for c in cards:
        need[c] = need.get(c, 0) + 1
    if any(hand.get(c, 0) < n for c, n in need.items()):
        raise IllegalAction("missing_cards", "You do not hold those cards.")
    return cards, need


def _card_list(cards: Any) -> bool:
    """A list of card codes."""
    if not isinstance(cards, list):
        return False
    try:
        return ALL_CARD_CODES.issuperset(cards)  # the codes are all strings
    except TypeError:  # an unhashable item
        return False


@lru_cache(maxsize=16384)
def _pays_route(cards: tuple[str, ...], kind: str, colour: str, length: int, rough: int) -> bool:
    """`check_train_payment`/`check_ship_payment` on the sorted cards (memoised)."""
    if kind == "train":
        return check_train_payment(list(cards), colour, length, rough)
    return check_ship_payment(list(cards), colour, length)


def check_harbor_payment(cards: list[str]) -> bool:
    if len(cards) != 4:
        return False
    colour = None
    trains = ships = 0
    for card in cards:
        if card == WILD:
            continue
        if card[0] == "t":
            if not card.endswith(":h"):
                return False
            trains += 1
        elif card[0] == "s":
            if card.endswith(":2"):
                return False
            ships += 1
        else:
            return False
        c = card_colour(card)
        if colour is None:
            colour = c
        elif c != colour:
            return False
    return trains <= 2 and ships <= 2


# -- networks and tickets ----------------------------------------------------------------------------
def network(route_ids: list[str]) -> dict[str, list[tuple[str, str]]]:
    adj: dict[str, list[tuple[str, str]]] = {}
    for rid in route_ids:
        r = ROUTES_BY_ID[rid]
        adj.setdefault(r.a, []).append((r.b, rid))
        adj.setdefault(r.b, []).append((r.a, rid))
    return adj


def components(adj: dict[str, list[tuple[str, str]]]) -> dict[str, int]:
    comp: dict[str, int] = {}
    n = 0
    for start in adj:
        if start in comp:
            continue
        comp[start] = n
        stack = [start]
        while stack:
            node = stack.pop()
            for nb, _ in adj[node]:
                if nb not in comp:
                    comp[nb] = n
                    stack.append(nb)
        n += 1
    return comp


def _distances(adj: dict[str, list[tuple[str, str]]], target: str) -> dict[str, int]:
    """Hops from every node of the network to `target` (BFS)."""
    dist = {target: 0}
    frontier = [target]
    while frontier:
        nxt = []
        for node in frontier:
            for nb, _ in adj.get(node, ()):
                if nb not in dist:
                    dist[nb] = dist[node] + 1
                    nxt.append(nb)
        frontier = nxt
    return dist


def in_order(adj: dict[str, list[tuple[str, str]]], cities: tuple[str, ...]) -> bool:
    """True if a trail (a walk that never reuses a route) through the network visits the cities
    in the printed order: equivalently, route-disjoint paths city1->city2, city2->city3, ...

    Depth-first over simple paths, segment by segment, always trying the neighbour closest to
    the segment's target first (so the direct connections are found at once), after a quick
    necessary check: every middle city needs two routes (in and out), each end one."""
    last = len(cities) - 1
    for k, city in enumerate(cities):
        if len(adj.get(city, ())) < (1 if k in (0, last) else 2):
            return False
    budget = [ORDER_BUDGET]
    used: set[str] = set()
    order: list[dict[str, list[tuple[str, str]]]] = []
    for k in range(last):
        dist = _distances(adj, cities[k + 1])
        far = len(dist) + 1
        order.append({node: sorted(edges, key=lambda e, d=dist, f=far: d.get(e[0], f)) for node, edges in adj.items()})

    def segment(i: int) -> bool:
        if i == last:
            return True
        dst = cities[i + 1]
        visited = {cities[i]}
        ordered = order[i]

        def dfs(node: str) -> bool:
            budget[0] -= 1
            if budget[0] < 0:
                return False
            if node == dst:
                return segment(i + 1)
            for nb, rid in ordered.get(node, ()):
                if rid in used or nb in visited:
                    continue
                used.add(rid)
                visited.add(nb)
                if dfs(nb):
                    return True
                visited.discard(nb)
                used.discard(rid)
            return False

        return dfs(cities[i])

    return segment(0)


def ticket_status(ticket_id: str, adj: dict[str, list[tuple[str, str]]], comp: dict[str, int]) -> str:
    """"done" (two cities joined), "order"/"any" (route ticket), or "open"."""
    t = TICKETS_BY_ID[ticket_id]
    first = comp.get(t.cities[0])
    connected = first is not None and all(comp.get(c) == first for c in t.cities[1:])
    if not connected:
        return "open"
    if not t.is_route:
        return "done"
    return "order" if in_order(adj, t.cities) else "any"


def ticket_points(ticket_id: str, status: str) -> int:
    t = TICKETS_BY_ID[ticket_id]
    if not t.is_route:
        return t.points[0] if status == "done" else -t.points[0]
    if status == "order":
        return t.points[0]
    if status == "any":
        return t.points[1]
    return -t.points[2]


class RailsAndSails(Rules):
    id = GAME_ID
    title = "Rails & Sails"
    min_players = 2
    max_players = 5
    option_defaults: dict[str, Any] = {}
    option_choices: dict[str, Any] = {}

    # -- life cycle -------------------------------------------------------------------------------
    def new_game(self, seats: list[str], seed: int, options: dict[str, Any] | None = None) -> RSState:
        self.check_seats(seats)
        self.validate_options(options)
        rng = Rng.from_seed(seed)
        train = list(TRAIN_CARDS)
        ship = list(SHIP_CARDS)
        tickets = [t.id for t in TICKETS]
        rng.shuffle(train)
        rng.shuffle(ship)
        rng.shuffle(tickets)
        n = len(seats)
        hands: list[dict[str, int]] = []
        pending: list[list[str]] = []
        for _ in seats:
            hand: dict[str, int] = {}
            for _ in range(3):
                c = train.pop()
                hand[c] = hand.get(c, 0) + 1
            for _ in range(7):
                c = ship.pop()
                hand[c] = hand.get(c, 0) + 1
            hands.append(hand)
            pending.append([tickets.pop() for _ in range(SETUP_TICKETS)])
        face_up: list[str | None] = [train.pop() for _ in range(3)] + [ship.pop() for _ in range(3)]
        state = RSState(
            seats=list(seats), rng=rng.state, phase="setup_tickets", current=0, turn=0, drawn=0,
            train_deck=train, ship_deck=ship, train_discard=[], ship_discard=[], face_up=face_up,
            ticket_deck=tickets, hands=hands, tickets=[[] for _ in seats], pending=pending,
            mix=[None] * n, trains=[0] * n, ships=[0] * n, box_trains=[0] * n, box_ships=[0] * n,
            harbors_left=[HARBORS_PER_PLAYER] * n, claimed={}, harbors={}, scores=[0] * n,
            final_left=None, last=None, idle=0, result=None,
        )
        self._check_wilds(state, [])
        return state

    def to_act(self, state: RSState) -> list[str]:
        phase = state.phase
        if phase == "play":
            return [state.seats[state.current]]
        if phase == "setup_tickets":
            return [s for i, s in enumerate(state.seats) if state.pending[i]]
        if phase == "setup_pieces":
            return [s for i, s in enumerate(state.seats) if state.mix[i] is None]
        return []

    def is_over(self, state: RSState) -> bool:
        return state.phase == "over"

    def result(self, state: RSState) -> dict[str, Any]:
        if state.result is None:
            raise ValueError("the game is not over")
        return copy.deepcopy(state.result)

    def dump(self, state: RSState) -> dict[str, Any]:
        """A JSON-safe copy, field by field (dataclasses.asdict is ten times slower)."""
        return _copy_state(state.__dict__)

    def load(self, data: dict[str, Any]) -> RSState:
        return RSState(**_copy_state(data))

    # -- legal actions ----------------------------------------------------------------------------
    def legal_actions(self, state: RSState, seat: str) -> list[Action]:
        try:
            i = state.seats.index(seat)
        except ValueError:
            return []
        phase = state.phase
        if phase == "play":
            if i != state.current:
                return []
            if state.pending[i]:
                return _keep_options(state.pending[i], 1)
            if state.drawn:
                return self._draw_options(state, second=True)
            acts = self._draw_options(state, second=False)
            claims, harbor_payments = self._claims(state, i)
            acts += claims
            if state.ticket_deck:
                acts.append({"type": "tickets"})
            if harbor_payments and state.harbors_left[i] > 0:
                acts += [
                    {"type": "harbor", "city": city, "cards": [*cards]}
                    for city in self._harbor_cities(state, i)
                    for cards in harbor_payments
                ]
            acts += self._exchange_options(state, i)
            if not acts:
                acts.append({"type": "pass"})
            return acts
        if phase == "setup_tickets":
            return _keep_options(state.pending[i], SETUP_KEEP) if state.pending[i] else []
        if phase == "setup_pieces":
            if state.mix[i] is not None:
                return []
            return [{"type": "choose_mix", "trains": t} for t in range(MIN_TRAINS, MAX_TRAINS + 1)]
        return []

    def _draw_options(self, state: RSState, second: bool) -> list[Action]:
        """Copies of the static draw actions (`_FACE_UP_DRAWS`): each face-up card with each deck
        that can replace it, then the blind draws; none at all when both decks are empty."""
        train, ship = bool(state.train_deck), bool(state.ship_deck)
        table = _FACE_UP_DRAWS[train, ship]
        acts: list[Action] = [
            _copy_dict(action)
            for slot, card in enumerate(state.face_up)
            if card is not None and not (second and card == WILD)
            for action in table[slot][card]
        ]
        if train:
            acts.append({"type": "draw", "source": "train_deck"})
        if ship:
            acts.append({"type": "draw", "source": "ship_deck"})
        return acts

    def _claims(self, state: RSState, i: int) -> tuple[list[Action], list[tuple[str, ...]]]:
        """The claim actions: per free route the distinct cheapest payments (see `train_payment`
        and `ship_payments`); and, read on the way, the harbor payments of the hand (as
        `harbor_payments`, shared tuples).

        Routes are grouped statically by (kind, colour, length, rough), each colour's groups
        sorted by the cards of that colour they need; `_colour_claims` (memoised on the card
        counts of one colour and the pieces) lists the routes of a colour a hand could pay, with
        their payments, so this only checks which of them are free. Grey routes and rough routes
        (see `_rough_payments`) are paid with cards of any colour: they are worked out after the
        loop, from all the counts. This is the hot path of random play."""
        hand = state.hands[i]
        counts = _HAND_COUNTS(_NO_CARDS | hand)
        wild = counts[-1]
        claimed = state.claimed
        few = len(state.seats) <= 3
        ptrains, pships = state.trains[i], state.ships[i]
        tail = (
            wild,
            ptrains if ptrains < _MAX_TRAIN_LENGTH else _MAX_TRAIN_LENGTH,
            pships if pships < _MAX_SHIP_LENGTH else _MAX_SHIP_LENGTH,
        )
        acts: list[Action] = []
        append = acts.append
        harbor_payments: list[tuple[str, ...]] = []
        for c, colour_counts, memo in _COLOUR_SLOTS:
            key = counts[colour_counts] + tail
            info = memo.get(key)
            if info is None:
                info = _colour_claims(c, key)
            entries, harbor_payment = info
            if harbor_payment is not None:
                harbor_payments.append(harbor_payment)
            for rid, twin, options in entries:
                if rid in claimed:
                    continue
                if twin is not None:
                    owner = claimed.get(twin)
                    if owner is not None and (few or owner == i):
                        continue
                for cards in options:
                    append({"type": "claim", "route": rid, "cards": [*cards]})
        if wild >= 4:
            harbor_payments.append(_HARBOR_WILDS)
        tkey: tuple[int, ...] | None = None  # train counts (plain, harbor per colour of COLOURS; wilds)
        for kind, length, rough, routes in GREY_GROUPS:
            if (ptrains if kind == "train" else pships) < length:
                continue
            free = []
            for rid, twin in routes:
                if rid in claimed:
                    continue
                if twin is not None:
                    owner = claimed.get(twin)
                    if owner is not None and (few or owner == i):
                        continue
                free.append(rid)
            if not free:
                continue
            if kind == "train":
                if tkey is None:
                    tkey = _TRAIN_COUNTS(counts)
                if rough:
                    if sum(tkey) < 2 * length:
                        continue
                    seen = _rough_payments(length, tkey)
                else:
                    if sum(tkey) < length:
                        continue
                    seen = _grey_train_payments(length, tkey)
            else:
                seen = _grey_ship_payments(hand, length)
            for rid in free:
                for cards in seen:
                    append({"type": "claim", "route": rid, "cards": [*cards]})
        return acts, harbor_payments

    def _harbor_cities(self, state: RSState, i: int) -> list[str]:
        if state.harbors_left[i] <= 0:
            return []
        harbors = state.harbors
        cities = []
        for rid, owner in state.claimed.items():
            if owner == i:
                for c in _HARBOR_ENDS[rid]:
                    if c not in harbors and c not in cities:
                        cities.append(c)
        cities.sort()
        return cities

    def _exchange_options(self, state: RSState, i: int) -> list[Action]:
        if state.phase != "play":
            return []
        up = min(state.box_trains[i], state.ships[i])  # ships -> trains
        down = min(state.box_ships[i], state.trains[i])  # trains -> ships
        acts: list[Action] = list(map(_copy_dict, _EXCHANGE_UP[:up])) if up > 0 else []
        if down > 0:
            acts += map(_copy_dict, _EXCHANGE_DOWN[:down])
        return acts

    # -- apply ------------------------------------------------------------------------------------------
    def apply(self, state: RSState, seat: str, action: Action) -> list[Event]:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("malformed", "That is not a valid move.")
        if state.phase == "over":
            raise IllegalAction("game_over", "The game is over.")
        if seat not in state.seats:
            raise IllegalAction("not_a_player", "You are not playing in this game.")
        i = state.seats.index(seat)
        kind = action["type"]
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise IllegalAction("unknown_action", f"Unknown move '{kind}'.", action=kind)
        if state.phase == "play":
            if i != state.current:
                raise IllegalAction("not_your_turn", "It is not your turn.")
        elif seat not in self.to_act(state):
            raise IllegalAction("not_your_turn", "It is not your turn.")
        return handler(self, state, i, action)

    # setup ---------------------------------------------------------------------------------------
    def _keep(self, state: RSState, i: int, action: Action) -> list[Event]:
        _keys(action, _KEYS_IDS)
        pending = state.pending[i]
        if not pending:
            raise IllegalAction("no_tickets_to_keep", "You have no tickets to choose from.")
        ids = action["ids"]
        if not isinstance(ids, list) or not all(isinstance(x, str) for x in ids):
            raise IllegalAction("malformed", "That is not a valid move.")
        if len(set(ids)) != len(ids) or any(x not in pending for x in ids):
            raise IllegalAction("bad_tickets", "Choose among the tickets you were dealt.")
        minimum = SETUP_KEEP if state.phase == "setup_tickets" else 1
        if len(ids) < minimum:
            raise IllegalAction("keep_more", f"Keep at least {minimum} of the tickets.", min=minimum)
        seat = state.seats[i]
        returned = [t for t in pending if t not in ids]
        state.tickets[i].extend(t for t in pending if t in ids)
        state.pending[i] = []
        # returned tickets go under the deck (index 0), in the order they were drawn
        for t in reversed(returned):
            state.ticket_deck.insert(0, t)
        events: list[Event] = [{"type": "tickets_kept", "seat": seat, "count": len(ids), "returned": len(returned)}]
        if state.phase == "setup_tickets":
            state.last = {"seat": seat, "type": "keep_tickets", "count": len(ids)}
            if not any(state.pending):
                state.phase = "setup_pieces"
                events.append({"type": "choose_mix_now"})
            return events
        state.last = {"seat": seat, "type": "tickets", "count": len(ids)}
        events += self._end_turn(state, i, progress=False)
        return events

    def _choose_mix(self, state: RSState, i: int, action: Action) -> list[Event]:
        _keys(action, _KEYS_TRAINS)
        if state.phase != "setup_pieces":
            raise IllegalAction("wrong_phase", "You cannot choose your pieces now.")
        t = action["trains"]
        if not isinstance(t, int) or isinstance(t, bool) or not MIN_TRAINS <= t <= MAX_TRAINS:
            raise IllegalAction(
                "bad_mix", f"Choose {MIN_TRAINS}–{MAX_TRAINS} trains (the rest of the 60 pieces are ships).",
                min=MIN_TRAINS, max=MAX_TRAINS,
            )
        seat = state.seats[i]
        state.mix[i] = t
        events: list[Event] = [{"type": "mix_chosen", "seat": seat}]
        state.last = {"seat": seat, "type": "choose_mix"}
        if all(m is not None for m in state.mix):
            for j, s in enumerate(state.seats):
                tj = state.mix[j]
                state.trains[j] = tj
                state.ships[j] = PIECES_TOTAL - tj
                state.box_trains[j] = MAX_TRAINS - tj
                state.box_ships[j] = MAX_SHIPS - (PIECES_TOTAL - tj)
                events.append({"type": "mix_revealed", "seat": s, "trains": tj, "ships": PIECES_TOTAL - tj})
            state.phase = "play"
            state.current = 0
            state.turn = 1
            events.append({"type": "turn", "seat": state.seats[0]})
        return events

    # play ---------------------------------------------------------------------------------------
    def _require_turn_start(self, state: RSState, i: int) -> None:
        if state.phase != "play":
            raise IllegalAction("wrong_phase", "That move is only possible during play.")
        if state.pending[i]:
            raise IllegalAction("choose_tickets_first", "First choose which of the drawn tickets to keep.")
        if state.drawn:
            raise IllegalAction("finish_drawing", "Take your second transport card first.")

    def _draw(self, state: RSState, i: int, action: Action) -> list[Event]:
        if state.phase != "play":
            raise IllegalAction("wrong_phase", "That move is only possible during play.")
        if state.pending[i]:
            raise IllegalAction("choose_tickets_first", "First choose which of the drawn tickets to keep.")
        source = action.get("source")
        if source not in DRAW_SOURCES:
            raise IllegalAction("bad_source", "Take a face-up card or draw from the train or ship deck.")
        if not _cards_to_take(state):
            raise IllegalAction(
                "no_cards_to_take", "Both decks and both discard piles are empty: no cards can be taken."
            )
        seat = state.seats[i]
        second = state.drawn == 1
        events: list[Event] = []
        if source == "face_up":
            _keys(action, _KEYS_SOURCE_SLOT_CARD_REFILL)
            slot = action["slot"]
            refill = action["refill"]
            if not isinstance(slot, int) or isinstance(slot, bool) or not 0 <= slot < 6:
                raise IllegalAction("bad_slot", "Choose one of the six face-up cards.")
            card = state.face_up[slot]
            if card is None:
                raise IllegalAction("empty_slot", "There is no card in that place.")
            if action["card"] != card:  # the action names the card, so a stale choice cannot take another one
                raise IllegalAction("card_gone", "That card is no longer on display.")
            if card == WILD and second:
                raise IllegalAction("wild_second", "A face-up wild can only be taken as your first card.")
            if refill == "train":
                can_refill = bool(state.train_deck)
            elif refill == "ship":
                can_refill = bool(state.ship_deck)
            else:
                raise IllegalAction("malformed", "That is not a valid move.")
            if not can_refill:
                raise IllegalAction("bad_refill", "That deck cannot replace the card; choose another.")
            # mutate
            hand = state.hands[i]
            hand[card] = hand.get(card, 0) + 1
            new = self._pop(state, refill, events)
            state.face_up[slot] = new
            events.insert(0, {"type": "take_face_up", "seat": seat, "card": card, "slot": slot, "new": new})
            if state.face_up.count(WILD) >= 3:
                self._check_wilds(state, events)
            ends = card == WILD or second
            taken = {"face_up": card}
        else:
            _keys(action, _KEYS_SOURCE)
            deck_kind = "train" if source == "train_deck" else "ship"
            deck = state.train_deck if deck_kind == "train" else state.ship_deck
            if not deck:
                raise IllegalAction("deck_empty", "That deck is empty.")
            card = self._pop(state, deck_kind, events)
            hand = state.hands[i]
            hand[card] = hand.get(card, 0) + 1
            events.insert(0, {"type": "draw_blind", "seat": seat, "deck": deck_kind})
            ends = second
            taken = {"blind": deck_kind}
        if second:
            state.last["cards"].append(taken)  # type: ignore[index]
        else:
            state.last = {"seat": seat, "type": "draw", "cards": [taken]}
        if not ends and not _cards_to_take(state):
            ends = True  # no card can be taken as the second one
        if ends:
            events += self._end_turn(state, i, progress=False)
        else:
            state.drawn = 1
        return events

    def _claim(self, state: RSState, i: int, action: Action) -> list[Event]:
        self._require_turn_start(state, i)
        _keys(action, _KEYS_ROUTE_CARDS)
        rid = action["route"]
        route = ROUTES_BY_ID.get(rid) if isinstance(rid, str) else None
        if route is None:
            raise IllegalAction("unknown_route", "There is no such route.")
        if rid in state.claimed:
            raise IllegalAction("route_taken", "That route is already taken.")
        if route.double is not None and route.double in state.claimed:
            owner = state.claimed[route.double]
            if owner == i:
                raise IllegalAction("both_doubles", "You cannot claim both routes of a double route.")
            if len(state.seats) <= 3:
                raise IllegalAction(
                    "double_closed", "With 2 or 3 players only one route of a double route can be used."
                )
        cards, need = _held_cards(state, i, action)
        hand = state.hands[i]
        paid = sorted(cards)
        ok = _pays_route(tuple(paid), route.kind, route.colour, route.length, route.rough)
        pieces = state.trains[i] if route.kind == "train" else state.ships[i]
        if not ok:
            raise IllegalAction("bad_payment", "Those cards do not pay for that route.", route=rid)
        if pieces < route.length:
            raise IllegalAction("no_pieces", "You do not have enough pieces of that kind.", kind=route.kind)
        # mutate
        seat = state.seats[i]
        self._discard(state, hand, need)
        if route.kind == "train":
            state.trains[i] -= route.length
        else:
            state.ships[i] -= route.length
        points = ROUTE_POINTS[route.length]
        state.scores[i] += points
        state.claimed[rid] = i
        events: list[Event] = [{
            "type": "claim", "seat": seat, "route": rid, "a": route.a, "b": route.b, "kind": route.kind,
            "length": route.length, "colour": route.colour, "points": points, "cards": paid,
        }]
        state.last = {"seat": seat, "type": "claim", "route": rid, "cards": list(paid), "points": points}
        self._after_discard(state, events)
        events += self._end_turn(state, i, progress=True)
        return events

    def _tickets(self, state: RSState, i: int, action: Action) -> list[Event]:
        self._require_turn_start(state, i)
        _keys(action, _KEYS_TYPE)
        if not state.ticket_deck:
            raise IllegalAction("no_tickets_left", "There are no destination tickets left.")
        n = min(DRAW_TICKETS, len(state.ticket_deck))
        drawn = [state.ticket_deck.pop() for _ in range(n)]
        state.pending[i] = drawn
        seat = state.seats[i]
        state.last = {"seat": seat, "type": "draw_tickets", "count": n}  # "tickets" with the kept count follows
        return [{"type": "tickets_drawn", "seat": seat, "count": n}]

    def _harbor(self, state: RSState, i: int, action: Action) -> list[Event]:
        self._require_turn_start(state, i)
        _keys(action, _KEYS_CITY_CARDS)
        city = action["city"]
        if not isinstance(city, str) or city not in CITIES:
            raise IllegalAction("unknown_city", "There is no such city.")
        if city not in HARBOR_CITIES:
            raise IllegalAction("not_harbor_city", "Harbors can only be built in harbor (blue) cities.", city=city)
        if city in state.harbors:
            raise IllegalAction("harbor_taken", "That city already has a harbor.", city=city)
        if state.harbors_left[i] <= 0:
            raise IllegalAction("no_harbors_left", "You have built all three of your harbors.")
        if not any(state.claimed.get(rid) == i for rid in ROUTES_AT[city]):
            raise IllegalAction("no_route_to_city", "You need a route into that city first.", city=city)
        cards, need = _held_cards(state, i, action)
        hand = state.hands[i]
        if not check_harbor_payment(cards):
            raise IllegalAction(
                "bad_harbor_payment",
                "A harbor costs 2 train and 2 ship cards of one colour with the harbor symbol (wilds replace any).",
            )
        seat = state.seats[i]
        self._discard(state, hand, need)
        state.harbors[city] = i
        state.harbors_left[i] -= 1
        events: list[Event] = [{"type": "harbor", "seat": seat, "city": city, "cards": sorted(cards)}]
        state.last = {"seat": seat, "type": "harbor", "city": city, "cards": sorted(cards)}
        self._after_discard(state, events)
        events += self._end_turn(state, i, progress=True)
        return events

    def _exchange(self, state: RSState, i: int, action: Action) -> list[Event]:
        self._require_turn_start(state, i)
        _keys(action, _KEYS_TRAINS)
        n = action["trains"]
        if not isinstance(n, int) or isinstance(n, bool) or n == 0:
            raise IllegalAction("bad_exchange", "Say how many trains to take (negative: give trains back).")
        if n > 0 and (n > state.box_trains[i] or n > state.ships[i]):
            raise IllegalAction(
                "exchange_too_many", "You cannot swap that many pieces.",
                most=min(state.box_trains[i], state.ships[i]),
            )
        if n < 0 and (-n > state.box_ships[i] or -n > state.trains[i]):
            raise IllegalAction(
                "exchange_too_many", "You cannot swap that many pieces.",
                most=min(state.box_ships[i], state.trains[i]),
            )
        seat = state.seats[i]
        state.trains[i] += n
        state.box_trains[i] -= n
        state.ships[i] -= n
        state.box_ships[i] += n
        state.scores[i] -= abs(n)
        state.last = {"seat": seat, "type": "exchange", "trains": n}
        events: list[Event] = [{"type": "exchange", "seat": seat, "trains": n, "ships": -n, "cost": abs(n)}]
        events += self._end_turn(state, i, progress=False)
        return events

    def _pass(self, state: RSState, i: int, action: Action) -> list[Event]:
        self._require_turn_start(state, i)
        _keys(action, _KEYS_TYPE)
        acts = self.legal_actions(state, state.seats[i])
        if acts != [{"type": "pass"}]:
            raise IllegalAction("cannot_pass", "You can only pass when no other move is possible.")
        seat = state.seats[i]
        state.last = {"seat": seat, "type": "pass"}
        return [{"type": "pass", "seat": seat}] + self._end_turn(state, i, progress=False)

    # helpers ----------------------------------------------------------------------------------------
    def _pop(self, state: RSState, kind: str, events: list[Event]) -> str:
        deck = state.train_deck if kind == "train" else state.ship_deck
        card = deck.pop()
        if not deck:
            self._reshuffle(state, kind, events)
        return card

    def _reshuffle(self, state: RSState, kind: str, events: list[Event]) -> None:
        discard = state.train_discard if kind == "train" else state.ship_discard
        if not discard:
            return
        rng = Rng(state.rng)
        rng.shuffle(discard)
        state.rng = rng.state
        if kind == "train":
            state.train_deck, state.train_discard = discard, []
        else:
            state.ship_deck, state.ship_discard = discard, []
        events.append({"type": "reshuffle", "deck": kind})

    def _discard(self, state: RSState, hand: dict[str, int], cards: dict[str, int]) -> None:
        for c, n in cards.items():
            left = hand[c] - n
            if left:
                hand[c] = left
            else:
                del hand[c]
            (state.train_discard if c[0] == "t" else state.ship_discard).extend([c] * n)

    def _after_discard(self, state: RSState, events: list[Event]) -> None:
        """Discards may refill an empty deck and an empty face-up place."""
        if not state.train_deck:
            self._reshuffle(state, "train", events)
        if not state.ship_deck:
            self._reshuffle(state, "ship", events)
        if None in state.face_up:
            for slot, card in enumerate(state.face_up):
                if card is None:
                    if state.train_deck:
                        state.face_up[slot] = self._pop(state, "train", events)
                    elif state.ship_deck:
                        state.face_up[slot] = self._pop(state, "ship", events)
            if state.face_up.count(WILD) >= 3:
                self._check_wilds(state, events)

    def _check_wilds(self, state: RSState, events: list[Event]) -> None:
        for _ in range(MAX_REDEALS):
            if state.face_up.count(WILD) < 3:
                return
            for card in state.face_up:
                if card is not None:
                    (state.train_discard if card[0] == "t" else state.ship_discard).append(card)
            layout: list[str | None] = []
            for kind in ("train", "train", "train", "ship", "ship", "ship"):
                deck = state.train_deck if kind == "train" else state.ship_deck
                if not deck:
                    self._reshuffle(state, kind, events)
                    deck = state.train_deck if kind == "train" else state.ship_deck
                if not deck:  # this deck is exhausted: use the other one
                    other = "ship" if kind == "train" else "train"
                    odeck = state.train_deck if other == "train" else state.ship_deck
                    if not odeck:
                        self._reshuffle(state, other, events)
                        odeck = state.train_deck if other == "train" else state.ship_deck
                    layout.append(self._pop(state, other, events) if odeck else None)
                else:
                    layout.append(self._pop(state, kind, events))
            state.face_up = layout
            events.append({"type": "face_up_reset"})

    def _end_turn(self, state: RSState, i: int, progress: bool) -> list[Event]:
        events: list[Event] = []
        state.drawn = 0
        state.idle = 0 if progress else state.idle + 1
        n = len(state.seats)
        seat = state.seats[i]
        if state.final_left is None:
            pieces = state.trains[i] + state.ships[i]
            if pieces <= END_PIECES:
                state.final_left = [2] * n
                events.append({"type": "final_round", "seat": seat, "pieces": pieces})
            elif state.idle >= IDLE_TURNS_PER_PLAYER * n or (progress and not self._any_route_open(state)):
                state.final_left = [2] * n
                events.append({"type": "final_round_stalled", "seat": seat})
        else:
            state.final_left[i] -= 1
            if not any(state.final_left):
                events += self._finish(state)
                return events
        nxt = (i + 1) % n
        if state.final_left is not None:
            while state.final_left[nxt] == 0:
                nxt = (nxt + 1) % n
        state.current = nxt
        state.turn += 1
        events.append({"type": "turn", "seat": state.seats[nxt]})
        return events

    def _any_route_open(self, state: RSState) -> bool:
        few = len(state.seats) <= 3
        for r in ROUTES:
            if r.id in state.claimed:
                continue
            if few and r.double is not None and r.double in state.claimed:
                continue
            return True
        return False

    def _finish(self, state: RSState) -> list[Event]:
        state.phase = "over"
        state.final_left = [0] * len(state.seats)
        rows = []
        for i, seat in enumerate(state.seats):
            mine = [rid for rid, o in state.claimed.items() if o == i]
            adj = network(mine)
            comp = components(adj)
            ticket_total = 0
            completed = 0
            done_cities: dict[str, int] = {}
            tickets = []
            for tid in state.tickets[i]:
                status = ticket_status(tid, adj, comp)
                pts = ticket_points(tid, status)
                ticket_total += pts
                tickets.append({"id": tid, "status": status, "points": pts})
                if status != "open":
                    completed += 1
                    for c in TICKETS_BY_ID[tid].cities:
                        done_cities[c] = done_cities.get(c, 0) + 1
            harbor_total = 0
            for city, owner in state.harbors.items():
                if owner == i:
                    harbor_total += HARBOR_POINTS[min(3, done_cities.get(city, 0))]
            harbor_total -= UNBUILT_HARBOR_PENALTY * state.harbors_left[i]
            total = state.scores[i] + ticket_total + harbor_total
            rows.append({
                "seat": seat, "score": total, "routes": state.scores[i], "tickets": ticket_total,
                "harbors": harbor_total, "completed": completed, "ticket_detail": tickets,
            })
        order = sorted(rows, key=lambda r: (-r["score"], -r["completed"]))
        rank = 0
        prev = None
        for pos, row in enumerate(order, start=1):
            key = (row["score"], row["completed"])
            if key != prev:
                rank = pos
                prev = key
            row["rank"] = rank
        winners = [r["seat"] for r in order if r["rank"] == 1]
        state.result = {"ranking": order, "winners": winners}
        return [{"type": "game_over", "winners": winners, "scores": {r["seat"]: r["score"] for r in order}}]

    # -- views ----------------------------------------------------------------------------------------------
    def view(self, state: RSState, seat: str | None) -> View:
        seats = state.seats
        revealed = state.phase in ("play", "over")
        chosen = None
        if state.phase == "setup_tickets":
            chosen = {s: not state.pending[j] for j, s in enumerate(seats)}
        elif state.phase == "setup_pieces":
            chosen = {s: state.mix[j] is not None for j, s in enumerate(seats)}
        v: View = {
            "game": GAME_ID,
            "seats": list(seats),
            "to_act": self.to_act(state),
            "over": state.phase == "over",
            "phase": state.phase,
            "current": seats[state.current] if state.phase == "play" else None,
            "turn": state.turn,
            "drawn": state.drawn,
            "final_turns_left": (
                {s: state.final_left[j] for j, s in enumerate(seats)} if state.final_left is not None else None
            ),
            "claimed": {rid: seats[o] for rid, o in state.claimed.items()},
            "harbors": {c: seats[o] for c, o in state.harbors.items()},
            "scores": {s: state.scores[j] for j, s in enumerate(seats)},
            "pieces": {
                s: ({"trains": state.trains[j], "ships": state.ships[j]} if revealed else None)
                for j, s in enumerate(seats)
            },
            "box": {
                s: ({"trains": state.box_trains[j], "ships": state.box_ships[j]} if revealed else None)
                for j, s in enumerate(seats)
            },
            "harbors_left": {s: state.harbors_left[j] for j, s in enumerate(seats)},
            "hand_sizes": {s: sum(state.hands[j].values()) for j, s in enumerate(seats)},
            "ticket_counts": {s: len(state.tickets[j]) for j, s in enumerate(seats)},
            "pending_counts": {s: len(state.pending[j]) for j, s in enumerate(seats)},
            "face_up": list(state.face_up),
            "decks": {
                "train": len(state.train_deck), "ship": len(state.ship_deck),
                "train_discard": len(state.train_discard), "ship_discard": len(state.ship_discard),
                "tickets": len(state.ticket_deck),
            },
            "last": dict(state.last) if state.last is not None else None,
            "chosen": chosen,
            "result": copy.deepcopy(state.result) if state.result is not None else None,
        }
        if v["last"] is not None and "cards" in v["last"]:
            v["last"]["cards"] = list(v["last"]["cards"])
        if seat is not None and seat in seats:
            j = seats.index(seat)
            mine = [rid for rid, o in state.claimed.items() if o == j]
            adj = network(mine)
            comp = components(adj)
            hand = []
            for card in sorted(state.hands[j]):
                hand.extend([card] * state.hands[j][card])
            tickets = []
            for tid in state.tickets[j]:
                t = TICKETS_BY_ID[tid]
                tickets.append({
                    "id": tid, "cities": list(t.cities), "points": list(t.points),
                    "status": ticket_status(tid, adj, comp),
                })
            pending = [
                {"id": tid, "cities": list(TICKETS_BY_ID[tid].cities), "points": list(TICKETS_BY_ID[tid].points)}
                for tid in state.pending[j]
            ]
            m = state.mix[j]
            v["private"] = {
                "hand": hand,
                "tickets": tickets,
                "pending_tickets": pending,
                "mix": {"trains": m, "ships": None if m is None else PIECES_TOTAL - m},
            }
        return v

    # -- hidden information -----------------------------------------------------------------------------
    def resample_hidden(self, state: RSState, seed: int) -> RSState:
        """Re-deal what the public view does not show: train cards in hands and the train deck
        are shuffled together and dealt back (each seat keeps its number of train cards, as
        everyone saw which deck each card came from), the same for ship cards; kept, pending
        and undrawn tickets are shuffled together and dealt back by count; a piece mix chosen
        but not yet revealed is re-chosen; the generator is re-seeded. The face-up cards, the
        discard piles (paid in the open) and everything on the map stay."""
        out = self.load(self.dump(state))
        if out.phase == "over":
            return out
        rng = Rng.from_seed(seed)
        for kind in ("train", "ship"):
            deck = out.train_deck if kind == "train" else out.ship_deck
            held = [[c for c, n in sorted(hand.items()) if c[0] == kind[0] for _ in range(n)] for hand in out.hands]
            pool = [c for cards in held for c in cards] + deck
            rng.shuffle(pool)
            for hand, cards in zip(out.hands, held, strict=True):
                for c in cards:
                    left = hand[c] - 1
                    if left:
                        hand[c] = left
                    else:
                        del hand[c]
                for c in pool[:len(cards)]:
                    hand[c] = hand.get(c, 0) + 1
                pool = pool[len(cards):]
            if kind == "train":
                out.train_deck = pool
            else:
                out.ship_deck = pool
        tickets = [t for kept in out.tickets for t in kept] + [t for p in out.pending for t in p] + out.ticket_deck
        rng.shuffle(tickets)
        for group in (out.tickets, out.pending):
            for j, held_tickets in enumerate(group):
                group[j] = tickets[:len(held_tickets)]
                tickets = tickets[len(held_tickets):]
        out.ticket_deck = tickets
        if out.phase == "setup_pieces":
            out.mix = [None if m is None else rng.randint(MIN_TRAINS, MAX_TRAINS) for m in out.mix]
        out.rng = rng.next64()
        return out

    # -- AI -------------------------------------------------------------------------------------------------
    def ai_action(self, state: RSState, seat: str) -> Action:
        from .ai import choose

        legal = self.legal_actions(state, seat)
        return choose(self.view(state, seat), seat, legal)


def _json_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_copy(v) for v in value]
    return value


#: fields that are lists of str/int/None (a shallow copy is a full copy)
_FLAT_LISTS = ("seats", "train_deck", "ship_deck", "train_discard", "ship_discard", "face_up", "ticket_deck", "mix",
               "trains", "ships", "box_trains", "box_ships", "harbors_left", "scores")


def _copy_state(src: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in _FIELDS:
        value = src[name]
        if name in _FLAT_LISTS:
            value = list(value)
        elif name == "hands":
            value = [dict(h) for h in value]
        elif name in ("tickets", "pending"):
            value = [list(t) for t in value]
        elif name in ("claimed", "harbors"):
            value = dict(value)
        elif name == "final_left":
            value = None if value is None else list(value)
        elif name in ("last", "result"):
            value = _json_copy(value)
        out[name] = value
    return out


#: the keys of each kind of action (`_keys`)
_KEYS_IDS = frozenset({"type", "ids"})
_KEYS_TRAINS = frozenset({"type", "trains"})
_KEYS_SOURCE_SLOT_CARD_REFILL = frozenset({"type", "source", "slot", "card", "refill"})
_KEYS_SOURCE = frozenset({"type", "source"})
_KEYS_ROUTE_CARDS = frozenset({"type", "route", "cards"})
_KEYS_TYPE = frozenset({"type"})
_KEYS_CITY_CARDS = frozenset({"type", "city", "cards"})


def _cards_to_take(state: RSState) -> bool:
    """Whether transport cards can be taken at all: not when both decks and both discard piles
    are empty (rulebook). The face-up cards do not count: each taken one must be replaced from a
    deck, and an emptied deck takes its discards at once, so in practice this is "a deck has
    cards", which is what `_draw_options` offers."""
    return bool(state.train_deck or state.ship_deck or state.train_discard or state.ship_discard)


def _keys(action: Action, allowed: frozenset[str]) -> None:
    if action.keys() != allowed:
        raise IllegalAction("malformed", "That is not a valid move.")


def _keep_options(pending: list[str], minimum: int) -> list[Action]:
    minimum = min(minimum, len(pending))
    acts: list[Action] = []
    for k in range(len(pending), minimum - 1, -1):
        for combo in combinations(pending, k):
            acts.append({"type": "keep_tickets", "ids": list(combo)})
    return acts


_HANDLERS = {
    "keep_tickets": RailsAndSails._keep,
    "choose_mix": RailsAndSails._choose_mix,
    "draw": RailsAndSails._draw,
    "claim": RailsAndSails._claim,
    "tickets": RailsAndSails._tickets,
    "harbor": RailsAndSails._harbor,
    "exchange": RailsAndSails._exchange,
    "pass": RailsAndSails._pass,
}
