"""Paying for routes and harbors in Rails & Sails: which cards pay (checks) and which card
sets a hand can pay with (listings, memoised: the hot path of `legal_actions`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations
from operator import itemgetter
from typing import Any

from engine.core import (
    Action,
    IllegalAction,
)

from .board import (
    _COLOUR_INDEX,
    ALL_CARD_CODES,
    SHIP_DOUBLE,
    SHIP_GROUPS,
    SHIP_SINGLE,
    TRAIN_GROUPS,
    TRAIN_HARBOR,
    TRAIN_PLAIN,
    card_colour,
)
from .mapdata import (
    COLOURS,
    WILD,
)


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

#: (plain, harbor, single, double, wilds, trains, ships) of one colour
_ColourKey = tuple[int, ...]
#: one claimable route of a colour as `_claims` lists it: (route id, twin id, its claim actions)
_ColourEntry = tuple[str, str | None, tuple[Action, ...]]
_ColourInfo = tuple[tuple[_ColourEntry, ...], tuple[str, ...] | None]
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


def claim_action(rid: str, cards: tuple[str, ...]) -> Action:
    """The claim action of a route paid with `cards`, built once and shared (a listing is read,
    never changed, by its callers: building the dicts anew was the bulk of `legal_actions`)."""
    key = (rid, cards)
    action = _CLAIM_ACTIONS.get(key)
    if action is None:
        action = _CLAIM_ACTIONS[key] = {"type": "claim", "route": rid, "cards": list(cards)}
    return action


#: (route id, payment) -> its shared claim action; routes and cheapest payments are few, but the
#: memo is bounded all the same (cleared when full)
_CLAIM_ACTIONS: dict[tuple[str, tuple[str, ...]], Action] = {}
_CLAIM_ACTIONS_MAX = 1 << 16


def claim_actions(rid: str, payments: Sequence[tuple[str, ...]]) -> tuple[Action, ...]:
    """`claim_action` of each payment, memoised on (route, payments) for the grey and rough
    routes. The payment listings of the memoised payment helpers are shared tuples, so the
    memo is keyed on their identity (no hashing of the cards): each entry keeps its tuple
    alive, so an id is never reused while its entry stands, and a hit is confirmed by `is`."""
    if type(payments) is not tuple:
        payments = tuple(payments)
    key = (rid, id(payments))
    found = _CLAIM_LISTS.get(key)
    if found is not None and found[0] is payments:
        return found[1]
    if len(_CLAIM_LISTS) >= _CLAIM_ACTIONS_MAX:
        _CLAIM_LISTS.clear()
    if len(_CLAIM_ACTIONS) >= _CLAIM_ACTIONS_MAX:
        _CLAIM_ACTIONS.clear()
    actions = tuple(claim_action(rid, cards) for cards in payments)
    _CLAIM_LISTS[key] = (payments, actions)
    return actions


#: (route id, id of a payments tuple) -> (that tuple, its claim actions); see `claim_actions`
_CLAIM_LISTS: dict[tuple[str, int], tuple[tuple[tuple[str, ...], ...], tuple[Action, ...]]] = {}


@lru_cache(maxsize=8192)
def _colour_train_claims(colour: str, plain: int, harbor: int, w: int, ptrains: int) -> tuple[_ColourEntry, ...]:
    """The train half of `_colour_claims`."""
    out: list[_ColourEntry] = []
    budget = plain + harbor + w
    for length, routes in TRAIN_GROUPS[colour]:
        if budget < length:
            break
        if ptrains < length:
            continue
        cards = _train_plain_payment(colour, plain, harbor, w, length)
        if cards:
            out.extend((rid, twin, (claim_action(rid, cards),)) for rid, twin in routes)
    return tuple(out)


@lru_cache(maxsize=8192)
def _colour_ship_claims(colour: str, single: int, double: int, w: int, pships: int) -> tuple[_ColourEntry, ...]:
    """The ship half of `_colour_claims`."""
    out: list[_ColourEntry] = []
    budget = single + 2 * double + w
    for length, routes in SHIP_GROUPS[colour]:
        if budget < length:
            break
        if pships < length:
            continue
        options = _ship_options(colour, single, double, w, length)
        if options:
            out.extend((rid, twin, claim_actions(rid, options)) for rid, twin in routes)
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
            assert c is not None  # a train card, not the wild: it has a colour
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
