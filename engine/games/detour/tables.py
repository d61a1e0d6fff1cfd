"""Precomputed tables of `detour`'s hot paths (random playouts, AI seats): the shared actions
`legal_actions` lists, what each card's action can hit, who plays against whom.

Everything here is built once at import (or once per seating, memoised) and never mutated:
the rules read it instead of rebuilding lists, dicts and sets on every move.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from engine.core import Action

from . import mapdata as M

CARDS = M.CARDS  # (10, 8, 6, 5)
#: card -> its bit in a hand bitmask
BIT = {10: 1, 8: 2, 6: 4, 5: 8}
#: card -> the mask that takes it out of a hand
UNBIT: dict[int, int] = {c: ~b for c, b in BIT.items()}
FULL = 15
COLOURS: tuple[str, ...] = ("blue", "orange", "green", "purple")
#: card -> its action, for the cards that have one (all but the 10)
ACTION_OF: dict[int, str] = {c: k for c, k in M.CARD_ACTION.items() if k is not None}

#: hand bitmask -> its card values, high to low
HAND_CARDS: tuple[tuple[int, ...], ...] = tuple(tuple(c for c in CARDS if m & BIT[c]) for m in range(16))

#: the shared, never mutated actions `legal_actions` lists (no copies per call)
MOVE: Action = {"type": "move"}
#: hand bitmask -> its choose actions (3-4 players)
CHOOSE: tuple[tuple[Action, ...], ...] = tuple(
    tuple({"type": "choose", "card": c} for c in cards) for cards in HAND_CARDS
)
#: pawn -> hand bitmask -> its choose actions with the pawn's colour (2 players)
CHOOSE_COLOUR: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(tuple({"type": "choose", "card": c, "colour": colour} for c in cards) for cards in HAND_CARDS)
    for colour in COLOURS
)

#: card -> space -> whether the card's action does something to a pawn there (the 8's block
#: also needs the pawn unblocked); the 10 has no action
HITS: dict[int, tuple[bool, ...]] = {
    8: tuple(s != M.FIN for s in range(M.FIN + 1)),
    6: tuple(r >= 0 for r in M.RED),
    5: tuple(b >= 0 for b in M.PREV),
}

#: pawns -> first pawn -> pawns from the first on: the reveal's order among equal cards
ROTATION: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(tuple((first + k) % n for k in range(n)) for first in range(n)) for n in (3, 4)
}


def seating(n: int) -> list[int]:
    """Seat index owning each pawn: one pawn per seat, with 2 seats two each, alternating."""
    return [0, 1, 0, 1] if n == 2 else list(range(n))


class Lookups(NamedTuple):
    """What a seating (seat names, pawn owners) fixes for a whole game, shared and never mutated."""

    #: seat name -> seat index
    seat_index: dict[str, int]
    #: pawn -> its seat's name
    pawn_seat: tuple[str, ...]
    #: pawn -> the other seats' pawns, in pawn order (those its card's action may hit)
    rivals: tuple[tuple[int, ...], ...]
    #: action kind -> pawn -> the action of that kind against the pawn (with 2 seats naming its colour)
    against: dict[str, tuple[Action, ...]]
    #: pawn -> space -> days -> its `move` event from that space (copied, never handed out)
    move_events: tuple[tuple[dict[int, dict[str, Any]], ...], ...]
    #: pawn -> card -> its `auto` event (copied, never handed out)
    auto_events: tuple[dict[int, dict[str, Any]], ...]
    #: pawn -> card -> its entry in a `reveal` event's cards (copied, never handed out)
    reveal_cards: tuple[dict[int, dict[str, Any]], ...]
    #: action kind -> pawn -> target pawn -> the action's event, before its outcome (copied)
    action_events: dict[str, tuple[tuple[dict[str, Any], ...], ...]]


#: days a pawn moves -> the card that moves it so far: each card's own Move, and the block's
#: bonus Move (the backward's bonus is as long as its Move); a move event names both
MOVE_CARD: dict[int, int] = {**{c: c for c in CARDS}, M.ACTION_BONUS[8]: 8, M.ACTION_BONUS[5]: 5}


def _event_templates(pawn_seat: tuple[str, ...]) -> tuple[
        tuple[tuple[dict[int, dict[str, Any]], ...], ...],
        tuple[dict[int, dict[str, Any]], ...],
        tuple[dict[int, dict[str, Any]], ...]]:
    """The events of a seating whose every value its keys fix: a copy of a prebuilt dict is
    about twice as fast as building the literal (keys in the same order, so equal events)."""
    moves = tuple(
        tuple(
            {days: {"type": "move", "seat": seat, "colour": COLOURS[p], "card": card, "days": days,
                    "used": M.DIST[start] - M.DIST[M.DEST[start][days]], "from": start, "to": M.DEST[start][days]}
             for days, card in MOVE_CARD.items()}
            for start in range(M.FIN + 1)
        )
        for p, seat in enumerate(pawn_seat)
    )
    autos = tuple({c: {"type": "auto", "seat": seat, "colour": COLOURS[p], "card": c} for c in CARDS}
                  for p, seat in enumerate(pawn_seat))
    cards = tuple({c: {"seat": seat, "colour": COLOURS[p], "card": c} for c in CARDS}
                  for p, seat in enumerate(pawn_seat))
    return moves, autos, cards


#: (seats, owners) -> its lookups; seat names come from outside, so the memo is bounded
#: (cleared when full)
_LOOKUPS: dict[tuple[tuple[str, ...], tuple[int, ...]], Lookups] = {}
_LOOKUPS_MAX = 1024


def lookups(seats: list[str], owner: list[int]) -> Lookups:
    """The lookups of this seating, built on first use."""
    key = (tuple(seats), tuple(owner))
    found = _LOOKUPS.get(key)
    if found is None:
        if len(_LOOKUPS) >= _LOOKUPS_MAX:
            _LOOKUPS.clear()
        two = len(seats) == 2
        pawn_seat = tuple(seats[o] for o in owner)
        move_events, auto_events, reveal_cards = _event_templates(pawn_seat)
        found = _LOOKUPS[key] = Lookups(
            seat_index={s: i for i, s in enumerate(seats)},
            pawn_seat=pawn_seat,
            rivals=tuple(tuple(q for q, o in enumerate(owner) if o != me) for me in owner),
            against={
                kind: tuple(
                    {"type": kind, "target": seats[o], "target_colour": COLOURS[q]} if two
                    else {"type": kind, "target": seats[o]}
                    for q, o in enumerate(owner)
                )
                for kind in ("block", "detour", "backward")
            },
            move_events=move_events, auto_events=auto_events, reveal_cards=reveal_cards,
            action_events={
                kind: tuple(
                    tuple({"type": kind, "seat": seat, "colour": COLOURS[p], "card": card,
                           "target": target, "target_colour": COLOURS[q]} for q, target in enumerate(pawn_seat))
                    for p, seat in enumerate(pawn_seat)
                )
                for card, kind in ACTION_OF.items()
            },
        )
    return found
