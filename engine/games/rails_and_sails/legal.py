"""What may be done in Rails & Sails: every legal action of a seat, listed fast."""

from __future__ import annotations

from itertools import combinations, compress

from engine.core import (
    Action,
)

from .board import (
    _EXCHANGE_DOWN,
    _EXCHANGE_UP,
    _FACE_UP_DRAWS,
    _HARBOR_ENDS,
    GREY_GROUPS,
    MAX_TRAINS,
    MIN_TRAINS,
    SETUP_KEEP,
)
from .flow import Flow
from .mapdata import (
    WILD,
)
from .payments import (
    _COLOUR_SLOTS,
    _HAND_COUNTS,
    _HARBOR_WILDS,
    _MAX_SHIP_LENGTH,
    _MAX_TRAIN_LENGTH,
    _NO_CARDS,
    _TRAIN_COUNTS,
    _colour_claims,
    _grey_ship_payments,
    _grey_train_payments,
    _rough_payments,
    claim_action,
    claim_actions,
)
from .state import RSState


def _free_routes(routes: list[tuple[str, str | None]], claimed: dict[str, int], few: bool, i: int) -> list[str]:
    """The routes of a group seat i may still claim: unclaimed, and not the twin of a route
    already claimed (by anyone in a game of 2-3 players, else by seat i)."""
    free = []
    for rid, twin in routes:
        if rid in claimed:
            continue
        if twin is not None:
            owner = claimed.get(twin)
            if owner is not None and (few or owner == i):
                continue
        free.append(rid)
    return free


class LegalMoves(Flow):
    """The legal-action half of `RailsAndSails` (a mixin)."""

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
            return self._turn_actions(state, i)
        if phase == "setup_tickets":
            return _keep_options(state.pending[i], SETUP_KEEP) if state.pending[i] else []
        if phase == "setup_pieces":
            if state.mix[i] is not None:
                return []
            return list(_CHOOSE_MIX)
        return []

    def _turn_actions(self, state: RSState, i: int) -> list[Action]:
        """What seat i may do at the start of its turn: draw, claim, take tickets, build a
        harbor, exchange pieces (or pass when nothing else is possible)."""
        acts = self._draw_options(state, second=False)
        claims, harbor_payments = self._claims(state, i)
        acts += claims
        if state.ticket_deck:
            acts.append(_TICKETS)
        if harbor_payments and state.harbors_left[i] > 0:
            acts += [
                _harbor_action(city, cards)
                for city in self._harbor_cities(state, i)
                for cards in harbor_payments
            ]
        # the exchanges: ships -> trains, then trains -> ships (the static actions, not copied)
        up = min(state.box_trains[i], state.ships[i])
        if up > 0:
            acts += _EXCHANGE_UP[:up]
        down = min(state.box_ships[i], state.trains[i])
        if down > 0:
            acts += _EXCHANGE_DOWN[:down]
        if not acts:
            acts.append(_PASS)
        return acts

    @staticmethod
    def _draw_options(state: RSState, second: bool) -> list[Action]:
        """The draw actions, a fresh list: each face-up card with each deck that can replace it
        (the static `_FACE_UP_DRAWS`, shared, not copied), then the blind draws; none at all
        when both decks are empty. One display of six places (`_DRAW_TABLES`), unrolled."""
        train, ship = bool(state.train_deck), bool(state.ship_deck)
        t0, t1, t2, t3, t4, t5 = _DRAW_TABLES[train, ship, second]
        f0, f1, f2, f3, f4, f5 = state.face_up
        return [*t0[f0], *t1[f1], *t2[f2], *t3[f3], *t4[f4], *t5[f5], *_BLIND_DRAWS[train, ship]]

    def _claims(self, state: RSState, i: int) -> tuple[list[Action], list[tuple[str, ...]]]:
        """The claim actions: per free route the distinct cheapest payments (see `train_payment`
        and `ship_payments`); and, read on the way, the harbor payments of the hand (as
        `harbor_payments`, shared tuples).

        Routes are grouped statically by (kind, colour, length, rough), each colour's groups
        sorted by the cards of that colour they need; `_colour_claims` (memoised on the card
        counts of one colour and the pieces) lists the routes of a colour a hand could pay, with
        their payments, so this only checks which of them are free. Grey routes and rough routes
        (see `_rough_payments`) are paid with cards of any colour: they are worked out after the
        loop, from all the counts (`_grey_claims`). This is the hot path of random play
        (bench/bench_rails.py): plain loops, no helper calls per route."""
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
        harbor_payments: list[tuple[str, ...]] = []
        for c, colour_counts, memo in _COLOUR_SLOTS:
            key = counts[colour_counts] + tail
            info = memo.get(key)
            if info is None:
                info = _colour_claims(c, key)
            entries, harbor_payment = info
            if harbor_payment is not None:
                harbor_payments.append(harbor_payment)
            for rid, twin, claims in entries:
                if rid in claimed:
                    continue
                if twin is not None:
                    owner = claimed.get(twin)
                    if owner is not None and (few or owner == i):
                        continue
                acts += claims
        if wild >= 4:
            harbor_payments.append(_HARBOR_WILDS)
        self._grey_claims(state, i, counts, acts)
        return acts, harbor_payments

    @staticmethod
    def _grey_claims(state: RSState, i: int, counts: tuple[int, ...], acts: list[Action]) -> None:
        """Append the claims of the free grey and rough routes to `acts`: paid with cards of
        any colour, so worked out from all the hand's `counts` (see `_claims`)."""
        hand = state.hands[i]
        claimed = state.claimed
        few = len(state.seats) <= 3
        ptrains, pships = state.trains[i], state.ships[i]
        tkey: tuple[int, ...] | None = None  # train counts (plain, harbor per colour of COLOURS; wilds)
        tsum = 0
        for kind, length, rough, routes in GREY_GROUPS:
            if (ptrains if kind == "train" else pships) < length:
                continue
            free = _free_routes(routes, claimed, few, i)
            if not free:
                continue
            seen: tuple[tuple[str, ...], ...]
            if kind == "train":
                if tkey is None:
                    tkey = _TRAIN_COUNTS(counts)
                    tsum = sum(tkey)
                if rough:
                    if tsum < 2 * length:
                        continue
                    seen = _rough_payments(length, tkey)
                else:
                    if tsum < length:
                        continue
                    seen = _grey_train_payments(length, tkey)
            else:  # a fresh list per hand: the actions memoised per (route, payment)
                ships = _grey_ship_payments(hand, length)
                acts += [claim_action(rid, cards) for rid in free for cards in ships]
                continue
            for rid in free:
                acts += claim_actions(rid, seen)

    def _harbor_cities(self, state: RSState, i: int) -> list[str]:
        """The cities at the ends of seat i's routes where a harbor may still be built, sorted."""
        if state.harbors_left[i] <= 0:
            return []
        claimed = state.claimed
        harbors = state.harbors
        owned = compress(claimed, map(i.__eq__, claimed.values()))  # seat i's routes, in C
        return sorted({c for rid in owned for c in _HARBOR_ENDS[rid] if c not in harbors})


def _keep_options(pending: list[str], minimum: int) -> list[Action]:
    minimum = min(minimum, len(pending))
    acts: list[Action] = []
    for k in range(len(pending), minimum - 1, -1):
        for combo in combinations(pending, k):
            acts.append({"type": "keep_tickets", "ids": list(combo)})
    return acts


def _harbor_action(city: str, cards: tuple[str, ...]) -> Action:
    key = (city, cards)
    action = _HARBOR_ACTIONS.get(key)
    if action is None:
        action = _HARBOR_ACTIONS[key] = {"type": "harbor", "city": city, "cards": list(cards)}
    return action


#: memoised, shared actions (callers only read actions)
_HARBOR_ACTIONS: dict[tuple[str, tuple[str, ...]], Action] = {}
_DRAW_TRAIN: Action = {"type": "draw", "source": "train_deck"}
_DRAW_SHIP: Action = {"type": "draw", "source": "ship_deck"}
_BLIND_DRAWS = {
    (train, ship): (*((_DRAW_TRAIN,) if train else ()), *((_DRAW_SHIP,) if ship else ()))
    for train in (False, True) for ship in (False, True)
}
#: per (train deck has cards, ship deck has cards, second card of the turn) and face-up place,
#: the draw actions of each card there (none for an empty place, nor for a wild as second card)
_DRAW_TABLES: dict[tuple[bool, bool, bool], tuple[dict[str | None, tuple[Action, ...]], ...]] = {
    (train, ship, second): tuple(
        {None: (), **{card: (() if second and card == WILD else acts) for card, acts in by_card.items()}}
        for by_card in _FACE_UP_DRAWS[train, ship]
    )
    for train in (False, True) for ship in (False, True) for second in (False, True)
}
_TICKETS: Action = {"type": "tickets"}
_PASS: Action = {"type": "pass"}
_CHOOSE_MIX = tuple({"type": "choose_mix", "trains": t} for t in range(MIN_TRAINS, MAX_TRAINS + 1))
